//! Front ends: turn what the user wrote into PTX text for the PTX parser.
//!
//! - [`nvrtc`]: CUDA C (`.cu`) compiled at run time with NVRTC, which is loaded dynamically
//!   (`libloading`), so the crate builds and runs `.ptx` inputs on machines without NVRTC.
//!   It also asks ptxas (through NVRTC) for each kernel's resource usage (registers, spills,
//!   stack frame, static shared memory, constant bank 0 size), which the occupancy model needs.
//!
//! PTX files need no front end: they are read as text.
pub mod nvrtc;
pub mod std_headers;

pub use nvrtc::{
    compile_cuda, compile_cuda_with_cache, kernel_resources, kernel_resources_with,
    nvrtc_library_path, nvrtc_version, parse_nvrtc_log, parse_ptxas_log, CacheMode, CompileOptions,
    CompiledCuda, Diagnostic, FrontendError, KernelResources, Severity,
};
