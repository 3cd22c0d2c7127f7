//! Texture sampling: coordinates to texels (address modes) and texels to the fetched value
//! (point and linear filtering), as the H200's texture unit does it.
//!
//! Public rules (CUDA C++ Programming Guide, appendix "Texture Fetching"): with normalized
//! coordinates a coordinate `u` addresses `x = u * N`; point sampling reads texel
//! `floor(x)`; linear filtering reads texels `i = floor(x - 0.5)` and `i + 1` and returns
//! `(1 - a) * T[i] + a * T[i + 1]` with `a = frac(x - 0.5)` held in 9-bit fixed point with
//! 8 fractional bits; `Clamp` clamps the texel index, `Border` reads the border colour outside
//! the texture, `Wrap` and `Mirror` (normalized coordinates only) repeat the texture or its
//! reflection. The rounding of the coordinate, of the weight and of the interpolation are
//! the H200's, measured by the sweeps in tests/hw/texture (see its README for what each sweep
//! showed).

use super::desc::{AddressMode, FilterMode, TextureDesc};
use super::format::{returns_float, ChannelFormat, ReadMode, Texel};

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

/// The coordinate in texel units, as the texture unit holds it: a fixed-point value with 8
/// fractional bits (`x * 256`), saturated to the i64 range; NaN reads as 0.
#[inline]
pub fn texel_units(c: f32, n: u32, normalized: bool) -> f64 {
    let x = if normalized {
        f64::from(c) * f64::from(n)
    } else {
        f64::from(c)
    };
    if x.is_nan() {
        0.0
    } else {
        x
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
    let xb = x - 0.5;
    let fixed = fixed8(xb);
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

/// `x` in fixed point with 8 fractional bits (rounded down), saturated.
#[inline]
fn fixed8(x: f64) -> i64 {
    floor_i64(x * 256.0)
}

/// Linear interpolation of one channel with weight `a` / 256 of `t1`.
#[inline]
pub fn lerp(t0: f32, t1: f32, a: u32) -> f32 {
    let w = a as f32 / 256.0;
    (1.0 - w) * t0 + w * t1
}

/// The fetched value from the texels of a footprint: `texel(ix, iy, iz)` returns the decoded
/// texel, or `None` for a border texel (then the border colour is used).
pub fn filter(
    desc: &TextureDesc,
    format: ChannelFormat,
    axes: &[Axis],
    texel: &mut dyn FnMut([u32; 3]) -> Option<Texel>,
) -> [u32; 4] {
    let border = border_texel(desc, format);
    let read = |ix: [Option<u32>; 3], texel: &mut dyn FnMut([u32; 3]) -> Option<Texel>| match ix {
        [Some(x), Some(y), Some(z)] => texel([x, y, z]).unwrap_or(border),
        _ => border,
    };
    let pick = |a: &Axis, second: bool| if second { a.i1 } else { a.i0 };
    let get = |k: usize, second: bool| axes.get(k).map_or(Some(0), |a| pick(a, second));
    if desc.filter == FilterMode::Point || !returns_float(format, desc.read) {
        return read([get(0, false), get(1, false), get(2, false)], texel).w;
    }
    // Linear: interpolate along x, then y, then z.
    let dims = axes.len();
    let mut corners = [[0f32; 4]; 8];
    for (c, corner) in corners.iter_mut().enumerate().take(1 << dims) {
        let ix = [get(0, c & 1 != 0), get(1, c & 2 != 0), get(2, c & 4 != 0)];
        let t = read(ix, texel);
        for (slot, w) in corner.iter_mut().zip(t.w) {
            *slot = f32::from_bits(w);
        }
    }
    let mut out = [0u32; 4];
    for (k, o) in out.iter_mut().enumerate() {
        let mut v = [0f32; 8];
        for c in 0..(1 << dims) {
            v[c] = corners[c][k];
        }
        let mut n = 1 << dims;
        for axis in axes.iter() {
            n /= 2;
            for c in 0..n {
                v[c] = lerp(v[2 * c], v[2 * c + 1], axis.a);
            }
        }
        *o = v[0].to_bits();
    }
    out
}

/// The border colour as a fetch returns it.
pub fn border_texel(desc: &TextureDesc, format: ChannelFormat) -> Texel {
    let float = returns_float(format, desc.read);
    let mut w = [0u32; 4];
    for (k, slot) in w.iter_mut().enumerate() {
        *slot = if float {
            desc.border[k].to_bits()
        } else {
            desc.border[k] as i32 as u32
        };
    }
    let _ = ReadMode::ElementType;
    Texel { w }
}
