//! The decoded kernel: typed instructions with resolved operands, checked once at load time so the
//! executor runs them without looking at strings again.
//!
//! Every register lane is a `u64` of raw bits: integers zero-extended from their declared width,
//! `f32` in the low 32 bits, `f16` in the low 16, packed `x2` types with element 0 in the low half.
//! Predicates live apart, one `u32` lane mask per predicate register. Arithmetic is chosen once
//! when the kernel is lowered and stored as a plain function pointer over lane values
//! ([`Op::Alu`]), so the executor's loop is the same for every arithmetic instruction.

pub mod sass;
pub mod tex;
pub mod types;

use crate::mem::request::{AccessKind, CacheOp, Space};
use types::ScalarType;

/// Index of a general register in a warp's register file (at most
/// [`crate::ptx::lower::MAX_REGS_PER_KERNEL`] per kernel, so never truncated).
pub type Reg = u32;
/// Index of a predicate register (at most [`crate::ptx::lower::MAX_PREDS_PER_KERNEL`] per
/// kernel, so never truncated).
pub type PredReg = u16;

/// Per-lane arithmetic: up to four sources to one result.
pub type LaneFn = fn(u64, u64, u64, u64) -> u64;
/// A lane function of one source applied to a whole warp at once: `out[l] = f(a[l], 0, 0, 0)`
/// for the 32 lanes of `a`, the same bits as the [`LaneFn`] it stands for, computed so that the
/// host can vectorise it (the special functions: [`crate::exec::mufu::warp`]).
pub type WarpFn = fn(&[u64], &mut [u64; 32]);
/// Per-lane comparison for `setp`.
pub type CmpFn = fn(u64, u64) -> bool;

/// A special register (PTX ISA, chapter 10 "Special Registers").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sreg {
    /// `%tid.{x,y,z}`
    Tid(u8),
    /// `%ntid.{x,y,z}`
    Ntid(u8),
    /// `%ctaid.{x,y,z}`
    Ctaid(u8),
    /// `%nctaid.{x,y,z}`
    Nctaid(u8),
    /// `%laneid`
    LaneId,
    /// `%warpid`
    WarpId,
    /// `%nwarpid`
    NWarpId,
    /// `%smid`
    SmId,
    /// `%nsmid`
    NSmId,
    /// `%gridid`
    GridId,
    /// `%clock`
    Clock,
    /// `%clock64`
    Clock64,
    /// `%globaltimer`
    GlobalTimer,
    /// `%lanemask_eq`
    LanemaskEq,
    /// `%lanemask_le`
    LanemaskLe,
    /// `%lanemask_lt`
    LanemaskLt,
    /// `%lanemask_ge`
    LanemaskGe,
    /// `%lanemask_gt`
    LanemaskGt,
    /// `%dynamic_smem_size`
    DynamicSmemSize,
    /// `%total_smem_size`: the block's static plus dynamic shared memory, rounded up to 128
    /// bytes (measured on the H200: tests/hw/h200/sregs/sregs.txt, 160 + 256 bytes read 512).
    TotalSmemSize,
    /// `%aggr_smem_size`: the block's whole shared allocation, the 1 KB the system reserves
    /// included, not rounded (H200: 1,024 + 160 + 40,000 bytes read 41,184; same file).
    AggrSmemSize,
    /// `%reserved_smem_offset_{begin,end,cap,0,1}`: an offset into the 1 KB of shared memory
    /// the system reserves per block, the offset from its start measured on the H200
    /// (tests/hw/h200/sregs/sregs.txt: begin 0, end 288, cap 1024, `_0` and `_1` 0). gpumemsim
    /// places that kilobyte after the block's own shared memory ([`Kernel::reserved_smem`]),
    /// so the register reads this plus [`reserved_smem_base`].
    ReservedSmem(u16),
    /// A register that reads 0 in every launch gpumemsim runs (`%cluster_ctaid` and
    /// `%cluster_ctarank` of a launch without clusters, `%globaltimer_hi` of a simulated clock).
    Zero,
    /// A register that reads 1 (`%cluster_nctaid`, `%cluster_nctarank` without clusters).
    One,
}

/// A source operand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Src {
    /// A general register.
    Reg(Reg),
    /// An immediate, already in the bits of the instruction's type.
    Imm(u64),
    /// A special register.
    Sreg(Sreg),
    /// A predicate register read as an integer 0/1.
    Pred(PredReg),
}

/// A predicate source, possibly negated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PredSrc {
    /// The register; `None` for the constants.
    pub reg: Option<PredReg>,
    /// `!p`, or the constant's value negated.
    pub neg: bool,
}

impl PredSrc {
    /// The constant true.
    pub const TRUE: PredSrc = PredSrc {
        reg: None,
        neg: false,
    };
}

/// An address operand `[base + offset]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Addr {
    /// The base register, if any.
    pub base: Option<Reg>,
    /// Constant part: immediate offset plus a resolved symbol's address.
    pub offset: i64,
}

/// Which state space a memory instruction names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpaceSel {
    /// A definite space.
    Space(Space),
    /// Generic addressing: resolved per lane through the windows.
    Generic,
}

/// Boolean combination of `setp` with a third predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    /// `.and`
    And,
    /// `.or`
    Or,
    /// `.xor`
    Xor,
}

/// Atomic operation (PTX ISA 9.7.13.5 "atom").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    /// `.add` (integer)
    Add,
    /// `.add.f32`/`.add.f64`/`.add.f16`...
    FAdd,
    /// `.min`
    Min,
    /// `.max`
    Max,
    /// `.inc`
    Inc,
    /// `.dec`
    Dec,
    /// `.cas`
    Cas,
    /// `.exch`
    Exch,
    /// `.and`
    And,
    /// `.or`
    Or,
    /// `.xor`
    Xor,
}

/// `shfl.sync` mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    /// `.up`
    Up,
    /// `.down`
    Down,
    /// `.bfly`
    Bfly,
    /// `.idx`
    Idx,
}

/// `vote.sync` mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    /// `.all`
    All,
    /// `.any`
    Any,
    /// `.uni`
    Uni,
    /// `.ballot`
    Ballot,
}

/// `redux.sync` operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    /// `.add`
    Add,
    /// `.min`
    Min,
    /// `.max`
    Max,
    /// `.and`
    And,
    /// `.or`
    Or,
    /// `.xor`
    Xor,
}

/// Predicate logic on predicate registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredLogic {
    /// `and.pred`
    And,
    /// `or.pred`
    Or,
    /// `xor.pred`
    Xor,
    /// `not.pred` / `mov.pred` with negation
    Mov,
}

/// What one instruction does.
#[derive(Clone, Debug)]
pub enum Op {
    /// `d = f(a, b, c)` lane by lane.
    Alu {
        /// The arithmetic.
        f: LaneFn,
        /// Destination.
        d: Reg,
        /// Sources (unused ones are `Imm(0)`).
        a: Src,
        /// Second source.
        b: Src,
        /// Third source.
        c: Src,
        /// Fourth source (`bfi`).
        e: Src,
        /// The warp form of `f` (taking `a` only; used when `a` is a register), if it has one.
        w: Option<WarpFn>,
    },
    /// `cvt` between any two types.
    Cvt {
        /// Destination.
        d: Reg,
        /// Source.
        a: Src,
        /// Destination type.
        dst: ScalarType,
        /// Source type.
        src: ScalarType,
        /// Rounding modifier, if written.
        rnd: Option<types::Rounding>,
        /// The rounding is an integer rounding (`.rni` ...).
        int_rnd: bool,
        /// `.sat`.
        sat: bool,
        /// `.ftz`.
        ftz: bool,
    },
    /// `add.cc`, `addc`, `sub.cc`, `subc`, `mad.cc`, `madc`: `(d, carry) = f(a, b, c, carry)`.
    Carry {
        /// Returns the result and the carry out; the last argument is the carry in.
        f: fn(u64, u64, u64, u64) -> (u64, u64),
        /// Destination.
        d: Reg,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Third source (mad only).
        c: Src,
        /// Read the carry flag.
        cin: bool,
        /// Write the carry flag.
        cout: bool,
        /// The hidden register holding each lane's carry flag (`CC.CF`).
        cc: Reg,
    },
    /// `setp`: `d = cmp(a, b) [bop c]`, `d2 = !cmp(a, b) [bop c]`.
    Setp {
        /// The comparison, type included.
        cmp: CmpFn,
        /// First destination.
        d: PredReg,
        /// Second destination of `p|q`.
        d2: Option<PredReg>,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Boolean combination with a predicate.
        bop: Option<(BoolOp, PredSrc)>,
    },
    /// `set`: `d = cmp(a,b) [bop c] ? one : 0`.
    Set {
        /// The comparison.
        cmp: CmpFn,
        /// Destination.
        d: Reg,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Boolean combination.
        bop: Option<(BoolOp, PredSrc)>,
        /// The value for true (`0xffffffff` or `1.0f`).
        one: u64,
    },
    /// `selp`: `d = p ? a : b`.
    Selp {
        /// Destination.
        d: Reg,
        /// Value when true.
        a: Src,
        /// Value when false.
        b: Src,
        /// Selector.
        p: PredSrc,
    },
    /// Predicate logic: `d = a op b`.
    PredOp {
        /// The operation.
        op: PredLogic,
        /// Destination.
        d: PredReg,
        /// Sources.
        a: PredSrc,
        /// Second source (unused for `Mov`).
        b: PredSrc,
    },
    /// A predicate set from an integer register (`setp.ne` shortcut for `mov.pred`/`cvt`).
    PredFromReg {
        /// Destination.
        d: PredReg,
        /// Source (non-zero is true).
        a: Src,
    },
    /// Load.
    Ld {
        /// State space.
        space: SpaceSel,
        /// Element type (sign extension for `.s8`/`.s16`).
        ty: ScalarType,
        /// Destinations, `None` for `_`; one per vector element.
        d: Vec<Option<Reg>>,
        /// Width of each destination register in bytes, for sign extension.
        dst_bytes: u8,
        /// Address.
        addr: Addr,
        /// Cache operator.
        cache: CacheOp,
    },
    /// Store.
    St {
        /// State space.
        space: SpaceSel,
        /// Element type.
        ty: ScalarType,
        /// Sources, one per vector element.
        s: Vec<Src>,
        /// Address.
        addr: Addr,
        /// Cache operator.
        cache: CacheOp,
    },
    /// `atom` and `red`.
    Atom {
        /// State space.
        space: SpaceSel,
        /// Operation.
        op: AtomOp,
        /// Element type.
        ty: ScalarType,
        /// Destination for `atom`; `None` for `red`.
        d: Option<Reg>,
        /// Address.
        addr: Addr,
        /// Operand.
        b: Src,
        /// Swap value for `cas`.
        c: Src,
        /// Load or reduction, for the request.
        kind: AccessKind,
        /// ptxas computes this reduction across the warp (`REDUX`) and one elected lane performs
        /// it, so the request holds one lane; counting only, set by the lowering's ptxas passes.
        elected: bool,
    },
    /// `cvta` (to generic: `to_generic`) or `cvta.to`.
    Cvta {
        /// Destination.
        d: Reg,
        /// Source.
        a: Src,
        /// The non-generic space.
        space: Space,
        /// Direction.
        to_generic: bool,
    },
    /// `bra`.
    Bra {
        /// Target instruction index.
        target: u32,
    },
    /// `bar.sync`/`barrier.sync`/`bar.arrive`/`bar.red` (reductions treated as sync).
    Bar {
        /// Barrier id.
        id: Src,
        /// Expected thread count, if given.
        count: Option<Src>,
        /// `bar.arrive`: do not wait.
        arrive: bool,
    },
    /// `bar.red.popc/and/or`: a barrier that also reduces a predicate.
    BarRed {
        /// Destination register (popc) or predicate (and/or).
        d: Src,
        /// `popc`, `and` or `or`.
        op: ReduxOp,
        /// Barrier id.
        id: Src,
        /// Predicate input.
        p: PredSrc,
    },
    /// `exit` or `ret` from the kernel.
    Exit,
    /// `shfl.sync`.
    Shfl {
        /// Mode.
        mode: ShflMode,
        /// Destination.
        d: Reg,
        /// Optional predicate destination (source lane in range).
        p: Option<PredReg>,
        /// Value.
        a: Src,
        /// Lane or offset.
        b: Src,
        /// Clamp/segment mask.
        c: Src,
        /// The member mask (`membermask`) of the `.sync` form; `None` for the legacy form, whose
        /// participants are the lanes that execute it.
        mask: Option<Src>,
    },
    /// `vote.sync`.
    Vote {
        /// Mode.
        mode: VoteMode,
        /// Destination: a predicate for all/any/uni, a register for ballot.
        d: Src,
        /// Input predicate.
        a: PredSrc,
        /// The member mask (`membermask`) of the `.sync` form; `None` for the legacy form, whose
        /// participants are the lanes that execute it.
        mask: Option<Src>,
    },
    /// `match.any.sync`/`match.all.sync`.
    Match {
        /// `.all`.
        all: bool,
        /// Destination mask.
        d: Reg,
        /// Optional predicate destination (all).
        p: Option<PredReg>,
        /// Value.
        a: Src,
        /// 64-bit values.
        wide: bool,
        /// The member mask.
        mask: Src,
    },
    /// `activemask.b32`.
    Activemask {
        /// Destination.
        d: Reg,
    },
    /// `redux.sync`.
    Redux {
        /// Operation.
        op: ReduxOp,
        /// Signed min/max.
        signed: bool,
        /// Destination.
        d: Reg,
        /// Value.
        a: Src,
        /// The member mask.
        mask: Src,
    },
    /// `bar.warp.sync membermask`: the lanes of the mask synchronise; no data moves.
    WarpSync {
        /// The member mask.
        mask: Src,
    },
    /// A call of the extern `vprintf(format, args)` that device `printf` compiles to: the
    /// addresses of its `.param` slots in the thread's frame.
    Vprintf {
        /// The slot holding the generic address of the format string.
        format: u64,
        /// The slot holding the generic address of the argument buffer.
        args: u64,
        /// The slot for the `int` result, if the call has one.
        ret: Option<u64>,
    },
    /// A call of the extern `__assertfail(message, file, line, function, charSize)` that a failed
    /// device `assert` makes: the `.param` slots of its first four arguments.
    AssertFail {
        /// Slots of `message`, `file`, `line` and `function`.
        args: [u64; 4],
    },
    /// `trap` (`__trap()`): aborts the kernel.
    Trap,
    /// A texture or surface instruction (`tex`, `tld4`, `txq`, `suld`, `sust`), run by the
    /// texture unit ([`crate::tex`]).
    Tex(Box<tex::TexInst>),
    /// An `mbarrier` operation (PTX ISA "Parallel Synchronization and Communication
    /// Instructions: mbarrier"), or a bulk copy that completes its transaction bytes on one
    /// ([`MbarOp`]). The barrier's state is the 8-byte object in shared memory it names.
    Mbarrier {
        /// What it does.
        op: MbarOp,
        /// Destination: the state register of `arrive`, the predicate of `try_wait`, or
        /// `Imm(0)`.
        d: Src,
        /// The barrier object's address.
        addr: Addr,
        /// Its state space (shared, or generic).
        space: SpaceSel,
        /// The count (`init`, `arrive`), transaction bytes (`expect_tx`, the bulk copy's
        /// size), state (`try_wait`) or phase parity (`try_wait.parity`).
        b: Src,
        /// A bulk copy's destination (shared) and source (global).
        copy: Option<(Addr, Addr)>,
    },
    /// The shared-memory half of a `cp.async`: the bytes the `Ld` before it read into `s` are
    /// queued, to land in shared memory at `addr` when a `cp.async.wait_group`/`wait_all`
    /// (or `cp.async.mbarrier.arrive`) waits for them ([`Op::CpAsyncWait`]), as late as the
    /// PTX ISA lets them.
    CpAsyncStore {
        /// The registers holding the bytes (4 each).
        s: Vec<Src>,
        /// The shared destination.
        addr: Addr,
    },
    /// `cp.async.commit_group`: the lane's queued copies become its newest group.
    CpAsyncCommit,
    /// `cp.async.wait_group n` (`all`: false) lands every queued copy of the lane but those
    /// of its `n` newest groups; `cp.async.wait_all` and `cp.async.mbarrier.arrive` (`all`:
    /// true) land them all, uncommitted ones included.
    CpAsyncWait {
        /// Groups that may stay pending.
        n: u32,
        /// Uncommitted copies land too.
        all: bool,
    },
    /// Not an instruction (never counted): the warp gives up its turn after the strong load
    /// before it (`ld.acquire`, `ld.relaxed`: what a spin-wait polls), so that the warp it
    /// waits for can run.
    Yield,
    /// Instructions with no effect on a sequentially consistent functional model
    /// (`membar`, `fence`, `nanosleep`, `prefetch`, `pmevent`).
    Nop,
}

/// The `mbarrier` operations gpumemsim runs. Copies complete when they are issued, so a phase
/// completes as soon as its pending arrivals and its transaction count both reach zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarOp {
    /// `mbarrier.init [a], count`.
    Init,
    /// `mbarrier.arrive [a], count` (1 without a count): the state before it in `d`.
    Arrive,
    /// `mbarrier.expect_tx [a], bytes`.
    ExpectTx,
    /// `mbarrier.try_wait`/`test_wait [a], state`: whether the phase of `state` completed.
    TryWait,
    /// `mbarrier.try_wait.parity`/`test_wait.parity [a], parity`: whether the phase of that
    /// parity completed.
    TryWaitParity,
    /// `mbarrier.inval [a]`.
    Inval,
    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size,
    /// [a]`: the copy, then `size` transaction bytes completed on the barrier; without a copy
    /// (`copy: None`), `mbarrier.complete_tx [a], size`.
    BulkCopy,
    /// `mbarrier.arrive.expect_tx [a], bytes`: `bytes` expected, then one arrival; the state
    /// before it in `d`.
    ArriveExpectTx,
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    /// What it does.
    pub op: Op,
    /// Guard predicate, `None` when unguarded.
    pub guard: Option<PredSrc>,
}

/// Where an instruction came from, for messages and per-line attribution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InstInfo {
    /// 1-based line in the PTX text.
    pub ptx_line: u32,
    /// Source file index into [`Kernel::files`] and 1-based source line, from `.loc` (0: none).
    pub src_file: u32,
    /// Source line.
    pub src_line: u32,
    /// The instruction as written (`ld.shared.f32 %f1, [%r21]`).
    pub text: String,
}

/// Bytes the system reserves at the start of each block's shared memory on the H200
/// (`GpuConfig::reserved_shared_per_block`; `%reserved_smem_offset_cap` reads 1,024:
/// tests/hw/h200/sregs/sregs.txt).
pub const RESERVED_SMEM_BYTES: u64 = 1024;

/// Where gpumemsim places a block's reserved kilobyte ([`Kernel::reserved_smem`]): after the
/// block's static and dynamic shared memory (`shared` bytes), at a 128-byte boundary. On the
/// H200 it is the window's first kilobyte, before static shared memory; gpumemsim keeps the
/// block's own shared memory at offset 0 (as every other part of it assumes) and puts the
/// reserved bytes after it, so they never alias the program's variables.
pub fn reserved_smem_base(shared: u64) -> u64 {
    shared.div_ceil(128) * 128
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Name in the PTX.
    pub name: String,
    /// Declared type.
    pub ty: ScalarType,
    /// Size in bytes (arrays of `.b8` for structs).
    pub size: u32,
    /// Offset in the parameter buffer.
    pub offset: u32,
    /// Alignment.
    pub align: u32,
}

/// A decoded kernel (`.entry`), calls inlined.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// Name as in the PTX (mangled for C++).
    pub name: String,
    /// Instructions.
    pub code: Vec<Inst>,
    /// Same length as `code`.
    pub info: Vec<InstInfo>,
    /// General registers per thread (bit-storage slots, not the hardware's count).
    pub num_regs: u32,
    /// Predicate registers per thread.
    pub num_preds: u32,
    /// Parameters in order.
    pub params: Vec<Param>,
    /// Size of the parameter buffer.
    pub param_bytes: u32,
    /// Static shared memory in bytes (declared `.shared` variables this kernel uses; at most
    /// [`crate::ptx::lower::MAX_STATIC_SHARED`], as ptxas allows).
    pub static_shared: u64,
    /// Offset where dynamic (`extern .shared`) memory starts.
    pub dynamic_shared_offset: u32,
    /// Local memory per thread in bytes (`.local` declarations, call frames included; at most
    /// [`crate::ptx::lower::MAX_LOCAL_BYTES`]).
    pub local_bytes: u64,
    /// Source files from `.file`, by index.
    pub files: Vec<(u32, String)>,
    /// `.reqntid`/`.maxntid` if written.
    pub reqntid: Option<[u32; 3]>,
    /// The kernel's sm_90 SASS, when it runs as SASS: `code` then holds, at each SASS
    /// instruction's index, the PTX form of its memory access ([`sass`] module docs), and
    /// `info` its SASS line.
    pub sass: Option<std::sync::Arc<sass::SassCode>>,
    /// The kernel reads `%reserved_smem_offset_*` (SASS: `c[0x0][0x6c]`), so each block gets
    /// the system's reserved kilobyte of shared memory, after its own
    /// ([`reserved_smem_base`]).
    pub reserved_smem: bool,
}

/// An entry function that could not be lowered.
#[derive(Clone, Debug)]
pub struct Unloadable {
    /// Its PTX name.
    pub name: String,
    /// The located reason.
    pub error: crate::ptx::error::PtxError,
    /// Its parameter list, when the lowering got that far (what `export-cuda` needs to write
    /// a host program that runs it on a GPU).
    pub params: Option<Vec<Param>>,
}

/// A module-scope variable in `.global` or `.const` memory.
#[derive(Clone, Debug)]
pub struct ModuleVar {
    /// Name.
    pub name: String,
    /// Its space (`Global` or `Const`).
    pub space: Space,
    /// Address in that space.
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// Initial contents (`size` bytes).
    pub init: Vec<u8>,
}

/// A loaded module: kernels and module variables.
#[derive(Clone, Debug)]
pub struct Program {
    /// Kernels by PTX name.
    pub kernels: Vec<Kernel>,
    /// Entry functions that could not be lowered, with the located reason; launching one reports
    /// it.
    pub unloadable: Vec<Unloadable>,
    /// `.global` and `.const` variables.
    pub vars: Vec<ModuleVar>,
    /// Size of the constant bank used.
    pub const_bytes: u64,
}

impl Program {
    /// The kernel with this PTX name.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// Why the entry function `name` could not be lowered, if it could not.
    pub fn unloadable(&self, name: &str) -> Option<&crate::ptx::error::PtxError> {
        self.unloadable
            .iter()
            .find(|u| u.name == name)
            .map(|u| &u.error)
    }

    /// The parameter list of the entry function `name`, loadable or not (`None` when there is
    /// no such entry, or its parameters themselves could not be lowered).
    pub fn entry_params(&self, name: &str) -> Option<&[Param]> {
        if let Some(k) = self.kernel(name) {
            return Some(&k.params);
        }
        self.unloadable
            .iter()
            .find(|u| u.name == name)
            .and_then(|u| u.params.as_deref())
    }
}
