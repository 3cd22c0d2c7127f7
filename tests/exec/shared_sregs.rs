//! The shared-memory size special registers equal the H200's (tests/hw/h200/sregs/sregs.txt:
//! tests/hw/sregs/sregs.cu, 160 bytes of static shared memory, four dynamic sizes).

use std::fs;
use std::process::Command;

/// 160 bytes of static shared memory (as `__shared__ unsigned st[40]` in sregs.cu); thread 0
/// writes %total_smem_size, %dynamic_smem_size and %aggr_smem_size.
const PTX: &str = "\
.version 8.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 out)
{
\t.reg .b32 %r<5>;
\t.reg .b64 %rd<3>;
\t.shared .align 4 .b8 st[160];
\tld.param.u64 %rd1, [out];
\tcvta.to.global.u64 %rd2, %rd1;
\tmov.u32 %r1, %total_smem_size;
\tmov.u32 %r2, %dynamic_smem_size;
\tmov.u32 %r3, %aggr_smem_size;
\tst.shared.u32 [st], %r1;
\tst.global.u32 [%rd2], %r1;
\tst.global.u32 [%rd2+4], %r2;
\tst.global.u32 [%rd2+8], %r3;
\tret;
}
";

/// (dynamic, total, dynamic, aggr) from the H200's lines `dynamic D err 0: ... total_smem=T
/// dynamic_smem=D aggr_smem=A ...`.
fn h200() -> Vec<(u32, u32, u32, u32)> {
    let text = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/hw/h200/sregs/sregs.txt"
    ))
    .expect("the H200 record");
    let field = |l: &str, k: &str| -> u32 {
        l.split_whitespace()
            .find_map(|w| w.strip_prefix(k))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {k} in {l}"))
    };
    text.lines()
        .filter(|l| l.starts_with("dynamic "))
        .map(|l| {
            let d: u32 = l
                .split_whitespace()
                .nth(1)
                .and_then(|v| v.parse().ok())
                .expect("size");
            (
                d,
                field(l, "total_smem="),
                field(l, "dynamic_smem="),
                field(l, "aggr_smem="),
            )
        })
        .collect()
}

#[test]
fn shared_size_registers_equal_the_h200s() {
    let rows = h200();
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (dynamic, total, dyn_reg, aggr) in rows {
        let dir =
            std::env::temp_dir().join(format!("gpumemsim-sregs-{}-{dynamic}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("dir");
        fs::write(dir.join("k.ptx"), PTX).expect("ptx");
        let spec = format!(
            "ptx = \"k.ptx\"\n[buffers.out]\ntype = \"u32\"\nlen = 3\n\
             [[launch]]\nkernel = \"k\"\ngrid = [1]\nblock = [64]\nshared = {dynamic}\n\
             max_dynamic_shared = 48000\nargs = [\"out\"]\n[outputs]\nout = \"out.bin\"\n"
        );
        fs::write(dir.join("spec.toml"), spec).expect("spec");
        let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
            .args(["run", dir.join("spec.toml").to_str().expect("utf-8")])
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let b = fs::read(dir.join("out.bin")).expect("output");
        let w: Vec<u32> = b
            .chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(w, vec![total, dyn_reg, aggr], "dynamic {dynamic}");
    }
}
