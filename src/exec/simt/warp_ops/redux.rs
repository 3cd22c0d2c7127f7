//! `redux.sync` (PTX ISA 9.0, §9.7.13.x "redux.sync") and SASS `REDUX`: a reduction of a
//! 32-bit value over each group of [`Participants`] ("across all non-exited threads in the
//! membermask"; `.add` truncated to 32 bits).

use super::{lanes, Participants};
use crate::ir::ReduxOp;

/// The reduction of `vals` over the lanes of `g`.
#[inline(always)]
pub(crate) fn reduce(op: ReduxOp, signed: bool, vals: &[u32; 32], g: u32) -> u32 {
    let it = lanes(g).map(|l| vals[l]);
    match op {
        ReduxOp::Add => it.fold(0u32, |s, v| s.wrapping_add(v)),
        ReduxOp::And => it.fold(!0u32, |s, v| s & v),
        ReduxOp::Or => it.fold(0u32, |s, v| s | v),
        ReduxOp::Xor => it.fold(0u32, |s, v| s ^ v),
        ReduxOp::Min if signed => it.map(|v| v as i32).min().unwrap_or(0) as u32,
        ReduxOp::Max if signed => it.map(|v| v as i32).max().unwrap_or(0) as u32,
        ReduxOp::Min => it.min().unwrap_or(0),
        ReduxOp::Max => it.max().unwrap_or(0),
    }
}

/// Per executing lane of `e`, the reduction over its group (0 in the other lanes).
#[inline(always)]
pub(crate) fn redux(
    op: ReduxOp,
    signed: bool,
    vals: &[u32; 32],
    part: &Participants,
    e: u32,
) -> [u32; 32] {
    let mut out = [0u32; 32];
    match part.uniform {
        Some(g) => {
            let r = reduce(op, signed, vals, g);
            for l in lanes(e) {
                out[l] = r;
            }
        }
        None => {
            for l in lanes(e) {
                out[l] = reduce(op, signed, vals, part.of(l));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_and_unsigned_minimum_differ() {
        let mut vals = [5u32; 32];
        vals[7] = -3i32 as u32;
        assert_eq!(reduce(ReduxOp::Min, true, &vals, !0), -3i32 as u32);
        assert_eq!(reduce(ReduxOp::Min, false, &vals, !0), 5);
        assert_eq!(reduce(ReduxOp::Add, false, &vals, 0b11), 10);
        // An empty group reduces to the operation's identity (or 0 for min/max).
        assert_eq!(reduce(ReduxOp::And, false, &vals, 0), !0);
        assert_eq!(reduce(ReduxOp::Max, false, &vals, 0), 0);
    }
}
