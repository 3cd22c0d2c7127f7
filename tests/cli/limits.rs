//! The limits that keep a run finite and the rule that outputs never destroy inputs, checked on
//! the real `gpumemsim` binary: each input here crashed (exit 134), hung, printed a wrong message
//! or silently overwrote a file before. Every case must end in a clear, located error with the
//! documented exit status (2 for input the simulator refuses, 1 for a fault inside a simulated
//! kernel), quickly, without a panic.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/errors");

/// A fresh directory holding a copy of `ok.ptx` (the `copy(out, in, n)` kernel), the extra files
/// given, and `spec.toml`.
fn case(name: &str, spec: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "gpumemsim-cli-limits-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::copy(Path::new(FIXTURES).join("ok.ptx"), dir.join("ok.ptx")).unwrap();
    for (f, text) in files {
        fs::write(dir.join(f), text).unwrap();
    }
    let spec_path = dir.join("spec.toml");
    fs::write(&spec_path, spec).unwrap();
    spec_path
}

/// Runs `gpumemsim run SPEC extra...`; checks the status, that nothing panicked and that it took
/// less than `secs`; returns standard error.
fn run(spec: &Path, extra: &[&str], code: i32, secs: u64) -> String {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .arg("run")
        .arg(spec)
        .args(["--isa", "ptx"]) // hand-written PTX fixtures, PTX-line messages
        .args(extra)
        .output()
        .expect("the gpumemsim binary runs");
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panicked:\n{stderr}");
    assert_eq!(
        out.status.code(),
        Some(code),
        "exit status; stderr:\n{stderr}"
    );
    assert!(took < Duration::from_secs(secs), "took {took:?}");
    stderr
}

fn has(stderr: &str, needle: &str) {
    assert!(
        stderr.contains(needle),
        "expected {needle:?} in the message:\n{stderr}"
    );
}

/// A spec with one buffer `big` of `len` elements of `ty` besides the copy launch.
fn big_buffer_spec(ty: &str, len: u64) -> String {
    format!(
        "ptx = \"ok.ptx\"\n\
         [buffers.out]\ntype = \"f32\"\nlen = 64\n\
         [buffers.in]\ntype = \"f32\"\nlen = 64\n\
         [buffers.big]\ntype = \"{ty}\"\nlen = {len}\n\
         [[launch]]\nkernel = \"copy\"\ngrid = [1]\nblock = [64]\nargs = [\"out\", \"in\", 64]\n"
    )
}

#[test]
fn a_terabyte_buffer_is_refused_by_the_memory_budget() {
    // Before: the 10^12 bytes were allocated and the process aborted (exit 134).
    let spec = case("tera", &big_buffer_spec("u8", 1_000_000_000_000), &[]);
    let stderr = run(&spec, &[], 2, 20);
    has(&stderr, "spec.toml");
    has(&stderr, "[buffers.big] len");
    has(&stderr, "1000000000000 bytes");
    has(&stderr, "simulated-memory budget");
    has(&stderr, "--memory-budget");
}

#[test]
fn a_20_gb_f32_buffer_is_refused_under_a_16g_budget() {
    let spec = case("f32", &big_buffer_spec("f32", 5_000_000_000), &[]);
    let stderr = run(&spec, &["--memory-budget", "16G"], 2, 20);
    has(&stderr, "[buffers.big] len");
    has(&stderr, "20000000000 bytes");
    has(&stderr, &format!("budget is {} bytes", 16u64 << 30));
    // Under 64 KiB the other buffers fit, and the check still comes before any allocation.
    let stderr = run(&spec, &["--memory-budget", "64K"], 2, 20);
    has(&stderr, "[buffers.big] len");
    has(&stderr, "budget is 65536 bytes");
}

#[test]
fn a_bad_memory_budget_is_a_usage_error() {
    let spec = case("badflag", &big_buffer_spec("u8", 16), &[]);
    let stderr = run(&spec, &["--memory-budget", "lots"], 2, 20);
    has(&stderr, "--memory-budget");
}

const LOCAL_PTX: &str = "\
.version 8.0
.target sm_90
.address_size 64

.visible .entry big_local(
	.param .u64 big_local_param_0
)
{
	.local .align 4 .b8 	frame[400000];
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<4>;

	mov.u32 	%r1, %tid.x;
	mov.u64 	%rd1, frame;
	st.local.u32 	[%rd1], %r1;
	ld.local.u32 	%r2, [%rd1];
	ld.param.u64 	%rd2, [big_local_param_0];
	cvta.to.global.u64 	%rd3, %rd2;
	st.global.u32 	[%rd3], %r2;
	ret;
}
";

#[test]
fn local_frames_of_a_block_count_against_the_budget() {
    // 400 KB of .local per thread (under the 512 KB a thread may have) x 1,024 threads: 410 MB of
    // frames, over a 100 MB budget (before: 100 MB per thread aborted with exit 134).
    let spec = case(
        "local",
        "ptx = \"local.ptx\"\n\
         [buffers.out]\ntype = \"u32\"\nlen = 1\n\
         [[launch]]\nkernel = \"big_local\"\ngrid = [1]\nblock = [1024]\nargs = [\"out\"]\n",
        &[("local.ptx", LOCAL_PTX)],
    );
    let stderr = run(&spec, &["--memory-budget", "100M"], 2, 20);
    has(&stderr, "big_local");
    has(&stderr, "400000 bytes per thread x 1024 threads");
    has(&stderr, "simulated-memory budget");
    has(&stderr, "--memory-budget");
}

#[test]
fn the_per_launch_instruction_budget_ends_a_huge_grid() {
    // grid = [2^31 - 1] of a short kernel: hours of simulation before; the per-launch budget
    // ends it (the default of 250 million takes well under a minute; a smaller one keeps the
    // test quick).
    let spec = case(
        "grid",
        "ptx = \"ok.ptx\"\n\
         [buffers.out]\ntype = \"f32\"\nlen = 64\n\
         [buffers.in]\ntype = \"f32\"\nlen = 64\n\
         [[launch]]\nkernel = \"copy\"\ngrid = [2147483647]\nblock = [1]\nargs = [\"out\", \"in\", 64]\n",
        &[],
    );
    let stderr = run(&spec, &["--max-launch-instructions", "2000000"], 1, 20);
    has(&stderr, "fault in kernel copy");
    has(&stderr, "2000000 warp-instructions per launch");
    has(&stderr, "--max-launch-instructions");
    has(&stderr, "block (");
}

#[test]
fn an_access_straddling_the_end_of_a_buffer_says_so() {
    // `in` has 254 bytes; thread 63 reads 4 bytes at offset 252. Before: "18446744073709551614
    // bytes past the end" (and a debug build panicked on the subtraction).
    let spec = case(
        "straddle",
        "ptx = \"ok.ptx\"\n\
         [buffers.out]\ntype = \"f32\"\nlen = 64\n\
         [buffers.in]\ntype = \"u8\"\nlen = 254\n\
         [[launch]]\nkernel = \"copy\"\ngrid = [1]\nblock = [64]\nargs = [\"out\", \"in\", 64]\n",
        &[],
    );
    let stderr = run(&spec, &[], 1, 20);
    has(&stderr, "straddles the end of allocation `in` at 0x");
    has(&stderr, "of 254 bytes (at offset 252)");
    has(&stderr, "thread (63,0,0)");
    assert!(!stderr.contains("18446744"), "{stderr}");
}

const WILD_SHARED_PTX: &str = "\
.version 8.0
.target sm_90
.address_size 64

.visible .entry wild(
	.param .u64 wild_param_0
)
{
	.shared .align 4 .b8 	sh[128];
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<4>;

	mov.u64 	%rd1, 0xFFFFFFFFFFFFFFFC;
	ld.shared.u32 	%r1, [%rd1];
	ld.param.u64 	%rd2, [wild_param_0];
	cvta.to.global.u64 	%rd3, %rd2;
	st.global.u32 	[%rd3], %r1;
	ret;
}
";

#[test]
fn a_shared_address_near_the_top_of_the_address_space_is_out_of_bounds() {
    // The fast path's `a - base + n` wrapped to 0 and passed the bounds check; the slice index
    // then panicked.
    let spec = case(
        "wild",
        "ptx = \"wild.ptx\"\n\
         [buffers.out]\ntype = \"u32\"\nlen = 32\n\
         [[launch]]\nkernel = \"wild\"\ngrid = [1]\nblock = [32]\nargs = [\"out\"]\n",
        &[("wild.ptx", WILD_SHARED_PTX)],
    );
    let stderr = run(&spec, &[], 1, 20);
    has(
        &stderr,
        "Invalid __shared__ read of size 4 bytes: out of bounds",
    );
    has(&stderr, "0xfffffffffffffffc");
}

#[test]
fn an_output_never_overwrites_an_input() {
    let data: String = "x".repeat(256);
    for (what, path) in [
        ("ptx", "ok.ptx"),
        ("the spec itself", "spec.toml"),
        ("[buffers.in] init", "in.bin"),
        ("[buffers.in] init", "./sub/../in.bin"),
    ] {
        let spec = format!(
            "ptx = \"ok.ptx\"\n\
             [buffers.out]\ntype = \"f32\"\nlen = 64\n\
             [buffers.in]\ntype = \"f32\"\ninit = \"file:in.bin\"\n\
             [[launch]]\nkernel = \"copy\"\ngrid = [1]\nblock = [64]\nargs = [\"out\", \"in\", 64]\n\
             [outputs]\nout = \"{path}\"\n"
        );
        let spec_path = case("overwrite", &spec, &[("in.bin", &data)]);
        let dir = spec_path.parent().unwrap();
        fs::create_dir_all(dir.join("sub")).unwrap();
        let before: Vec<_> = ["ok.ptx", "spec.toml", "in.bin"]
            .iter()
            .map(|f| fs::read(dir.join(f)).unwrap())
            .collect();
        let stderr = run(&spec_path, &[], 2, 20);
        has(&stderr, "[outputs] out");
        has(&stderr, &format!("is also an input of the spec ({what})"));
        let after: Vec<_> = ["ok.ptx", "spec.toml", "in.bin"]
            .iter()
            .map(|f| fs::read(dir.join(f)).unwrap())
            .collect();
        assert_eq!(before, after, "{path}: an input changed");
    }
}

#[test]
fn outputs_are_written_whole_and_leave_no_temporary_file() {
    let spec = case(
        "atomic",
        "ptx = \"ok.ptx\"\n\
         [buffers.out]\ntype = \"f32\"\nlen = 64\n\
         [buffers.in]\ntype = \"f32\"\nlen = 64\ninit = \"iota\"\n\
         [[launch]]\nkernel = \"copy\"\ngrid = [1]\nblock = [64]\nargs = [\"out\", \"in\", 64]\n\
         [outputs]\nout = \"res/out.bin\"\n",
        &[],
    );
    run(&spec, &[], 0, 20);
    let dir = spec.parent().unwrap().join("res");
    let bytes = fs::read(dir.join("out.bin")).unwrap();
    let want: Vec<u8> = (0..64).flat_map(|i| (i as f32).to_le_bytes()).collect();
    assert_eq!(bytes, want);
    let names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["out.bin"]);
}
