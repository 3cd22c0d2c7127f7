//! The H200's special-function tables, embedded compressed and decoded block by block on use.
//! The executor reads `TANH` and the 16-bit tables; the others are the exhaustive H200 data
//! that [`super::interp`] is checked against (`tests/hardware/approx.rs`), and that
//! `tests/hw/mufu/interp_fit.py` solved its coefficients from.
//!
//! Each table is one file of `tests/hw/h200/mufu/tables/` (recorded on an H200 by
//! `tests/hw/mufu/mufu.cu`, packed by `tests/hw/mufu/pack.cpp`), embedded with `include_bytes!`:
//! `"GMSMUFU2"`, the entry count, the entries per block (65,536), the block count, the byte
//! offset of each block's zstd frame in the payload (one more than there are blocks; all
//! little-endian u32), then the frames. A frame decompresses to one signed byte per entry of its
//! block, the difference to the previous entry's bits (wrapping; 0 before the block's first),
//! or -128 for an escaped entry, then the escaped entries' u32 values in order.
//!
//! Nothing is decoded until a kernel executes an instruction that reads the table; then the whole
//! table is (ruzstd, a pure-Rust zstd decoder, and a prefix sum, block by block) into memory
//! backed by huge pages, kept for the life of the process ([`OnceLock`]), so a lookup is one
//! atomic load and an index. Kernels that never use a table pay nothing but the binary's size.

use std::io::Read;
use std::sync::OnceLock;

/// Entries per block (a power of two).
const BLOCK: usize = 1 << 16;

/// One embedded table: its name (for messages), packed bytes, entry count, and its blocks as
/// they are decoded.
pub struct Table {
    name: &'static str,
    packed: &'static [u8],
    len: usize,
    cell: OnceLock<&'static [u32]>,
}

impl Table {
    /// A table named `name` of `len` entries, from its packed bytes.
    pub const fn new(name: &'static str, packed: &'static [u8], len: usize) -> Table {
        Table {
            name,
            packed,
            len,
            cell: OnceLock::new(),
        }
    }

    /// The table's file name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table has no entries (never, for the embedded ones).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entry `i` (`i < len`); the whole table is decoded on first use.
    #[inline]
    pub fn at(&self, i: usize) -> u32 {
        self.cell.get_or_init(|| self.decode())[i]
    }

    fn decode(&self) -> &'static [u32] {
        let out = huge_page_slice(self.len);
        for b in 0..self.len.div_ceil(BLOCK) {
            let lo = b * BLOCK;
            let hi = self.len.min(lo + BLOCK);
            // The bytes are part of the binary and every table is decoded by tests/hardware/approx.rs:
            // a failure here is a defect of the build, not of the user's input.
            if let Err(e) = decode_block(self.packed, self.len, b, &mut out[lo..hi]) {
                panic!("embedded MUFU table {} is damaged: {e}", self.name);
            }
        }
        out
    }
}

/// A zeroed `len`-entry slice that lives for the rest of the process (elsewhere than Linux: an
/// ordinary allocation).
#[cfg(not(target_os = "linux"))]
fn huge_page_slice(len: usize) -> &'static mut [u32] {
    Box::leak(vec![0u32; len].into_boxed_slice())
}

/// A zeroed `len`-entry slice that lives for the rest of the process, in memory the kernel is
/// asked to back with 2 MiB pages (`madvise(MADV_HUGEPAGE)`): lookups into tables of 32-128 MiB
/// land anywhere, and with 4 KiB pages nearly every one would also miss the TLB (measured here:
/// 102 ns per `ex2` lookup with 4 KiB pages, 15 ns with this).
#[cfg(target_os = "linux")]
fn huge_page_slice(len: usize) -> &'static mut [u32] {
    const HUGE: usize = 2 << 20;
    let bytes = (len * 4).div_ceil(HUGE) * HUGE;
    // SAFETY: an anonymous private mapping with no address hint has no preconditions; the result
    // is checked against MAP_FAILED below.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes + HUGE,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        // No mapping (address space exhausted): an ordinary leaked allocation still works.
        return Box::leak(vec![0u32; len].into_boxed_slice());
    }
    let start = (p as usize).div_ceil(HUGE) * HUGE;
    let ptr = start as *mut u32;
    // SAFETY: [start, start + bytes) lies inside the mapping just made ([p, p + bytes + HUGE),
    // since start - p < HUGE); madvise only advises, its failure is harmless.
    unsafe {
        libc::madvise(ptr as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
    }
    // SAFETY: the region is mapped readable and writable, zero-filled, aligned for u32, never
    // unmapped, and this is the only reference to it; len * 4 <= bytes.
    unsafe { std::slice::from_raw_parts_mut(ptr, len) }
}

/// Decodes block `block` of a packed table of `len` entries.
pub fn decode_block(
    packed: &[u8],
    len: usize,
    block: usize,
    out: &mut [u32],
) -> Result<(), String> {
    let word = |i: usize| -> Result<usize, String> {
        let b = packed.get(i..i + 4).ok_or("truncated")?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    if packed.get(..8) != Some(&b"GMSMUFU2"[..]) {
        return Err("bad header".into());
    }
    let (n, per, nb) = (word(8)?, word(12)?, word(16)?);
    if n != len || per != BLOCK || nb != len.div_ceil(BLOCK) || block >= nb {
        return Err(format!(
            "{n} entries in {nb} blocks of {per}, expected {len}"
        ));
    }
    let payload = 20 + 4 * (nb + 1);
    let (lo, hi) = (word(20 + 4 * block)?, word(24 + 4 * block)?);
    let frame = packed
        .get(payload + lo..payload + hi)
        .ok_or("frame out of bounds")?;
    let mut dec = ruzstd::decoding::StreamingDecoder::new(frame).map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    dec.read_to_end(&mut raw).map_err(|e| e.to_string())?;
    let entries = BLOCK.min(len - block * BLOCK);
    if raw.len() < entries || out.len() != entries {
        return Err("short block".into());
    }
    let (deltas, esc) = raw.split_at(entries);
    let mut prev = 0u32;
    let mut k = 0usize;
    for (o, &d) in out.iter_mut().zip(deltas) {
        prev = if d == 0x80 {
            let e = esc.get(4 * k..4 * k + 4).ok_or("too few escapes")?;
            k += 1;
            u32::from_le_bytes([e[0], e[1], e[2], e[3]])
        } else {
            prev.wrapping_add(d as i8 as u32)
        };
        *o = prev;
    }
    if 4 * k != esc.len() {
        return Err("too many escapes".into());
    }
    Ok(())
}

macro_rules! table {
    ($id:ident, $file:literal, $len:expr, $what:literal) => {
        #[doc = concat!($what, " (`tests/hw/h200/mufu/tables/", $file, ".mufu`).")]
        pub static $id: Table = Table::new(
            $file,
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/hw/h200/mufu/tables/",
                $file,
                ".mufu"
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
table!(
    SINCOS,
    "sincos",
    1 << 25,
    "`MUFU.SIN` of i / 2^25 turns, by i (`MUFU.COS` of i is entry i + 2^23)"
);
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
pub static ALL: [&Table; 18] = [
    &RCP, &RSQ0, &RSQ1, &SQRT0, &SQRT1, &EX2P, &EX2N, &LG2U, &LG2L, &SINCOS, &TANH, &RCP64H,
    &RSQ64H0, &RSQ64H1, &EX2_F16, &EX2_BF16, &TANH_F16, &TANH_BF16,
];
