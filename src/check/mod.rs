//! Sanitizers in the manner of NVIDIA's compute-sanitizer: memcheck, racecheck, initcheck and
//! synccheck, run on the simulated kernel.
//!
//! - **memcheck** is always on and lives in the executor: an out-of-bounds or misaligned access
//!   is a fault that stops the run ([`memcheck`] words its message, [`provenance`] ties each
//!   global access to its pointer's allocation). With `--check memcheck --continue` every
//!   faulting access is skipped instead and counted per line here.
//! - **racecheck** ([`racecheck`]): shared-memory hazards between two barriers.
//! - **initcheck** ([`initcheck`]): reads of global memory neither the host nor a kernel wrote,
//!   and of shared memory no thread of the block wrote.
//! - **synccheck**: the executor's divergent-barrier and warp-collective mask faults.
//!
//! [`CheckObserver`] wraps the memory models' observer when a check is asked for, so a run
//! without checks executes exactly the code it did before (the executor's store hook is a
//! compile-time constant of the observer type). Findings are grouped by tool, kind, kernel and
//! the PTX instructions involved, and counted.

pub mod initcheck;
pub mod memcheck;
pub mod provenance;
pub mod racecheck;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::exec::fault::FaultKind;
use crate::exec::simt::Observer;
use crate::ir::Kernel;
use crate::mem::request::{MemRequest, Space};

/// Which checks to run besides the always-on memcheck faults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// `--check memcheck --continue`: count faulting accesses instead of stopping at the first.
    pub memcheck_continue: bool,
    /// `--check racecheck`.
    pub racecheck: bool,
    /// `--check initcheck`.
    pub initcheck: bool,
}

impl CheckOptions {
    /// Whether any check needs the checking observer.
    pub fn any(&self) -> bool {
        self.memcheck_continue || self.racecheck || self.initcheck
    }
}

/// How bad a finding is, as compute-sanitizer classifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The outcome can differ (racecheck's "Error"), or an invalid access.
    Error,
    /// Benign: the same value written by several threads (racecheck's "Warning").
    Warning,
}

/// A place in the kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    /// Line in the PTX, or in the `.sass` file when the kernel ran as SASS (`sass`).
    pub ptx_line: u32,
    /// CUDA source file, when the PTX has `.loc` lines.
    pub file: Option<String>,
    /// CUDA source line (0: unknown).
    pub line: u32,
    /// Whether the kernel ran as SASS.
    pub sass: bool,
}

impl Location {
    /// The location of instruction `pc` of `k`.
    pub fn of(k: &Kernel, pc: u32) -> Location {
        let info = k.info.get(pc as usize);
        let (ptx_line, src_file, line) =
            info.map_or((0, 0, 0), |i| (i.ptx_line, i.src_file, i.src_line));
        let file = (line != 0)
            .then(|| {
                k.files
                    .iter()
                    .find(|(i, _)| *i == src_file)
                    .map(|(_, f)| f.clone())
            })
            .flatten();
        Location {
            ptx_line,
            file,
            line,
            sass: k.sass.is_some(),
        }
    }

    fn render(&self) -> String {
        let isa = if self.sass { "SASS" } else { "PTX" };
        match &self.file {
            Some(f) => format!("{f}:{} ({isa} line {})", self.line, self.ptx_line),
            None => format!("{isa} line {}", self.ptx_line),
        }
    }
}

/// One group of findings: the same kind at the same instruction(s) of one kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// `memcheck`, `racecheck`, `initcheck` or `synccheck`.
    pub tool: &'static str,
    /// Error or warning.
    pub severity: Severity,
    /// What, in compute-sanitizer's words: `Invalid __global__ read of size 4 bytes`,
    /// `Write-after-write hazard`, `Uninitialized __global__ memory read of size 4 bytes`.
    pub kind: String,
    /// The kernel as the spec names it.
    pub kernel: String,
    /// 1-based index of the launch in the report (its first launch with this finding).
    pub launch: usize,
    /// The access (for a hazard: the later one).
    pub at: Location,
    /// For a hazard, the earlier access it conflicts with.
    pub with: Option<Location>,
    /// Accesses (lanes, bytes for hazards) found.
    pub count: u64,
    /// The first one in full: block, thread, address.
    pub example: String,
}

impl Finding {
    /// The finding as a report line or two.
    pub fn render(&self) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut s = format!(
            "{} {sev}: {} in kernel {} at {}",
            self.tool,
            self.kind,
            self.kernel,
            self.at.render()
        );
        if let Some(w) = &self.with {
            s.push_str(&format!(" and {}", w.render()));
        }
        s.push_str(&format!(
            " ({} {})\n    first: {}",
            memcheck::thousands(self.count),
            if self.count == 1 { "time" } else { "times" },
            self.example
        ));
        s
    }
}

/// Key of a group: tool, severity, kind, pc, other pc.
type Key = (&'static str, Severity, String, u32, u32);

/// Findings of one launch as they are found, grouped by [`Key`].
#[derive(Default)]
pub struct Recorder {
    groups: BTreeMap<Key, (u64, String)>,
    order: Vec<Key>,
}

impl Recorder {
    /// Counts `n` of one kind at `pc` (and `other`, `u32::MAX` for none); `example` is called
    /// for the first only.
    #[allow(clippy::too_many_arguments)]
    pub fn add(
        &mut self,
        tool: &'static str,
        severity: Severity,
        kind: &str,
        pc: u32,
        other: u32,
        n: u64,
        example: impl FnOnce() -> String,
    ) {
        let key = (tool, severity, kind.to_string(), pc, other);
        match self.groups.get_mut(&key) {
            Some(g) => g.0 += n,
            None => {
                self.order.push(key.clone());
                self.groups.insert(key, (n, example()));
            }
        }
    }

    /// The findings of a launch of `k` named `kernel`, in the order first found.
    pub fn finish(self, k: &Kernel, kernel: &str, launch: usize) -> Vec<Finding> {
        let mut groups = self.groups;
        self.order
            .into_iter()
            .filter_map(|key| {
                let (count, example) = groups.remove(&key)?;
                let (tool, severity, kind, pc, other) = key;
                Some(Finding {
                    tool,
                    severity,
                    kind,
                    kernel: kernel.to_string(),
                    launch,
                    at: Location::of(k, pc),
                    with: (other != u32::MAX).then(|| Location::of(k, other)),
                    count,
                    example,
                })
            })
            .collect()
    }
}

/// Merges `new` into `all`: a group already found by an earlier launch of the same kernel adds
/// its count there.
pub fn merge(all: &mut Vec<Finding>, new: Vec<Finding>) {
    for f in new {
        match all.iter_mut().find(|g| {
            g.tool == f.tool
                && g.severity == f.severity
                && g.kind == f.kind
                && g.kernel == f.kernel
                && g.at == f.at
                && g.with == f.with
        }) {
            Some(g) => g.count += f.count,
            None => all.push(f),
        }
    }
}

/// The memory models' observer with the asked-for checks beside it.
pub struct CheckObserver<'a, O: Observer> {
    /// The memory models.
    pub inner: &'a mut O,
    /// What was found in this launch.
    pub found: Recorder,
    opts: CheckOptions,
    race: Option<racecheck::RaceCheck>,
    init: Option<initcheck::InitCheck<'a>>,
    block: [u32; 3],
}

impl<'a, O: Observer> CheckObserver<'a, O> {
    /// Checks `opts` around `inner`; `global` is the initcheck shadow of global memory.
    pub fn new(
        inner: &'a mut O,
        opts: CheckOptions,
        global: &'a mut initcheck::GlobalShadow,
        kernel: &Kernel,
        block_dim: [u32; 3],
    ) -> Self {
        CheckObserver {
            inner,
            found: Recorder::default(),
            opts,
            race: opts
                .racecheck
                .then(|| racecheck::RaceCheck::new(kernel, block_dim)),
            init: opts
                .initcheck
                .then(|| initcheck::InitCheck::new(global, block_dim)),
            block: [0; 3],
        }
    }
}

impl<O: Observer> Observer for CheckObserver<'_, O> {
    #[inline]
    fn mem(&mut self, req: &MemRequest) {
        self.inner.mem(req);
        if let Some(r) = &mut self.race {
            r.mem(req, self.block, &mut self.found);
        }
        if let Some(i) = &mut self.init {
            i.mem(req, self.block, &mut self.found);
        }
    }

    #[inline]
    fn tex(&mut self, req: &crate::tex::event::TexRequest<'_>) {
        self.inner.tex(req);
    }

    #[inline]
    fn inst(&mut self, pc: u32, active: u32, exec: u32) {
        self.inner.inst(pc, active, exec);
        if let Some(r) = &mut self.race {
            r.inst(pc);
        }
    }

    fn block_begin(&mut self, linear: u64, ctaid: [u32; 3]) {
        self.inner.block_begin(linear, ctaid);
        self.block = ctaid;
        if let Some(r) = &mut self.race {
            r.block_begin();
        }
        if let Some(i) = &mut self.init {
            i.block_begin();
        }
    }

    fn block_end(&mut self, linear: u64) {
        self.inner.block_end(linear);
    }

    fn ldc(&mut self, pc: u32, requests: u32) {
        self.inner.ldc(pc, requests);
    }

    fn barrier(&mut self) {
        self.inner.barrier();
        if let Some(r) = &mut self.race {
            r.barrier();
        }
    }

    const STORE_BYTES: bool = true;

    #[inline]
    fn store_bytes(
        &mut self,
        space: Space,
        pc: u32,
        warp: u32,
        lane: u32,
        addr: u64,
        bytes: &[u8],
    ) {
        if space != Space::Shared {
            return;
        }
        if let Some(r) = &mut self.race {
            r.store(pc, warp, lane, addr, bytes, self.block, &mut self.found);
        }
    }

    fn access_fault(
        &mut self,
        kind: &FaultKind,
        pc: u32,
        block: [u32; 3],
        thread: [u32; 3],
    ) -> bool {
        if !self.opts.memcheck_continue || kind.tool() != Some("memcheck") {
            return false;
        }
        let (what, rest) = match kind.to_string().split_once(": ") {
            Some((a, b)) => (a.to_string(), b.to_string()),
            None => (kind.to_string(), String::new()),
        };
        self.found
            .add("memcheck", Severity::Error, &what, pc, u32::MAX, 1, || {
                format!(
                    "block ({},{},{}), thread ({},{},{}): {rest}",
                    block[0], block[1], block[2], thread[0], thread[1], thread[2]
                )
            });
        true
    }
}

#[cfg(test)]
mod tests {
    //! The checks on hand-written PTX, where what each thread does is plain.

    use super::*;
    use crate::exec::simt::{LaunchDims, NoObserver};
    use crate::gpu::config::H200;
    use crate::runtime::{Device, KernelArg, LaunchOptions};

    /// Every thread stores `%r1` (the parameter, or the parameter plus its thread index when
    /// `by_tid`) to the one shared word, then all wait at a barrier and thread 0 reads the word.
    fn ptx(by_tid: bool) -> String {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .visible .entry w(.param .u32 w_param_0)\n{{\n\
             \t.shared .align 4 .b32 s[1];\n\t.reg .b32 %r<4>;\n\t.reg .pred %p<2>;\n\
             \tld.param.u32 %r1, [w_param_0];\n\tmov.u32 %r2, %tid.x;\n\
             {}\
             \tst.shared.u32 [s], %r1;\n\tbar.sync 0;\n\
             \tsetp.ne.u32 %p1, %r2, 0;\n\t@%p1 ret;\n\tld.shared.u32 %r3, [s];\n\tret;\n}}\n",
            if by_tid {
                "\tadd.u32 %r1, %r1, %r2;\n"
            } else {
                ""
            }
        )
    }

    fn race(by_tid: bool, threads: u32) -> Vec<Finding> {
        let mut dev = Device::new(&H200);
        dev.load_ptx(&ptx(by_tid), "w.ptx").unwrap();
        let k = dev.module().unwrap().kernel("w").unwrap().clone();
        let dims = LaunchDims {
            grid: [1, 1, 1],
            block: [threads, 1, 1],
            dynamic_shared: 0,
        };
        let mut shadow = initcheck::GlobalShadow::default();
        let opts = CheckOptions {
            racecheck: true,
            ..CheckOptions::default()
        };
        let mut inner = NoObserver;
        let mut obs = CheckObserver::new(&mut inner, opts, &mut shadow, &k, dims.block);
        dev.launch(
            "w",
            "w",
            dims,
            &[KernelArg::U32(7)],
            LaunchOptions::default(),
            &mut obs,
            &mut |_, _| {},
        )
        .unwrap();
        std::mem::take(&mut obs.found).finish(&k, "w", 1)
    }

    #[test]
    fn one_store_of_different_values_by_a_warp_is_an_error() {
        let f = race(true, 32);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].kind, "Write-after-write hazard");
        assert_eq!(f[0].severity, Severity::Error);
        // Lanes 1..31 each find the word written by the lane before them.
        assert_eq!(f[0].count, 31);
        assert!(
            f[0].example.contains("which one survives is undefined"),
            "{}",
            f[0].example
        );
    }

    #[test]
    fn the_same_value_is_a_warning_in_a_warp_and_across_warps() {
        for threads in [32, 64] {
            let f = race(false, threads);
            assert_eq!(f.len(), 1, "{f:#?}");
            assert_eq!(f[0].severity, Severity::Warning);
            assert_eq!(f[0].count, threads as u64 - 1);
        }
    }

    #[test]
    fn a_barrier_orders_the_read_after_the_writes() {
        // Thread 0's read after the barrier conflicts with nothing: only the writes are found.
        let f = race(true, 64);
        assert!(
            f.iter().all(|f| f.kind == "Write-after-write hazard"),
            "{f:#?}"
        );
    }
}
