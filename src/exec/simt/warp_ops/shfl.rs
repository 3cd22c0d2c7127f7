//! `shfl.sync` (PTX ISA 9.0, §9.7.9.6) and SASS `SHFL`: each lane reads operand `a` of a
//! source lane computed from `b` and `c`.
//!
//! A source lane that does not execute the instruction (inactive in divergent code, or
//! predicated off) gives 0, on both instruction sets. The PTX ISA leaves that value
//! unpredictable ("Value of SourceA[lane] is unpredictable for inactive/predicated-off threads
//! in warp", the pseudocode of §9.7.9.6; "results are undefined in divergent control flow
//! within a warp, if an active thread sources a register from an inactive thread"). The H200
//! gives 0: the corpus's reduce7<float> (tests/corpus/reduction), whose lanes 0-7 shuffle down
//! from lanes 16-23 that wait elsewhere, matches the H200's recorded result only so (commit
//! 6654a31, which made the SASS path read 0; the PTX path read the stale register until it
//! was made to share this function, issue 27).

use super::lanes;
use crate::ir::ShflMode;

/// The lane `lane` reads from, and whether that lane is valid (in range), for source-lane
/// operand `b` and the clamp/segment operand `c` (PTX ISA §9.7.9.6: `c` packs the segment mask
/// in bits 8-12 and the clamp value in bits 0-4). An invalid source reads the lane itself.
#[inline(always)]
pub(crate) fn source(mode: ShflMode, lane: usize, b: u32, c: u32) -> (usize, bool) {
    let bval = b & 0x1f;
    let seg = (c >> 8) & 0x1f;
    let cval = c & 0x1f;
    let l = lane as u32;
    let max_lane = (l & seg) | (cval & !seg);
    let min_lane = l & seg;
    let (j, ok) = match mode {
        ShflMode::Up => {
            let j = l as i32 - bval as i32;
            (j, j >= max_lane as i32)
        }
        ShflMode::Down => {
            let j = l + bval;
            (j as i32, j <= max_lane)
        }
        ShflMode::Bfly => {
            let j = l ^ bval;
            (j as i32, j <= max_lane)
        }
        ShflMode::Idx => {
            let j = min_lane | (bval & !seg);
            (j as i32, j <= max_lane)
        }
    };
    (if ok { j as usize & 31 } else { lane }, ok)
}

/// The shuffle of the executing lanes `e`: per lane of `e`, the 32-bit value of its source
/// lane's `a` (0 when the source lane is not in `e`, see the module docs), and the lanes whose
/// source lane was in range (the predicate destination). Lanes outside `e` are 0.
#[inline(always)]
pub(crate) fn exchange(
    mode: ShflMode,
    e: u32,
    a: &[u32; 32],
    b: &[u32; 32],
    c: &[u32; 32],
) -> ([u32; 32], u32) {
    let mut out = [0u32; 32];
    let mut in_range = 0u32;
    for l in lanes(e) {
        let (j, ok) = source(mode, l, b[l], c[l]);
        out[l] = if e >> j & 1 == 1 { a[j] } else { 0 };
        in_range |= (ok as u32) << l;
    }
    (out, in_range)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_inactive_source_lane_gives_zero() {
        let a: [u32; 32] = std::array::from_fn(|l| 100 + l as u32);
        let b = [16u32; 32];
        let c = [0x1fu32; 32];
        // Lanes 0-7 execute and shuffle down by 16 from lanes 16-23, which do not.
        let (out, ok) = exchange(ShflMode::Down, 0xff, &a, &b, &c);
        assert_eq!(&out[..8], &[0; 8]);
        assert_eq!(ok, 0xff);
        // With lanes 16-23 executing too, lanes 0-7 read them.
        let (out, _) = exchange(ShflMode::Down, 0x00ff_00ff, &a, &b, &c);
        assert_eq!(out[3], 119);
        assert_eq!(out[16], 116, "out of range: the lane's own value");
    }

    #[test]
    fn source_lanes_follow_the_ptx_isa_pseudocode() {
        // .up by 1 in segments of 8 (c = 0x1800 | 0): lane 8 is the first of its segment.
        assert_eq!(source(ShflMode::Up, 8, 1, 0x1800), (8, false));
        assert_eq!(source(ShflMode::Up, 9, 1, 0x1800), (8, true));
        // .idx 3 in segments of 8 (c = 0x1807): lane 13 reads lane 11.
        assert_eq!(source(ShflMode::Idx, 13, 3, 0x1807), (11, true));
        // .bfly 1 over the warp.
        assert_eq!(source(ShflMode::Bfly, 6, 1, 0x1f), (7, true));
    }
}
