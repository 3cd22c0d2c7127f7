//! gpumemsim: runs real CUDA kernels on a modelled NVIDIA GPU and reports what its memory system does.
//!
//! Data flow (one direction): CUDA C ─NVRTC─▶ PTX ─[`ptx`]▶ decoded kernel ([`ir`]) ─▶
//! [`runtime`] launch ─▶ [`exec`] SIMT executor ─▶ [`mem::request::MemRequest`] ─▶ memory models
//! (banks, coalescing, constant cache; and, in the order [`sched`] gives them, L1, L2 and DRAM
//! in [`mem::cache`]) ─▶ [`report`].
#![warn(missing_docs)]

pub mod check;
pub mod exec;
pub mod export;
pub mod frontend;
pub mod gpu;
pub mod ir;
pub mod mem;
pub mod metrics;
pub mod ptx;
pub mod report;
pub mod run;
pub mod runtime;
pub mod sass;
pub mod sched;
pub mod spec;
#[doc(hidden)]
pub mod testing;
pub mod tex;
