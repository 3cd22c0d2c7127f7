//! The warp-level memory request: the one thing the SIMT executor tells the memory models.
//!
//! Every warp-level memory instruction (`ld`, `st`, `atom`, `red`, `ldu`, texture and surface
//! fetches later) produces one [`MemRequest`] per state space it touches. Generic addresses are
//! resolved to their state space by the executor first (PTX ISA 9.x, section 6.4.1.1 "Generic
//! Addressing"), so a model only ever sees one space. Lanes that are inactive (divergence,
//! exited) or predicated off are absent from `mask` and must not be counted.

/// The PTX state space a request addresses (PTX ISA, section 5.1 "State Spaces").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    /// `.global`: device memory, cached in L1 and L2.
    Global,
    /// `.shared`: the block's on-chip scratchpad, 32 banks of 4 bytes.
    Shared,
    /// `.local`: per-thread memory in device memory (spills, stack arrays).
    Local,
    /// `.const`: constant memory, read through the per-SM constant cache.
    Const,
    /// `.param`: kernel parameters (served from the constant bank on the hardware).
    Param,
}

impl Space {
    /// The PTX spelling of the space.
    pub fn ptx_name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Const => "const",
            Space::Param => "param",
        }
    }
}

/// What a request does with memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKind {
    /// `ld`, `ldu`, `ld.global.nc`.
    Load,
    /// `st`.
    Store,
    /// `atom`: read-modify-write that returns the old value.
    Atomic,
    /// `red`: read-modify-write without a result.
    Reduction,
}

/// The cache operator written on a load or store (PTX ISA, section 9.7.9.1 "Cache Operators").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CacheOp {
    /// No operator written: `.ca` for loads, `.wb` for stores.
    #[default]
    Default,
    /// `.ca`: cache at all levels.
    Ca,
    /// `.cg`: cache in L2, not L1.
    Cg,
    /// `.cs`: streaming, evict first.
    Cs,
    /// `.lu`: last use.
    Lu,
    /// `.cv`: do not cache, fetch again.
    Cv,
    /// `.wb`: write back.
    Wb,
    /// `.wt`: write through.
    Wt,
    /// `ld.global.nc`: the non-coherent (read-only/texture) path.
    Nc,
}

/// One warp-level memory access.
#[derive(Clone, Debug)]
pub struct MemRequest {
    /// The issuing warp's index in its block (threads `32 * warp ..`); the block is the one
    /// announced by the last `Observer::block_begin`.
    pub warp: u32,
    /// The state space every active lane addresses.
    pub space: Space,
    /// Load, store or read-modify-write.
    pub kind: AccessKind,
    /// Bytes each lane accesses, vector width included (`ld.v4.f32` is 16).
    pub width: u32,
    /// Lane `i`'s byte address in `space` (for shared memory, the offset in the block's window;
    /// for local memory, the offset in the thread's own local window).
    pub addrs: [u64; 32],
    /// Bit `i` set when lane `i` takes part.
    pub mask: u32,
    /// The index of the instruction in its kernel, for per-instruction attribution.
    pub pc: u32,
    /// The cache operator written on the instruction.
    pub cache_op: CacheOp,
    /// Whether the request is a compare-and-swap, and which form ([`Cas`]).
    pub cas: Cas,
    /// The global read of an `LDGSTS` (SASS `cp.async`): the H200 counts the instruction in
    /// its own class, `smsp__sass_inst_executed_op_ldgsts`, not in `op_global_ld`, and its
    /// requests and sectors in `l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_ld` too
    /// (tests/hw/h200/corpus4/extra and ncu, globalToShmemAsyncCopy).
    pub ldgsts: bool,
}

/// The compare-and-swap forms, whose shared-memory wavefronts differ from the other atomics'
/// (`crate::mem::shared_banks`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Cas {
    /// Not a compare-and-swap.
    #[default]
    No,
    /// `atom.cas` / SASS `ATOMS.CAS`, `ATOMG.CAS`: returns the old value.
    Swap,
    /// SASS `ATOMS.CAST.SPIN.64`: ptxas's compare-and-store of a retry loop, returning whether
    /// it stored.
    Spin,
}

impl MemRequest {
    /// The active lanes' indices, lowest first.
    pub fn active_lanes(&self) -> impl Iterator<Item = usize> + '_ {
        let mask = self.mask;
        (0..32).filter(move |l| mask >> l & 1 == 1)
    }
}
