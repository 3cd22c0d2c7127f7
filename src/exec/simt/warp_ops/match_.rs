//! `match.{any,all}.sync` (PTX ISA 9.0, §9.7.13.x "match.sync") and SASS `MATCH.{ANY,ALL}`:
//! which lanes of each group of [`Participants`] hold the same 32- or 64-bit value.

use super::{lanes, Participants};

/// A match's results for the executing lanes (0 in the other lanes).
pub(crate) struct Match {
    /// `.any`: per lane, the lanes of its group whose value equals its own.
    pub any: [u32; 32],
    /// `.all`: per lane, its group when every lane of it holds the same value, else 0.
    pub all: [u32; 32],
    /// The lanes whose group holds one value (`.all`'s predicate destination).
    pub same: u32,
}

/// The match of `vals` for lanes `e`, grouped by `part`.
#[inline(always)]
pub(crate) fn match_(vals: &[u64; 32], part: &Participants, e: u32) -> Match {
    let mut any = [0u32; 32];
    let mut all = [0u32; 32];
    let mut same = 0u32;
    for l in lanes(e) {
        let g = part.of(l);
        let mut mm = 0u32;
        for k in lanes(g) {
            if vals[k] == vals[l] {
                mm |= 1 << k;
            }
        }
        let all_same = mm == g;
        same |= (all_same as u32) << l;
        any[l] = mm;
        all[l] = if all_same { g } else { 0 };
    }
    Match { any, all, same }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_of_equal_values_match() {
        let vals: [u64; 32] = std::array::from_fn(|l| (l % 3) as u64);
        let m = match_(&vals, &Participants::executing(0xff), 0xff);
        assert_eq!(m.any[0], 0b0100_1001);
        assert_eq!(m.any[4], 0b1001_0010);
        assert_eq!(m.same, 0);
        assert_eq!(m.all[0], 0);
        let m = match_(&[9; 32], &Participants::executing(0xf0), 0xf0);
        assert_eq!((m.same, m.all[5], m.any[5]), (0xf0, 0xf0, 0xf0));
    }
}
