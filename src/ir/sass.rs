//! The decoded form of an sm_90 SASS kernel: what [`crate::sass`] makes of nvdisasm's text and
//! what the executor ([`crate::exec::simt`]) runs, with no strings left.
//!
//! Registers: the warp's register file holds, per lane, the 32-bit general registers `R0..Rn`
//! at their own index, then one slot that always reads 0 (`RZ` and `URZ` as sources), the
//! uniform registers `UR0..` (written in every lane, so that a vector instruction reads them
//! like any register), the convergence-barrier registers `B0..B15` (lane 0 holds the barrier's
//! lane mask) and a sink that takes writes to `RZ`. Predicates: `P0..P6` at 0..6, `PT` at 7
//! (all ones, never written), `UP0..UP6` at 8..14 (`UPT` reads `PT`) and a sink at 15.
//!
//! Memory instructions keep their effect in the PTX form ([`crate::ir::Op::Ld`],
//! [`crate::ir::Op::St`], [`crate::ir::Op::Atom`], at the same index of [`crate::ir::Kernel::code`]),
//! so the loads, stores, faults and requests of both instruction sets are one implementation;
//! [`SOp::Mem`] only says how the SASS forms the 32 addresses.

use crate::ir::Sreg;

/// A register slot in the warp's register file (see the module docs).
pub type SReg = u16;

/// The predicate slot of `PT` (and `UPT`).
pub const PT: u8 = 7;
/// The predicate slot that takes writes to `PT`/`UPT`.
pub const PSINK: u8 = 15;
/// Predicate slots per warp.
pub const NUM_PREDS: u32 = 16;

/// A predicate source, possibly negated (`!P0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PIn {
    /// The slot.
    pub idx: u8,
    /// `!`.
    pub neg: bool,
}

impl PIn {
    /// `PT`.
    pub const TRUE: PIn = PIn {
        idx: PT,
        neg: false,
    };
}

/// Where a source operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opnd {
    /// A register slot (general, zero or uniform).
    R(SReg),
    /// A 32-bit immediate.
    Imm(u32),
    /// `c[bank][offset]`: a word of a constant bank, the same for every lane.
    C {
        /// Bank (0: the driver's bank with the launch's parameters; 3: `__constant__` data).
        bank: u8,
        /// Byte offset.
        off: u32,
    },
}

/// A source operand with its modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Src {
    /// The value.
    pub o: Opnd,
    /// Modifiers: [`Src::INEG`], [`Src::NOT`], [`Src::FABS`], [`Src::FNEG`] (applied in that
    /// order), and [`Src::H0_H0`]/[`Src::H1_H1`] for a 16-bit pair operand.
    pub m: u8,
}

impl Src {
    /// `-x` of an integer (two's complement).
    pub const INEG: u8 = 1;
    /// `~x`.
    pub const NOT: u8 = 2;
    /// `|x|` of an f32 (or f16 pair).
    pub const FABS: u8 = 4;
    /// `-x` of an f32 (or f16 pair).
    pub const FNEG: u8 = 8;
    /// `.H0_H0`: the low half in both halves.
    pub const H0_H0: u8 = 16;
    /// `.H1_H1`: the high half in both halves.
    pub const H1_H1: u8 = 32;
    /// `|x|` of each half of an f16 pair.
    pub const HABS: u8 = 64;
    /// `-x` of each half of an f16 pair.
    pub const HNEG: u8 = 128;

    /// A plain operand.
    pub const fn of(o: Opnd) -> Src {
        Src { o, m: 0 }
    }

    /// The operand's value `v` with its modifiers applied.
    #[inline(always)]
    pub fn apply(self, v: u32) -> u32 {
        let mut v = v;
        if self.m & Src::INEG != 0 {
            v = v.wrapping_neg();
        }
        if self.m & Src::NOT != 0 {
            v = !v;
        }
        if self.m & Src::H0_H0 != 0 {
            v = (v & 0xffff) | (v << 16);
        }
        if self.m & Src::H1_H1 != 0 {
            v = (v >> 16) | (v & 0xffff_0000);
        }
        if self.m & Src::FABS != 0 {
            v &= 0x7fff_ffff;
        }
        if self.m & Src::FNEG != 0 {
            v ^= 0x8000_0000;
        }
        if self.m & Src::HABS != 0 {
            v &= 0x7fff_7fff;
        }
        if self.m & Src::HNEG != 0 {
            v ^= 0x8000_8000;
        }
        v
    }
}

/// Integer comparison of `ISETP`, and float comparison of `FSETP` (with the unordered forms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `.F` (false)
    F,
    /// `.LT`
    Lt,
    /// `.EQ`
    Eq,
    /// `.LE`
    Le,
    /// `.GT`
    Gt,
    /// `.NE`
    Ne,
    /// `.GE`
    Ge,
    /// `.T` (true)
    T,
    /// `.NUM`: neither is NaN.
    Num,
    /// `.NAN`: either is NaN.
    Nan,
    /// `.LTU`
    Ltu,
    /// `.EQU`
    Equ,
    /// `.LEU`
    Leu,
    /// `.GTU`
    Gtu,
    /// `.NEU`
    Neu,
    /// `.GEU`
    Geu,
}

/// How a predicate result combines with the instruction's predicate input (`.AND .OR .XOR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PLogic {
    /// `.AND`
    And,
    /// `.OR`
    Or,
    /// `.XOR`
    Xor,
}

/// A 32-bit integer lane function of up to three sources and a per-instruction constant.
pub type Lane3 = fn(u32, u32, u32, u32) -> u32;

/// A 32-bit lane function of three sources applied to a whole warp at once: `out[l] =
/// f(a[l], b[l], c[l])` in every lane (so the host can vectorise it: `FFMA`'s fused
/// multiply-add).
pub type Warp3 = fn(&[u32; 32], &[u32; 32], &[u32; 32], &mut [u32; 32]);

/// A 64-bit lane function of up to three sources and a per-instruction constant.
pub type Lane64 = fn(u64, u64, u64, u32) -> u64;

/// Which special register `S2R`/`S2UR`/`CS2R` read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialReg {
    /// One of the registers PTX also has.
    Ptx(Sreg),
    /// `SR_CgaCtaId`: the block's rank in its cluster (0: gpumemsim launches no clusters).
    CgaCtaId,
    /// `SR_SWINHI`: the high word of the generic address of the block's shared window
    /// (`cvta.shared` in SASS is `SR_SWINHI : shared address`): gpumemsim's
    /// [`crate::mem::space::SHARED_WINDOW`], the window the PTX path's generic addresses use
    /// (the hardware's value is not architectural, PTX ISA 6.4.1.1).
    SwinHi,
    /// `SR_LTMASK`, `SR_LEMASK`, `SR_GTMASK`, `SR_GEMASK`, `SR_EQMASK` are [`Sreg`]s too.
    /// `SRZ`: zero.
    Zero,
}

/// One decoded SASS operation.
#[derive(Clone, Debug)]
pub enum SOp {
    /// `d = f(a, b, c, k)` in every lane: the 32-bit integer and float arithmetic whose
    /// semantics are a pure lane function (`IMAD`, `IADD3` without carries, `LEA`, `LOP3.LUT`,
    /// `SHF`, `PRMT`, `FADD`, `FMUL`, `FFMA`, `I2FP`, `VIADD`, `MOV`, ...).
    Alu {
        /// The lane function.
        f: Lane3,
        /// Destination.
        d: SReg,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Third source.
        c: Src,
        /// Constant of the instruction (a LUT, a shift, a rounding mode).
        k: u32,
    },
    /// Like [`SOp::Alu`], the lane function taking the whole warp's operands at once (see
    /// [`Warp3`]): `FFMA` rounding to nearest.
    AluW {
        /// The warp function.
        f: Warp3,
        /// Destination.
        d: SReg,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Third source.
        c: Src,
    },
    /// Like [`SOp::Alu`] with a predicate operand: `SEL`, `FSEL` (`p ? a : b`), `VIMNMX`,
    /// `FMNMX` (`p ? min : max`), `VIADDMNMX` (`p ? min(a + b, c) : max(a + b, c)`).
    AluP {
        /// The lane function of `(a, b, c, p)`; its fourth argument is the predicate's bit.
        f: Lane3,
        /// Destination.
        d: SReg,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Third source (the zero slot when the instruction has none).
        c: Src,
        /// Predicate.
        p: PIn,
    },
    /// 64-bit lane functions on register pairs: `DADD`, `DMUL`, `DFMA` (`d:d+1 = f(a, b, c, k)`).
    /// A 32-bit immediate is the high word of a double (the low word zero), as the
    /// instructions encode it.
    Alu64 {
        /// The lane function.
        f: Lane64,
        /// Destination pair.
        d: SReg,
        /// Source pairs.
        a: Src,
        /// Second source.
        b: Src,
        /// Third source.
        c: Src,
        /// Constant of the instruction (a rounding mode).
        k: u32,
    },
    /// Conversions (`F2I`, `I2F`, `F2F`, `FRND`, `I2FP` with a rounding): PTX `cvt` semantics
    /// on one lane, the source and destination a register or a pair by their types' widths.
    Cvt {
        /// Destination (low register).
        d: SReg,
        /// Source (low register).
        a: Src,
        /// Destination type.
        dst: crate::ir::types::ScalarType,
        /// Source type.
        src: crate::ir::types::ScalarType,
        /// Rounding (`None`: the default of the conversion).
        rnd: Option<crate::ir::types::Rounding>,
        /// The rounding is to an integral value (`F2I`, `FRND`).
        int_rnd: bool,
        /// `.FTZ`.
        ftz: bool,
    },
    /// `FCHK p, a, b`: whether `a / b` needs the division's slow path (see
    /// [`crate::exec::sass_alu::fchk`]).
    Fchk {
        /// Predicate destination.
        p: u8,
        /// Dividend.
        a: Src,
        /// Divisor.
        b: Src,
    },
    /// `P2R d, PR, a, mask`: the predicates `P0..P6` as bits, `(PR & mask) | (a & !mask)`.
    P2r {
        /// Destination.
        d: SReg,
        /// Source of the bits outside the mask.
        a: Src,
        /// Mask.
        mask: u32,
    },
    /// `MATCH.ANY d, a` (the lanes whose `a` equals this lane's) and `MATCH.ALL p, d, a` (all
    /// active lanes or none), 32-bit or a pair with `.U64`.
    Match {
        /// `.ALL`.
        all: bool,
        /// `.U64`.
        wide: bool,
        /// Predicate destination of `.ALL` (the sink otherwise).
        p: u8,
        /// Destination.
        d: SReg,
        /// Source.
        a: SReg,
    },
    /// `BRA.DIV mask, target`: the executing lanes branch when some live lane of `mask` is
    /// not among them (the warp is diverged with respect to the mask).
    BraDiv {
        /// The mask operand.
        mask: Src,
        /// Instruction index.
        target: u32,
    },
    /// `BRA.U.ANY target`: every lane of the group branches when the guard holds in any.
    BraAny {
        /// Instruction index.
        target: u32,
    },
    /// `RET.REL.NODEC R`, `BRX R`: each lane jumps to the byte address in its register (plus
    /// `off`), an index of [`SassCode::insts`] once divided by 16.
    Jmp {
        /// The register holding the address.
        r: SReg,
        /// Byte offset added.
        off: u32,
    },
    /// `WARPSYNC mask` (a mask other than the full warp's), `WARPSYNC.EXCLUSIVE mask`,
    /// `WARPSYNC.COLLECTIVE mask, L`: the lanes wait until every live lane of `mask` has
    /// arrived, then go on as one group.
    Warpsync {
        /// The mask.
        mask: Src,
        /// `.EXCLUSIVE` and `.COLLECTIVE`: the lanes of each mask go on as a group of their
        /// own (the block that follows runs once per mask).
        exclusive: bool,
    },
    /// A `NOP` ptxas left where a `bar.warp.sync` (`__syncwarp`) compiled to no instruction,
    /// with the register that holds its mask (the cubin's cooperative-group site,
    /// [`crate::sass::COOP_GROUP_TAG`]): no effect on the machine, but the mask is checked as
    /// compute-sanitizer's synccheck checks it there (a lane outside its own mask is an error).
    WarpsyncNop {
        /// The mask.
        mask: Src,
    },
    /// A 64-bit atomic on register pairs (`ATOMG.E.CAS.64`, `REDG.E.ADD.64`, ...,
    /// `ATOMS.CAST.SPIN.64`): the pairs are packed into [`SassCode::wide`] slots, whose
    /// 64-bit values the PTX form at the same index reads and writes.
    Atom64 {
        /// The address.
        addr: Box<SOp>,
        /// Operand pairs (low registers; the zero slot when unused).
        b: SReg,
        /// Second operand pair (`CAS`'s new value).
        c: SReg,
        /// Destination pair (the sink when unused).
        d: SReg,
        /// `CAST.SPIN`: `d` gets 1 when the value was stored, 0 otherwise.
        spin: bool,
    },
    /// 64-bit results: `IMAD.WIDE(.U32)` (`d:d+1 = a * b + c:c+1`).
    ImadWide {
        /// Destination pair.
        d: SReg,
        /// Sources.
        a: Src,
        /// Multiplier.
        b: Src,
        /// Addend pair (its low register).
        c: Src,
        /// Signed multiply.
        signed: bool,
        /// `IMAD.HI`: only the high word, to `d` (the addend is the pair all the same:
        /// `IMAD.HI.U32 d, a, b, c` is the high word of `a * b + c+1:c`).
        hi: bool,
        /// Carry in (`IMAD.WIDE.U32.X ..., P`; `!PT` when none).
        cin: PIn,
        /// Carry out of the 64-bit sum (`IMAD.WIDE.U32 d, P, ...`; [`PSINK`] when none).
        cout: u8,
    },
    /// Additions with carries: `IADD3` with carry-out predicates, `IADD3.X`, `IMAD.X`,
    /// `LEA` with a carry-out, `LEA.HI.X`: `d = f(a, b, c) + cin0 + cin1`, carries out.
    AddCarry {
        /// Computes the 64-bit sum before carries in (from the three sources and `k`).
        f: fn(u32, u32, u32, u32) -> u64,
        /// Destination.
        d: SReg,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Third source.
        c: Src,
        /// Constant (a shift).
        k: u32,
        /// Carry-in predicates.
        cin: [PIn; 2],
        /// Carry-out predicates (bit 32 and bit 33 of the sum).
        cout: [u8; 2],
    },
    /// `LOP3.LUT P, d, a, b, c, lut, pin`: the result and its `!= 0` into a predicate.
    Lop3P {
        /// Predicate destination.
        p: u8,
        /// Destination.
        d: SReg,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Third source.
        c: Src,
        /// Truth table.
        lut: u8,
    },
    /// `DSETP.MIN/MAX p, q, a, b, pin` (ptxas's `fmin`/`fmax` of doubles): `p` whether `a`
    /// is the result, `q` whether both are NaN ([`crate::exec::sass_half::dsetp_minmax`]),
    /// each combined with `pin`.
    DsetpMinMax {
        /// `.MAX` (else `.MIN`).
        max: bool,
        /// Combination with `pin`.
        op: PLogic,
        /// Predicate destinations.
        p: u8,
        /// Second predicate destination.
        q: u8,
        /// Source pairs.
        a: Src,
        /// Second source pair.
        b: Src,
        /// Predicate input.
        pin: PIn,
    },
    /// `ISETP`: `p = cmp(a, b) op pin`, `q = !cmp(a, b) op pin`; `.EX` compares the high words
    /// of a 64-bit comparison whose low-word result is `ex`.
    Isetp {
        /// Comparison.
        cmp: Cmp,
        /// Unsigned.
        unsigned: bool,
        /// Combination with `pin`.
        op: PLogic,
        /// Destinations.
        p: u8,
        /// Second destination (the complement).
        q: u8,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Predicate input.
        pin: PIn,
        /// `.EX`: the low words' result.
        ex: Option<PIn>,
    },
    /// `FSETP` (f32) and `DSETP` (f64, register pairs).
    Fsetp {
        /// Comparison.
        cmp: Cmp,
        /// Combination with `pin`.
        op: PLogic,
        /// `.FTZ`.
        ftz: bool,
        /// `DSETP`.
        f64: bool,
        /// `HSETP2`: the operands' low halves compare as f16 (both halves are equal: the
        /// decoder takes only `.H0_H0`/`.H1_H1` operands and an unused `q`).
        half: bool,
        /// Destinations.
        p: u8,
        /// Second destination.
        q: u8,
        /// Sources.
        a: Src,
        /// Second source.
        b: Src,
        /// Predicate input.
        pin: PIn,
    },
    /// `PLOP3.LUT p, q, a, b, c, lut, lut2`.
    Plop3 {
        /// Destinations.
        p: u8,
        /// Second destination.
        q: u8,
        /// Inputs.
        s: [PIn; 3],
        /// Truth tables of `p` and `q`.
        lut: [u8; 2],
    },
    /// `S2R`/`S2UR`/`CS2R.32`: a special register.
    S2r {
        /// Destination.
        d: SReg,
        /// Which.
        sr: SpecialReg,
        /// Uniform destination (`S2UR`).
        uniform: bool,
    },
    /// `LDC`, `LDC.64`, `LDC.U8` ... with a per-lane register index, or `ULDC` (uniform).
    Ldc {
        /// Destination (low register).
        d: SReg,
        /// Bank.
        bank: u8,
        /// Index register (zero slot when none).
        r: SReg,
        /// Byte offset.
        off: u32,
        /// Bytes (1, 2, 4, 8).
        bytes: u8,
        /// Sign-extend a 1- or 2-byte value.
        signed: bool,
        /// `ULDC`: written to a uniform register.
        uniform: bool,
    },
    /// `R2UR`: a register's value in the first active lane, to a uniform register; with a
    /// predicate destination, set in the lanes whose value differs from it (`.OR`: ORed into
    /// the predicate's value).
    R2ur {
        /// Destination.
        d: SReg,
        /// Source.
        a: SReg,
        /// Predicate destination (the sink when none).
        p: u8,
        /// `.OR`.
        or: bool,
    },
    /// A memory instruction; its effect is `code[pc]` of the kernel (see the module docs).
    Mem {
        /// Address base: a register (a pair with `wide`), or the zero slot.
        base: SReg,
        /// The base is a 64-bit register pair (`[R2.64]`).
        wide: bool,
        /// A uniform register added to the address (`[R2+UR4]`), or the zero slot.
        ubase: SReg,
        /// Immediate offset.
        off: i32,
        /// The window the address is in: shared addresses have the 1 KB reserved window
        /// subtracted (see [`crate::sass`]).
        shared: bool,
    },
    /// A texture or surface instruction (`TEX`, `TLD`, `TLD4`, `TXQ`, `SULD`, `SUST`): its
    /// effect is `code[pc]`, the [`crate::ir::Op::Tex`] of the PTX form with this kernel's
    /// register slots as operands, run by the same texture unit (see [`crate::sass`]'s
    /// `decode::tex`); this op holds what only the SASS form has.
    Tex {
        /// `.AOFFI`: (the register of packed 4-bit texel offsets, the first coordinate
        /// register, the number of coordinates); the PTX form reads coordinate plus offset from
        /// the [`SassCode::wide`] slots.
        aoffi: Option<(SReg, SReg, u8)>,
        /// A sparse fetch's predicate destination, set where a texel is not resident (the
        /// sink when there is none).
        nonresident: u8,
    },
    /// `SHFL.{IDX,UP,DOWN,BFLY} p, d, a, b, c`.
    Shfl {
        /// Mode.
        mode: crate::ir::ShflMode,
        /// Predicate destination (the source lane was in range).
        p: u8,
        /// Destination.
        d: SReg,
        /// Value.
        a: SReg,
        /// Lane or offset.
        b: Src,
        /// Clamp and segment mask.
        c: Src,
    },
    /// `VOTE.{ALL,ANY,EQ}` and `VOTEU`: `d` = ballot, `p` = the vote.
    Vote {
        /// Mode.
        mode: crate::ir::VoteMode,
        /// Ballot destination (`RZ`/`URZ`: the sink).
        d: SReg,
        /// Predicate destination.
        p: u8,
        /// The voted predicate.
        a: PIn,
        /// `VOTEU`: the ballot goes to a uniform register.
        uniform: bool,
    },
    /// `REDUX.{SUM,MIN,MAX,AND,OR,XOR}(.S32) UR, R`: a reduction over the active lanes.
    Redux {
        /// Operation.
        op: crate::ir::ReduxOp,
        /// Signed min/max.
        signed: bool,
        /// Uniform destination.
        d: SReg,
        /// Source.
        a: SReg,
    },
    /// `BRA {p,} target` (guarded per lane; taken where the guard and `p` hold).
    Bra {
        /// Instruction index.
        target: u32,
        /// The condition operand (`PT` when none).
        cond: PIn,
    },
    /// `BSSY B, target`: the active lanes join convergence barrier `b`.
    Bssy {
        /// The barrier's register slot.
        b: SReg,
    },
    /// `BSYNC B`: the lanes of barrier `b` reconverge here.
    Bsync {
        /// The barrier's register slot.
        b: SReg,
    },
    /// `BREAK B`: the executing lanes leave barrier `b`.
    Break {
        /// The barrier's register slot.
        b: SReg,
    },
    /// `BAR.SYNC id{, count}` and `BAR.ARV`.
    Bar {
        /// Barrier id.
        id: Src,
        /// Thread count, if given.
        count: Option<Src>,
        /// `BAR.ARV`: arrive without waiting.
        arrive: bool,
    },
    /// `EXIT`.
    Exit,
    /// `LDGSTS [shared], [global]`: `cp.async`. The instruction's PTX form is the global load
    /// of `n` words into the stage slots ([`SassCode::stage`]); the words are then queued
    /// to land at `shared` as the PTX path's `cp.async` does ([`crate::ir::Op::CpAsyncStore`]).
    LdgSts {
        /// The global source ([`SOp::Mem`]).
        global: Box<SOp>,
        /// The shared destination ([`SOp::Mem`]).
        shared: Box<SOp>,
        /// Words copied (1, 2 or 4).
        n: u8,
    },
    /// `SYNCS.EXCH.64 d, [addr], s`: writes the 64-bit pair `s` to the shared mbarrier word
    /// (`mbarrier.init`), the old word to the pair `d` (`URZ`: the sink).
    SyncsExch {
        /// Destination pair (low register).
        d: SReg,
        /// The word's address ([`SOp::Mem`], shared).
        addr: Box<SOp>,
        /// Source pair (low register).
        s: SReg,
    },
    /// `SYNCS.ARRIVE.TRANS64[.RED].AxTy d, [addr], b`: per lane, `arrive` arrivals, `expect`
    /// transaction bytes expected, `complete` completed (each 0, 1 or 2 for the operand `b`),
    /// on the mbarrier word (see `exec::simt::mbarrier`); the high word before goes to `d + 1`.
    SyncsArrive {
        /// Destination pair (low register; the sink for `.RED`/`RZ`).
        d: SReg,
        /// The word's address ([`SOp::Mem`], shared).
        addr: Box<SOp>,
        /// The operand.
        b: SReg,
        /// Arrivals: 0, 1, or 2 for `b`.
        arrive: u8,
        /// Bytes expected: 0, 1, or 2 for `b`.
        expect: u8,
        /// Bytes completed: 0, 1, or 2 for `b`.
        complete: u8,
    },
    /// `SYNCS.PHASECHK.TRANS64[.TRYWAIT] p, [addr], b`: `p` is set in the lanes whose phase
    /// (bit 31 of `b`) completed. `.TRYWAIT` (`mbarrier.try_wait`, which may suspend the
    /// thread until the phase completes) waits instead: the warp gives up its turn and runs
    /// the instruction again later, counted once, when every executing lane's phase is done.
    PhaseChk {
        /// `.TRYWAIT`.
        trywait: bool,
        /// Destination predicate.
        p: u8,
        /// The word's address ([`SOp::Mem`], shared).
        addr: Box<SOp>,
        /// The state's high word, or a parity in bit 31.
        b: SReg,
    },
    /// `ARRIVES.LDGSTSBAR.64.{ARVCNT,TRANSCNT} [addr]`: `cp.async.mbarrier.arrive[.noinc]`:
    /// the lane's queued `LDGSTS` copies land, then one arrival (`ARVCNT`) or one transaction
    /// unit completed (`TRANSCNT`, after ptxas's `SYNCS.ARRIVE.TRANS64.RED.A0T1`).
    LdgstsBar {
        /// The word's address ([`SOp::Mem`], shared).
        addr: Box<SOp>,
        /// `ARVCNT`.
        arrive: bool,
    },
    /// `UBLKCP.S.G [URa], [URb], URc`: `cp.async.bulk.shared::cluster.global.mbarrier`, once
    /// per warp: `URc & 0xffff` 16-byte units from global `URb:URb+1` to shared `URa`,
    /// completing on the mbarrier at shared `URa+1` (tests/hw/h200/mbarrier/mbar_probe.sass:
    /// `USHF.R.U32.HI UR5, URZ, 0x4, UR5` before it, and the barrier in `UR9` of `[UR8]`).
    Ublkcp {
        /// Shared destination; the barrier in the next register.
        dst: SReg,
        /// Global source pair.
        src: SReg,
        /// Size register.
        size: SReg,
    },
    /// `ELECT p, URd, q`: the lowest executing lane where `q` holds is elected: `p` set there,
    /// cleared in the other executing lanes; its index to `URd`.
    Elect {
        /// Destination predicate.
        p: u8,
        /// Destination (uniform).
        d: SReg,
        /// Input predicate.
        q: PIn,
    },
    /// `CS2R Rd, SR_GLOBALTIMERLO`: the 64-bit global timer to the pair `d` (gpumemsim's
    /// clock, as `%globaltimer`).
    Timer64 {
        /// Destination pair (low register).
        d: SReg,
    },
    /// `LDGDEPBAR`: `cp.async.commit_group` ([`crate::ir::Op::CpAsyncCommit`]).
    CpAsyncCommit,
    /// `DEPBAR.LE SB0, n`: `cp.async.wait_group n` ([`crate::ir::Op::CpAsyncWait`]).
    CpAsyncWait {
        /// Groups that may stay pending.
        n: u32,
    },
    /// `NOP`, and instructions without an effect gpumemsim models (`MEMBAR`, `ERRBAR`,
    /// `CCTL`, `DEPBAR` but `DEPBAR.LE SB0`, `NANOSLEEP`, `YIELD`, `WARPSYNC` of the full mask).
    Nop,
    /// `YIELD`: the warp gives up its turn (ptxas puts it in spin-wait loops), so that the
    /// block's other warps run before it goes on.
    Yield,
}

/// One SASS instruction.
#[derive(Clone, Debug)]
pub struct SInst {
    /// Guard predicate (`PT` when none).
    pub guard: PIn,
    /// Operation.
    pub op: SOp,
}

/// A kernel's decoded SASS.
#[derive(Clone, Debug)]
pub struct SassCode {
    /// Instructions, at index `address / 16`.
    pub insts: Vec<SInst>,
    /// The slot that reads 0.
    pub zero: SReg,
    /// The slot that takes writes to `RZ`/`URZ`.
    pub sink: SReg,
    /// The first convergence-barrier slot (`B0`): lane 0 holds the barrier's lanes, lane 1
    /// those that wait at its `BSYNC`, lane 2 that `BSYNC`'s index.
    pub b: SReg,
    /// Each lane's group: lanes run together only while in the same group (see
    /// [`crate::sass`]).
    pub gid: SReg,
    /// Lane 0: the lanes waiting at a `BSYNC`; lane 1: the last group number given out.
    pub aux: SReg,
    /// The slot ranges `[start, end)` zeroed for each block; every other slot is never
    /// written, or written before it is read, so a block need not clear the whole file.
    pub reset: Vec<(u16, u16)>,
    /// Hardware registers per thread (ptxas), for the report.
    pub registers: u32,
    /// Bytes of local memory per thread ptxas's stack frame takes.
    pub stack_frame: u32,
    /// Three slots holding 64-bit values (operands and result of [`SOp::Atom64`]) for the
    /// PTX form of the access, which reads one slot per value.
    pub wide: SReg,
    /// Four slots holding the bytes an [`SOp::LdgSts`] read, until they are queued.
    pub stage: SReg,
    /// The slot of the pending `WARPSYNC` (lane 0: its mask, lane 1: the lanes arrived,
    /// lane 2: its index), used like a convergence barrier.
    pub wsync: SReg,
    /// The SASS file, for messages.
    pub file: String,
    /// Constant bank 2: ptxas's jump tables (`.nv.constant2.KERNEL`, read by `LDC` before a
    /// `BRX`).
    pub bank2: Vec<u8>,
    /// Constant bank 4: the device addresses of the module's `__device__` variables, as the
    /// driver fills it (`.nv.constant4`).
    pub bank4: Vec<u8>,
}
