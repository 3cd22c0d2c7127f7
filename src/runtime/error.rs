//! CUDA's error codes (`cudaError_t`), as the runtime returns them.
//!
//! The numeric values are those of `enum cudaError` in the CUDA 13.0 runtime's
//! `driver_types.h` (pip package `nvidia-cuda-runtime==13.0.96`, `nvidia/cu13/include/`), so a
//! C-ABI runtime over this library returns exactly what `libcudart` would.

use crate::exec::fault::FaultKind;

/// A `cudaError_t` the simulated runtime can return. `code()` is CUDA's numeric value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum CudaError {
    /// `cudaErrorInvalidValue` (1).
    InvalidValue = 1,
    /// `cudaErrorMemoryAllocation` (2).
    MemoryAllocation = 2,
    /// `cudaErrorInvalidConfiguration` (9).
    InvalidConfiguration = 9,
    /// `cudaErrorInvalidSymbol` (13).
    InvalidSymbol = 13,
    /// `cudaErrorInvalidChannelDescriptor` (20).
    InvalidChannelDescriptor = 20,
    /// `cudaErrorInvalidDeviceFunction` (98).
    InvalidDeviceFunction = 98,
    /// `cudaErrorInvalidKernelImage` (200).
    InvalidKernelImage = 200,
    /// `cudaErrorInvalidPtx` (218).
    InvalidPtx = 218,
    /// `cudaErrorInvalidResourceHandle` (400).
    InvalidResourceHandle = 400,
    /// `cudaErrorIllegalAddress` (700).
    IllegalAddress = 700,
    /// `cudaErrorLaunchOutOfResources` (701).
    LaunchOutOfResources = 701,
    /// `cudaErrorLaunchTimeout` (702).
    LaunchTimeout = 702,
    /// `cudaErrorAssert` (710).
    Assert = 710,
    /// `cudaErrorIllegalInstruction` (715).
    IllegalInstruction = 715,
    /// `cudaErrorMisalignedAddress` (716).
    MisalignedAddress = 716,
    /// `cudaErrorLaunchFailure` (719).
    LaunchFailure = 719,
    /// `cudaErrorNotSupported` (801).
    NotSupported = 801,
}

impl CudaError {
    /// Every code, for tests and lookups.
    pub const ALL: [CudaError; 17] = [
        CudaError::InvalidValue,
        CudaError::MemoryAllocation,
        CudaError::InvalidConfiguration,
        CudaError::InvalidSymbol,
        CudaError::InvalidChannelDescriptor,
        CudaError::InvalidDeviceFunction,
        CudaError::InvalidKernelImage,
        CudaError::InvalidPtx,
        CudaError::InvalidResourceHandle,
        CudaError::IllegalAddress,
        CudaError::LaunchOutOfResources,
        CudaError::LaunchTimeout,
        CudaError::Assert,
        CudaError::IllegalInstruction,
        CudaError::MisalignedAddress,
        CudaError::LaunchFailure,
        CudaError::NotSupported,
    ];

    /// CUDA's numeric value (`cudaError_t`).
    pub fn code(self) -> i32 {
        self as i32
    }

    /// CUDA's name (`cudaGetErrorName`).
    pub fn name(self) -> &'static str {
        match self {
            CudaError::InvalidValue => "cudaErrorInvalidValue",
            CudaError::MemoryAllocation => "cudaErrorMemoryAllocation",
            CudaError::InvalidConfiguration => "cudaErrorInvalidConfiguration",
            CudaError::InvalidSymbol => "cudaErrorInvalidSymbol",
            CudaError::InvalidChannelDescriptor => "cudaErrorInvalidChannelDescriptor",
            CudaError::InvalidDeviceFunction => "cudaErrorInvalidDeviceFunction",
            CudaError::InvalidKernelImage => "cudaErrorInvalidKernelImage",
            CudaError::InvalidPtx => "cudaErrorInvalidPtx",
            CudaError::InvalidResourceHandle => "cudaErrorInvalidResourceHandle",
            CudaError::IllegalAddress => "cudaErrorIllegalAddress",
            CudaError::LaunchOutOfResources => "cudaErrorLaunchOutOfResources",
            CudaError::LaunchTimeout => "cudaErrorLaunchTimeout",
            CudaError::Assert => "cudaErrorAssert",
            CudaError::IllegalInstruction => "cudaErrorIllegalInstruction",
            CudaError::MisalignedAddress => "cudaErrorMisalignedAddress",
            CudaError::LaunchFailure => "cudaErrorLaunchFailure",
            CudaError::NotSupported => "cudaErrorNotSupported",
        }
    }

    /// The code of a name, when it is one of [`CudaError::ALL`].
    pub fn from_name(name: &str) -> Option<CudaError> {
        CudaError::ALL.into_iter().find(|e| e.name() == name)
    }

    /// What a launch that faults this way returns. Out-of-bounds and misaligned accesses,
    /// `assert` and `trap` return what CUDA documents for them (`cudaErrorIllegalAddress`,
    /// `cudaErrorMisalignedAddress`, `cudaErrorAssert`, `cudaErrorLaunchFailure`); an
    /// exhausted instruction budget (an endless loop) is reported as the watchdog's
    /// `cudaErrorLaunchTimeout`; an instruction gpumemsim cannot run with these operands as
    /// `cudaErrorNotSupported`. For the faults where the GPU's behaviour is undefined or a hang
    /// (divergent barriers, warp-collectives with a wrong member mask, mbarrier misuse,
    /// refused texture accesses) gpumemsim stops the launch and returns
    /// `cudaErrorLaunchFailure`, CUDA's generic launch error; no GPU run pins these.
    pub fn of_fault(kind: &FaultKind) -> CudaError {
        match kind {
            FaultKind::OutOfBounds { .. } => CudaError::IllegalAddress,
            FaultKind::Misaligned { .. } => CudaError::MisalignedAddress,
            FaultKind::AssertFailed { .. } => CudaError::Assert,
            FaultKind::Budget { .. } | FaultKind::LaunchBudget { .. } => CudaError::LaunchTimeout,
            FaultKind::Unsupported { .. } => CudaError::NotSupported,
            FaultKind::Trap
            | FaultKind::DivergentBarrier { .. }
            | FaultKind::WarpSync { .. }
            | FaultKind::Mbarrier { .. }
            | FaultKind::Texture { .. } => CudaError::LaunchFailure,
        }
    }
}

impl std::fmt::Display for CudaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes against CUDA's own header (`driver_types.h` of the pip CUDA runtime, found in
    /// the Python site-packages as the NVRTC front end finds its headers): every name must
    /// appear there with its value.
    #[test]
    fn codes_are_cudas() {
        let found = crate::frontend::nvrtc::site_packages()
            .iter()
            .map(|sp| sp.join("nvidia/cu13/include/driver_types.h"))
            .find(|p| p.is_file())
            .ok_or("no nvidia/cu13/include/driver_types.h in the Python site-packages");
        let Some(path) = crate::testing::require(
            "the CUDA runtime headers",
            found,
            crate::testing::INSTALL_NVRTC,
        ) else {
            return;
        };
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        for e in CudaError::ALL {
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(&format!("{} ", e.name())))
                .unwrap_or_else(|| panic!("{} not in {path:?}", e.name()));
            let value: i32 = line
                .split('=')
                .nth(1)
                .and_then(|v| v.trim().trim_end_matches(',').trim().parse().ok())
                .unwrap_or_else(|| panic!("{line:?}: no value"));
            assert_eq!(e.code(), value, "{}", e.name());
            assert_eq!(CudaError::from_name(e.name()), Some(e));
        }
    }
}
