//! The PTX front end under hostile input: every module here is refused with a located error
//! (`file:line:col`, the limit named) and exit status 2, or runs and computes what the PTX says.
//! None may crash, hang, allocate without bound, alias registers, truncate a size, or let a
//! ptxas-imitating pass change a result.
//!
//! The PTX is generated here (most inputs are too large to commit) and written with a spec to a
//! fresh temporary directory; the real `gpumemsim` binary runs it under a deadline, so a hang
//! fails the test instead of stalling it. Expected lines and columns are worked out from the
//! generated text.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use gpumemsim::ptx::lower::{lower_with, LowerOptions};
use gpumemsim::ptx::parse::parse;
use gpumemsim::run::{run_spec, RunOptions};
use gpumemsim::spec::Spec;

use crate::common;

/// A fresh directory holding `kernel.ptx` and `spec.toml`.
fn case(name: &str, ptx: &str, spec: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "gpumemsim-front-limits-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("kernel.ptx"), ptx).unwrap();
    fs::write(dir.join("spec.toml"), spec).unwrap();
    dir
}

/// Runs `gpumemsim run DIR/spec.toml`, killing it after `limit`; returns (exit status, stderr).
fn run_bin(dir: &std::path::Path, limit: Duration) -> (Option<i32>, String) {
    // The PTX front end and the lowering's passes are under test: the PTX runs.
    let mut child = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .arg("run")
        .arg(dir.join("spec.toml"))
        .args(["--isa", "ptx"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gpumemsim binary runs");
    // Read standard error as it comes, so a long message cannot fill the pipe and stall both.
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut err = String::new();
        std::io::Read::read_to_string(&mut pipe, &mut err).unwrap();
        err
    });
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let err = reader.join().unwrap();
            assert!(!err.contains("panicked"), "the binary panicked:\n{err}");
            return (status.code(), err);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("gpumemsim did not finish within {limit:?} (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs the case and requires exit status 2 and every one of `needles` in the message.
fn refused(dir: &std::path::Path, needles: &[&str]) -> String {
    let (code, err) = run_bin(dir, Duration::from_secs(30));
    assert_eq!(code, Some(2), "exit status; stderr:\n{err}");
    for n in needles {
        assert!(err.contains(n), "expected {n:?} in the message:\n{err}");
    }
    err
}

/// Runs the case, requires exit status 0 and returns the bytes of `out.bin`.
fn runs(dir: &std::path::Path) -> Vec<u8> {
    let (code, err) = run_bin(dir, Duration::from_secs(30));
    assert_eq!(code, Some(0), "exit status; stderr:\n{err}");
    fs::read(dir.join("out.bin")).expect("out.bin written")
}

/// A module with one kernel `k(out)`: `module` at module scope, `decls` and `body` in the
/// kernel; `%o` holds `out` as a global address.
fn kernel(module: &str, decls: &str, body: &str) -> String {
    format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n{module}\n\
         .visible .entry k(\n\t.param .u64 k_out\n)\n{{\n\t.reg .b64 %o;\n{decls}\n\
         \tld.param.u64 %o, [k_out];\n\tcvta.to.global.u64 %o, %o;\n{body}\n\tret;\n}}\n"
    )
}

/// A spec running `k(out)` once with `block` threads, `out` being `len` elements of `ty`.
fn spec(ty: &str, len: usize, block: u32) -> String {
    format!(
        "ptx = \"kernel.ptx\"\n[buffers.out]\ntype = \"{ty}\"\nlen = {len}\n\
         [[launch]]\nkernel = \"k\"\ngrid = [1]\nblock = [{block}]\nargs = [\"out\"]\n\
         [outputs]\nout = \"out.bin\"\n"
    )
}

/// `file:line:col` of byte `at` of `ptx` (1-based, columns in bytes).
fn located_at(ptx: &str, at: usize) -> String {
    let line = ptx[..at].matches('\n').count() + 1;
    let col = at - ptx[..at].rfind('\n').map_or(0, |p| p + 1) + 1;
    format!("kernel.ptx:{line}:{col}: error:")
}

/// `file:line:col` of the first occurrence of `needle` in `ptx`.
fn located(ptx: &str, needle: &str) -> String {
    located_at(ptx, ptx.find(needle).expect("needle in the PTX"))
}

fn words<const N: usize>(b: &[u8]) -> Vec<u64> {
    b.chunks(N)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..N].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Registers.

#[test]
fn registers_above_65535_are_distinct() {
    let ptx = kernel(
        "",
        "\t.reg .b32 %r<70000>;",
        "\tmov.u32 %r0, 1;\n\tmov.u32 %r65536, 2;\n\tmov.u32 %r69999, 3;\n\
         \tst.global.u32 [%o], %r0;\n\tst.global.u32 [%o+4], %r65536;\n\
         \tst.global.u32 [%o+8], %r69999;",
    );
    let dir = case("regs70000", &ptx, &spec("u32", 3, 1));
    assert_eq!(words::<4>(&runs(&dir)), [1, 2, 3]);
}

#[test]
fn four_billion_registers_are_refused_before_any_is_made() {
    let ptx = kernel("", "\t.reg .b32 %r<4000000000>;", "\tmov.u32 %r0, 1;");
    let dir = case("regs4e9", &ptx, &spec("u32", 1, 1));
    let start = Instant::now();
    refused(
        &dir,
        &[&located(&ptx, ".reg .b32 %r<"), "262144", "registers"],
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn predicates_past_65536_are_refused_not_aliased() {
    // All 65536 that a predicate index holds are distinct ...
    let ptx = kernel(
        "",
        "\t.reg .pred %p<65536>;\n\t.reg .b32 %r<2>;",
        "\tsetp.eq.u32 %p0, 1, 1;\n\tsetp.eq.u32 %p65535, 1, 0;\n\
         \tselp.u32 %r0, 5, 6, %p0;\n\tselp.u32 %r1, 5, 6, %p65535;\n\
         \tst.global.u32 [%o], %r0;\n\tst.global.u32 [%o+4], %r1;",
    );
    let dir = case("preds64k", &ptx, &spec("u32", 2, 1));
    assert_eq!(words::<4>(&runs(&dir)), [5, 6]);
    // ... and one more is refused.
    let ptx = kernel("", "\t.reg .pred %p<65537>;", "");
    let dir = case("preds", &ptx, &spec("u32", 1, 1));
    refused(
        &dir,
        &[&located(&ptx, ".reg .pred"), "65536 predicate registers"],
    );
}

// ---------------------------------------------------------------------------------------------
// The ptxas passes compute what the PTX says.

/// A correct kernel whose shared base (4) reaches the loads through 21 `mov`s laid out in
/// reverse, so that each pass of an in-order analysis learns one more link: an analysis cut
/// short believes the base 64-byte aligned and fuses four loads into a misaligned 16-byte one.
fn mov_chain_ptx() -> String {
    let mut body = String::new();
    for (k, v) in [10, 11, 12, 13, 14].iter().enumerate() {
        body += &format!("\tst.shared.u32 [s+{}], {v};\n", 4 * k);
    }
    body += "\tmov.u32 %r0, 4;\n\tbra L1;\n";
    for k in (1..=21).rev() {
        let next = if k == 21 {
            "DONE".to_string()
        } else {
            format!("L{}", k + 1)
        };
        body += &format!("L{k}:\n\tmov.u32 %r{k}, %r{};\n\tbra {next};\n", k - 1);
    }
    body += "DONE:\n";
    for k in 0..4 {
        body += &format!("\tld.shared.u32 %v{k}, [%r21+{}];\n", 4 * k);
    }
    for k in 0..4 {
        body += &format!("\tst.global.u32 [%o+{}], %v{k};\n", 4 * k);
    }
    kernel(
        ".shared .align 16 .b8 s[32];",
        "\t.reg .b32 %r<22>;\n\t.reg .b32 %v<4>;",
        &body,
    )
}

#[test]
fn unproven_alignment_is_not_fused() {
    let dir = case("movchain", &mov_chain_ptx(), &spec("u32", 4, 1));
    assert_eq!(words::<4>(&runs(&dir)), [11, 12, 13, 14]);
}

/// Two adjacent 4-byte shared loads from an 8-byte aligned base into 64-bit registers, the first
/// `.s32` (sign-extending), the second `.u32` (zero-extending): one fused load would extend both
/// the same way.
fn mixed_sign_ptx() -> String {
    kernel(
        ".shared .align 16 .b8 s[16];",
        "\t.reg .b32 %a;\n\t.reg .b64 %x<2>;",
        "\tst.shared.u32 [s], -1;\n\tst.shared.u32 [s+4], -1;\n\tmov.u32 %a, s;\n\
         \tld.shared.s32 %x0, [%a];\n\tld.shared.u32 %x1, [%a+4];\n\
         \tst.global.u64 [%o], %x0;\n\tst.global.u64 [%o+8], %x1;",
    )
}

#[test]
fn loads_that_extend_differently_are_not_fused() {
    let dir = case("mixedsign", &mixed_sign_ptx(), &spec("u64", 2, 1));
    assert_eq!(words::<8>(&runs(&dir)), [u64::MAX, 0xffff_ffff]);
}

fn report(spec: &Spec, passes: bool) -> gpumemsim::report::Report {
    // The lowering's ptxas imitations are a feature of the PTX path.
    let mut opts = RunOptions {
        write_outputs: false,
        isa: gpumemsim::run::Isa::Ptx,
        ..RunOptions::default()
    };
    opts.ptx.ptxas_passes = passes;
    run_spec(spec, &opts, &mut |_, _, _| {})
        .unwrap_or_else(|e| panic!("{} (ptxas passes {passes}): {e}", spec.path.display()))
}

#[test]
fn ptxas_passes_change_counters_never_outputs() {
    let mut specs: Vec<Spec> = common::CASES
        .iter()
        .map(|(p, _)| Spec::load(p).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    for (name, ptx, ty, len) in [
        ("diffchain", mov_chain_ptx(), "u32", 4),
        ("diffsign", mixed_sign_ptx(), "u64", 2),
    ] {
        let dir = case(name, &ptx, &spec(ty, len, 1));
        specs.push(Spec::load(dir.join("spec.toml")).unwrap());
    }
    let (mut outputs, mut counters_differ) = (0, 0);
    for spec in &specs {
        let (on, off) = (report(spec, true), report(spec, false));
        assert_eq!(on.outputs.len(), off.outputs.len());
        for ((name, _, a), (_, _, b)) in on.outputs.iter().zip(&off.outputs) {
            assert!(
                a == b,
                "{}: output {name} depends on the ptxas passes",
                spec.path.display()
            );
            outputs += 1;
        }
        counters_differ += on
            .launches
            .iter()
            .zip(&off.launches)
            .filter(|(a, b)| a.metrics != b.metrics)
            .count();
    }
    assert!(outputs >= 46, "only {outputs} outputs compared");
    // The passes do something (matmul's fused loads, histogram's reductions): a switch that
    // changed nothing would make this test vacuous.
    assert!(counters_differ > 0, "the ptxas passes changed no counter");
}

// ---------------------------------------------------------------------------------------------
// Sizes: 64 bits, checked against ptxas's limits before anything is allocated.

#[test]
fn shared_array_of_4_gib_plus_4_is_refused_not_truncated() {
    let ptx = kernel(
        ".shared .align 4 .b8 big[4294967300];",
        "\t.reg .b32 %r1;",
        "\tmov.u32 %r1, big;\n\tst.shared.u32 [%r1], 1;",
    );
    let dir = case("shared4g", &ptx, &spec("u32", 1, 1));
    refused(
        &dir,
        &[
            &located(&ptx, "k("),
            "Entry function 'k' uses too much shared data (0x100000004 bytes, 0xc000 max)",
        ],
    );
}

#[test]
fn static_shared_memory_stops_at_48_kb() {
    let module = |n: u32| format!(".shared .align 4 .b8 a[{n}];");
    let body = "\t.reg .b32 %r1;\n\tmov.u32 %r1, a;\n\tst.shared.u32 [%r1], 1;\n\
                \tst.global.u32 [%o], 7;";
    let ok = case(
        "shared48k",
        &kernel(&module(0xc000), "", body),
        &spec("u32", 1, 1),
    );
    assert_eq!(words::<4>(&runs(&ok)), [7]);
    let ptx = kernel(&module(0xc001), "", body);
    let bad = case("shared48k1", &ptx, &spec("u32", 1, 1));
    refused(&bad, &[&located(&ptx, "k("), "(0xc001 bytes, 0xc000 max)"]);
}

#[test]
fn a_terabyte_of_const_is_refused_before_allocation() {
    let ptx = kernel(".const .align 4 .b8 c[1000000000000];", "", "");
    let dir = case("const1t", &ptx, &spec("u32", 1, 1));
    refused(
        &dir,
        &[
            &located(&ptx, ".const"),
            "too much constant data",
            "0x10000 max",
        ],
    );
}

#[test]
fn a_terabyte_of_global_is_refused_before_allocation() {
    let ptx = kernel(".global .align 4 .b8 g[1000000000000];", "", "");
    let dir = case("global1t", &ptx, &spec("u32", 1, 1));
    refused(
        &dir,
        &[
            &located(&ptx, ".global"),
            "1000000000000 bytes",
            "max_global_var_bytes",
        ],
    );
}

#[test]
fn array_sizes_that_overflow_64_bits_are_refused() {
    let ptx = kernel(".global .b8 g[4294967296][4294967296];", "", "");
    let dir = case("dims", &ptx, &spec("u32", 1, 1));
    refused(
        &dir,
        &[&located(&ptx, ".global"), "'g' does not fit in 64 bits"],
    );
}

#[test]
fn hundred_megabytes_of_local_per_thread_are_refused() {
    let ptx = kernel("", "\t.local .align 4 .b8 l[100000000];", "");
    let dir = case("local100m", &ptx, &spec("u32", 1, 1024));
    refused(
        &dir,
        &[
            &located(&ptx, ".local"),
            "kernel 'k' needs 0x5f5e100 bytes of local memory per thread with 'l'",
            "0x80000 (512 KB)",
        ],
    );
}

fn lower_err(ptx: &str) -> String {
    let m = parse(ptx).unwrap_or_else(|e| panic!("{e}"));
    // A kernel the lowering refuses is set aside with its error (reported at launch); a module
    // error fails the whole load.
    match lower_with(&m, ptx, &LowerOptions::default()) {
        Ok(p) => match p.unloadable.first() {
            Some(u) => u.error.to_string(),
            None => panic!("the module was accepted"),
        },
        Err(e) => e.to_string(),
    }
}

#[test]
fn kernel_parameters_past_32764_bytes_are_refused() {
    let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
               .visible .entry k(\n\t.param .align 4 .b8 p[4294967300]\n)\n{\n\tret;\n}\n";
    let e = lower_err(ptx);
    assert!(
        e.contains("<ptx>:5:2: error: kernel 'k' needs more than 32764 bytes of parameters"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------------
// Nesting, call depth and inlining: bounded, never a stack overflow.

#[test]
fn deeply_nested_initializer_is_a_located_error() {
    let n = 200_000;
    let init = format!("{}1{}", "{".repeat(n), "}".repeat(n));
    let ptx = kernel(&format!(".global .u32 g[1] = {init};"), "", "");
    let dir = case("nestinit", &ptx, &spec("u32", 1, 1));
    // The 257th brace is the one past the limit.
    let at = ptx.find('{').unwrap() + 256;
    refused(
        &dir,
        &[
            &located_at(&ptx, at),
            "initializer nested more than 256 levels",
        ],
    );
}

#[test]
fn deeply_nested_operand_is_a_located_error() {
    let n = 200_000;
    let op = format!("{}%r1{}", "{".repeat(n), "}".repeat(n));
    let ptx = kernel("", "\t.reg .b32 %r1;", &format!("\tmov.b32 %r1, {op};"));
    let dir = case("nestop", &ptx, &spec("u32", 1, 1));
    let at = ptx.find("{{").unwrap() + 256;
    refused(
        &dir,
        &[&located_at(&ptx, at), "operand nested more than 256 levels"],
    );
}

#[test]
fn nesting_up_to_the_limit_is_accepted() {
    let init = format!("{}5{}", "{".repeat(256), "}".repeat(256));
    let ptx =
        format!(".version 8.0\n.target sm_90\n.address_size 64\n.global .u32 g[1] = {init};\n");
    let m = parse(&ptx).unwrap_or_else(|e| panic!("{e}"));
    let p = lower_with(&m, &ptx, &LowerOptions::default()).unwrap();
    assert_eq!(p.vars[0].init, 5u32.to_le_bytes());
}

#[test]
fn a_chain_of_100000_calls_is_a_located_error() {
    let n = 100_000;
    let mut ptx = String::from(".version 8.0\n.target sm_90\n.address_size 64\n");
    for k in 0..n {
        let body = if k + 1 < n {
            format!("\tcall f{};\n", k + 1)
        } else {
            String::new()
        };
        ptx += &format!(".func f{k}()\n{{\n{body}\tret;\n}}\n");
    }
    let ptx = ptx + &kernel("", "", "\tcall f0;");
    let dir = case("callchain", &ptx, &spec("u32", 1, 1));
    // The kernel's call of f0 is depth 1; f31's call of f32 is the 33rd.
    refused(&dir, &[&located(&ptx, "call f32;"), "more than 32 deep"]);
}

#[test]
fn exponential_inlining_is_a_located_error() {
    // f0 calls f1 twice, f1 calls f2 twice, ...: 2^30 instructions once inlined.
    let n = 30;
    let mut ptx = String::from(".version 8.0\n.target sm_90\n.address_size 64\n");
    for k in (0..n).rev() {
        let body = if k + 1 < n {
            format!("\tcall f{0};\n\tcall f{0};\n", k + 1)
        } else {
            "\tmembar.cta;\n".to_string()
        };
        ptx += &format!(".func f{k}()\n{{\n{body}\tret;\n}}\n");
    }
    let ptx = ptx + &kernel("", "", "\tcall f0;");
    let dir = case("callfan", &ptx, &spec("u32", 1, 1));
    refused(
        &dir,
        &[
            "kernel.ptx:",
            ": error: kernel 'k' has more than 1048576 instructions",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Load time is linear in the module's size.

#[test]
fn a_100000_instruction_kernel_loads_in_linear_time() {
    // Parse and lower a kernel of `n` adds; the time is the fastest of `tries` runs, so that a busy
    // machine slows both sizes alike and the check is a ratio measured in one run.
    fn load(n: usize, tries: usize) -> (Duration, String, usize) {
        let mut body = String::new();
        for k in 0..n {
            body += &format!("\tadd.u32 %r{}, %r{}, {k};\n", k % 8, (k + 1) % 8);
        }
        let ptx = kernel("", "\t.reg .b32 %r<8>;", &body);
        let mut best = Duration::MAX;
        let mut len = 0;
        for _ in 0..tries {
            let start = Instant::now();
            let m = parse(&ptx).unwrap();
            let p = lower_with(&m, &ptx, &LowerOptions::default()).unwrap();
            best = best.min(start.elapsed());
            len = p.kernels[0].code.len();
        }
        (best, ptx, len)
    }
    let (small, _, _) = load(10_000, 5);
    let (large, ptx, len) = load(100_000, 3);
    assert!(len > 100_000);
    // The last add's PTX line, found through the line index, is right.
    let m = parse(&ptx).unwrap();
    let p = lower_with(&m, &ptx, &LowerOptions::default()).unwrap();
    let last = ptx.rfind("\tadd.u32").unwrap();
    let line = ptx[..last].matches('\n').count() as u32 + 1;
    assert!(p.kernels[0].info.iter().any(|i| i.ptx_line == line));
    // Ten times the code must cost about ten times the time: a quadratic step would cost 100x.
    let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-6);
    assert!(
        ratio < 30.0,
        "10x the instructions took {ratio:.1}x the time ({small:?} vs {large:?})"
    );
    assert!(
        large < Duration::from_secs(5),
        "parse and lower took {large:?}"
    );
}
