//! The SIMT executor: blocks of warps of 32 lanes in lock-step, producing one
//! [`crate::mem::request::MemRequest`] per warp-level memory instruction.
//! The SIMT executor's per-lane instruction semantics.

pub mod alu;
pub mod cvt;
pub mod fault;
pub mod float;
pub mod fsel;
pub mod half;
pub mod mufu;
pub mod printf;
pub mod sass_alu;
pub mod sass_half;
pub mod simt;
pub mod warp;
