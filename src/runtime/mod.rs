//! The host runtime: a CUDA-runtime-like API over the simulated device (allocations, copies,
//! symbols, function attributes, launches), named after the calls it mirrors.
//!
//! Launch checks follow the CUDA Runtime API's documented errors ("cudaLaunchKernel",
//! "cudaFuncSetAttribute") and the limits of the modelled GPU ([`crate::gpu::config`]).

use std::collections::HashMap;

use thiserror::Error;

use crate::exec::fault::KernelFault;
use crate::exec::simt::{self, Launch, LaunchDims, LaunchStats, Observer};
use crate::gpu::config::GpuConfig;
use crate::ir::types::ScalarType;
use crate::ir::{Kernel, Program};
use crate::mem::request::Space;
use crate::mem::space::{Allocation, GlobalMemory};
use crate::ptx::error::PtxError;

/// Default instruction budget per block (warp-instructions).
pub const DEFAULT_BUDGET_PER_BLOCK: u64 = 50_000_000;

/// Errors of the runtime, with the CUDA error name where CUDA has one.
#[derive(Debug, Error)]
pub enum RuntimeError {
    /// The PTX did not parse or lower.
    #[error("{0}")]
    Ptx(#[from] PtxError),
    /// A launch or API call CUDA would reject.
    #[error("{name}: {message}")]
    Cuda {
        /// The CUDA error name (`cudaErrorInvalidConfiguration`).
        name: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A fault inside the simulated kernel.
    #[error("{0}")]
    Fault(#[from] Box<KernelFault>),
}

impl RuntimeError {
    fn cuda(name: &'static str, message: impl Into<String>) -> Self {
        RuntimeError::Cuda {
            name,
            message: message.into(),
        }
    }
}

/// A kernel argument value.
#[derive(Clone, Debug, PartialEq)]
pub enum KernelArg {
    /// A device pointer or any 64-bit integer.
    U64(u64),
    /// A 32-bit integer.
    U32(u32),
    /// A 16-bit integer.
    U16(u16),
    /// An 8-bit integer.
    U8(u8),
    /// A float.
    F32(f32),
    /// A double.
    F64(f64),
    /// Raw bytes (structs passed by value).
    Bytes(Vec<u8>),
}

impl KernelArg {
    fn bytes(&self) -> Vec<u8> {
        match self {
            KernelArg::U64(v) => v.to_le_bytes().to_vec(),
            KernelArg::U32(v) => v.to_le_bytes().to_vec(),
            KernelArg::U16(v) => v.to_le_bytes().to_vec(),
            KernelArg::U8(v) => vec![*v],
            KernelArg::F32(v) => v.to_le_bytes().to_vec(),
            KernelArg::F64(v) => v.to_le_bytes().to_vec(),
            KernelArg::Bytes(b) => b.clone(),
        }
    }
}

/// Per-kernel attributes set with `func_set_attribute`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FuncAttributes {
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize`, when set.
    pub max_dynamic_shared: Option<u32>,
    /// `cudaFuncAttributePreferredSharedMemoryCarveout` in percent, when set.
    pub carveout: Option<i32>,
}

/// `cudaFuncAttribute`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncAttribute {
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize`.
    MaxDynamicSharedMemorySize(u32),
    /// `cudaFuncAttributePreferredSharedMemoryCarveout` (-1 for the default, else 0..=100).
    PreferredSharedMemoryCarveout(i32),
}

/// Options of one launch.
#[derive(Clone, Copy, Debug)]
pub struct LaunchOptions {
    /// Warp-instructions per block before the kernel is declared endless.
    pub budget_per_block: u64,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            budget_per_block: DEFAULT_BUDGET_PER_BLOCK,
        }
    }
}

/// A loaded PTX module.
#[derive(Debug)]
pub struct Module {
    /// The decoded program.
    pub program: Program,
    /// Constant bank 0 contents.
    pub consts: Vec<u8>,
    attrs: HashMap<String, FuncAttributes>,
}

impl Module {
    /// The kernel named `name` (PTX name).
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.program.kernel(name)
    }
}

/// The simulated device and its runtime state (one context, one module).
pub struct Device {
    /// The modelled GPU.
    pub gpu: &'static GpuConfig,
    /// Global memory.
    pub global: GlobalMemory,
    module: Option<Module>,
    launches: u64,
}

impl Device {
    /// A device of the given GPU with nothing allocated.
    pub fn new(gpu: &'static GpuConfig) -> Self {
        Device {
            gpu,
            global: GlobalMemory::new(),
            module: None,
            launches: 0,
        }
    }

    /// Parses, checks and loads a PTX module (`cuModuleLoadData`); module variables are
    /// allocated and initialised. `file` names the PTX in error messages.
    pub fn load_ptx(&mut self, text: &str, file: &str) -> Result<(), RuntimeError> {
        self.load_ptx_with(text, file, &crate::ptx::lower::LowerOptions::default())
    }

    /// [`Device::load_ptx`] with explicit lowering options.
    pub fn load_ptx_with(
        &mut self,
        text: &str,
        file: &str,
        opts: &crate::ptx::lower::LowerOptions,
    ) -> Result<(), RuntimeError> {
        let ast = crate::ptx::parse::parse(text).map_err(|e| e.in_file(file))?;
        let program =
            crate::ptx::lower::lower_with(&ast, text, opts).map_err(|e| e.in_file(file))?;
        let mut consts = vec![0u8; program.const_bytes as usize];
        for v in &program.vars {
            match v.space {
                Space::Const => {
                    consts[v.addr as usize..(v.addr + v.size) as usize].copy_from_slice(&v.init)
                }
                _ => self.global.insert(Allocation {
                    base: v.addr,
                    data: v.init.clone(),
                    name: v.name.clone(),
                }),
            }
        }
        self.module = Some(Module {
            program,
            consts,
            attrs: HashMap::new(),
        });
        Ok(())
    }

    /// The loaded module.
    pub fn module(&self) -> Option<&Module> {
        self.module.as_ref()
    }

    fn module_or_err(&self) -> Result<&Module, RuntimeError> {
        self.module.as_ref().ok_or_else(|| {
            RuntimeError::cuda("cudaErrorInvalidResourceHandle", "no module is loaded")
        })
    }

    /// `cudaMalloc`.
    pub fn malloc(&mut self, size: u64, name: &str) -> u64 {
        self.global.malloc(size, name)
    }

    /// `cudaFree`.
    pub fn free(&mut self, ptr: u64) -> Result<(), RuntimeError> {
        if self.global.free(ptr) {
            Ok(())
        } else {
            Err(RuntimeError::cuda(
                "cudaErrorInvalidValue",
                format!("{ptr:#x} is not an allocation"),
            ))
        }
    }

    /// `cudaMemcpy` host to device.
    pub fn memcpy_htod(&mut self, dst: u64, src: &[u8]) -> Result<(), RuntimeError> {
        let d = self
            .global
            .slice_mut(dst, src.len() as u64)
            .ok_or_else(|| {
                RuntimeError::cuda(
                    "cudaErrorInvalidValue",
                    format!("copy of {} bytes to {dst:#x} is out of bounds", src.len()),
                )
            })?;
        d.copy_from_slice(src);
        Ok(())
    }

    /// `cudaMemcpy` device to host.
    pub fn memcpy_dtoh(&self, dst: &mut [u8], src: u64) -> Result<(), RuntimeError> {
        let s = self.global.slice(src, dst.len() as u64).ok_or_else(|| {
            RuntimeError::cuda(
                "cudaErrorInvalidValue",
                format!("copy of {} bytes from {src:#x} is out of bounds", dst.len()),
            )
        })?;
        dst.copy_from_slice(s);
        Ok(())
    }

    /// `cudaMemcpy` device to device.
    pub fn memcpy_dtod(&mut self, dst: u64, src: u64, n: u64) -> Result<(), RuntimeError> {
        let mut tmp = vec![0u8; n as usize];
        self.memcpy_dtoh(&mut tmp, src)?;
        self.memcpy_htod(dst, &tmp)
    }

    /// `cudaMemset`.
    pub fn memset(&mut self, dst: u64, value: u8, n: u64) -> Result<(), RuntimeError> {
        let d = self.global.slice_mut(dst, n).ok_or_else(|| {
            RuntimeError::cuda(
                "cudaErrorInvalidValue",
                format!("memset of {n} bytes at {dst:#x} is out of bounds"),
            )
        })?;
        d.fill(value);
        Ok(())
    }

    fn symbol(&self, name: &str) -> Result<(Space, u64, u64), RuntimeError> {
        let m = self.module_or_err()?;
        m.program
            .vars
            .iter()
            .find(|v| v.name == name)
            .map(|v| (v.space, v.addr, v.size))
            .ok_or_else(|| {
                RuntimeError::cuda(
                    "cudaErrorInvalidSymbol",
                    format!("no __device__ or __constant__ variable named '{name}'"),
                )
            })
    }

    /// `cudaGetSymbolAddress`: the generic address of a module variable.
    pub fn get_symbol_address(&self, name: &str) -> Result<u64, RuntimeError> {
        let (s, a, _) = self.symbol(name)?;
        Ok(crate::mem::space::to_generic(s, a))
    }

    /// `cudaGetSymbolSize`.
    pub fn get_symbol_size(&self, name: &str) -> Result<u64, RuntimeError> {
        Ok(self.symbol(name)?.2)
    }

    /// `cudaMemcpyToSymbol`.
    pub fn memcpy_to_symbol(
        &mut self,
        name: &str,
        src: &[u8],
        offset: u64,
    ) -> Result<(), RuntimeError> {
        let (s, a, size) = self.symbol(name)?;
        if offset + src.len() as u64 > size {
            return Err(RuntimeError::cuda(
                "cudaErrorInvalidValue",
                format!(
                    "copy of {} bytes at offset {offset} overruns '{name}' ({size} bytes)",
                    src.len()
                ),
            ));
        }
        match s {
            Space::Const => {
                let m = self.module.as_mut().ok_or_else(|| {
                    RuntimeError::cuda("cudaErrorInvalidResourceHandle", "no module")
                })?;
                let at = (a + offset) as usize;
                m.consts[at..at + src.len()].copy_from_slice(src);
                Ok(())
            }
            _ => self.memcpy_htod(a + offset, src),
        }
    }

    /// `cudaMemcpyFromSymbol`.
    pub fn memcpy_from_symbol(
        &self,
        name: &str,
        dst: &mut [u8],
        offset: u64,
    ) -> Result<(), RuntimeError> {
        let (s, a, size) = self.symbol(name)?;
        if offset + dst.len() as u64 > size {
            return Err(RuntimeError::cuda(
                "cudaErrorInvalidValue",
                format!("copy overruns '{name}' ({size} bytes)"),
            ));
        }
        match s {
            Space::Const => {
                let m = self.module_or_err()?;
                let at = (a + offset) as usize;
                dst.copy_from_slice(&m.consts[at..at + dst.len()]);
                Ok(())
            }
            _ => self.memcpy_dtoh(dst, a + offset),
        }
    }

    /// `cudaFuncSetAttribute`.
    pub fn func_set_attribute(
        &mut self,
        kernel: &str,
        attr: FuncAttribute,
    ) -> Result<(), RuntimeError> {
        let gpu = self.gpu;
        let m = self.module.as_mut().ok_or_else(|| {
            RuntimeError::cuda("cudaErrorInvalidResourceHandle", "no module is loaded")
        })?;
        let k = m.program.kernel(kernel).ok_or_else(|| {
            RuntimeError::cuda(
                "cudaErrorInvalidDeviceFunction",
                format!("no kernel named '{kernel}'"),
            )
        })?;
        let static_shared = k.static_shared;
        let a = m.attrs.entry(kernel.to_string()).or_default();
        match attr {
            FuncAttribute::MaxDynamicSharedMemorySize(v) => {
                if v as u64 + static_shared > gpu.max_shared_per_block_optin as u64 {
                    return Err(RuntimeError::cuda(
                        "cudaErrorInvalidValue",
                        format!(
                            "MaxDynamicSharedMemorySize {v} plus {static_shared} bytes of static shared memory exceeds the {} bytes a block may have",
                            gpu.max_shared_per_block_optin
                        ),
                    ));
                }
                a.max_dynamic_shared = Some(v);
            }
            FuncAttribute::PreferredSharedMemoryCarveout(v) => {
                if !(-1..=100).contains(&v) {
                    return Err(RuntimeError::cuda(
                        "cudaErrorInvalidValue",
                        format!("carveout {v} is not -1 or 0..=100"),
                    ));
                }
                a.carveout = Some(v);
            }
        }
        Ok(())
    }

    /// The attributes set on `kernel`.
    pub fn func_attributes(&self, kernel: &str) -> FuncAttributes {
        self.module
            .as_ref()
            .and_then(|m| m.attrs.get(kernel).copied())
            .unwrap_or_default()
    }

    /// Checks a launch configuration as `cudaLaunchKernel` does.
    pub fn check_launch(&self, kernel: &Kernel, dims: &LaunchDims) -> Result<(), RuntimeError> {
        let g = self.gpu;
        let threads: u64 = dims.block.iter().map(|&b| b as u64).product();
        if dims.block.contains(&0) || dims.grid.contains(&0) {
            return Err(RuntimeError::cuda(
                "cudaErrorInvalidConfiguration",
                "grid and block dimensions must be at least 1",
            ));
        }
        if threads > g.max_threads_per_block as u64 {
            // CUDA 13 on the H200 answers cudaErrorInvalidValue here
            // (tests/hw/h200/occupancy.csv, 1025-thread rows).
            return Err(RuntimeError::cuda(
                "cudaErrorInvalidValue",
                format!(
                    "{threads} threads per block exceed the limit of {}",
                    g.max_threads_per_block
                ),
            ));
        }
        for i in 0..3 {
            if dims.block[i] > g.max_block_dim[i] {
                return Err(RuntimeError::cuda(
                    "cudaErrorInvalidConfiguration",
                    format!(
                        "block dimension {} = {} exceeds {}",
                        "xyz".as_bytes()[i] as char,
                        dims.block[i],
                        g.max_block_dim[i]
                    ),
                ));
            }
            if dims.grid[i] > g.max_grid_dim[i] {
                return Err(RuntimeError::cuda(
                    "cudaErrorInvalidConfiguration",
                    format!(
                        "grid dimension {} = {} exceeds {}",
                        "xyz".as_bytes()[i] as char,
                        dims.grid[i],
                        g.max_grid_dim[i]
                    ),
                ));
            }
        }
        let attrs = self.func_attributes(&kernel.name);
        let max_dyn = attrs.max_dynamic_shared.unwrap_or(
            g.max_shared_per_block
                .saturating_sub(u32::try_from(kernel.static_shared).unwrap_or(u32::MAX)),
        );
        if dims.dynamic_shared > max_dyn {
            let hint = if attrs.max_dynamic_shared.is_none() {
                " (more than 48 KB needs cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) first)"
            } else {
                ""
            };
            return Err(RuntimeError::cuda(
                "cudaErrorInvalidValue",
                format!(
                    "{} bytes of dynamic shared memory exceed the kernel's maximum of {max_dyn}{hint}",
                    dims.dynamic_shared
                ),
            ));
        }
        if let Some(r) = kernel.reqntid {
            if r != dims.block {
                return Err(RuntimeError::cuda(
                    "cudaErrorInvalidValue",
                    format!("the kernel requires a block of {r:?} threads (.reqntid)"),
                ));
            }
        }
        Ok(())
    }

    /// Packs arguments into a parameter buffer, checking them against the kernel's parameters.
    pub fn pack_params(kernel: &Kernel, args: &[KernelArg]) -> Result<Vec<u8>, RuntimeError> {
        if args.len() != kernel.params.len() {
            return Err(RuntimeError::cuda(
                "cudaErrorInvalidValue",
                format!(
                    "kernel '{}' takes {} arguments, {} given",
                    kernel.name,
                    kernel.params.len(),
                    args.len()
                ),
            ));
        }
        let mut buf = vec![0u8; kernel.param_bytes as usize];
        for (i, (p, a)) in kernel.params.iter().zip(args).enumerate() {
            let b = a.bytes();
            if b.len() != p.size as usize {
                return Err(RuntimeError::cuda(
                    "cudaErrorInvalidValue",
                    format!(
                        "argument {i} of '{}' has {} bytes, the parameter has {} (.{:?})",
                        kernel.name,
                        b.len(),
                        p.size,
                        p.ty
                    ),
                ));
            }
            buf[p.offset as usize..p.offset as usize + b.len()].copy_from_slice(&b);
        }
        Ok(buf)
    }

    /// `cudaLaunchKernel`: runs `kernel` (PTX name) to completion.
    #[allow(clippy::too_many_arguments)]
    pub fn launch<O: Observer>(
        &mut self,
        kernel: &str,
        display_name: &str,
        dims: LaunchDims,
        args: &[KernelArg],
        opts: LaunchOptions,
        obs: &mut O,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<LaunchStats, RuntimeError> {
        let m = self.module.as_ref().ok_or_else(|| {
            RuntimeError::cuda("cudaErrorInvalidResourceHandle", "no module is loaded")
        })?;
        let k = m.program.kernel(kernel).ok_or_else(|| {
            RuntimeError::cuda(
                "cudaErrorInvalidDeviceFunction",
                format!("no kernel named '{kernel}'"),
            )
        })?;
        self.check_launch(k, &dims)?;
        let params = Self::pack_params(k, args)?;
        self.launches += 1;
        let launch = Launch {
            kernel: k,
            display_name,
            dims,
            params: &params,
            consts: &m.consts,
            global: &mut self.global,
            budget_per_block: opts.budget_per_block,
            sm_count: self.gpu.sm_count,
            grid_id: self.launches,
        };
        simt::run(launch, obs, progress).map_err(RuntimeError::Fault)
    }
}

/// The kernel argument a spec number becomes for a parameter of type `ty` and `size` bytes.
pub fn arg_for_param(
    ty: ScalarType,
    size: u32,
    int: Option<i64>,
    float: Option<f64>,
) -> Option<KernelArg> {
    use ScalarType::*;
    Some(match (ty, size) {
        (F32, 4) => KernelArg::F32(float.or(int.map(|i| i as f64))? as f32),
        (F64, 8) => KernelArg::F64(float.or(int.map(|i| i as f64))?),
        (_, 8) => KernelArg::U64(int? as u64),
        (_, 4) => KernelArg::U32(int? as u32),
        (_, 2) => KernelArg::U16(int? as u16),
        (_, 1) => KernelArg::U8(int? as u8),
        _ => return None,
    })
}
