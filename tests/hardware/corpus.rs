//! The corpus of real CUDA programs (tests/corpus, see its MANIFEST.md): kernels taken verbatim
//! from open-source projects, each with a spec and inputs.
//!
//! - `corpus_runs_as_recorded`: every spec runs in gpumemsim, except the ones listed in
//!   `KNOWN_FAILING` (each with the error it gives today). A listed spec that starts to run is
//!   printed (take it off the list); a spec that is not listed and fails, fails the test.
//! - `corpus_outputs_equal_the_h200s`: every output equals the H200's, byte for byte, as recorded
//!   under tests/hw/h200/corpus (by tests/corpus/collect_corpus.sh, 2026-12-01; see
//!   tests/hw/README.md), or for the programs added later under tests/hw/h200/corpus3 (by
//!   tests/hw/sass_collect3.sh: the JIT runs); missing data is a failure. Outputs listed in
//!   `RACY` come from a data race in the original code (the H200's value depends on warp
//!   timing) and are not compared with the H200; `racy_outputs_are_races_racecheck_reports`
//!   requires gpumemsim's racecheck to find that race. Outputs listed in `ORDER_DEPENDENT` are compared as the H200 allows (sorted,
//!   or without the words whose value depends on the order atomics ran in). Programs listed in
//!   `FLOAT_CAVEATS` use approximate math or leave ptxas room to contract; their differences are
//!   printed with the reason, not failed (the PTX path's; the SASS path settles them).
//! - `corpus_under_sass_equals_ptx_and_the_h200`: every program as the committed sm_90 SASS
//!   (`--isa sass`): outputs bit-identical to the PTX run's and to the H200's. Where the PTX run
//!   has a float caveat, the SASS run must still equal the H200: BlackScholes and
//!   binomialOptions do (MUFU's results and ptxas's FFMA contractions are the H200's own), the
//!   PTX path does not; blog_finite_difference is exact under both (NVRTC already fused its
//!   18 `fma.rn`, ptxas adds no contraction). dct8x8 (32 `fma.rn` in the PTX, 73 `FFMA` in
//!   the SASS) and llmc_layernorm_forward are two more: the SASS run equals the H200 there, the
//!   PTX run does not. The programs of the third recording are compared with its cubin runs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gpumemsim::run::{run_spec, Isa, RunOptions};
use gpumemsim::spec::Spec;
use sha2::{Digest, Sha256};

const CORPUS: &str = "tests/corpus";
const HW: &str = "tests/hw/h200/corpus";
/// The third recording (tests/hw/sass_collect3.sh): the programs added in issue 9's third
/// session, each run on the H200 as the JIT of its PTX (`jit/c_NAME/`) and as the committed
/// cubin (`cubin/c_NAME/`); `outputs.sha256` holds both.
const HW3: &str = "tests/hw/h200/corpus3";

/// The fourth recording (tests/hw/sass_collect4.sh), in the third's layout: reduction_multiwarp
/// and globalToShmemAsyncCopy, the two programs the earlier recordings could not export.
const HW4: &str = "tests/hw/h200/corpus4";

/// The third and fourth recordings' hashes, keyed `jit/c_NAME/FILE` and `cubin/c_NAME/FILE`
/// (empty when they are not there).
fn hashes3() -> BTreeMap<String, String> {
    [HW3, HW4]
        .iter()
        .map(|d| std::fs::read_to_string(format!("{d}/outputs.sha256")).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
        .lines()
        .filter_map(|l| {
            l.split_once("  ")
                .map(|(h, p)| (p.trim().to_string(), h.trim().to_string()))
        })
        .collect()
}

/// Whether the third recording has outputs of `name` (as `run`: "jit" or "cubin").
fn recorded3(h3: &BTreeMap<String, String>, run: &str, name: &str) -> bool {
    let prefix = format!("{run}/c_{name}/");
    h3.keys().any(|k| k.starts_with(&prefix))
}

/// `bytes` against the third recording's output `run/c_NAME/FILE` (hash only: none of these
/// programs has an order-dependent output).
fn equals3(h3: &BTreeMap<String, String>, run: &str, name: &str, file: &str, bytes: &[u8]) -> bool {
    let rel = format!("{run}/c_{name}/{file}");
    let want = h3
        .get(&rel)
        .unwrap_or_else(|| panic!("no H200 output hash for {HW3}/{rel} or {HW4}/{rel}"));
    format!("{:x}", Sha256::digest(bytes)) == *want
}

/// Specs that do not run in gpumemsim today, with a part of the error they give.
const KNOWN_FAILING: &[(&str, &str)] = &[];

/// How an output whose byte order depends on the order atomics ran in is compared.
enum Order {
    /// As a multiset of 32-bit words.
    SortedWords,
    /// Word for word, except these word indices.
    SkipWords(&'static [usize]),
}

const ORDER_DEPENDENT: &[(&str, &str, Order)] = &[
    // filter_arr appends with a warp-aggregated atomicAdd: the order is the atomics'.
    (
        "warpAggregatedAtomicsCG",
        "warpAggregatedAtomicsCG_filtered.bin",
        Order::SortedWords,
    ),
    // mapToBuckets: the same, within each bucket.
    (
        "warpAggregatedAtomicsCG",
        "warpAggregatedAtomicsCG_indicesBuckets.bin",
        Order::SortedWords,
    ),
    // word 2: atomicExch (the last thread's tid); word 7: the atomicCAS chain.
    (
        "simpleAtomicIntrinsics",
        "simpleAtomicIntrinsics_odata.bin",
        Order::SkipWords(&[2, 7]),
    ),
];

/// Outputs that a data race in the original code makes depend on the order the warps run in:
/// (program, output file, kernel, line of the write, line of the read). Not compared with the
/// H200 (the PTX and SASS runs are still compared with each other);
/// `racy_outputs_are_races_racecheck_reports` requires gpumemsim's racecheck to report that
/// very race. llm.c's softmax_forward_kernel4 reuses max_or_sum_storage[0] without a barrier:
/// warp 0 stores its sum (line 229) while other warps may still read the maximum (line 209);
/// its H200 output differs from both runs here.
const RACY: &[(&str, &str, &str, u32, u32)] = &[(
    "llmc_softmax_forward",
    "llmc_softmax_forward_out4.bin",
    "softmax_forward_kernel4",
    229,
    209,
)];

/// Outputs the H200 itself gives differently in two runs of the same computation (corpus4's
/// JIT and cubin runs: tests/hw/h200/corpus4/outputs.sha256), with the output of a kernel of
/// the same program that computes the same product without the race: (program, file, twin).
/// cuda-samples' MatrixMulAsyncCopyMultiStage and ...MultiStageLargeChunk issue their copies
/// up to five stages ahead into a four-stage ring (`aStage <= a + aStep * maxPipelineStages`),
/// so stage i+4's `cp.async` into buffer i % 4 may land while the block still reads stage i
/// there; when it lands is the H200's timing. gpumemsim lands each copy as late as the PTX ISA
/// lets it (at the `cp.async.wait_group` that needs it), so it computes the race-free product:
/// its output must equal the H200's output of the twin (MatrixMulNaive and
/// MatrixMulNaiveLargeChunk, the same products), and the two H200 runs must still differ.
const RACY_ON_THE_H200: &[(&str, &str, &str)] = &[
    (
        "globalToShmemAsyncCopy",
        "globalToShmemAsyncCopy_C_MatrixMulAsyncCopyMultiStage.bin",
        "globalToShmemAsyncCopy_C_MatrixMulNaive.bin",
    ),
    (
        "globalToShmemAsyncCopy",
        "globalToShmemAsyncCopy_C_MatrixMulAsyncCopyMultiStageLargeChunk.bin",
        "globalToShmemAsyncCopy_C_MatrixMulNaiveLargeChunk.bin",
    ),
];

/// The race-free twin of an output in [`RACY_ON_THE_H200`], after checking that the H200's two
/// runs of it differ (the measured cause).
fn racy_twin(h3: &BTreeMap<String, String>, program: &str, file: &str) -> Option<&'static str> {
    let (_, _, twin) = RACY_ON_THE_H200
        .iter()
        .find(|(p, f, _)| *p == program && *f == file)?;
    let jit = h3.get(&format!("jit/c_{program}/{file}"));
    let cubin = h3.get(&format!("cubin/c_{program}/{file}"));
    assert!(
        jit.is_some() && cubin.is_some() && jit != cubin,
        "{program}/{file}: the H200's two runs agree: take it off RACY_ON_THE_H200"
    );
    Some(twin)
}

fn racy(program: &str, file: &str) -> bool {
    RACY.iter().any(|(p, f, ..)| *p == program && *f == file)
}

/// Programs whose float results depend on approximate math or on ptxas's contractions.
const FLOAT_CAVEATS: &[(&str, &str)] = &[
    (
        "BlackScholes",
        "__expf/__logf (ex2/lg2.approx), rsqrtf, __fdividef (div.approx)",
    ),
    (
        "binomialOptions",
        "__expf (ex2.approx); plain mul.f32 then sub.f32 (S * __expf(..) - X): ptxas may contract them into FFMA",
    ),
    (
        "blog_finite_difference",
        "plain mul.f32 and add.f32 in the same kernels: ptxas may contract them into FFMA",
    ),
    // The example: 32 fma.rn in the PTX, 73 FFMA in the SASS; the PTX and SASS runs
    // differ in dct8x8_src.bin (CUDAkernel2IDCT's output).
    (
        "dct8x8",
        "plain mul.f32 and add.f32 in CUDAkernel2DCT/2IDCT: ptxas contracts them into FFMA",
    ),
    (
        "llmc_layernorm_forward",
        "rsqrtf (rsqrt.approx); var = sum2 - sum * sum as plain mul.f32 and sub.f32: ptxas contracts them into FFMA (versions 4 and 5 differ between the PTX and SASS runs)",
    ),
    (
        "llmc_softmax_forward",
        "expf's ex2.approx.ftz.f32",
    ),
];

/// Every corpus spec, as (program name = the spec's stem, path), sorted.
fn specs() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(CORPUS).expect("tests/corpus") {
        let dir = dir.expect("dir entry").path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("program dir") {
            let f = f.expect("entry").path();
            if f.extension().is_some_and(|e| e == "toml") {
                let name = f.file_stem().unwrap().to_string_lossy().into_owned();
                out.push((name, f));
            }
        }
    }
    out.sort();
    out
}

fn run(path: &Path) -> Result<gpumemsim::report::Report, String> {
    let spec = Spec::load(path).map_err(|e| e.to_string())?;
    let opts = RunOptions {
        write_outputs: false,
        ..RunOptions::default()
    };
    run_spec(&spec, &opts, &mut |_, _, _| {}).map_err(|e| e.to_string())
}

fn known_failing(name: &str) -> Option<&'static str> {
    KNOWN_FAILING
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, e)| *e)
}

#[test]
fn corpus_runs_as_recorded() {
    let specs = specs();
    assert!(specs.len() >= 40, "only {} corpus specs", specs.len());
    let (mut ran, mut failed, mut launches) = (0, 0, 0);
    let mut bad = Vec::new();
    for (name, path) in &specs {
        match (run(path), known_failing(name)) {
            (Ok(report), None) => {
                ran += 1;
                launches += report.launches.len();
                if report.outputs.is_empty() {
                    bad.push(format!("{name}: no outputs"));
                }
            }
            (Ok(_), Some(_)) => {
                ran += 1;
                eprintln!(
                    "{name} runs now: take it off KNOWN_FAILING in tests/hardware/corpus.rs and MANIFEST.md"
                );
            }
            (Err(e), Some(want)) => {
                failed += 1;
                if !e.contains(want) {
                    bad.push(format!("{name}: fails differently: {e}"));
                }
            }
            (Err(e), None) => bad.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "corpus: {ran} of {} specs run ({launches} launches), {failed} fail as listed",
        specs.len()
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn hashes() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(format!("{HW}/outputs.sha256")).unwrap_or_else(|e| {
        panic!("{HW}/outputs.sha256: {e} (collect it with tests/corpus/collect_corpus.sh)")
    });
    text.lines()
        .filter_map(|l| {
            l.split_once("  ")
                .map(|(h, p)| (p.trim().to_string(), h.trim().to_string()))
        })
        .collect()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(w)
        })
        .collect()
}

fn equal(program: &str, file: &str, hw: &[u8], sim: &[u8]) -> bool {
    if hw.len() != sim.len() {
        return false;
    }
    let rule = ORDER_DEPENDENT
        .iter()
        .find(|(p, f, _)| *p == program && *f == file);
    match rule {
        None => hw == sim,
        Some((_, _, Order::SortedWords)) => {
            let (mut h, mut s) = (words(hw), words(sim));
            h.sort_unstable();
            s.sort_unstable();
            h == s
        }
        Some((_, _, Order::SkipWords(skip))) => words(hw)
            .iter()
            .zip(words(sim).iter())
            .enumerate()
            .all(|(i, (h, s))| h == s || skip.contains(&i)),
    }
}

#[test]
fn corpus_outputs_equal_the_h200s() {
    let hashes = hashes();
    let exported: Vec<String> = std::fs::read_to_string(format!("{HW}/export.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.ends_with(" exported"))
        .map(|l| l.trim_end_matches(" exported").to_string())
        .collect();
    let h3 = hashes3();
    let (mut checked, mut caveat_diffs) = (0, 0);
    let mut bad = Vec::new();
    for (name, path) in specs() {
        if known_failing(&name).is_some() {
            continue;
        }
        if recorded3(&h3, "jit", &name) {
            let report = run(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            for (_, file, bytes) in &report.outputs {
                if racy(&name, file) {
                    eprintln!("{name}/{file}: a data race of the original code, not compared");
                    continue;
                }
                checked += 1;
                let want = racy_twin(&h3, &name, file).unwrap_or(file);
                if equals3(&h3, "jit", &name, want, bytes) {
                    continue;
                }
                match FLOAT_CAVEATS.iter().find(|(p, _)| *p == name) {
                    Some((_, why)) => {
                        caveat_diffs += 1;
                        eprintln!("{name}/{file} differs from the H200's (float caveat: {why})");
                    }
                    None => bad.push(format!("{name}/{file} differs from the H200's")),
                }
            }
            continue;
        }
        if !exported.is_empty() && !exported.contains(&name) {
            bad.push(format!("{name}: not run on the H200 (export failed there)"));
            continue;
        }
        let report = run(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (_, file, bytes) in &report.outputs {
            let rel = format!("outputs/{name}/{file}");
            let raw = Path::new(HW).join(&rel);
            let ok = if raw.exists() {
                let hw = std::fs::read(&raw).unwrap_or_else(|e| panic!("{rel}: {e}"));
                equal(&name, file, &hw, bytes)
            } else {
                let want = hashes
                    .get(&rel)
                    .unwrap_or_else(|| panic!("no H200 output or hash for {rel}"));
                assert!(
                    !ORDER_DEPENDENT
                        .iter()
                        .any(|(p, f, _)| *p == name && f == file),
                    "{rel}: order-dependent output needs the raw file, not only its hash"
                );
                format!("{:x}", Sha256::digest(bytes)) == *want
            };
            checked += 1;
            if ok {
                continue;
            }
            match FLOAT_CAVEATS.iter().find(|(p, _)| *p == name) {
                Some((_, why)) => {
                    caveat_diffs += 1;
                    eprintln!("{rel} differs from the H200's (float caveat: {why})");
                }
                None => bad.push(format!("{rel} differs from the H200's")),
            }
        }
    }
    eprintln!("{checked} corpus outputs compared, {caveat_diffs} differ under a float caveat");
    assert!(checked >= 140, "only {checked} outputs compared");
    assert!(
        bad.is_empty(),
        "{} of {checked} outputs differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Corpus specs whose SASS the executor does not run yet, with a part of the error they give.
const SASS_NOT_YET: &[(&str, &str)] = &[];

/// globalToShmemAsyncCopy as SASS (`LDGSTS`, `LDGDEPBAR`, `DEPBAR.LE SB0`, and in the two
/// `cuda::barrier` kernels `SYNCS.*`, `ARRIVES.LDGSTSBAR`, `UBLKCP`, `ELECT`): each of the 8
/// outputs must equal the PTX run's and the H200's cubin run (the racy MultiStage pair: its
/// race-free twin's), and the counters the H200's ([`async_copy_counters`]).
#[test]
fn async_copy_kernels_under_sass_equal_ptx_and_the_h200() {
    const NAME: &str = "globalToShmemAsyncCopy";
    let spec = Path::new(CORPUS).join(NAME).join(format!("{NAME}.toml"));
    let sass = run_isa(&spec, Isa::Sass).unwrap_or_else(|e| panic!("{NAME} as SASS: {e}"));
    let ptx = run_isa(&spec, Isa::Ptx).unwrap_or_else(|e| panic!("{NAME} as PTX: {e}"));
    assert_eq!(sass.launches.len(), 8);
    assert!(
        sass.launches.iter().all(|l| l.isa == "sass"),
        "a launch fell back to PTX"
    );
    let h3 = hashes3();
    let mut compared = 0;
    for ((_, file, s), (_, _, p)) in sass.outputs.iter().zip(&ptx.outputs) {
        assert!(s == p, "{file}: SASS and PTX differ");
        let want = racy_twin(&h3, NAME, file).unwrap_or(file);
        assert!(
            equals3(&h3, "cubin", NAME, want, s),
            "{file}: the SASS run differs from the H200's {want}"
        );
        compared += 1;
    }
    assert_eq!(compared, 8, "outputs compared");
    async_copy_counters(&sass);
}

/// The counters of [`async_copy_kernels_under_sass_equal_ptx_and_the_h200`]'s SASS run against
/// the H200's (tests/hw/h200/corpus4/ncu, launch IDs 0-7; and corpus4/extra, whose `LDGSTS`
/// class counters `smsp__sass_inst_executed_op_ldgsts`, its cache access/bypass split and its
/// requests gpumemsim reports): every metric both report must be equal but these, each with
/// its measured difference.
/// - `l1tex__t_sectors_pipe_lsu_mem_global_op_ld` of MultiStageLargeChunk (ID 0), 30,822
///   against 32,768: not explained. It is the launch whose copies race on the H200
///   (`RACY_ON_THE_H200`); the extra/ replay of it counts 214,511 LDGSTS sectors and
///   4,282,528 global LDGSTS bytes where the program copies 1,048,576 bytes (the other three
///   LDGSTS launches: 32,768 and 1,048,576), so its counts differ between the H200's replays.
/// - `smsp__sass_thread_inst_executed{,_pred_on}` of MultiStageSharedState (ID 3): the H200's
///   own two thread counters disagree on this launch (`smsp__thread_inst_executed` 15,455,808
///   and `_pred_on` 14,500,288, the `sass_` ones 18,861,632 and 17,643,968; on every other
///   launch of the program they are equal). gpumemsim's equal the former exactly: the test
///   requires that, and that the H200's two still differ.
/// - `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld` of MultiStageSharedState (ID 3):
///   98,368 against 98,372, its `op_shared_ld` instructions equal (81,984). Not explained.
fn async_copy_counters(sass: &gpumemsim::report::Report) {
    use gpumemsim::report::compare::parse_ncu_csv;
    let read = |p: &str| {
        let t = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        parse_ncu_csv(&t).unwrap_or_else(|e| panic!("{p}: {e}"))
    };
    let hw = read(&format!("{HW4}/ncu/c_globalToShmemAsyncCopy.csv"));
    let extra = read(&format!("{HW4}/extra/c_globalToShmemAsyncCopy.csv"));
    const LDGSTS_CLASS: [&str; 4] = [
        "smsp__sass_inst_executed_op_ldgsts.sum",
        "smsp__sass_inst_executed_op_ldgsts_cache_access.sum",
        "smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum",
        "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
    ];
    let (mut equal, mut bad, mut ldgsts_compared) = (0, Vec::new(), 0);
    for (l, id) in sass.launches.iter().zip(0u32..) {
        let h = hw.iter().find(|h| h.id == id).expect("H200 launch");
        let k = l.kernel.split('<').next().unwrap_or("");
        assert!(
            h.kernel.contains(&format!("{k}<")),
            "{} is not {}",
            h.kernel,
            l.kernel
        );
        let x = extra
            .iter()
            .find(|x| x.id == id)
            .expect("H200 extra launch");
        for (m, want) in h.metrics.iter().chain(&x.metrics) {
            // gpumemsim reports the LDGSTS class only where an LDGSTS ran: 0 elsewhere.
            let zero = LDGSTS_CLASS.contains(&m.as_str()).then_some(&0.0);
            let Some(got) = l.metrics.get(m).or(zero) else {
                continue;
            };
            if m.contains("ldgsts") {
                ldgsts_compared += 1;
            }
            let hw_thread = |n: &str| h.metrics.get(n).copied().unwrap_or(f64::NAN);
            let known = match m.as_str() {
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" if id == 0 => Some(*got != *want),
                "smsp__sass_thread_inst_executed.sum" if id == 3 => {
                    let t = hw_thread("smsp__thread_inst_executed.sum");
                    Some(*got == t && t != *want)
                }
                "smsp__sass_thread_inst_executed_pred_on.sum" if id == 3 => {
                    let t = hw_thread("smsp__thread_inst_executed_pred_on.sum");
                    Some(*got == t && t != *want)
                }
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum" if id == 3 => {
                    Some(*want - *got == 4.0)
                }
                _ => None,
            };
            match known {
                Some(true) => {}
                Some(false) => bad.push(format!(
                    "{id} {k} {m}: {got} against {want}: the listed difference is gone or changed"
                )),
                None if got == want => equal += 1,
                None => bad.push(format!("{id} {k} {m}: {got} against the H200's {want}")),
            }
        }
    }
    eprintln!("globalToShmemAsyncCopy as SASS: {equal} counters equal to the H200's");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(equal >= 170, "only {equal} counters compared");
    assert_eq!(ldgsts_compared, 8 * 4, "LDGSTS class counters compared");
}

fn run_isa(path: &Path, isa: Isa) -> Result<gpumemsim::report::Report, String> {
    let spec = Spec::load(path).map_err(|e| e.to_string())?;
    let opts = RunOptions {
        write_outputs: false,
        isa,
        ..RunOptions::default()
    };
    run_spec(&spec, &opts, &mut |_, _, _| {}).map_err(|e| e.to_string())
}

/// The H200's output `rel` (raw file or hash) against `bytes`, by the rules of
/// [`corpus_outputs_equal_the_h200s`].
fn equals_h200(hashes: &BTreeMap<String, String>, name: &str, file: &str, bytes: &[u8]) -> bool {
    let rel = format!("outputs/{name}/{file}");
    let raw = Path::new(HW).join(&rel);
    if raw.exists() {
        let hw = std::fs::read(&raw).unwrap_or_else(|e| panic!("{rel}: {e}"));
        return equal(name, file, &hw, bytes);
    }
    let want = hashes
        .get(&rel)
        .unwrap_or_else(|| panic!("no H200 output or hash for {rel}"));
    format!("{:x}", Sha256::digest(bytes)) == *want
}

/// Every corpus program as sm_90 SASS (the committed `.sass`, `--isa sass`): its outputs must
/// be bit-identical to the PTX run's (order-dependent outputs by the rules above) and to the
/// H200's. The programs with float caveats are where the two ISAs may differ: there the SASS
/// run must equal the H200's (it runs the H200's own FFMA contractions and MUFU results), and
/// a PTX difference is printed.
#[test]
fn corpus_under_sass_equals_ptx_and_the_h200() {
    let hashes = hashes();
    let h3 = hashes3();
    let (mut programs, mut outputs, mut launches, mut hw_compared) = (0, 0, 0, 0);
    let mut bad = Vec::new();
    for (name, path) in specs() {
        if known_failing(&name).is_some() {
            continue;
        }
        let sass = run_isa(&path, Isa::Sass);
        if let Some((_, why)) = SASS_NOT_YET.iter().find(|(n, _)| *n == name) {
            match sass {
                Ok(_) => eprintln!("{name} now runs as SASS: take it off SASS_NOT_YET"),
                Err(e) if !e.contains(why) => bad.push(format!("{name}: fails differently: {e}")),
                Err(_) => {}
            }
            continue;
        }
        let sass = match sass {
            Ok(r) => r,
            Err(e) => {
                bad.push(format!("{name} as SASS: {e}"));
                continue;
            }
        };
        let ptx = run_isa(&path, Isa::Ptx).unwrap_or_else(|e| panic!("{name} as PTX: {e}"));
        programs += 1;
        launches += sass.launches.len();
        assert_eq!(sass.outputs.len(), ptx.outputs.len(), "{name}: outputs");
        let caveat = FLOAT_CAVEATS.iter().find(|(p, _)| *p == name);
        for ((_, file, s), (_, _, p)) in sass.outputs.iter().zip(&ptx.outputs) {
            outputs += 1;
            let hw_ok = if racy(&name, file) {
                true
            } else if recorded3(&h3, "cubin", &name) {
                hw_compared += 1;
                let want = racy_twin(&h3, &name, file).unwrap_or(file);
                equals3(&h3, "cubin", &name, want, s)
            } else {
                hw_compared += 1;
                equals_h200(&hashes, &name, file, s)
            };
            let same = equal(&name, file, p, s);
            if !hw_ok {
                bad.push(format!(
                    "{name}/{file}: the SASS run differs from the H200's"
                ));
            }
            match (same, caveat) {
                (true, _) => {}
                (false, Some((_, why))) => eprintln!(
                    "{name}/{file}: PTX and SASS differ, the SASS run equals the H200's: {hw_ok} (float caveat of the PTX run: {why})"
                ),
                (false, None) => bad.push(format!("{name}/{file}: SASS and PTX differ")),
            }
        }
    }
    eprintln!(
        "corpus as SASS: {programs} programs, {launches} launches, {outputs} outputs compared with the PTX run, {hw_compared} with the H200's"
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(
        programs >= 38 - SASS_NOT_YET.len(),
        "only {programs} programs ran as SASS"
    );
    assert!(outputs >= 140, "only {outputs} outputs compared");
}

/// Every output listed in [`RACY`] is written by a kernel in which gpumemsim's racecheck finds
/// the race named there (a shared-memory hazard between those two source lines).
#[test]
fn racy_outputs_are_races_racecheck_reports() {
    use gpumemsim::check::CheckOptions;
    for (program, file, kernel, write, read) in RACY {
        let path = Path::new(CORPUS)
            .join(program)
            .join(format!("{program}.toml"));
        let spec = Spec::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let opts = RunOptions {
            write_outputs: false,
            checks: CheckOptions {
                racecheck: true,
                ..CheckOptions::default()
            },
            ..RunOptions::default()
        };
        let r = run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            r.outputs.iter().any(|(_, f, _)| f == file),
            "{program}: no output {file}"
        );
        let found = r.checks.iter().any(|f| {
            f.tool == "racecheck"
                && f.kernel.contains(kernel)
                && [f.at.line, f.with.as_ref().map_or(0, |w| w.line)]
                    .iter()
                    .collect::<std::collections::BTreeSet<_>>()
                    == [write, read].into_iter().collect()
        });
        assert!(
            found,
            "{program}: racecheck reports no hazard between lines {write} and {read} of {kernel}"
        );
    }
}
