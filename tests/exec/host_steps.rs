//! Host steps in the spec (`[[step]]` launches, copies, memsets and repeats, pointer arguments
//! with an offset, `sym:` outputs), run on hand-written PTX (`tests/fixtures/host_steps/`). The
//! expected contents are worked out by hand below from the kernels' comments and the steps, not
//! taken from the simulator.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use gpumemsim::run::{run_spec, RunOptions};
use gpumemsim::spec::Spec;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/host_steps");

fn case(name: &str, spec: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "gpumemsim-host-steps-{}-{name}",
        std::process::id()
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::copy(Path::new(FIXTURES).join("steps.ptx"), dir.join("steps.ptx")).unwrap();
    let p = dir.join("spec.toml");
    fs::write(&p, spec).unwrap();
    p
}

/// Every new step: symbol copies both ways (with byte offsets), buffer-to-buffer copies and
/// memsets with element offsets, nested repeats, pointer arguments with offsets, and `sym:`
/// outputs of a `__device__` and a `__constant__` variable.
const SPEC: &str = r#"
ptx = "steps.ptx"
[buffers.a]
type = "u32"
len = 8
init = "iota"            # a = [0, 1, 2, 3, 4, 5, 6, 7]
[buffers.b]
type = "u32"
len = 8                  # b = 0
[buffers.k]
type = "u32"
values = [2, 3, 4, 5]

[[step]]                 # #1: c_k = k = [2, 3, 4, 5]
kind = "memcpy"
dst = "sym:c_k"
src = "k"
count = 4

[[step]]                 # #2: twice { a[2..5] += 1; twice { a[3] += 1 } }
kind = "repeat"
times = 2
[[step.steps]]
kind = "launch"
kernel = "add1"
grid = [1]
block = [4]
args = ["a+2", 3]
[[step.steps]]
kind = "repeat"
times = 2
[[step.steps.steps]]
kind = "launch"
kernel = "add1"
grid = [1]
block = [4]
args = ["a+3", 1]

[[step]]                 # #3: b[4..8] = a[2..6]
kind = "memcpy"
dst = "b+4"
src = "a+2"
count = 4

[[step]]                 # #4: a[6..8] bytes = 0xff
kind = "memset"
dst = "a+6"
value = 255

[[step]]                 # #5: b[0..4] = b[4..8] * c_k
kind = "launch"
kernel = "cscale"
grid = [1]
block = [4]
args = ["b", "b+4"]

[[step]]                 # #6: twice g_acc += b[0..4]
kind = "repeat"
times = 2
[[step.steps]]
kind = "launch"
kernel = "acc"
grid = [1]
block = [4]
args = ["b"]

[[step]]                 # #7: a[0..2] = g_acc[1..3] (byte offset 4)
kind = "memcpy"
dst = "a"
src = "sym:g_acc+4"
count = 2

[[step]]                 # #8: g_acc[0] = a[4]
kind = "memcpy"
dst = "sym:g_acc"
src = "a+4"
count = 1

[[step]]                 # #9: the end of a buffer is a valid place (nothing set)
kind = "memset"
dst = "a+8"
value = 7

[outputs]
a = "out/a.bin"
b = "out/b.bin"
"sym:g_acc" = "out/g_acc.bin"
"sym:c_k" = "out/c_k.bin"
"#;

fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn every_step_kind_gives_hand_worked_contents() {
    let path = case("all", SPEC);
    let spec = Spec::load(&path).unwrap();
    let report = run_spec(&spec, &RunOptions::default(), &mut |_, _, _| {}).unwrap();
    // Launches: 2 x (1 + 2) add1, one cscale, 2 acc.
    assert_eq!(report.launches.len(), 9);
    // #2: a[2] += 2, a[3] += 2 + 4, a[4] += 2: a = [0, 1, 4, 9, 6, 5, 6, 7].
    // #3: b = [0, 0, 0, 0, 4, 9, 6, 5].  #4: a[6], a[7] = 0xffffffff.
    // #5: b[0..4] = [4*2, 9*3, 6*4, 5*5] = [8, 27, 24, 25].
    // #6: g_acc = 2 * [8, 27, 24, 25] = [16, 54, 48, 50].
    // #7: a[0], a[1] = 54, 48.  #8: g_acc[0] = a[4] = 6.
    let want_a = [54, 48, 4, 9, 6, 5, 0xffff_ffff, 0xffff_ffff];
    let want_b = [8, 27, 24, 25, 4, 9, 6, 5];
    let want_g = [6, 54, 48, 50];
    let want_k = [2, 3, 4, 5];
    let dir = path.parent().unwrap();
    let got = |f: &str| u32s(&fs::read(dir.join("out").join(f)).unwrap());
    assert_eq!(got("a.bin"), want_a);
    assert_eq!(got("b.bin"), want_b);
    assert_eq!(got("g_acc.bin"), want_g);
    assert_eq!(got("c_k.bin"), want_k);
    let names: Vec<&str> = report.outputs.iter().map(|o| o.0.as_str()).collect();
    assert_eq!(names, ["a", "b", "sym:c_k", "sym:g_acc"]);
}

fn spec_err(name: &str, steps: &str) -> String {
    let text = format!(
        "ptx = \"steps.ptx\"\n[buffers.a]\ntype = \"u32\"\nlen = 8\n[buffers.h]\ntype = \"u16\"\nlen = 8\n{steps}"
    );
    let path = case(name, &text);
    let e = Spec::load(&path).unwrap_err().to_string();
    e.replace(&path.display().to_string(), "spec.toml")
}

const ADD1: &str = "kernel = \"add1\"\ngrid = [1]\nblock = [4]\n";

#[test]
fn spec_errors_are_located() {
    let launch = |args: &str| format!("[[step]]\nkind = \"launch\"\n{ADD1}args = [{args}]\n");
    let cases: Vec<(String, &str)> = vec![
        (
            launch("\"a+9\", 1"),
            "spec.toml: [[step]] #1 args[0]: offset 9 is past the end of \"a\" (8 elements)",
        ),
        (
            launch("\"a+-1\", 1"),
            "spec.toml: [[step]] #1 args[0]: offset \"-1\" is not a non-negative integer (elements of u32)",
        ),
        (
            launch("\"a-1\", 1"),
            "spec.toml: [[step]] #1 args[0]: no buffer named \"a-1\"",
        ),
        (
            launch("\"q+1\", 1"),
            "spec.toml: [[step]] #1 args[0]: no buffer named \"q\"",
        ),
        (
            format!("{}[[step]]\nkind = \"memset\"\ndst = \"a+4\"\nvalue = 256\n", launch("\"a\", 1")),
            "spec.toml: [[step]] #2 value: 256 is not a byte (0 to 255)",
        ),
        (
            format!("{}[[step]]\nkind = \"memset\"\ndst = \"a+4\"\nvalue = 0\ncount = 5\n", launch("\"a\", 1")),
            "spec.toml: [[step]] #2 count: 5 elements run past the end of \"a\" (4 left after the offset)",
        ),
        (
            format!("{}[[step]]\nkind = \"memcpy\"\ndst = \"a\"\nsrc = \"h\"\ncount = 1\n", launch("\"a\", 1")),
            "spec.toml: [[step]] #2 dst: \"a\" holds u32 and \"h\" holds u16: a copy between buffers needs one element type",
        ),
        (
            format!("{}[[step]]\nkind = \"memcpy\"\ndst = \"sym:x\"\nsrc = \"sym:y\"\ncount = 1\n", launch("\"a\", 1")),
            "spec.toml: [[step]] #2 src: one side of a copy must be a buffer (a symbol-to-symbol copy is not a CUDA call)",
        ),
        (
            format!("{}[[step]]\nkind = \"memcpy\"\ndst = \"sym:x+y\"\nsrc = \"a\"\ncount = 1\n", launch("\"a\", 1")),
            "spec.toml: [[step]] #2 dst: offset \"y\" is not a non-negative integer (bytes)",
        ),
        (
            format!("[[step]]\nkind = \"repeat\"\ntimes = 0\n[[step.steps]]\nkind = \"launch\"\n{ADD1}args = [\"a\", 1]\n"),
            "spec.toml: [[step]] #1 times: 0 is not a repeat count (1 to 100000)",
        ),
        (
            format!("[[step]]\nkind = \"repeat\"\ntimes = 1000\n[[step.steps]]\nkind = \"repeat\"\ntimes = 1000\n[[step.steps.steps]]\nkind = \"launch\"\n{ADD1}args = [\"a\", 1]\n"),
            "spec.toml: [[step]]: 1000000 launches with the repeats expanded, at most 100000 allowed",
        ),
        (
            format!("[[step]]\nkind = \"repeat\"\ntimes = 2\n[[step.steps]]\nkind = \"launch\"\n{ADD1}args = [\"a+99\", 1]\n"),
            "spec.toml: [[step]] #1 steps #1 args[0]: offset 99 is past the end of \"a\" (8 elements)",
        ),
        (
            format!("[[launch]]\n{ADD1}args = [\"a\", 1]\n{}", launch("\"a\", 1")),
            "spec.toml: [[step]]: give `[[launch]]` tables or `[[step]]` tables, not both (a launch step is `kind = \"launch\"`)",
        ),
        (
            "[[step]]\nkind = \"memset\"\ndst = \"a\"\nvalue = 0\n".to_string(),
            "spec.toml: [[step]]: no launch steps",
        ),
        (
            format!("{}[outputs]\n\"sym:1x\" = \"o.bin\"\n", launch("\"a\", 1")),
            "spec.toml: [outputs] sym:1x: \"1x\" is not a C++ variable name",
        ),
        (
            format!("{}[outputs]\nzz = \"o.bin\"\n", launch("\"a\", 1")),
            "spec.toml: [outputs] zz: no buffer named \"zz\" (a __device__ or __constant__ variable is written \"sym:NAME\")",
        ),
    ];
    for (i, (steps, want)) in cases.iter().enumerate() {
        assert_eq!(
            &spec_err(&format!("e{i}"), steps),
            want,
            "case {i}:\n{steps}"
        );
    }
    // An unknown kind or field is a TOML error that names it.
    let e = spec_err("kind", "[[step]]\nkind = \"copy\"\n");
    assert!(e.contains("copy") && e.contains("memcpy"), "{e}");
    let e = spec_err(
        "field",
        "[[step]]\nkind = \"memset\"\ndst = \"a\"\nvalue = 0\nbytes = 4\n",
    );
    assert!(e.contains("bytes"), "{e}");
}

#[test]
fn symbol_errors_at_run_time_are_located_and_exit_2() {
    let spec = format!(
        "ptx = \"steps.ptx\"\n[buffers.a]\ntype = \"u32\"\nlen = 8\n\
         [[step]]\nkind = \"launch\"\n{ADD1}args = [\"a\", 1]\n\
         [[step]]\nkind = \"memcpy\"\ndst = \"sym:g_acc+8\"\nsrc = \"a\"\ncount = 3\n"
    );
    let path = case("symrun", &spec);
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .arg("run")
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("[[step]] #2 dst: ")
            && stderr.contains("copy of 12 bytes at offset 8 overruns 'g_acc' (16 bytes)"),
        "{stderr}"
    );
    let spec = format!(
        "ptx = \"steps.ptx\"\n[buffers.a]\ntype = \"u32\"\nlen = 8\n\
         [[step]]\nkind = \"launch\"\n{ADD1}args = [\"a\", 1]\n\
         [outputs]\n\"sym:nope\" = \"o.bin\"\n"
    );
    let path = case("symout", &spec);
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .arg("run")
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("[outputs] sym:nope: ") && stderr.contains("'nope'"),
        "{stderr}"
    );
}
