//! Texture sampling: coordinates to texels (address modes) and texels to the fetched value
//! (point and linear filtering), as the H200's texture unit does it.
//!
//! Public rules (CUDA C++ Programming Guide, appendix "Texture Fetching"): with normalized
//! coordinates a coordinate `u` addresses `x = u * N`; point sampling reads texel
//! `floor(x)`; linear filtering reads texels `i = floor(x - 0.5)` and `i + 1` and returns
//! `(1 - a) * T[i] + a * T[i + 1]` with `a = frac(x - 0.5)` held in 9-bit fixed point with
//! 8 fractional bits; `Clamp` clamps the texel index, `Border` reads the border colour outside
//! the texture, `Wrap` and `Mirror` (normalized coordinates only) repeat the texture or its
//! reflection. The rounding of the coordinate, of the weights and of the interpolation are
//! the H200's, measured by the sweeps in tests/hw/texture (see its README for what each sweep
//! showed): corner weights split axis by axis ([`corner_weights`]), float texels in block
//! floating point ([`block_bits`], after NVIDIA's US patent 8,098,257; by z slice in 3D,
//! [`trilinear_sum`]), 8/16-bit normalized texels in fixed point ([`from_fixed16`]).
//! Bit-exact on every filtered word of the sweeps, the trilinear float words of runs 1, 4, 5
//! and 6 included (README, "What the sweeps showed").

use super::desc::{AddressMode, FilterMode, TextureDesc};
use super::format::{decode, returns_float, ChannelFormat, ChannelType, ReadMode, Texel};

/// One axis of a texel footprint: the texel indices after the address mode (`None`: outside,
/// reads the border colour) and the weight of the second texel in 1/256 (0 to 256).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Axis {
    /// First texel.
    pub i0: Option<u32>,
    /// Second texel (linear filtering only; equal to `i0` for point sampling).
    pub i1: Option<u32>,
    /// Weight of `i1`, in 1/256.
    pub a: u32,
}

/// Fraction bits of a normalized coordinate: the H200 holds `u` as `floor(u * 2^21)` before
/// scaling it by the texture's size (measured: tests/hw/texture/README.md, "Coordinates").
pub const NORMALIZED_FRACTION_BITS: i32 = 21;

/// The largest magnitude of a normalized coordinate in fixed point (2^31, i.e. |u| < 1024):
/// larger ones saturate. Measured: u = ±1.4e29 and ±inf read texel 0 with wrap and mirror,
/// as any saturation at an integer does; the bound itself is an assumption.
const SATURATION: f64 = 2147483648.0;

/// The coordinate in texel units: a normalized `u` is first truncated to
/// [`NORMALIZED_FRACTION_BITS`] fraction bits, then scaled by `n`; denormals are flushed to
/// zero and NaN reads as 0. Exact in f64 (at most 2^-21 * 2^14 resolution against 53 bits).
#[inline]
pub fn texel_units(c: f32, n: u32, normalized: bool) -> f64 {
    if c.is_nan() || c.is_subnormal() {
        return 0.0;
    }
    let c = f64::from(c);
    if normalized {
        let scale = f64::from(1u32 << NORMALIZED_FRACTION_BITS);
        (c * scale).floor().clamp(-SATURATION, SATURATION) / scale * f64::from(n)
    } else {
        c
    }
}

/// Applies an address mode to an integer texel index for a dimension of `n` texels.
#[inline]
pub fn address(i: i64, n: u32, mode: AddressMode) -> Option<u32> {
    let n64 = i64::from(n.max(1));
    match mode {
        AddressMode::Clamp => Some(i.clamp(0, n64 - 1) as u32),
        AddressMode::Border => (0..n64).contains(&i).then_some(i as u32),
        AddressMode::Wrap => Some(i.rem_euclid(n64) as u32),
        AddressMode::Mirror => {
            let m = i.rem_euclid(2 * n64);
            Some(if m >= n64 { 2 * n64 - 1 - m } else { m } as u32)
        }
    }
}

/// The footprint of one coordinate along one axis.
pub fn axis(c: f32, n: u32, desc: &TextureDesc, dim: usize, linear: bool) -> Axis {
    let mode = desc.address[dim];
    let x = texel_units(c, n, desc.normalized);
    if !linear {
        let i = floor_i64(x);
        let t = address(i, n, mode);
        return Axis { i0: t, i1: t, a: 0 };
    }
    // The position between texel centres in 8 fraction bits: the texel index is its integer
    // part, the weight of the second texel its fraction, rounded half up (x = 1 + 4/2048 weighs
    // 1/256), normalized coordinates alike (every pixel of the rotation example at the H200's
    // own coordinates; tests/memory/texture_words.rs).
    let fixed = floor_i64((x - 0.5) * 256.0 + 0.5);
    let i = fixed >> 8;
    let a = (fixed & 255) as u32;
    Axis {
        i0: address(i, n, mode),
        i1: address(i.saturating_add(1), n, mode),
        a,
    }
}

/// `floor(x)` saturated to i64.
#[inline]
fn floor_i64(x: f64) -> i64 {
    let f = x.floor();
    if f >= 9.2e18 {
        i64::MAX / 4
    } else if f <= -9.2e18 {
        i64::MIN / 4
    } else {
        f as i64
    }
}

/// The weight of each corner of the footprint, in 1/256, as the H200's filter forms them from
/// the per-axis weights `ax`, `ay` (and `az`). Corner `c` takes the second texel along axis `k`
/// when bit `k` of `c` is set.
///
/// The filter splits the whole weight 256 along the axes from the last to the first, rounding
/// each split (measured: every 1D and 2D filtered word of the sweeps and every 3D one of integer
/// texels; the trilinear weights one corner at a time, all 200,704 records of
/// `tests/hw/texture/sweep.cu`'s targeted sweep, tests/hw/texture/README.md):
/// - along z (3D), exactly: the slice of the first texel weighs `256 - az`, the second `az`;
/// - in each slice of weight `T`, along x: the second column weighs `round(T * ax / 256)`,
///   rounded half up, the first the rest;
/// - in each column of weight `C`, along y: the second row weighs `C * ay / 256` rounded half up
///   in the column of the second texel along x and half down in the first, the first row the
///   rest.
///
/// In 2D (`T = 256`) this is `w11 = round(ax * ay / 256)` half up with the other three
/// completing each axis's weight exactly, `w10 = ax - w11`, `w01 = ay - w11`,
/// `w00 = 256 - ax - ay + w11` (found with the 1D border ramp, where x = 1 + k/2048 reads
/// 97/256 from k = 4, and the 2D random points). Of the 200,704 trilinear records, rounding
/// each product of three per-axis weights on its own leaves 104,765 off, the rule above with
/// the first column's split half up 14,932, the x-z bilinear weights split along y (the fit
/// before the targeted sweep) 27,005.
pub fn corner_weights(axes: &[Axis]) -> [u32; 8] {
    let mut w = [0u32; 8];
    // `part * a / 256` rounded half up, or half down.
    let up = |part: u32, a: u32| (part * a + 128) >> 8;
    let down = |part: u32, a: u32| (part * a + 127) >> 8;
    // Splits a slice of weight `t` along x, then each column along y, into w[base..base + 4].
    let slice = |w: &mut [u32], t: u32, ax: u32, ay: u32| {
        let x1 = up(t, ax);
        let x0 = t - x1;
        let (y11, y01) = (up(x1, ay), down(x0, ay));
        w.copy_from_slice(&[x0 - y01, x1 - y11, y01, y11]);
    };
    match axes {
        [x] => {
            w[0] = 256 - x.a;
            w[1] = x.a;
        }
        [x, y] => slice(&mut w[..4], 256, x.a, y.a),
        [x, y, z] => {
            slice(&mut w[..4], 256 - z.a, x.a, y.a);
            slice(&mut w[4..], z.a, x.a, y.a);
        }
        _ => w[0] = 256,
    }
    w
}

/// Whether corner `c`'s texel takes part at all: the exact product of its per-axis weights is
/// not zero (measured: a tap of weight zero is not fetched, a bilinear fetch on texel centres
/// touches the sectors of one texel; tests/memory/texture_counters.rs, `f32_linear_centre_*`).
fn fetched(axes: &[Axis], c: usize) -> bool {
    axes.iter().enumerate().all(|(k, ax)| {
        let f = if c >> k & 1 == 1 { ax.a } else { 256 - ax.a };
        f != 0
    })
}

/// `x` (exact) rounded to f32, to nearest with ties away from zero (measured on the rotation
/// example: of 127,000 results exactly halfway between two floats, the H200 returned the larger
/// magnitude).
fn round_half_away(x: f64) -> f32 {
    let r = x as f32;
    let rd = f64::from(r);
    if rd == x || !x.is_finite() {
        return r;
    }
    // The neighbour on the other side of x.
    let other = if rd < x {
        f32::from_bits(if r >= 0.0 {
            r.to_bits() + 1
        } else {
            r.to_bits() - 1
        })
    } else {
        f32::from_bits(if r > 0.0 {
            r.to_bits() - 1
        } else {
            r.to_bits() + 1
        })
    };
    let (dr, dother) = ((x - rd).abs(), (x - f64::from(other)).abs());
    if dr == dother && other.abs() > r.abs() {
        other
    } else {
        r
    }
}

/// `x` (exact) rounded to f16, to nearest with ties away from zero, returned as f32 (measured:
/// every filtered f16 word of the sweeps is an f16 value, rounded so).
fn round_half_away_f16(x: f64) -> f32 {
    if x == 0.0 || !x.is_finite() {
        return x as f32;
    }
    // The spacing of f16 values at |x|: 2^(e - 10), with subnormals below 2^-14.
    let e = ((((x.to_bits() >> 52) & 0x7ff) as i32) - 1023).max(-14);
    let ulp = 2f64.powi(e - 10);
    let n = (x.abs() / ulp + 0.5).floor();
    let v = (n * ulp).copysign(x);
    if v.abs() > 65504.0 {
        f32::INFINITY.copysign(x as f32)
    } else {
        v as f32
    }
}

/// Mantissa bits of the filter's block floating point: the float texels of one footprint share
/// the exponent of the largest (of the taps with non-zero weight) and keep this many bits of
/// it, the rest truncated toward zero, before the fixed-point weighting (NVIDIA's floating-
/// point texture filter, US patent 8,098,257: "groups of floating-point texture values are
/// converted to products of a fixed-point mantissa and a scaling factor that is the same for
/// each texture value in the group"). Measured: 28 bits for f32 texels, 15 for f16 (every
/// filtered f32 and f16 word of the 1D and 2D sweeps; 27 or 29, 14 or 16 leave words off).
fn block_bits(ty: ChannelType) -> i32 {
    if ty == ChannelType::F16 {
        15
    } else {
        28
    }
}

/// The block floating-point sum `Σ w_i v_i / 256` of float taps and the block's exponent
/// (`None` when no tap of non-zero weight is non-zero: then the sum is 0), or `None` when a
/// tap is not finite (then the exact sum, which carries the infinity or NaN, is used).
fn block_sum(taps: &[(u32, f64)], bits: i32) -> Option<(f64, Option<i32>)> {
    let mut e_max = i32::MIN;
    for &(w, v) in taps {
        if !v.is_finite() {
            return None;
        }
        if w != 0 && v != 0.0 {
            // f32 and f16 values are normal f64s: the exponent field is exact.
            e_max = e_max.max(((v.to_bits() >> 52) & 0x7ff) as i32 - 1023);
        }
    }
    if e_max == i32::MIN {
        return Some((0.0, None));
    }
    let shift = bits - 1 - e_max;
    let mut acc: i64 = 0;
    for &(w, v) in taps {
        if w != 0 {
            // |m| < 2^bits; exact scaling by a power of two, truncation toward zero.
            let m = (v * 2f64.powi(shift)).trunc() as i64;
            acc += i64::from(w) * m;
        }
    }
    // |acc| < 2^(bits + 11): exact in f64, as is the power-of-two scaling.
    Some((acc as f64 * 2f64.powi(-shift - 8), Some(e_max)))
}

/// The block floating-point sum of a footprint's float taps: one block for 1D and 2D, one per
/// z slice (corners 0-3 and 4-7) for 3D. The two slice sums meet in an accumulator whose
/// exponent is the larger block exponent `E` lowered to the next `4k + 1` below or at it,
/// `E' = E - ((E - 1) mod 4)`; its step is the block step there, `2^(E' - bits + 1 - 8)`.
/// The sum of the slice of the larger exponent lies on that step already; the other slice's
/// sum is floored to it (rounded toward minus infinity, as a two's complement shift does),
/// and the two are added exactly.
///
/// Measured (tests/hw/texture/README.md): run 6's probes, slices that cancel to exactly 0 but
/// keep a large block exponent next to slices of one value, show the floor and its step
/// directly (the step is `2^-((E - 1) mod 4)` of the block step, read off 65,536 words); the
/// rule then leaves no word off among all trilinear float words of runs 1, 4, 5 and 6 (f32
/// and f16 alike). Adding the slice sums exactly leaves 187 words of runs 1, 4 and 5 off,
/// flooring at the block step itself (no lowering of `E`) 203, one 8-tap block 534 + 745 of
/// run 4's 16,384 random-cube words.
///
/// Returned as an exact f64 (both sums are integers of at most `bits + 14` bits in the step).
fn trilinear_sum(taps: &[(u32, f64)], bits: i32) -> Option<f64> {
    if taps.len() != 8 {
        return block_sum(taps, bits).map(|(s, _)| s);
    }
    let ((a, ea), (b, eb)) = (block_sum(&taps[..4], bits)?, block_sum(&taps[4..], bits)?);
    let (big, small, e) = match (ea, eb) {
        (Some(ea), Some(eb)) if ea >= eb => (a, b, ea),
        (Some(_), Some(eb)) => (b, a, eb),
        // One slice sums to 0 (no non-zero tap of non-zero weight): the other alone.
        _ => return Some(a + b),
    };
    let step = 2f64.powi(e - (e - 1).rem_euclid(4) - bits + 1 - 8);
    Some(big + (small / step).floor() * step)
}

/// A channel's value in the filter's 16-bit fixed point, for 8- and 16-bit integer channels read
/// as normalized floats: unsigned 8-bit `v` becomes `v * 257` (exact unorm16), 16-bit channels
/// stay as they are; signed 8-bit channels are filtered as they are (see [`from_fixed16`]). `None`
/// for other formats, which filter in block floating point.
fn fixed16(f: ChannelFormat, read: ReadMode, bytes: &[u8], c: usize) -> Option<i32> {
    if read != ReadMode::NormalizedFloat {
        return None;
    }
    let n = f.ty.bytes() as usize;
    let b = &bytes[c * n..c * n + n];
    Some(match f.ty {
        ChannelType::U8 => i32::from(b[0]) * 257,
        // -128 is not clamped to -127 before filtering (measured: a footprint of -128, 80,
        // -58, -115 at 1/4 each reads -14255 / 32767, which -127 would not give).
        ChannelType::I8 => i32::from(b[0] as i8),
        ChannelType::U16 => i32::from(u16::from_le_bytes([b[0], b[1]])),
        ChannelType::I16 => i32::from(i16::from_le_bytes([b[0], b[1]])),
        _ => return None,
    })
}

/// The fixed-point sum `acc` (texel units times 256) as a float: 16-bit results round half up
/// to a 16-bit step and read as the point-sampled decode does (`v / 65535`,
/// `max(v / 32767, -1)`).
///
/// Signed 8-bit results (`S`, 8-bit texel units times 256, -32768 to 32512) are widened to a
/// 16-bit step `k = S + floor((S + 64 + 16 * floor(S / 4096)) / 128)`, then read as
/// `max(k / 32767, -1)`: `S` times 1 + 2^-7 + 2^-15, the last term from S's top bits alone,
/// which on whole texel values `S = 256 v` is the bit replication `v << 8 | v << 1 | v >> 6`
/// that makes 127 read 32767. Measured (run 4, tests/hw/texture/README.md): a ramp of signed
/// 8-bit texels -128 to 127 read at every weight between each pair of neighbours gives every
/// `S` once, all 65,281 equal; `round(S * 32767 / 32512)`, the exact scaling, leaves 3,824 off.
fn from_fixed16(ty: ChannelType, acc: i64) -> u32 {
    match ty {
        ChannelType::U8 | ChannelType::U16 => (((acc + 128) >> 8) as f32 / 65535.0).to_bits(),
        ChannelType::I8 => {
            let k = acc + ((acc + 64 + ((acc >> 12) << 4)) >> 7);
            (k as f32 / 32767.0).max(-1.0).to_bits()
        }
        _ => (((acc + 128) >> 8) as f32 / 32767.0).max(-1.0).to_bits(),
    }
}

/// What a texel of the footprint holds: its bytes, or the border colour.
pub enum Corner<'a> {
    /// A texel inside the texture.
    Texel(&'a [u8]),
    /// Outside, with `Border`.
    Border,
}

/// The fetched value from the texels of a footprint: `texel(ix, iy, iz)` returns a texel's
/// bytes (recording the access), or `None` when it cannot be read (then the border colour).
pub fn filter<'a>(
    desc: &TextureDesc,
    format: ChannelFormat,
    axes: &[Axis],
    texel: &mut dyn FnMut([u32; 3]) -> Option<&'a [u8]>,
) -> [u32; 4] {
    let border = border_texel(desc, format);
    let pick = |a: &Axis, second: bool| if second { a.i1 } else { a.i0 };
    let get = |k: usize, second: bool| axes.get(k).map_or(Some(0), |a| pick(a, second));
    let mut read = |ix: [Option<u32>; 3]| match ix {
        [Some(x), Some(y), Some(z)] => texel([x, y, z]).map_or(Corner::Border, Corner::Texel),
        _ => Corner::Border,
    };
    if desc.filter == FilterMode::Point || !returns_float(format, desc.read) {
        return match read([get(0, false), get(1, false), get(2, false)]) {
            Corner::Texel(b) => decode(format, desc.read, b).w,
            Corner::Border => border.w,
        };
    }
    let dims = axes.len();
    // With `Clamp`, an axis whose two texels are one texel (the coordinate beyond the first or
    // last texel centre) weighs it whole: the weights are formed as if the coordinate were
    // clamped to that centre (measured: the targeted sweep's 3D random points, 1,112 of 8,192
    // unsigned 8-bit ones off without this, 0 with it; `Mirror`, whose edge texel is also read
    // twice, keeps its weight: 14 of the first sweep's mirrored 3D words would be off; in 1D
    // and 2D the weights along the other axes do not depend on it). The taps fetched stay
    // those of the coordinate ([`fetched`]).
    let mut centred = [Axis {
        i0: None,
        i1: None,
        a: 0,
    }; 3];
    for ((w, a), mode) in centred.iter_mut().zip(axes).zip(desc.address) {
        *w = *a;
        if mode == AddressMode::Clamp && a.i0.is_some() && a.i0 == a.i1 {
            w.a = 0;
        }
    }
    let weights = corner_weights(&centred[..dims]);
    let border16 = border_fixed16(desc, format);
    let fixed = fixed16(format, desc.read, &[0u8; 8], 0).is_some();
    let mut acc16 = [0i64; 4];
    let mut taps = [[(0u32, 0f64); 8]; 4];
    for (c, &w) in weights.iter().enumerate().take(1 << dims) {
        if !fetched(axes, c) {
            continue;
        }
        let corner = read([get(0, c & 1 != 0), get(1, c & 2 != 0), get(2, c & 4 != 0)]);
        for k in 0..format.channels as usize {
            if fixed {
                let v = match &corner {
                    Corner::Texel(b) => fixed16(format, desc.read, b, k).unwrap_or(0),
                    Corner::Border => border16[k],
                };
                acc16[k] += i64::from(v) * i64::from(w);
            } else {
                let v = match &corner {
                    Corner::Texel(b) => f32::from_bits(decode(format, desc.read, b).w[k]),
                    Corner::Border => f32::from_bits(border.w[k]),
                };
                taps[k][c] = (w, f64::from(v));
            }
        }
    }
    let mut out = [0u32; 4];
    for k in 0..format.channels as usize {
        out[k] = if fixed {
            from_fixed16(format.ty, acc16[k])
        } else {
            let t = &taps[k][..1 << dims];
            match trilinear_sum(t, block_bits(format.ty)) {
                Some(x) if format.ty == ChannelType::F16 => round_half_away_f16(x).to_bits(),
                Some(x) => round_half_away(x).to_bits(),
                None => {
                    let x: f64 = t.iter().map(|&(w, v)| v * f64::from(w) / 256.0).sum();
                    (x as f32).to_bits()
                }
            }
        };
    }
    out
}

/// The border colour in the filter's 16-bit fixed point (8- and 16-bit normalized reads): its
/// encoding ([`encode_border`]) widened as a texel is.
fn border_fixed16(desc: &TextureDesc, format: ChannelFormat) -> [i32; 4] {
    let mut b = [0i32; 4];
    for (k, slot) in b.iter_mut().enumerate().take(format.channels as usize) {
        let e = encode_border(format.ty, desc.border[k]).unwrap_or(0);
        *slot = match format.ty {
            ChannelType::U8 => e * 257,
            _ => e,
        };
    }
    b
}

/// The border colour channel `v` stored in an 8- or 16-bit integer channel's normalized
/// encoding: clamped to [0, 1] (unsigned) or [-1, 1] (signed), times the largest value,
/// rounded half up (measured: 0.25 reads 64/255 from a u8 texture, -0.5 reads -63/127 from an
/// i8 one).
fn encode_border(ty: ChannelType, v: f32) -> Option<i32> {
    let v = f64::from(v);
    let (lo, max) = match ty {
        ChannelType::U8 => (0.0, 255.0),
        ChannelType::U16 => (0.0, 65535.0),
        ChannelType::I8 => (-1.0, 127.0),
        ChannelType::I16 => (-1.0, 32767.0),
        _ => return None,
    };
    let v = if v.is_nan() { 0.0 } else { v.clamp(lo, 1.0) };
    Some((v * max + 0.5).floor() as i32)
}

/// The border colour as a fetch returns it (measured): the format's channels of
/// `borderColor`, the others 0; for 8- and 16-bit integer channels read as normalized floats
/// the colour as that encoding holds it, decoded again; for them read as integers, 0; for
/// `f16` channels the colour rounded to f16; for 32-bit channels its f32 bits.
pub fn border_texel(desc: &TextureDesc, format: ChannelFormat) -> Texel {
    let mut w = [0u32; 4];
    for (k, slot) in w.iter_mut().enumerate().take(format.channels as usize) {
        let v = desc.border[k];
        *slot = match (format.ty, desc.read) {
            (ChannelType::F32 | ChannelType::U32 | ChannelType::I32, _) => v.to_bits(),
            (ChannelType::F16, _) => half::f16::from_f32(v).to_f32().to_bits(),
            (ty, ReadMode::NormalizedFloat) => {
                let e = encode_border(ty, v).unwrap_or(0);
                match ty {
                    ChannelType::U8 => (e as f32 / 255.0).to_bits(),
                    ChannelType::U16 => (e as f32 / 65535.0).to_bits(),
                    ChannelType::I8 => (e as f32 / 127.0).max(-1.0).to_bits(),
                    _ => (e as f32 / 32767.0).max(-1.0).to_bits(),
                }
            }
            (_, ReadMode::ElementType) => 0,
        };
    }
    Texel { w }
}
