//! The memory columns of Nsight Compute's Source page, per SASS instruction, from the counters
//! the memory models kept for that instruction.
//!
//! The Source page (`ncu --section SourceCounters`, `ncu -i R --page source --print-source
//! sass`) shows, next to each instruction's execution counts, the source-level metrics
//! `memory_l1_wavefronts_shared` ("L1 Wavefronts Shared") and
//! `memory_l2_theoretical_sectors_global` ("L2 Theoretical Sectors Global"). Recorded on the
//! H200 for 195 launches of 33 programs (tests/hw/h200/source/, Nsight Compute 2025.3.1.0),
//! they are, per instruction:
//!
//! - L1 Wavefronts Shared: the shared-memory data-stage wavefronts of its loads, stores and
//!   atomics (`l1tex__data_pipe_lsu_wavefronts_mem_shared_*`);
//! - L2 Theoretical Sectors Global: the 32-byte sectors its global accesses touch
//!   (`l1tex__t_sectors_pipe_lsu_mem_global_*` for loads and stores; for atomics and
//!   reductions the distinct sectors, where that counter counts lanes on one address once
//!   each, [`crate::mem::coalesce::distinct_sectors`]).
//!
//! `tests/hardware/sass_source.rs` compares them instruction by instruction with the H200.
//!
//! Not modelled: "L1 Tag Requests Global" (`memory_l1_tag_requests_global`) is not the
//! request count `l1tex__t_requests` (one per warp-level instruction): on the H200 it is one
//! per 128-byte line a warp's access touches (a coalesced 4-byte `LDG.E` of 32 lanes: 1; a
//! coalesced `LDG.E.128`: 4; a 4-byte load with a row stride per lane: 32, in
//! tests/hw/h200/source/c_llmc_softmax_forward.csv), which the coalescer does not count per
//! instruction yet.

use crate::metrics::Metric;
use serde::Serialize;

use crate::mem::counters::MemCounters;

/// The Source page's memory columns of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourceMemory {
    /// "L1 Wavefronts Shared" (`memory_l1_wavefronts_shared`).
    pub l1_wavefronts_shared: u64,
    /// "L2 Theoretical Sectors Global" (`memory_l2_theoretical_sectors_global`).
    pub l2_theoretical_sectors_global: u64,
}

impl SourceMemory {
    /// The columns of an instruction whose memory counters are `c`.
    pub fn of(c: &MemCounters) -> SourceMemory {
        SourceMemory {
            l1_wavefronts_shared: c[Metric::SharedLdWavefronts]
                + c[Metric::SharedStWavefronts]
                + c[Metric::SharedAtomWavefronts],
            l2_theoretical_sectors_global: c[Metric::GlobalLdSectors]
                + c[Metric::GlobalStSectors]
                + c[Metric::GlobalAtomRedDistinctSectors],
        }
    }
}
