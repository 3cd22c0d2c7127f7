//! The texture path through the memory system: where CUDA arrays live ([`layout`]), how a
//! warp-level texture or surface instruction becomes L1 requests, sectors and wavefronts
//! ([`request`]), and their counters under Nsight Compute's names ([`counters`]). The sectors
//! then go through the same L1, L2 and DRAM models as global loads
//! ([`crate::mem::cache::Hierarchy::tex_access`]).
pub mod advice;
pub mod counters;
pub mod layout;
pub mod path;
pub mod request;
