//! Would a texture serve a 2D pattern of global loads better? The seed's reason for texture
//! memory: a CUDA array is laid out block-linear ([`super::layout`]), so a warp reading down a
//! column touches sectors of 16 bytes by 2 rows instead of one 32-byte sector per row.
//!
//! For each uncoalesced global load (more than 8 sectors per request) whose lanes step by a
//! common stride of at least 128 bytes (the row pitch of a 2D access: a column, or a tile taller
//! than it is wide), this counts the distinct sectors the same bytes occupy row-major (what the
//! load touched) and block-linear (what a `tex2D` fetch of a float array of that pitch would
//! touch, [`super::layout::BlockLinear`]); the report suggests a texture when block-linear needs
//! at most three quarters. The pitch is the lanes' own stride, not a guess at the array's width;
//! the origin of the rows is address 0 (allocations are 256-byte aligned, so this shifts no
//! column across a GOB).
//!
//! Measured on the H200 (tests/hw/h200/texture_mem/ncu/tex_probe.csv, a 256 x 256 float image,
//! the same index arithmetic as global loads and as `tex2D`): a column per warp costs 65,536
//! global-load sectors and 55,396 L2 sectors (`gld_col`), through a texture 32,768 sectors and
//! 25,188 L2 sectors (`f32_point_col`); a row costs 8,192 and 8,192 either way, so no advice.

use crate::mem::request::{AccessKind, MemRequest, Space};

use super::layout::{gob_offset, GOB_BYTES};

/// Row-major and block-linear distinct sectors of one uncoalesced 2D global load, or `None`
/// when the request is coalesced or has no row stride.
pub fn block_linear_sectors(req: &MemRequest) -> Option<(u64, u64)> {
    if req.space != Space::Global || req.kind != AccessKind::Load || req.mask.count_ones() < 4 {
        return None;
    }
    let lanes = || (0..32usize).filter(move |l| req.mask >> l & 1 == 1);
    let width = u64::from(req.width.max(1));
    // The row pitch: the smallest stride of at least 128 bytes between consecutive lanes
    // (checked first: most uncoalesced loads have none and cost nothing more).
    let mut pitch = u64::MAX;
    let mut prev: Option<u64> = None;
    for l in lanes() {
        let a = req.addrs[l];
        if let Some(p) = prev {
            let d = a.abs_diff(p);
            if d >= 128 {
                pitch = pitch.min(d);
            }
        }
        prev = Some(a);
    }
    if pitch == u64::MAX {
        return None;
    }
    let mut rm = [0u64; 64];
    let mut n_rm = 0;
    for l in lanes() {
        let a = req.addrs[l];
        for s in a / 32..=(a + width - 1) / 32 {
            if n_rm < rm.len() && !rm[..n_rm].contains(&s) {
                rm[n_rm] = s;
                n_rm += 1;
            }
        }
    }
    if n_rm <= 8 {
        return None;
    }
    // Block-linear with GOBs 64 bytes wide: a row of `pitch` bytes has ceil(pitch / 64) GOBs;
    // blocks one GOB high (the sector set does not depend on the block height).
    let gobs_x = pitch.div_ceil(64);
    let mut bl = [0u64; 64];
    let mut n_bl = 0;
    for l in lanes() {
        let a = req.addrs[l];
        for b in (a..a + width).step_by(16) {
            let (y, x) = (b / pitch, b % pitch);
            let off = ((y / 8) * gobs_x + x / 64) * GOB_BYTES + gob_offset(x, (y % 8) as u32);
            let s = off / 32;
            if n_bl < bl.len() && !bl[..n_bl].contains(&s) {
                bl[n_bl] = s;
                n_bl += 1;
            }
        }
    }
    Some((n_rm as u64, n_bl as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::request::CacheOp;

    fn load(addr: impl Fn(u64) -> u64) -> MemRequest {
        let mut addrs = [0; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = addr(l as u64);
        }
        MemRequest {
            warp: 0,
            space: Space::Global,
            kind: AccessKind::Load,
            width: 4,
            addrs,
            mask: u32::MAX,
            pc: 0,
            cache_op: CacheOp::Default,
            cas: crate::mem::request::Cas::No,
            ldgsts: false,
        }
    }

    #[test]
    fn a_column_of_floats_needs_half_the_sectors_block_linear() {
        // 32 rows of a 1024-byte pitch: 32 sectors row-major, 16 block-linear (2 rows each).
        assert_eq!(
            block_linear_sectors(&load(|l| 4096 + l * 1024)),
            Some((32, 16))
        );
        // A row is coalesced: no advice.
        assert_eq!(block_linear_sectors(&load(|l| 4096 + l * 4)), None);
        // Two adjacent columns of 16 rows: 16 sectors row-major, 8 block-linear.
        let tall = load(|l| (l / 16) * 4 + (l % 16) * 1024);
        assert_eq!(block_linear_sectors(&tall), Some((16, 8)));
        // A 64-byte by 8-row tile is one GOB either way: 16 and 16, no gain.
        let tile = load(|l| (l / 8) * 16 + (l % 8) * 1024);
        assert_eq!(block_linear_sectors(&tile), Some((16, 16)));
    }
}
