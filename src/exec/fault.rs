//! Faults inside a simulated kernel, located at kernel, block, thread and source line.

use std::fmt;

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// An access outside every allocation of its space, or outside the allocation its pointer
    /// came from (see [`crate::check::provenance`]).
    OutOfBounds {
        /// `read`, `write` or `atomic`.
        access: &'static str,
        /// State space name.
        space: &'static str,
        /// The address.
        addr: u64,
        /// Bytes accessed.
        size: u32,
        /// A hint about the nearest allocation.
        hint: String,
    },
    /// An access not aligned to its size.
    Misaligned {
        /// `read`, `write` or `atomic`.
        access: &'static str,
        /// State space name.
        space: &'static str,
        /// The address.
        addr: u64,
        /// Bytes accessed.
        size: u32,
    },
    /// Threads of a block wait at different barriers, or some can never reach the one others wait at.
    DivergentBarrier {
        /// A description of who waits where.
        detail: String,
    },
    /// The instruction budget per block was used up: an endless loop, most likely.
    Budget {
        /// The budget in warp-instructions.
        budget: u64,
    },
    /// A warp-collective (`shfl`, `vote`, `match`, `redux`, `bar.warp.sync`) whose member mask
    /// names a lane that does not execute it, or that an executing lane is not in.
    WarpSync {
        /// Which lanes and why.
        detail: String,
    },
    /// A device `assert` failed (`__assertfail`; CUDA reports `cudaErrorAssert`).
    AssertFailed {
        /// The asserted expression.
        message: String,
        /// The source file `assert` names.
        file: String,
        /// Its line.
        line: u32,
        /// The function.
        function: String,
    },
    /// `trap` / `__trap()` (CUDA reports `cudaErrorLaunchFailure`).
    Trap,
    /// The instruction budget of the whole launch was used up.
    LaunchBudget {
        /// The budget in warp-instructions.
        budget: u64,
    },
    /// An mbarrier operation the H200 would stop the launch for: an arrive on a word with no
    /// pending arrivals (never initialised), more arrivals than pending, an `init` count out
    /// of range (see `exec::simt::mbarrier`).
    Mbarrier {
        /// What.
        detail: String,
    },
    /// A texture or surface access the texture unit refuses (an invalid handle, a `.trap`
    /// surface access out of range).
    Texture {
        /// What.
        detail: String,
    },
    /// An instruction the executor cannot run with these operands.
    Unsupported {
        /// What.
        detail: String,
    },
}

/// A fault with its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelFault {
    /// The kernel (as the user named it).
    pub kernel: String,
    /// Block index.
    pub block: [u32; 3],
    /// Thread index in the block.
    pub thread: [u32; 3],
    /// Line in the PTX, or in the `.sass` file when the kernel ran as SASS (`sass`).
    pub ptx_line: u32,
    /// The instruction's text (PTX or SASS).
    pub ptx_text: String,
    /// Whether the kernel ran as SASS, so `ptx_line` is a line of its `.sass` file.
    pub sass: bool,
    /// CUDA source file and line, when the PTX has `.loc` lines.
    pub source: Option<(String, u32)>,
    /// What went wrong.
    pub kind: FaultKind,
    /// What device `printf` printed in the launch before the fault.
    pub printf: String,
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::OutOfBounds {
                access,
                space,
                addr,
                size,
                hint,
            } => {
                // compute-sanitizer's wording: "Invalid __global__ read of size 4 bytes".
                write!(
                    f,
                    "Invalid __{space}__ {access} of size {size} bytes: out of bounds at address {addr:#x}"
                )?;
                if !hint.is_empty() {
                    write!(f, ", {hint}")?;
                }
                Ok(())
            }
            FaultKind::Misaligned {
                access,
                space,
                addr,
                size,
            } => {
                write!(f, "Invalid __{space}__ {access} of size {size} bytes: misaligned at address {addr:#x} (must be a multiple of {size})")
            }
            FaultKind::DivergentBarrier { detail } => write!(f, "divergent barrier: {detail}"),
            FaultKind::Budget { budget } => write!(
                f,
                "instruction budget of {budget} warp-instructions per block used up: the kernel seems not to end (raise it with --max-instructions)"
            ),
            FaultKind::WarpSync { detail } => write!(f, "invalid warp-collective: {detail}"),
            FaultKind::AssertFailed {
                message,
                file,
                line,
                function,
            } => write!(
                f,
                "device-side assertion failed (cudaErrorAssert): {file}:{line}: {function}: Assertion `{message}` failed."
            ),
            FaultKind::Trap => write!(
                f,
                "the kernel executed trap (__trap()): it aborts the launch (cudaErrorLaunchFailure)"
            ),
            FaultKind::LaunchBudget { budget } => write!(
                f,
                "instruction budget of {budget} warp-instructions per launch used up (all blocks together; raise it with --max-launch-instructions)"
            ),
            FaultKind::Unsupported { detail } => write!(f, "{detail}"),
            FaultKind::Texture { detail } => write!(f, "{detail} (cudaErrorIllegalAddress)"),
            FaultKind::Mbarrier { detail } => write!(f, "{detail} (cudaErrorLaunchFailure)"),
        }
    }
}

impl FaultKind {
    /// The compute-sanitizer tool that reports this fault: `memcheck` for out-of-bounds and
    /// misaligned accesses, `synccheck` for barrier and warp-synchronisation errors; `None` for
    /// the rest (assert, trap, budgets, unsupported operands).
    pub fn tool(&self) -> Option<&'static str> {
        match self {
            FaultKind::OutOfBounds { .. } | FaultKind::Misaligned { .. } => Some("memcheck"),
            FaultKind::DivergentBarrier { .. } | FaultKind::WarpSync { .. } => Some("synccheck"),
            _ => None,
        }
    }

    /// The same fault for an access of kind `access` (`read`, `write`, `atomic`).
    pub fn with_access(mut self, a: &'static str) -> Self {
        if let FaultKind::OutOfBounds { access, .. } | FaultKind::Misaligned { access, .. } =
            &mut self
        {
            *access = a;
        }
        self
    }
}

impl fmt::Display for KernelFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [bx, by, bz] = self.block;
        let [tx, ty, tz] = self.thread;
        writeln!(f, "fault in kernel {}: {}", self.kernel, self.kind)?;
        write!(
            f,
            "  block ({bx},{by},{bz}), thread ({tx},{ty},{tz}), {} line {}: {}",
            if self.sass { "SASS" } else { "PTX" },
            self.ptx_line,
            self.ptx_text
        )?;
        if let Some((file, line)) = &self.source {
            write!(f, "\n  source: {file}:{line}")?;
        }
        if !self.printf.is_empty() {
            write!(f, "\n  printf output of the launch before the fault:")?;
            for line in self.printf.lines() {
                write!(f, "\n  | {line}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for KernelFault {}
