//! Initial contents of buffers and symbols: `zeros`, `iota`, `fill:V`, `file:PATH`,
//! `random:SEED` and `values`. The rules are defined in the [`crate::spec`] module docs; the
//! CUDA host-program export ([`crate::export::cuda`]) generates the same bytes in C.

use super::elem::{f32_to_bits, int_bits, push_bits, Bits, ElemType};
use std::path::PathBuf;

/// How a buffer or symbol is initialised.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    /// All bytes zero (the default).
    Zeros,
    /// `none`: `cudaMalloc` without a copy; the contents are undefined on a GPU (the simulator
    /// holds zeros) and `--check initcheck` reports kernel reads of them.
    Uninit,
    /// Element `i` holds `i` converted to the type.
    Iota,
    /// Every element holds these bits (the `V` of `fill:V`, already converted).
    Fill(u64),
    /// Raw little-endian bytes read from this file (absolute path), exactly `len * size` bytes.
    File(PathBuf),
    /// A splitmix64 stream seeded with this value, one draw per element.
    Random(u64),
    /// The elements written in `values`, converted to their bits.
    Values(Vec<u64>),
}

/// The splitmix64 generator (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number
/// Generators", OOPSLA 2014; constants as in Vigna's public-domain `splitmix64.c`).
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose state starts at `seed` (the first draw adds the increment first).
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The bits of element `i` of an `iota` initialisation.
pub(crate) fn iota_bits(ty: ElemType, i: u64) -> Bits {
    match ty {
        ElemType::F64 => (i as f64).to_bits(),
        ElemType::F32 | ElemType::F16 | ElemType::Bf16 => f32_to_bits(ty, i as f32),
        _ => int_bits(ty, i128::from(i)),
    }
}

/// The bits one splitmix64 draw gives for an element of type `ty`.
pub(crate) fn random_bits(ty: ElemType, draw: u64) -> Bits {
    match ty {
        ElemType::F64 => ((draw >> 11) as f64 / 9_007_199_254_740_992.0).to_bits(),
        ElemType::F32 | ElemType::F16 | ElemType::Bf16 => {
            f32_to_bits(ty, (draw >> 40) as f32 / 16_777_216.0)
        }
        _ => int_bits(ty, i128::from(draw)),
    }
}

/// The bytes of a generated (not file) initialisation of `len` elements; `None` when the host
/// cannot allocate them (the caller reports it; nothing aborts).
pub(crate) fn generated_bytes(ty: ElemType, len: u64, init: &Init) -> Option<Vec<u8>> {
    let n = usize::try_from(len).ok()?;
    let mut out = Vec::new();
    out.try_reserve_exact(n.checked_mul(ty.size())?).ok()?;
    match init {
        Init::Zeros | Init::Uninit | Init::File(_) => out.resize(n * ty.size(), 0),
        Init::Iota => (0..len).for_each(|i| push_bits(&mut out, ty, iota_bits(ty, i))),
        Init::Fill(bits) => (0..len).for_each(|_| push_bits(&mut out, ty, *bits)),
        Init::Random(seed) => {
            let mut g = SplitMix64::new(*seed);
            (0..len).for_each(|_| push_bits(&mut out, ty, random_bits(ty, g.next_u64())));
        }
        Init::Values(v) => v.iter().for_each(|b| push_bits(&mut out, ty, *b)),
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_stream() {
        // Seed 1234567, the first draws of Vigna's splitmix64.c (also quoted as the test vector
        // of the Java SplittableRandom port): 6457827717110365317, 3203168211198807973.
        let mut g = SplitMix64::new(1_234_567);
        assert_eq!(g.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(g.next_u64(), 3_203_168_211_198_807_973);
    }

    #[test]
    fn iota_rules() {
        // Ints wrap: index 257 as u8 = 1; as i8 index 200 = -56 = 0xc8.
        assert_eq!(iota_bits(ElemType::U8, 257), 1);
        assert_eq!(iota_bits(ElemType::I8, 200), 0xc8);
        // f32 3 = 0x40400000; f16 2049 is a tie between 2048 and 2050: even mantissa is 2048
        // (0x6800); 2051 rounds up to 2052 (0x6802); bf16 257 ties to 256 (0x4380).
        assert_eq!(iota_bits(ElemType::F32, 3), 0x4040_0000);
        assert_eq!(iota_bits(ElemType::F16, 2049), 0x6800);
        assert_eq!(iota_bits(ElemType::F16, 2051), 0x6802);
        assert_eq!(iota_bits(ElemType::Bf16, 257), 0x4380);
        assert_eq!(iota_bits(ElemType::F64, 1), 0x3ff0_0000_0000_0000);
    }

    #[test]
    fn random_rules() {
        // draw = 0xFFFF_FF00_0000_0000: the top 24 bits are all ones, so f32 = (2^24-1)/2^24
        // = 0x3f7fffff; in f16 that rounds up to 1.0 = 0x3c00.
        let d = 0xFFFF_FF00_0000_0000u64;
        assert_eq!(random_bits(ElemType::F32, d), 0x3f7f_ffff);
        assert_eq!(random_bits(ElemType::F16, d), 0x3c00);
        assert_eq!(random_bits(ElemType::U16, 0x1234_5678_9abc_def0), 0xdef0);
        // f64 = (draw >> 11) / 2^53: draw 1 << 63 gives 0.5.
        assert_eq!(random_bits(ElemType::F64, 1 << 63), 0x3fe0_0000_0000_0000);
    }
}
