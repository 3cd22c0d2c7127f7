//! gpumemsim: runs real CUDA kernels on a modelled NVIDIA GPU and reports what its memory system does.
//!
//! Data flow (one direction): CUDA C ─NVRTC─▶ PTX ─[`ptx`]▶ decoded kernel ([`ir`]) ─▶
//! [`runtime`] launch ─▶ [`exec`] SIMT executor ─▶ [`mem::request::MemRequest`] ─▶ memory models
//! ─▶ [`report`].
#![warn(missing_docs)]

pub mod exec;
pub mod export;
pub mod frontend;
pub mod gpu;
pub mod ir;
pub mod mem;
pub mod ptx;
pub mod report;
pub mod run;
pub mod runtime;
pub mod sass;
pub mod spec;
#[doc(hidden)]
pub mod testing;
