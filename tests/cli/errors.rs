//! End-to-end checks of the `gpumemsim` binary's error reporting: every user mistake (bad PTX,
//! unsupported instruction, bad spec, bad launch configuration, CUDA C that does not compile) must
//! exit with status 2, and every fault inside a simulated kernel (out-of-bounds or misaligned
//! access, divergent barrier, endless loop) with status 1. The message must say where: file, line
//! and column for input errors; kernel, block, thread and PTX line for faults. No case may panic.
//!
//! The kernels are hand-written PTX under `tests/fixtures/errors/`; expected lines, columns and
//! addresses are worked out here from the fixture text and the spec, not taken from the binary.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/errors");

/// A fresh directory under the system temp dir holding copies of `fixtures` and `spec.toml`.
fn case(name: &str, fixtures: &[&str], spec: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "gpumemsim-cli-errors-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    for f in fixtures {
        fs::copy(Path::new(FIXTURES).join(f), dir.join(f)).unwrap();
    }
    let spec_path = dir.join("spec.toml");
    fs::write(&spec_path, spec).unwrap();
    spec_path
}

/// Runs the binary with `args`, returning its output and the wall time it took.
fn gpumemsim(args: &[&str]) -> (Output, Duration) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .args(args)
        .output()
        .expect("the gpumemsim binary runs");
    (out, start.elapsed())
}

/// Runs `gpumemsim run SPEC extra...`, checks the exit status, that nothing panicked and that the
/// command finished within seconds; returns standard error.
fn run_expect(spec: &Path, extra: &[&str], code: i32) -> String {
    let spec = spec.to_str().unwrap();
    // The fixtures are hand-written PTX, and their messages name PTX lines: the PTX runs.
    let mut args = vec!["run", spec, "--isa", "ptx"];
    args.extend_from_slice(extra);
    let (out, took) = gpumemsim(&args);
    check(&out, took, code)
}

fn check(out: &Output, took: Duration, code: i32) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !stderr.contains("panicked"),
        "the binary panicked:\n{stderr}"
    );
    assert_eq!(
        out.status.code(),
        Some(code),
        "exit status; stderr:\n{stderr}"
    );
    assert!(took < Duration::from_secs(20), "took {took:?}");
    stderr
}

fn has(stderr: &str, needle: &str) {
    assert!(
        stderr.contains(needle),
        "expected {needle:?} in the message:\n{stderr}"
    );
}

/// 1-based line number of the only line of fixture `file` containing `text`.
fn line_of(file: &str, text: &str) -> usize {
    let src = fs::read_to_string(Path::new(FIXTURES).join(file)).unwrap();
    let hits: Vec<usize> = src
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(text))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(hits.len(), 1, "{text:?} in {file}");
    hits[0]
}

/// Lines of fixture `file` containing `text`.
fn lines_of(file: &str, text: &str) -> Vec<usize> {
    let src = fs::read_to_string(Path::new(FIXTURES).join(file)).unwrap();
    src.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(text))
        .map(|(i, _)| i + 1)
        .collect()
}

/// A spec running the `copy(out, in, n)` kernel of `ptx` with buffers of `len` f32 each.
fn copy_spec(ptx: &str, len: usize, launch_extra: &str) -> String {
    format!(
        "ptx = \"{ptx}\"\n\
         [buffers.out]\ntype = \"f32\"\nlen = {len}\n\
         [buffers.in]\ntype = \"f32\"\nlen = {len}\ninit = \"iota\"\n\
         [[launch]]\nkernel = \"copy\"\n{launch_extra}"
    )
}

const GOOD_LAUNCH: &str = "grid = [1]\nblock = [64]\nargs = [\"out\", \"in\", 64]\n";

/// The hex number after `at address 0x` in `msg`.
fn address_in(msg: &str) -> u64 {
    let at = msg.find("at address 0x").expect("an address") + "at address 0x".len();
    let hex: String = msg[at..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    u64::from_str_radix(&hex, 16).unwrap()
}

// ---------------------------------------------------------------------------------------------
// The control: the fixtures are otherwise correct.

#[test]
fn correct_copy_kernel_runs() {
    let spec = case("ok", &["ok.ptx"], &copy_spec("ok.ptx", 64, GOOD_LAUNCH));
    let stderr = run_expect(&spec, &[], 0);
    assert!(!stderr.contains("error"), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// 1. Malformed PTX.

#[test]
fn missing_semicolon_is_a_located_syntax_error() {
    let spec = case(
        "syntax",
        &["syntax.ptx"],
        &copy_spec("syntax.ptx", 64, GOOD_LAUNCH),
    );
    let stderr = run_expect(&spec, &[], 2);
    // The `mad` line lacks its ';': the error is found at the next token, the start of the
    // `setp` line (column 2, after one tab), as C compilers report it.
    let line = line_of("syntax.ptx", "setp.ge.u32");
    has(&stderr, &format!("syntax.ptx:{line}:2: error:"));
    has(&stderr, "';'");
    has(&stderr, &format!("{line} |"));
    has(&stderr, "setp.ge.u32");
}

#[test]
fn bad_character_is_a_located_syntax_error() {
    let spec = case(
        "badtok",
        &["badtok.ptx"],
        &copy_spec("badtok.ptx", 64, GOOD_LAUNCH),
    );
    let stderr = run_expect(&spec, &[], 2);
    let src = fs::read_to_string(Path::new(FIXTURES).join("badtok.ptx")).unwrap();
    let line = line_of("badtok.ptx", "`");
    let col = src.lines().nth(line - 1).unwrap().find('`').unwrap() + 1;
    has(&stderr, &format!("badtok.ptx:{line}:{col}: error:"));
    has(&stderr, "'`'");
    has(&stderr, "%ntid.x ` 1;");
}

// ---------------------------------------------------------------------------------------------
// 2. Unsupported instruction.

#[test]
fn unsupported_instruction_is_rejected_at_launch() {
    let spec = case(
        "unsupported",
        &["unsupported.ptx"],
        &copy_spec("unsupported.ptx", 64, GOOD_LAUNCH),
    );
    let (out, took) = gpumemsim(&["run", spec.to_str().unwrap(), "--json"]);
    let stderr = check(&out, took, 2);
    let line = line_of("unsupported.ptx", "brkpt");
    has(&stderr, &format!("unsupported.ptx:{line}:2: error:"));
    has(&stderr, "unsupported instruction 'brkpt'");
    has(&stderr, "kernel 'copy' cannot be launched");
    // Rejected when the kernel is launched, before any block runs: no fault, no report.
    assert!(!stderr.contains("fault"), "{stderr}");
    assert!(out.stdout.is_empty(), "a report was printed");
}

// ---------------------------------------------------------------------------------------------
// 3. Bad specs.

#[test]
fn unknown_spec_key_is_named_with_its_line() {
    let launch = format!("{GOOD_LAUNCH}bogus = 3\n");
    let spec = case("unkkey", &["ok.ptx"], &copy_spec("ok.ptx", 64, &launch));
    let stderr = run_expect(&spec, &[], 2);
    has(&stderr, "spec.toml");
    has(&stderr, "bogus");
    let line = copy_spec("ok.ptx", 64, &launch)
        .lines()
        .position(|l| l.starts_with("bogus"))
        .unwrap()
        + 1;
    has(&stderr, &format!("line {line}"));
}

#[test]
fn unknown_buffer_in_args_is_named() {
    let launch = "grid = [1]\nblock = [64]\nargs = [\"out\", \"inp\", 64]\n";
    let spec = case("unkbuf", &["ok.ptx"], &copy_spec("ok.ptx", 64, launch));
    let stderr = run_expect(&spec, &[], 2);
    has(&stderr, "spec.toml");
    has(&stderr, "[[launch]] #1 args[1]");
    has(&stderr, "\"inp\"");
}

#[test]
fn wrong_argument_count_is_named() {
    let launch = "grid = [1]\nblock = [64]\nargs = [\"out\", \"in\"]\n";
    let spec = case("argc", &["ok.ptx"], &copy_spec("ok.ptx", 64, launch));
    let stderr = run_expect(&spec, &[], 2);
    has(&stderr, "spec.toml");
    has(&stderr, "[[launch]] #1 args");
    has(&stderr, "3 arguments");
    has(&stderr, "2 given");
}

#[test]
fn missing_ptx_file_is_named() {
    let spec = case("noptx", &[], &copy_spec("missing.ptx", 64, GOOD_LAUNCH));
    let stderr = run_expect(&spec, &[], 2);
    has(&stderr, "spec.toml");
    has(&stderr, "ptx");
    has(&stderr, "missing.ptx");
}

#[test]
fn float_for_pointer_parameter_is_named() {
    let launch = "grid = [1]\nblock = [64]\nargs = [1.5, \"in\", 64]\n";
    let spec = case("floatptr", &["ok.ptx"], &copy_spec("ok.ptx", 64, launch));
    let stderr = run_expect(&spec, &[], 2);
    has(&stderr, "spec.toml");
    has(&stderr, "[[launch]] #1 args[0]");
    has(&stderr, "float");
    has(&stderr, ".u64");
}

// ---------------------------------------------------------------------------------------------
// 4. Out-of-bounds global access.

#[test]
fn out_of_bounds_load_names_kernel_block_thread_line_and_address() {
    // One buffer of 64 f32 (256 bytes) used as both arguments; the kernel has no bounds check.
    // Grid 3 x 32 threads: blocks 0 and 1 cover elements 0..63; block 2 thread 0 is the first
    // to load element 64, byte 256, exactly at the end of the buffer.
    let spec_text = "ptx = \"oob.ptx\"\n\
         [buffers.out]\ntype = \"f32\"\nlen = 64\n\
         [[launch]]\nkernel = \"copy\"\ngrid = [3]\nblock = [32]\nargs = [\"out\", \"out\", 64]\n";
    let spec = case("oob", &["oob.ptx"], spec_text);
    let stderr = run_expect(&spec, &[], 1);
    has(
        &stderr,
        "Invalid __global__ read of size 4 bytes: out of bounds",
    );
    has(&stderr, "kernel copy");
    has(&stderr, "block (2,0,0)");
    has(&stderr, "thread (0,0,0)");
    has(
        &stderr,
        &format!("PTX line {}", line_of("oob.ptx", "ld.global.f32")),
    );
    has(&stderr, "ld.global.f32");
    has(&stderr, "1 bytes after the end of allocation `out` at 0x");
    // The faulting address is the buffer's end: the message gives the buffer's start and size.
    let addr = address_in(&stderr);
    let at = &stderr[stderr.find("`out` at 0x").unwrap() + "`out` at 0x".len()..];
    let hex: String = at.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
    let start = u64::from_str_radix(&hex, 16).unwrap();
    has(&stderr, "of 256 bytes");
    assert_eq!(addr, start + 256, "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// 5. Divergent barrier.

#[test]
fn divergent_barrier_is_a_fault() {
    let spec_text = "ptx = \"divergent.ptx\"\n\
         [buffers.out]\ntype = \"f32\"\nlen = 32\n\
         [[launch]]\nkernel = \"diverge\"\ngrid = [1]\nblock = [32]\nargs = [\"out\"]\n";
    let spec = case("divergent", &["divergent.ptx"], spec_text);
    let stderr = run_expect(&spec, &[], 1);
    has(&stderr, "divergent barrier");
    has(&stderr, "kernel diverge");
    has(&stderr, "block (0,0,0)");
    let bars = lines_of("divergent.ptx", "\tbar.sync");
    assert_eq!(bars.len(), 2);
    has(
        &stderr,
        &format!("at PTX line {} and at PTX line {}", bars[0], bars[1]),
    );
}

// ---------------------------------------------------------------------------------------------
// 6. Endless loop.

#[test]
fn endless_loop_exhausts_the_instruction_budget() {
    let spec_text = "ptx = \"endless.ptx\"\n\
         [buffers.out]\ntype = \"f32\"\nlen = 32\n\
         [[launch]]\nkernel = \"spin\"\ngrid = [1]\nblock = [32]\nargs = [\"out\"]\n";
    let spec = case("endless", &["endless.ptx"], spec_text);
    let start = Instant::now();
    let stderr = run_expect(&spec, &["--max-instructions", "100000"], 1);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    has(&stderr, "budget");
    has(&stderr, "100000");
    has(&stderr, "kernel spin");
    has(
        &stderr,
        &format!("PTX line {}", line_of("endless.ptx", "bra.uni")),
    );
}

// ---------------------------------------------------------------------------------------------
// 7. Misaligned access.

#[test]
fn misaligned_load_is_a_fault() {
    let spec = case(
        "misaligned",
        &["misaligned.ptx"],
        &copy_spec("misaligned.ptx", 64, GOOD_LAUNCH),
    );
    let stderr = run_expect(&spec, &[], 1);
    has(&stderr, "misaligned");
    has(&stderr, "kernel copy");
    has(&stderr, "block (0,0,0)");
    has(&stderr, "thread (0,0,0)");
    has(
        &stderr,
        &format!("PTX line {}", line_of("misaligned.ptx", "ld.global.f32")),
    );
    // Thread 0 loads at the start of a cudaMalloc'd buffer (256-byte aligned) plus 2.
    assert_eq!(address_in(&stderr) % 256, 2, "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// 8. CUDA C that does not compile.

#[test]
fn nvrtc_compile_error_is_located() {
    let spec_text = "source = \"bad.cu\"\n\
         [buffers.out]\ntype = \"f32\"\nlen = 64\n\
         [[launch]]\nkernel = \"broken\"\ngrid = [1]\nblock = [64]\nargs = [\"out\"]\n";
    let spec = case("nvrtc", &["bad.cu"], spec_text);
    let (out, took) = gpumemsim(&["compile", spec.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let nvrtc = if stderr.contains("could not be loaded") {
        Err(stderr.trim().to_string())
    } else {
        Ok(())
    };
    if gpumemsim::testing::require("NVRTC", nvrtc, gpumemsim::testing::INSTALL_NVRTC).is_none() {
        return;
    }
    let stderr = check(&out, took, 2);
    // The statement on line 3 lacks its ';'; NVRTC reports it at the '}' on line 4, column 1.
    let line = line_of("bad.cu", "}");
    has(&stderr, &format!("bad.cu:{line}:1: error:"));
    has(&stderr, "\";\"");
}

// ---------------------------------------------------------------------------------------------
// 9. Launch configurations the CUDA runtime refuses.

#[test]
fn block_of_2048_threads_is_refused() {
    // 64 x 32: each dimension is within its own limit, only the product exceeds 1024.
    let launch = "grid = [1]\nblock = [64, 32]\nargs = [\"out\", \"in\", 64]\n";
    let spec = case("threads2048", &["ok.ptx"], &copy_spec("ok.ptx", 64, launch));
    let stderr = run_expect(&spec, &[], 2);
    has(&stderr, "spec.toml");
    has(&stderr, "[[launch]] #1 block");
    has(&stderr, "2048");
    has(&stderr, "1024");
}

#[test]
fn block_of_2048_threads_names_the_cuda_error() {
    let launch = "grid = [1]\nblock = [64, 32]\nargs = [\"out\", \"in\", 64]\n";
    let spec = case(
        "threads2048cuda",
        &["ok.ptx"],
        &copy_spec("ok.ptx", 64, launch),
    );
    let stderr = run_expect(&spec, &[], 2);
    has(&stderr, "cudaErrorInvalidValue");
}

#[test]
fn dynamic_shared_over_48k_needs_the_opt_in() {
    let launch = "grid = [1]\nblock = [64]\nshared = 102400\nargs = [\"out\", \"in\", 64]\n";
    let spec = case("shared100k", &["ok.ptx"], &copy_spec("ok.ptx", 64, launch));
    let stderr = run_expect(&spec, &[], 2);
    has(&stderr, "spec.toml");
    has(&stderr, "[[launch]] #1 shared");
    has(&stderr, "102400");
    has(&stderr, &(48 * 1024).to_string());
    has(&stderr, "max_dynamic_shared");
    has(&stderr, "cudaErrorInvalidValue");

    // With the opt-in the same launch runs.
    let launch = format!("{}max_dynamic_shared = 102400\n", launch);
    let spec = case(
        "shared100k-optin",
        &["ok.ptx"],
        &copy_spec("ok.ptx", 64, &launch),
    );
    run_expect(&spec, &[], 0);
}

// ---------------------------------------------------------------------------------------------
// `gpumemsim compare SPEC CSV...`: the agreement rule and its exit status, and every bad CSV
// named by file (and line, where the CSV has one).

/// The copy kernel's launch metrics as `run --json` gives them. Two are checked against what
/// the kernel does (64 threads, 4-byte loads of consecutive words: 2 warps, so 2 requests of 4
/// sectors each); the rest only serve to build CSVs that the compare command must accept.
fn copy_metrics(spec: &Path) -> Vec<(String, f64)> {
    let (out, took) = gpumemsim(&["run", spec.to_str().unwrap(), "--json"]);
    check(&out, took, 0);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let metrics = report["launches"][0]["metrics"]
        .as_object()
        .expect("launch metrics");
    let get = |m: &str| metrics[m].as_f64().unwrap_or_else(|| panic!("{m}"));
    assert_eq!(get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2.0);
    assert_eq!(get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 8.0);
    metrics
        .iter()
        .map(|(k, v)| (k.clone(), v.as_f64().unwrap_or_else(|| panic!("{k}"))))
        .collect()
}

/// An ncu CSV (`--csv --print-units base`, long format) of one launch of `copy` with `metrics`,
/// after two lines of ncu's own messages.
fn ncu_csv(metrics: &[(String, f64)]) -> String {
    let mut s = String::from(
        "==PROF== Connected to process 1\n==PROF== Profiling \"copy\": 0%....100% - 1 pass\n\
         \"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n",
    );
    for (m, v) in metrics {
        s.push_str(&format!("\"0\",\"1\",\"copy\",\"{m}\",\"\",\"{v}\"\n"));
    }
    s
}

/// `metrics` with `metric` set to `value`.
fn with(metrics: &[(String, f64)], metric: &str, value: f64) -> Vec<(String, f64)> {
    assert!(metrics.iter().any(|(m, _)| m == metric), "{metric}");
    metrics
        .iter()
        .map(|(m, v)| (m.clone(), if m == metric { value } else { *v }))
        .collect()
}

/// Runs `gpumemsim compare SPEC` on CSVs written next to the spec from `csvs` (name, text);
/// returns (stdout, stderr).
fn compare_expect(spec: &Path, csvs: &[(&str, String)], code: i32) -> (String, String) {
    let dir = spec.parent().unwrap();
    let mut args = vec!["compare".to_string(), spec.display().to_string()];
    for (name, text) in csvs {
        let p = dir.join(name);
        fs::write(&p, text).unwrap();
        args.push(p.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (out, took) = gpumemsim(&args);
    let stderr = check(&out, took, code);
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

const SECTORS_LD: &str = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";

#[test]
fn compare_exits_0_when_equal_and_1_when_a_metric_differs() {
    let spec = case(
        "cmp-one",
        &["ok.ptx"],
        &copy_spec("ok.ptx", 64, GOOD_LAUNCH),
    );
    let m = copy_metrics(&spec);
    compare_expect(&spec, &[("a.csv", ncu_csv(&m))], 0);
    let (stdout, _) = compare_expect(&spec, &[("b.csv", ncu_csv(&with(&m, SECTORS_LD, 9.0)))], 1);
    has(&stdout, SECTORS_LD);
    has(&stdout, "9");
}

#[test]
fn compare_with_several_csvs_takes_their_range() {
    let spec = case(
        "cmp-range",
        &["ok.ptx"],
        &copy_spec("ok.ptx", 64, GOOD_LAUNCH),
    );
    let m = copy_metrics(&spec);
    // The recordings differ on the sectors and the simulator's 8 lies between them: agrees.
    compare_expect(
        &spec,
        &[
            ("lo.csv", ncu_csv(&with(&m, SECTORS_LD, 7.0))),
            ("hi.csv", ncu_csv(&with(&m, SECTORS_LD, 10.0))),
        ],
        0,
    );
    // Outside the range: 1, and the range is shown.
    let (stdout, _) = compare_expect(
        &spec,
        &[
            ("lo2.csv", ncu_csv(&with(&m, SECTORS_LD, 9.0))),
            ("hi2.csv", ncu_csv(&with(&m, SECTORS_LD, 12.0))),
        ],
        1,
    );
    has(&stdout, SECTORS_LD);
    has(&stdout, "9");
    has(&stdout, "12");
    // All recordings equal and different from the simulator: 1.
    compare_expect(
        &spec,
        &[
            ("eq1.csv", ncu_csv(&with(&m, SECTORS_LD, 16.0))),
            ("eq2.csv", ncu_csv(&with(&m, SECTORS_LD, 16.0))),
        ],
        1,
    );
}

#[test]
fn compare_names_the_bad_csv() {
    let spec = case(
        "cmp-bad",
        &["ok.ptx"],
        &copy_spec("ok.ptx", 64, GOOD_LAUNCH),
    );
    let m = copy_metrics(&spec);
    let good = ncu_csv(&m);

    // A file that does not exist.
    let dir = spec.parent().unwrap();
    let missing = dir.join("missing.csv");
    let (out, took) = gpumemsim(&["compare", spec.to_str().unwrap(), missing.to_str().unwrap()]);
    has(&check(&out, took, 2), "missing.csv");

    // No CSV at all (ncu's messages only).
    let (_, stderr) = compare_expect(&spec, &[("empty.csv", "==PROF== nothing\n".into())], 2);
    has(&stderr, "empty.csv");
    has(&stderr, "no CSV header");

    // A launch ID that is not a number, on line 5 of the file (two ncu lines, the header, one
    // good row): the file, the line, the column and the text.
    let mut lines: Vec<String> = good.lines().map(String::from).collect();
    lines[4] = lines[4].replacen("\"0\"", "\"x7\"", 1);
    let (_, stderr) = compare_expect(&spec, &[("id.csv", lines.join("\n"))], 2);
    has(&stderr, "id.csv");
    has(&stderr, "line 5, column 1");
    has(&stderr, "'x7'");

    // A header without the metric column.
    let bad_header = good.replace("\"Metric Name\"", "\"Metric\"");
    let (_, stderr) = compare_expect(&spec, &[("hdr.csv", bad_header)], 2);
    has(&stderr, "hdr.csv");
    has(&stderr, "Metric Name");

    // Of several CSVs, the second lacks a metric the simulation claims: that file is named.
    let short: Vec<(String, f64)> = m.iter().filter(|(k, _)| k != SECTORS_LD).cloned().collect();
    let (_, stderr) = compare_expect(
        &spec,
        &[("full.csv", good.clone()), ("short.csv", ncu_csv(&short))],
        2,
    );
    has(&stderr, "short.csv");
    has(&stderr, SECTORS_LD);
    assert!(!stderr.contains("full.csv"), "{stderr}");

    // A CSV of two launches for a spec of one.
    let two = format!(
        "{good}{}",
        good.lines()
            .skip(3)
            .map(|l| l.replacen("\"0\"", "\"1\"", 1) + "\n")
            .collect::<String>()
    );
    let (_, stderr) = compare_expect(&spec, &[("two.csv", two)], 2);
    has(&stderr, "two.csv");
    has(&stderr, "launches");
}
