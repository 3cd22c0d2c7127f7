//! Device-runtime calls that real kernels make, through the real binary: `printf` output in
//! execution order with C's formatting; a failed `assert` and `__trap()` as located faults (exit
//! status 1); a warp-collective whose member mask names lanes that do not execute it, reported.
//!
//! The kernels are `tests/fixtures/device_runtime/device_runtime.cu`, compiled by NVRTC 13.0 into
//! the committed `device_runtime.ptx`, so these tests need no CUDA installation. Expected texts are
//! worked out here from the kernel source and C's printf rules, not taken from the binary.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/device_runtime");

/// A spec running `launch` (TOML of one `[[launch]]` table) on the committed PTX, in a fresh
/// directory.
fn spec(name: &str, launch: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpumemsim-devrt-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    fs::copy(
        format!("{FIXTURES}/device_runtime.ptx"),
        dir.join("device_runtime.ptx"),
    )
    .expect("copy the fixture PTX");
    let text = format!(
        "ptx = \"device_runtime.ptx\"\n[buffers.v]\ntype = \"i32\"\nlen = 64\ninit = \"iota\"\n\
         [buffers.out]\ntype = \"i32\"\nlen = 32\n{launch}"
    );
    let path = dir.join("spec.toml");
    fs::write(&path, text).expect("write spec");
    path
}

fn run(spec: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .args(["run", spec.to_str().expect("utf-8 path")])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "panicked:\n{stderr}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

#[test]
fn printf_prints_every_call_in_order_with_c_formatting() {
    let s = spec(
        "printf",
        "[[launch]]\nkernel = \"say\"\ngrid = [2]\nblock = [32]\nargs = [\"v\", 40]\n",
    );
    let (code, stdout, stderr) = run(&s);
    assert_eq!(code, 0, "{stderr}");
    // One warp per block, blocks in order, lanes in order: threads 0, 5, ..., 35 (t < 40).
    let mut want = String::new();
    for t in (0..40).step_by(5) {
        let v = t; // iota
        let hex = if v == 0 {
            "0".to_string()
        } else {
            format!("{v:#x}")
        };
        let f = format!("{:08.3}", v as f32 * 0.25);
        let e = {
            let x = v as f64 * 1e6;
            let s = format!("{x:.2e}"); // Rust: 5.00e6; C: 5.00e+06
            let (m, ex) = s.split_once('e').expect("exponent");
            let ex: i32 = ex.parse().expect("int");
            format!("{m}e{}{:02}", if ex < 0 { '-' } else { '+' }, ex.abs())
        };
        let word = if t % 2 == 1 { "odd" } else { "even" };
        let c = (b'a' + (t % 26) as u8) as char;
        let ll = (t as i64) << 33;
        want.push_str(&format!(
            "  | t={t} v={v} hex={hex} f={f} e={e} s={word} c={c} ll={ll}\n"
        ));
    }
    assert!(
        stdout.contains(&format!("  printf output:\n{want}")),
        "printf output differs; want:\n{want}\ngot:\n{stdout}"
    );
}

#[test]
fn a_failed_assert_is_a_located_fault() {
    // v[t] = t, limit 40: the first thread to fail is thread 8 of block 1 (t = 40).
    let s = spec(
        "assert",
        "[[launch]]\nkernel = \"check\"\ngrid = [2]\nblock = [32]\nargs = [\"v\", 40]\n",
    );
    let (code, _, stderr) = run(&s);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("Assertion `v[t] < limit` failed"),
        "{stderr}"
    );
    assert!(stderr.contains("cudaErrorAssert"), "{stderr}");
    assert!(stderr.contains("block (1,0,0), thread (8,0,0)"), "{stderr}");
    assert!(stderr.contains("device_runtime.cu:14"), "{stderr}");
}

#[test]
fn trap_is_a_located_fault() {
    let s = spec(
        "trap",
        "[[launch]]\nkernel = \"abort_at\"\ngrid = [2]\nblock = [32]\nargs = [37]\n",
    );
    let (code, _, stderr) = run(&s);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("trap"), "{stderr}");
    assert!(stderr.contains("block (1,0,0), thread (5,0,0)"), "{stderr}");
}

#[test]
fn a_member_mask_naming_absent_lanes_is_reported() {
    let s = spec(
        "mask",
        "[[launch]]\nkernel = \"half_shuffle\"\ngrid = [1]\nblock = [32]\nargs = [\"out\"]\n",
    );
    let (code, _, stderr) = run(&s);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("invalid warp-collective"), "{stderr}");
    assert!(stderr.contains("0xffffffff"), "{stderr}");
    assert!(stderr.contains("lane 16"), "{stderr}");
    assert!(stderr.contains("device_runtime.cu:26"), "{stderr}");
}

/// The H200 printed the same lines (tests/hw/h200/hw/logs/device_runtime.run.log, the
/// exported program run on the H200; see tests/hw/README.md). The two blocks' lines may come in
/// either order there, so the lines are compared as a multiset.
#[test]
fn printf_lines_equal_the_h200s() {
    let log = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/hw/h200/hw/logs/device_runtime.run.log"
    ))
    .expect("the H200 run log");
    let mut hw: Vec<&str> = log.lines().filter(|l| l.starts_with("t=")).collect();
    let s = spec(
        "printf-hw",
        "[[launch]]\nkernel = \"say\"\ngrid = [2]\nblock = [32]\nargs = [\"v\", 40]\n",
    );
    let (code, stdout, stderr) = run(&s);
    assert_eq!(code, 0, "{stderr}");
    let mut sim: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  | "))
        .collect();
    assert_eq!(hw.len(), 8, "the H200 log has {} printf lines", hw.len());
    hw.sort_unstable();
    sim.sort_unstable();
    assert_eq!(sim, hw);
}

#[test]
fn printf_output_before_a_fault_comes_with_it() {
    let s = spec(
        "printf-fault",
        "[[launch]]\nkernel = \"say_then_trap\"\ngrid = [1]\nblock = [64]\nargs = [40]\n",
    );
    let (code, _, stderr) = run(&s);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("trap"), "{stderr}");
    for t in 0..3 {
        assert!(
            stderr.contains(&format!("  | before the trap: t={t}")),
            "{stderr}"
        );
    }
}
