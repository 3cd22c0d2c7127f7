//! The SIMT executor's per-lane instruction semantics.
pub mod cvt;
pub mod float;
pub mod half;
