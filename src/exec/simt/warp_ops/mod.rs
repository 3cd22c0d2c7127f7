//! Warp-wide operations, written once and called by both instruction sets: the PTX
//! (`crate::ir::Op`) and SASS (`crate::ir::sass::SOp`) arms of the executor only gather their
//! operands (registers, immediates, constant-bank words, per-lane member masks) into 32-lane
//! arrays, call the function here, and write its results back in their own register files.
//!
//! One file per family, named after the PTX ISA's instructions (PTX ISA 9.0, §9.7.9.6
//! `shfl.sync`, §9.7.13 `vote.sync`, `match.sync`, `redux.sync`, `bar.warp.sync`, §9.7.13.1
//! `bar`/`barrier`):
//! - [`shfl`]: the source lane of each lane and the exchange;
//! - [`vote`]: `vote.{all,any,uni,ballot}` (SASS `VOTE`, `VOTEU`);
//! - [`redux`]: `redux.sync` (SASS `REDUX`);
//! - [`match_`]: `match.{any,all}.sync` (SASS `MATCH`);
//! - [`sync`]: who takes part in a warp-collective ([`Participants`], `bar.warp.sync`'s
//!   member-mask checks, SASS `WARPSYNC`);
//! - [`barrier`]: block barriers (`bar.sync`, `bar.arrive`, `bar.red`; SASS `BAR`), their
//!   arrival and release.

pub(crate) mod barrier;
pub(crate) mod match_;
pub(crate) mod redux;
pub(crate) mod shfl;
pub(crate) mod sync;
pub(crate) mod vote;

pub(crate) use sync::Participants;

/// The lanes of mask `m`, lowest first.
#[inline(always)]
pub(crate) fn lanes(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros();
            m &= m - 1;
            Some(l as usize)
        }
    })
}
