//! Spec loading tests. Expected bytes are worked by hand from the rules in the module docs.

use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh directory with `k.cu` in it.
fn scratch() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "gpumemsim-spec-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.cu"), "__global__ void k(float* o) {}\n").unwrap();
    dir
}

fn load(dir: &Path, text: &str) -> Result<Spec, SpecError> {
    let p = dir.join("spec.toml");
    std::fs::write(&p, text).unwrap();
    Spec::load(&p)
}

fn err(text: &str) -> String {
    let dir = scratch();
    let e = load(&dir, text).unwrap_err().to_string();
    // Make the message independent of the scratch directory.
    e.replace(&dir.join("spec.toml").display().to_string(), "spec.toml")
        .replace(&dir.display().to_string(), "DIR")
}

const HEAD: &str = "source = \"k.cu\"\n";
const LAUNCH: &str = "[[launch]]\nkernel = \"k\"\ngrid = [1]\nblock = [32]\n";

#[test]
fn full_example_loads() {
    let dir = scratch();
    std::fs::write(dir.join("k.ptx"), "// ptx\n").unwrap();
    let s = load(
        &dir,
        r#"
description = "demo"
source = "k.cu"
ptx = "k.ptx"
gpu = "h200"
[buffers.in]
type = "f32"
len = 4
init = "iota"
[buffers.out]
type = "f32"
len = 4
[symbols.c_tab]
type = "f32"
values = [0.0, 0.5, 1]
[[launch]]
kernel = "sh_stride<32>"
grid = [4, 1, 1]
block = [128]
shared = 0
args = ["out", "in", 1024, 0.5]
max_dynamic_shared = 102400
carveout = 100
[[launch]]
kernel = "k"
grid = [2, 3]
block = [8, 4, 2]
[outputs]
out = "out/out.bin"
"#,
    )
    .unwrap();
    assert_eq!(s.description.as_deref(), Some("demo"));
    assert_eq!(s.source, Some(dir.join("k.cu")));
    assert_eq!(s.ptx, Some(dir.join("k.ptx")));
    assert_eq!(s.gpu.name, "h200");
    assert_eq!(s.buffers.len(), 2);
    assert_eq!(s.buffers[0].name, "in");
    assert_eq!(
        s.buffer("in").unwrap().initial_bytes().unwrap(),
        [0.0f32, 1.0, 2.0, 3.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect::<Vec<_>>()
    );
    assert_eq!(
        s.buffer("out").unwrap().initial_bytes().unwrap(),
        vec![0; 16]
    );
    let c = &s.symbols[0];
    assert_eq!((c.name.as_str(), c.len), ("c_tab", 3));
    assert_eq!(
        c.initial_bytes().unwrap(),
        [0, 0, 0, 0, 0, 0, 0, 0x3f, 0, 0, 0x80, 0x3f]
    );
    let l = &s.launches[0];
    assert_eq!(l.kernel, "sh_stride<32>");
    assert_eq!((l.grid, l.block), ([4, 1, 1], [128, 1, 1]));
    assert_eq!(
        l.args,
        vec![
            Arg::Buffer {
                name: "out".into(),
                offset: 0
            },
            Arg::Buffer {
                name: "in".into(),
                offset: 0
            },
            Arg::Int(1024),
            Arg::Float(0.5)
        ]
    );
    assert_eq!(
        (l.max_dynamic_shared, l.carveout),
        (Some(102400), Some(100))
    );
    assert_eq!(s.launches[1].grid, [2, 3, 1]);
    assert_eq!(s.launches[1].threads_per_block(), 64);
    assert_eq!(s.outputs[0].path, dir.join("out/out.bin"));
}

#[test]
fn init_kinds_give_hand_worked_bytes() {
    let dir = scratch();
    // 3 bytes 0x01 0x02 0x03 ... as an u8 file; u16 file of 4 bytes.
    std::fs::write(dir.join("d.bin"), [1u8, 2, 3, 4]).unwrap();
    let s = load(
        &dir,
        &format!(
            r#"{HEAD}
[buffers.a]
type = "i16"
len = 3
init = "fill:-2"
[buffers.b]
type = "u16"
init = "file:d.bin"
[buffers.c]
type = "u8"
values = [1, 255, "0x7f"]
[buffers.d]
type = "u32"
len = 2
init = "random:1234567"
[buffers.e]
type = "u8"
len = 300
init = "iota"
{LAUNCH}"#
        ),
    )
    .unwrap();
    let bytes = |n: &str| s.buffer(n).unwrap().initial_bytes().unwrap();
    assert_eq!(bytes("a"), [0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xff]);
    assert_eq!(s.buffer("b").unwrap().len, 2);
    assert_eq!(bytes("b"), [1, 2, 3, 4]);
    assert_eq!(bytes("c"), [1, 255, 0x7f]);
    // splitmix64(1234567) draws 6457827717110365317 = 0x599E_D017_FB08_FC85 and
    // 3203168211198807973 = 0x2C73_F084_5854_0FA5: the low 32 bits, little-endian.
    assert_eq!(bytes("d"), [0x85, 0xfc, 0x08, 0xfb, 0xa5, 0x0f, 0x54, 0x58]);
    let e = bytes("e");
    assert_eq!((e[0], e[255], e[256], e[299]), (0, 255, 0, 43));
}

#[test]
fn file_changed_after_load_is_reported() {
    let dir = scratch();
    std::fs::write(dir.join("d.bin"), [0u8; 8]).unwrap();
    let s = load(
        &dir,
        &format!("{HEAD}[buffers.b]\ntype = \"f32\"\nlen = 2\ninit = \"file:d.bin\"\n{LAUNCH}"),
    )
    .unwrap();
    std::fs::write(dir.join("d.bin"), [0u8; 4]).unwrap();
    let e = s.buffers[0].initial_bytes().unwrap_err().to_string();
    assert!(
        e.contains("[buffers.b] init:") && e.contains("has 4 bytes, expected 8"),
        "{e}"
    );
}

#[test]
fn error_messages_name_file_and_key() {
    assert_eq!(
        err(&format!(
            "{HEAD}[buffers.in]\ntype = \"f32\"\nlen = 4\ninit = \"foo\"\n{LAUNCH}"
        )),
        "spec.toml: [buffers.in] init: unknown init \"foo\" (expected zeros, none, iota, fill:V, file:PATH, random:SEED)"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}[buffers.in]\ntype = \"f32\"\nlen = 4\n{LAUNCH}args = [\"in\"]\n{LAUNCH}args = [\"in\", \"inp\"]\n"
        )),
        "spec.toml: [[launch]] #2 args[1]: no buffer named \"inp\""
    );
    assert_eq!(
        err(&format!("{HEAD}[buffers.in]\ntype = \"f31\"\nlen = 4\n{LAUNCH}")),
        "spec.toml: [buffers.in] type: unknown type \"f31\" (expected u8, i8, u16, i16, u32, i32, u64, i64, f16, bf16, f32, f64)"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}[buffers.in]\ntype = \"u8\"\nlen = 2\nvalues = [1, 2, 3]\n{LAUNCH}"
        )),
        "spec.toml: [buffers.in] len: len is 2 but values has 3 elements"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}[buffers.in]\ntype = \"u8\"\nvalues = [1, 256]\n{LAUNCH}"
        )),
        "spec.toml: [buffers.in] values[1]: 256 is out of range for u8 (0 to 255)"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}[buffers.in]\ntype = \"i32\"\nvalues = [1.5]\n{LAUNCH}"
        )),
        "spec.toml: [buffers.in] values[0]: 1.5 is not an integer (i32)"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}[symbols.c]\ntype = \"f16\"\nlen = 1\ninit = \"fill:1e6\"\n{LAUNCH}"
        )),
        "spec.toml: [symbols.c] init: 1e6 is out of range for f16"
    );
    assert_eq!(
        err(&format!("{HEAD}[buffers.in]\ntype = \"u8\"\n{LAUNCH}")),
        "spec.toml: [buffers.in] len: missing (number of elements)"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}[[launch]]\nkernel = \"k\"\ngrid = []\nblock = [32]\n"
        )),
        "spec.toml: [[launch]] #1 grid: expected one to three numbers, found 0"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}[[launch]]\nkernel = \"k\"\ngrid = [1, 1, 1, 1]\nblock = [32]\n"
        )),
        "spec.toml: [[launch]] #1 grid: expected one to three numbers, found 4"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}[[launch]]\nkernel = \"k\"\ngrid = [1, 0]\nblock = [32]\n"
        )),
        "spec.toml: [[launch]] #1 grid: y is 0, must be at least 1"
    );
    assert_eq!(
        err(&format!(
            "{HEAD}[[launch]]\nkernel = \"k\"\ngrid = [1]\nblock = [64, 32]\n"
        )),
        "spec.toml: [[launch]] #1 block: cudaErrorInvalidValue: 2048 threads per block, h200 allows at most 1024"
    );
    assert_eq!(
        err(&format!("{HEAD}[[launch]]\nkernel = \"k\"\ngrid = [1]\nblock = [32]\nshared = 50000\n")),
        "spec.toml: [[launch]] #1 shared: cudaErrorInvalidValue: 50000 bytes of dynamic shared memory, more than 49152 (set max_dynamic_shared to opt in to more)"
    );
    assert_eq!(
        err(&format!("{HEAD}{LAUNCH}carveout = 101\n")),
        "spec.toml: [[launch]] #1 carveout: 101 is not a percentage (0 to 100, or -1 for the default)"
    );
    assert_eq!(
        err(&format!("{HEAD}{LAUNCH}[outputs]\nx = \"x.bin\"\n")),
        "spec.toml: [outputs] x: no buffer named \"x\" (a __device__ or __constant__ variable is written \"sym:NAME\")"
    );
    assert_eq!(
        err(&format!("{HEAD}gpu = \"h100\"\n{LAUNCH}")),
        "spec.toml: gpu: unknown GPU \"h100\" (expected h200)"
    );
    assert_eq!(
        err(LAUNCH),
        "spec.toml: source: give `source` (CUDA C) or `ptx` (or both)"
    );
    assert_eq!(err(HEAD), "spec.toml: [[launch]]: no launches");
}

#[test]
fn missing_files_are_reported() {
    let e = err(&format!("source = \"nope.cu\"\n{LAUNCH}"));
    assert!(
        e.starts_with("spec.toml: source: cannot read DIR/nope.cu: "),
        "{e}"
    );
    let e = err(&format!(
        "{HEAD}[buffers.b]\ntype = \"u8\"\ninit = \"file:x.bin\"\n{LAUNCH}"
    ));
    assert!(
        e.starts_with("spec.toml: [buffers.b] init: cannot read DIR/x.bin: "),
        "{e}"
    );
    let e = Spec::load("/nonexistent/spec.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("/nonexistent/spec.toml: spec: cannot read"),
        "{e}"
    );
}

#[test]
fn toml_errors_keep_line_and_column() {
    // Unknown key on line 3, and a syntax error on line 2.
    let e = err(&format!("{HEAD}{LAUNCH}colour = 1\n"));
    assert!(e.starts_with("spec.toml: "), "{e}");
    assert!(e.contains("line 6") && e.contains("colour"), "{e}");
    let e = err("source = \"k.cu\"\nbroken = [\n");
    assert!(e.contains("line 2") || e.contains("line 3"), "{e}");
}

#[test]
fn shipped_examples_load() {
    // The `.ptx` files are generated from the `.cu` files and committed separately; a missing
    // one is left out here so the rest of each spec is still checked.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut names = std::collections::BTreeSet::new();
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let mut text = std::fs::read_to_string(&path).unwrap();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let ptx_line = text
            .lines()
            .find(|l| l.starts_with("ptx = "))
            .map(str::to_string);
        if let Some(line) = ptx_line {
            let ptx = line.trim_start_matches("ptx = ").trim_matches('"');
            if !dir.join(ptx).exists() {
                text = text.replace(&line, "");
            }
        }
        let spec = Spec::parse(&text, &stem, &path).unwrap_or_else(|e| panic!("{e}"));
        assert!(spec.description.is_some(), "{stem}: description");
        assert!(spec.source.is_some(), "{stem}: source");
        for o in &spec.outputs {
            assert!(o.path.starts_with(dir.join("out")), "{stem}: {:?}", o.path);
            assert!(
                names.insert(o.path.clone()),
                "{stem}: output {:?} used twice",
                o.path
            );
        }
        for b in spec.buffers.iter().chain(&spec.symbols) {
            assert_eq!(b.initial_bytes().unwrap().len() as u64, b.byte_len());
        }
        count += 1;
    }
    assert_eq!(count, 13);
}

/// A spec with buffers `a` and `b` and these steps.
fn free_spec(steps: &str, outputs: &str) -> String {
    format!(
        "{HEAD}[buffers.a]\ntype = \"f32\"\nlen = 4\ninit = \"none\"\n\
         [buffers.b]\ntype = \"f32\"\nlen = 4\n{steps}{outputs}"
    )
}

const LAUNCH_STEP: &str = "[[step]]\nkind = \"launch\"\nkernel = \"k\"\ngrid = [1]\nblock = [32]\n";

#[test]
fn init_none_and_free_steps_load() {
    let dir = scratch();
    let text = free_spec(
        &format!("{LAUNCH_STEP}[[step]]\nkind = \"free\"\ndst = \"a\"\n{LAUNCH_STEP}"),
        "",
    );
    let s = load(&dir, &text).unwrap();
    assert_eq!(s.buffers[0].init, Init::Uninit);
    // The simulator holds zeros where a GPU holds whatever was there.
    assert_eq!(s.buffers[0].initial_bytes().unwrap(), vec![0u8; 16]);
    assert_eq!(
        s.steps[1],
        Step::Free {
            buffer: 0,
            key: "[[step]] #2".into()
        }
    );
}

#[test]
fn a_buffer_is_freed_once_outside_repeats_and_not_written_out() {
    let free_a = "[[step]]\nkind = \"free\"\ndst = \"a\"\n";
    assert_eq!(
        err(&free_spec(&format!("{LAUNCH_STEP}{free_a}{free_a}"), "")),
        "spec.toml: [[step]] #3 dst: buffer \"a\" is freed twice"
    );
    assert_eq!(
        err(&free_spec(
            &format!("{LAUNCH_STEP}[[step]]\nkind = \"repeat\"\ntimes = 2\n[[step.steps]]\nkind = \"free\"\ndst = \"a\"\n"),
            ""
        )),
        "spec.toml: [[step]] #2 steps #1: a buffer is freed once: `free` may not be inside a `repeat`"
    );
    assert_eq!(
        err(&free_spec(
            &format!("{LAUNCH_STEP}{free_a}"),
            "[outputs]\na = \"a.bin\"\n"
        )),
        "spec.toml: [outputs] a: buffer \"a\" is freed by a `free` step"
    );
    assert_eq!(
        err(&free_spec(
            &format!("{LAUNCH_STEP}[[step]]\nkind = \"free\"\ndst = \"c\"\n"),
            ""
        )),
        "spec.toml: [[step]] #2 dst: no buffer named \"c\""
    );
}

#[test]
fn caches_key_is_cold_or_warm() {
    let e = err(&format!("{HEAD}caches = \"hot\"\n{LAUNCH}"));
    assert!(
        e.contains("spec.toml") && e.contains("caches") && e.contains("\"hot\""),
        "{e}"
    );
    let dir = scratch();
    std::fs::write(dir.join("k.cu"), "").unwrap();
    let warm = load(&dir, &format!("{HEAD}caches = \"warm\"\n{LAUNCH}")).unwrap();
    assert!(warm.warm_caches);
    let cold = load(&dir, &format!("{HEAD}{LAUNCH}")).unwrap();
    assert!(!cold.warm_caches);
}
