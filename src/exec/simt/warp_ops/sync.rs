//! Who takes part in a warp-collective instruction (`shfl.sync`, `vote.sync`, `match.sync`,
//! `redux.sync`, `bar.warp.sync`; SASS `VOTE`, `MATCH`, `REDUX`, `SHFL`, `WARPSYNC`).
//!
//! PTX ISA 9.0 §9.7.13 (`vote.sync`, `match.sync`, `redux.sync`, `bar.warp.sync`) and §9.7.9.6
//! (`shfl.sync`): the instruction waits for "all non-exited threads in membermask", which must
//! all execute it with the same mask; its behaviour is undefined if the executing thread is not
//! in its own mask. Under the PTX path's min-PC schedule a lane of the mask that is not
//! executing is at another instruction (divergent code), waiting at a barrier, or predicated
//! off: each of these is reported rather than guessed at ([`of_masks`]). Lanes that have exited
//! (or do not exist, in a block's last partial warp) are left out, as the ISA says. Lanes whose
//! masks are disjoint (the groups of a `labeled_partition`) execute one instruction together,
//! each group over its own mask. SASS carries no member mask on `VOTE`, `MATCH`, `REDUX` or
//! `SHFL` (ptxas synchronises with `WARPSYNC` and `BSSY`/`BSYNC` around them): their
//! participants are the lanes that execute them ([`Participants::executing`]).

use super::lanes;
use crate::exec::fault::FaultKind;

/// The lanes taking part in a warp-collective instruction, for each executing lane.
pub(crate) struct Participants {
    /// Lanes of each executing lane's group; `uniform` when they all share one.
    pub per_lane: [u32; 32],
    /// The one group of every executing lane, when they share one.
    pub uniform: Option<u32>,
}

impl Participants {
    /// One group: the executing lanes `e` (the legacy PTX forms without `.sync`, and SASS).
    #[inline(always)]
    pub fn executing(e: u32) -> Self {
        Participants {
            per_lane: [0; 32],
            uniform: Some(e),
        }
    }

    /// Each lane's own group (tests).
    #[cfg(test)]
    pub fn per_lane(per_lane: [u32; 32]) -> Self {
        Participants {
            per_lane,
            uniform: None,
        }
    }

    /// The group of lane `lane`.
    #[inline(always)]
    pub fn of(&self, lane: usize) -> u32 {
        match self.uniform {
            Some(u) => u,
            None => self.per_lane[lane],
        }
    }
}

/// The fault of lane `l` executing a warp-collective with member mask `raw` that does not
/// include the lane itself (undefined in the PTX ISA, §9.7.13; compute-sanitizer's synccheck
/// reports "Barrier error detected. Invalid arguments."), `None` when the lane is in it. Shared
/// by the PTX forms and the SASS `WARPSYNC` and warp-sync `NOP`.
pub(crate) fn mask_excludes_lane(l: usize, raw: u32) -> Option<FaultKind> {
    (raw >> l & 1 == 0).then(|| FaultKind::WarpSync {
        detail: format!(
            "lane {l} executes it with member mask {raw:#010x}, which does not include the lane \
             itself (undefined in the PTX ISA)"
        ),
    })
}

/// The participants of a warp-collective executed by lanes `e` of the group `m` with member
/// mask `mask(lane)` in each lane, in a warp whose lanes `live` have not exited and whose lanes
/// `waiting` wait at a barrier. A mask that leaves out its own lane, or names a live lane that
/// does not execute the instruction, is a fault of the lane returned with it.
#[inline]
pub(crate) fn of_masks(
    mask: impl Fn(usize) -> u32,
    e: u32,
    m: u32,
    live: u32,
    waiting: u32,
) -> Result<Participants, (FaultKind, usize)> {
    let mut per_lane = [0u32; 32];
    let mut first: Option<u32> = None;
    let mut uniform = true;
    for l in lanes(e) {
        let raw = mask(l);
        let pm = raw & live;
        if let Some(kind) = mask_excludes_lane(l, raw) {
            return Err((kind, l));
        }
        let missing = pm & !e;
        if missing != 0 {
            let k = missing.trailing_zeros();
            let why = if m >> k & 1 == 1 {
                "is predicated off"
            } else if waiting >> k & 1 == 1 {
                "waits at a barrier"
            } else {
                "is at another instruction (divergent code)"
            };
            let detail = format!(
                "lane {l} executes it with member mask {raw:#010x}, but lane {k} of that mask {why}"
            );
            return Err((FaultKind::WarpSync { detail }, l));
        }
        per_lane[l] = pm;
        match first {
            None => first = Some(pm),
            Some(f) if f != pm => uniform = false,
            _ => {}
        }
    }
    Ok(Participants {
        per_lane,
        uniform: if uniform {
            Some(first.unwrap_or(0))
        } else {
            None
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mask_lane_that_is_predicated_off_is_a_fault() {
        let r = of_masks(|_| 0xff, 0x7f, 0xff, !0, 0);
        let Err((FaultKind::WarpSync { detail }, lane)) = r else {
            panic!("no fault");
        };
        assert_eq!(lane, 0);
        assert!(
            detail.contains("lane 7 of that mask is predicated off"),
            "{detail}"
        );
        assert!(
            of_masks(|_| 0x0f, 0xf0, 0xf0, !0, 0).is_err(),
            "own lane missing"
        );
    }

    #[test]
    fn exited_lanes_are_left_out_and_disjoint_masks_make_groups() {
        let p = of_masks(|_| !0, 0xffff, 0xffff, 0xffff, 0).ok().unwrap();
        assert_eq!(p.uniform, Some(0xffff));
        let p = of_masks(|l| if l < 16 { 0xffff } else { 0xffff_0000 }, !0, !0, !0, 0)
            .ok()
            .unwrap();
        assert_eq!((p.uniform, p.of(3), p.of(20)), (None, 0xffff, 0xffff_0000));
    }
}
