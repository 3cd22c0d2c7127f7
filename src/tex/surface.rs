//! Surface loads and stores (`suld.b`, `sust.b`; PTX ISA 9.7.11): `size` bytes at byte `x` of
//! row `y` of slice `z` of a CUDA array. Out of range, `.trap` faults, `.zero` loads zeros and
//! drops a store, `.clamp` moves each coordinate to the nearest element inside.

use super::array::CudaArray;
use super::event::TexLane;
use super::TexFault;
use crate::ir::tex::SurfClamp;

/// One lane's access (see the module docs).
#[allow(clippy::too_many_arguments)]
pub fn access(
    a: &mut CudaArray,
    dims: usize,
    clamp: SurfClamp,
    coords: [i32; 3],
    size: u32,
    store: Option<&[u8]>,
    out: &mut [u8],
    lane: &mut TexLane,
) -> Result<(), TexFault> {
    let row = a.row_bytes();
    let [_, h, d] = a.extent();
    let extent = [row, u64::from(h), u64::from(d)];
    let tb = a.format.texel_bytes();
    let mut c = [0i64; 3];
    for k in 0..3 {
        c[k] = if k < dims { i64::from(coords[k]) } else { 0 };
    }
    // The last valid start in each dimension: bytes for x, texels for y and z.
    let last = [
        row as i64 - i64::from(size),
        i64::from(h) - 1,
        i64::from(d) - 1,
    ];
    let inside = (0..3).all(|k| c[k] >= 0 && c[k] <= last[k]);
    if !inside {
        match clamp {
            SurfClamp::Trap => {
                return Err(TexFault::SurfaceOutOfRange { coords, extent });
            }
            SurfClamp::Zero => {
                if store.is_none() {
                    out.iter_mut().for_each(|b| *b = 0);
                }
                return Ok(());
            }
            SurfClamp::Clamp => {
                for k in 0..3 {
                    c[k] = c[k].clamp(0, last[k].max(0));
                }
                // Clamped x lands on an element boundary.
                c[0] -= c[0] % i64::from(size.max(1));
            }
        }
    }
    if c[0] % i64::from(size.max(1)) != 0 {
        return Err(TexFault::Misaligned { x: coords[0], size });
    }
    let off = a.offset(0, c[1] as u32, c[2] as u32) + c[0] as usize;
    lane.texels[0] = [(c[0] / i64::from(tb)) as u32, c[1] as u32, c[2] as u32];
    lane.n = 1;
    let n = size as usize;
    match store {
        Some(src) => a.data[off..off + n].copy_from_slice(&src[..n]),
        None => out[..n].copy_from_slice(&a.data[off..off + n]),
    }
    Ok(())
}
