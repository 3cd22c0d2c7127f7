//! CUDA's error codes (`cudaError_t`), as the runtime returns them.
//!
//! The numeric values are those of `enum cudaError` in the CUDA 13.0 runtime's
//! `driver_types.h` (pip package `nvidia-cuda-runtime==13.0.96`, `nvidia/cu13/include/`), so a
//! C-ABI runtime over this library returns exactly what `libcudart` would.

use crate::exec::fault::FaultKind;

/// Defines [`CudaError`], its names and [`CudaError::ALL`] from one list of (variant, code).
macro_rules! cuda_errors {
    ($($variant:ident = $code:literal),* $(,)?) => {
        /// A `cudaError_t` the simulated runtime can return. `code()` is CUDA's numeric value,
        /// `name()` CUDA's name (`cudaError` followed by the variant).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(i32)]
        pub enum CudaError {
            $(
                #[doc = concat!("`cudaError", stringify!($variant), "` (", stringify!($code), ").")]
                $variant = $code,
            )*
        }

        impl CudaError {
            /// Every code, for tests and lookups.
            pub const ALL: &'static [CudaError] = &[$(CudaError::$variant),*];

            /// CUDA's name (`cudaGetErrorName`).
            pub fn name(self) -> &'static str {
                match self {
                    $(CudaError::$variant => concat!("cudaError", stringify!($variant)),)*
                }
            }
        }
    };
}

cuda_errors! {
    InvalidValue = 1,
    MemoryAllocation = 2,
    InvalidConfiguration = 9,
    InvalidSymbol = 13,
    InvalidChannelDescriptor = 20,
    InvalidDeviceFunction = 98,
    InvalidKernelImage = 200,
    InvalidPtx = 218,
    InvalidResourceHandle = 400,
    IllegalAddress = 700,
    LaunchOutOfResources = 701,
    LaunchTimeout = 702,
    Assert = 710,
    IllegalInstruction = 715,
    MisalignedAddress = 716,
    LaunchFailure = 719,
    NotSupported = 801,
}

impl CudaError {
    /// CUDA's numeric value (`cudaError_t`).
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The code of a name, when it is one of [`CudaError::ALL`].
    pub fn from_name(name: &str) -> Option<CudaError> {
        CudaError::ALL.iter().copied().find(|e| e.name() == name)
    }

    /// What a launch that faults this way returns. Out-of-bounds and misaligned accesses,
    /// `assert` and `trap` return the codes whose descriptions in `driver_types.h` name them
    /// (700: "a load or store instruction on an invalid memory address"; 716: "a load or store
    /// instruction on a memory address which is not aligned"; 710: "an assert triggered in
    /// device code"; 719: "an exception occurred on the device while executing a kernel") (`cudaErrorIllegalAddress`,
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
        for &e in CudaError::ALL {
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
