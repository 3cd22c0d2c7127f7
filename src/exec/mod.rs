//! The SIMT executor: blocks of warps of 32 lanes in lock-step, producing one
//! [`crate::mem::request::MemRequest`] per warp-level memory instruction.
pub mod alu;
pub mod cvt;
pub mod fault;
pub mod fround;
pub mod fsel;
pub mod simt;
pub mod warp;
