//! The H200's special-function tables, embedded compressed and decoded on first use.
//!
//! Each table is one file of `tests/hw/h200/mufu/tables/` (recorded on an H200 by
//! `tests/hw/mufu/mufu.cu`, packed by `tests/hw/mufu/pack.cpp`), compressed with zstd and
//! embedded with `include_bytes!`. Decompressed it is `"GMSMUFU1"`, the entry count `n` and the
//! escape count `k` (little-endian u32), `n` signed bytes, then `k` little-endian u32: entry `i`
//! is entry `i - 1` (0 before the first) plus its byte, wrapping, or, where the byte is -128,
//! the next escaped u32. Decoding (ruzstd, a pure-Rust zstd decoder, then a prefix sum) happens
//! once per process, when a kernel first executes an instruction that needs the table: a
//! [`OnceLock`] per table, so kernels that never use one pay nothing but the binary's size.

use std::io::Read;
use std::sync::OnceLock;

/// One embedded table: its name (for messages), compressed bytes, expected entry count, and the
/// decoded entries once decoded.
pub struct Table {
    name: &'static str,
    zst: &'static [u8],
    len: usize,
    cell: OnceLock<Box<[u32]>>,
}

impl Table {
    /// A table named `name` of `len` entries, from its compressed bytes.
    pub const fn new(name: &'static str, zst: &'static [u8], len: usize) -> Table {
        Table {
            name,
            zst,
            len,
            cell: OnceLock::new(),
        }
    }

    /// The decoded entries (decoded on the first call).
    #[inline]
    pub fn get(&self) -> &[u32] {
        self.cell.get_or_init(|| match decode(self.zst, self.len) {
            Ok(t) => t,
            // The bytes are part of the binary, checked by tests/approx_hw.rs: a failure here is
            // a defect of the build, not of the user's input.
            Err(e) => panic!("embedded MUFU table {} is damaged: {e}", self.name),
        })
    }
}

/// Decodes one table; `len` is the number of entries the executor indexes.
pub fn decode(zst: &[u8], len: usize) -> Result<Box<[u32]>, String> {
    let mut dec = ruzstd::decoding::StreamingDecoder::new(zst).map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    dec.read_to_end(&mut raw).map_err(|e| e.to_string())?;
    if raw.len() < 16 || &raw[..8] != b"GMSMUFU1" {
        return Err("bad header".into());
    }
    let word = |i: usize| u32::from_le_bytes([raw[i], raw[i + 1], raw[i + 2], raw[i + 3]]);
    let (n, k) = (word(8) as usize, word(12) as usize);
    if n != len || raw.len() != 16 + n + 4 * k {
        return Err(format!(
            "{} entries and {} escapes in {} bytes, expected {len} entries",
            n,
            k,
            raw.len()
        ));
    }
    let deltas = &raw[16..16 + n];
    let mut esc = (16 + n..raw.len()).step_by(4).map(word);
    let mut out = Vec::with_capacity(n);
    let mut prev = 0u32;
    for &d in deltas {
        prev = if d == 0x80 {
            esc.next().ok_or("too few escapes")?
        } else {
            prev.wrapping_add(d as i8 as i32 as u32)
        };
        out.push(prev);
    }
    if esc.next().is_some() {
        return Err("too many escapes".into());
    }
    Ok(out.into_boxed_slice())
}

macro_rules! table {
    ($id:ident, $file:literal, $len:expr, $what:literal) => {
        #[doc = concat!($what, " (`tests/hw/h200/mufu/tables/", $file, ".zst`).")]
        pub static $id: Table = Table::new(
            $file,
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/hw/h200/mufu/tables/",
                $file,
                ".zst"
            )),
            $len,
        );
    };
}

const M23: usize = 1 << 23;
table!(RCP, "rcp", M23, "`MUFU.RCP` of 1.m, by m");
table!(RSQ0, "rsq0", M23, "`MUFU.RSQ` of 1.m, by m");
table!(RSQ1, "rsq1", M23, "`MUFU.RSQ` of 2 * 1.m, by m");
table!(SQRT0, "sqrt0", M23, "`MUFU.SQRT` of 1.m, by m");
table!(SQRT1, "sqrt1", M23, "`MUFU.SQRT` of 2 * 1.m, by m");
table!(EX2P, "ex2p", 1 << 24, "`MUFU.EX2` of f / 2^24, by f");
table!(EX2N, "ex2n", 1 << 24, "`MUFU.EX2` of -f / 2^24, by f");
table!(LG2U, "lg2u", M23, "`MUFU.LG2` of 1.m, by m");
table!(LG2L, "lg2l", M23, "`MUFU.LG2` of 0.5 * 1.m, by m");
table!(SIN, "sin", 1 << 25, "`MUFU.SIN` of i / 2^25 turns, by i");
table!(COS, "cos", 1 << 25, "`MUFU.COS` of i / 2^25 turns, by i");
table!(
    TANH,
    "tanh",
    super::TANH_ENTRIES,
    "`MUFU.TANH` of the binades 2^-8..8, by the top mantissa bits"
);
table!(
    RCP64H,
    "rcp64h",
    1 << 20,
    "`MUFU.RCP64H` of 1.m (high words), by m"
);
table!(
    RSQ64H0,
    "rsq64h0",
    1 << 20,
    "`MUFU.RSQ64H` of 1.m (high words), by m"
);
table!(
    RSQ64H1,
    "rsq64h1",
    1 << 20,
    "`MUFU.RSQ64H` of 2 * 1.m (high words), by m"
);
table!(
    EX2_F16,
    "ex2_approx_f16",
    1 << 16,
    "`ex2.approx.f16` of every input"
);
table!(
    EX2_BF16,
    "ex2_approx_ftz_bf16",
    1 << 16,
    "`ex2.approx.ftz.bf16` of every input"
);
table!(
    TANH_F16,
    "tanh_approx_f16",
    1 << 16,
    "`tanh.approx.f16` of every input"
);
table!(
    TANH_BF16,
    "tanh_approx_bf16",
    1 << 16,
    "`tanh.approx.bf16` of every input"
);

/// Every table, for tests that decode them all.
pub static ALL: [&Table; 19] = [
    &RCP, &RSQ0, &RSQ1, &SQRT0, &SQRT1, &EX2P, &EX2N, &LG2U, &LG2L, &SIN, &COS, &TANH, &RCP64H,
    &RSQ64H0, &RSQ64H1, &EX2_F16, &EX2_BF16, &TANH_F16, &TANH_BF16,
];

impl Table {
    /// The table's file name.
    pub fn name(&self) -> &'static str {
        self.name
    }
}
