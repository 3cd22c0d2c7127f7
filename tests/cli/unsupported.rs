//! A module holding an instruction gpumemsim cannot run still runs its other kernels; launching
//! the kernel that holds it is refused before any block runs, with one located line naming the
//! feature (exit status 2). Runs the real binary on hand-written PTX.

use std::fs;
use std::path::PathBuf;
use std::process::Command;

/// `copy` is plain; `bulk` uses Hopper's asynchronous bulk reduction (`cp.reduce.async.bulk`,
/// which gpumemsim does not run; the bulk copy `cuda::memcpy_async` compiles to on compute_90
/// it now runs).
const PTX: &str = "\
.version 8.0
.target sm_90
.address_size 64

.visible .entry copy(.param .u64 out, .param .u64 in)
{
\t.reg .b32 %r<3>;
\t.reg .b64 %rd<6>;
\tld.param.u64 %rd1, [out];
\tld.param.u64 %rd2, [in];
\tmov.u32 %r1, %tid.x;
\tmul.wide.u32 %rd3, %r1, 4;
\tadd.s64 %rd4, %rd2, %rd3;
\tld.global.u32 %r2, [%rd4];
\tadd.s64 %rd5, %rd1, %rd3;
\tst.global.u32 [%rd5], %r2;
\tret;
}

.visible .entry bulk(.param .u64 in)
{
\t.reg .b32 %r<4>;
\t.reg .b64 %rd<3>;
\t.shared .align 8 .b8 buf[256];
\t.shared .align 8 .b64 bar;
\tld.param.u64 %rd1, [in];
\tmov.u32 %r1, buf;
\tmov.u32 %r2, bar;
\tmov.u32 %r3, 256;
\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], %r3;
\tret;
}
";

fn case(name: &str, launch: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpumemsim-unsup-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    fs::write(dir.join("m.ptx"), PTX).expect("ptx");
    let spec = format!(
        "ptx = \"m.ptx\"\n[buffers.a]\ntype = \"u32\"\nlen = 32\ninit = \"iota\"\n\
         [buffers.b]\ntype = \"u32\"\nlen = 64\n{launch}[outputs]\nb = \"b.bin\"\n"
    );
    fs::write(dir.join("spec.toml"), spec).expect("spec");
    dir
}

fn run(dir: &std::path::Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .args(["run", dir.join("spec.toml").to_str().expect("utf-8")])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.code().unwrap_or(-1), stderr)
}

#[test]
fn the_other_kernels_of_the_module_still_run() {
    let dir = case(
        "copy",
        "[[launch]]\nkernel = \"copy\"\ngrid = [1]\nblock = [32]\nargs = [\"b\", \"a\"]\n",
    );
    let (code, stderr) = run(&dir);
    assert_eq!(code, 0, "{stderr}");
    let b = fs::read(dir.join("b.bin")).expect("output");
    let words: Vec<u32> = b
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let want: Vec<u32> = (0..32).chain(std::iter::repeat_n(0, 32)).collect();
    assert_eq!(words, want);
}

#[test]
fn launching_the_kernel_that_cannot_run_is_a_located_error() {
    let dir = case(
        "bulk",
        "[[launch]]\nkernel = \"bulk\"\ngrid = [1]\nblock = [32]\nargs = [\"a\"]\n",
    );
    let (code, stderr) = run(&dir);
    assert_eq!(code, 2, "{stderr}");
    let line = PTX
        .lines()
        .position(|l| l.contains("cp.reduce.async.bulk"))
        .expect("the line")
        + 1;
    assert!(
        stderr.contains(&format!("m.ptx:{line}:2: error:")),
        "{stderr}"
    );
    assert!(
        stderr.contains("kernel 'bulk' cannot be launched"),
        "{stderr}"
    );
    assert!(stderr.contains("asynchronous bulk reductions"), "{stderr}");
    assert!(stderr.contains("not supported yet"), "{stderr}");
    assert!(!stderr.contains("fault"), "{stderr}");
}
