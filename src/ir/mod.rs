//! The decoded kernel: typed instructions with resolved operands, checked once at load time so the
//! executor runs them without looking at strings again.
pub mod types;
