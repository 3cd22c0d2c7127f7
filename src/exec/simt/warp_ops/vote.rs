//! `vote.sync` (PTX ISA 9.0, §9.7.13.x "vote.sync") and SASS `VOTE`/`VOTEU`: every lane of a
//! group of [`Participants`] receives the ballot of the group (the lanes of the group whose
//! predicate is true) and the vote (`.all`: every lane of the group true; `.any`: some lane;
//! `.uni`: all equal).

use super::{lanes, Participants};
use crate::ir::VoteMode;

/// A vote's results for the executing lanes.
pub(crate) struct Vote {
    /// Per executing lane, its group's ballot (0 in the other lanes).
    pub ballot: [u32; 32],
    /// The executing lanes whose group's vote holds.
    pub pred: u32,
}

/// The vote of predicate `pred` (a lane mask) for lanes `e`, grouped by `part`.
#[inline(always)]
pub(crate) fn vote(mode: VoteMode, pred: u32, part: &Participants, e: u32) -> Vote {
    let mut ballot = [0u32; 32];
    let mut bits = 0u32;
    for l in lanes(e) {
        let g = part.of(l);
        let t = pred & g;
        ballot[l] = t;
        let v = match mode {
            VoteMode::All => t == g,
            VoteMode::Any => t != 0,
            _ => t == g || t == 0,
        };
        bits |= (v as u32) << l;
    }
    Vote { ballot, pred: bits }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_vote_apart() {
        // Two groups (the even and the odd lanes); the predicate holds in every even lane and
        // in lane 1 only of the odd ones.
        let part = Participants::per_lane(std::array::from_fn(|l| {
            if l % 2 == 0 {
                0x5555_5555
            } else {
                0xaaaa_aaaa
            }
        }));
        let pred = 0x5555_5555 | 0b10;
        let all = vote(VoteMode::All, pred, &part, !0);
        assert_eq!(all.pred, 0x5555_5555);
        assert_eq!(all.ballot[0], 0x5555_5555);
        assert_eq!(all.ballot[3], 0b10);
        assert_eq!(vote(VoteMode::Any, pred, &part, !0).pred, !0);
        assert_eq!(vote(VoteMode::Uni, pred, &part, !0).pred, 0x5555_5555);
    }
}
