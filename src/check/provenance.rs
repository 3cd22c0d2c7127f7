//! Pointer provenance: which kernel parameter each global access's address comes from, so that
//! memcheck can hold an access to the bounds of that parameter's allocation.
//!
//! The H200's driver packs small allocations back to back (tests/hw/h200/alloc/alloc.txt), so an
//! access one element past a buffer usually lands in the next buffer: no address check can tell
//! it from a valid access to that buffer. What tells them apart is where the pointer came from.
//! This pass, run once per kernel over the lowered code, follows 64-bit values from
//! `ld.param` through the instructions that keep a pointer a pointer (`mov`, `add`, `sub`,
//! `mad`, `and`, `or`, `cvta`, `selp`) to the address operand of every load, store and atomic.
//! It is flow-insensitive (a register's provenance is the union over all its definitions) and
//! conservative: a value loaded from memory, shuffled, or built by an instruction not listed is
//! of unknown provenance, and an address whose provenance is unknown or names two parameters is
//! checked against every live allocation only, as before. Index arithmetic (`mul`, `shl`,
//! `cvt`, ...) yields values of no provenance, which `add` leaves out of the union, so
//! `p + 4 * i` keeps `p`'s.
//!
//! A kernel that runs as SASS has the same question asked of its machine code
//! ([`sass_pointer_params`]): a pointer parameter is read from constant bank 0 at
//! `c[0x0][0x210 + offset]` (`LDC.64`, `ULDC.64`, or a `c[0x0][...]` operand, the parameters'
//! place in bank 0, [`crate::sass`]) and carried by register pairs through `MOV`, `IMAD`
//! (`.WIDE`, `.X`), `IADD3` (`.X`), `LEA` (`.HI.X`), `LOP3`, `SEL`, `R2UR` to the address of an
//! `LDG`/`STG`/`LD`/`ST`/`ATOM`/`RED`. ptxas reuses registers (`LDG.E R3, [R2.64]` overwrites
//! the pointer's high word), so this pass follows the control flow: a forward dataflow over
//! the kernel's basic blocks on the same lattice, where a guarded instruction's write joins
//! the register's old value, a branch target joins the states of all its predecessors, a `RET`
//! returns to the instruction after each `CALL` (ptxas's subroutines, such as the slow path of
//! a float division, are `CALL.REL.NOINC` with the return address in a register), and any other
//! indirect jump (`BRX`) may reach every instruction. An instruction not listed yields
//! no pointer when its inputs hold none and an unknown value otherwise.

use crate::ir::sass::{Opnd, PIn, SOp, SassCode};
use crate::ir::{Kernel, Op, SpaceSel, Src};
use crate::mem::request::Space;

/// What a register may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prov {
    /// No pointer (an index, a constant, or not yet defined).
    None,
    /// A pointer derived from the parameter at this byte offset only.
    Param(u32),
    /// Unknown, or derived from two parameters.
    Unknown,
}

impl Prov {
    fn join(self, o: Prov) -> Prov {
        match (self, o) {
            (Prov::None, x) | (x, Prov::None) => x,
            (Prov::Param(a), Prov::Param(b)) if a == b => self,
            _ => Prov::Unknown,
        }
    }
}

/// For each instruction of `k` (by pc), the byte offset of the pointer parameter its global
/// (or generic) address derives from, `u32::MAX` where none is known. A kernel that runs as
/// SASS is analysed on its SASS ([`sass_pointer_params`]).
pub fn pointer_params(k: &Kernel) -> Vec<u32> {
    if let Some(sc) = &k.sass {
        return sass_pointer_params(k, sc);
    }
    let mut prov = vec![Prov::None; k.num_regs as usize];
    let of = |prov: &[Prov], s: &Src| match s {
        Src::Reg(r) => prov.get(*r as usize).copied().unwrap_or(Prov::Unknown),
        _ => Prov::None,
    };
    // Iterate to a fixed point: joins only go up a three-level lattice, so few passes suffice.
    for _ in 0..8 {
        let mut changed = false;
        for (inst, info) in k.code.iter().zip(&k.info) {
            let def = |d: u32, v: Prov, prov: &mut Vec<Prov>, changed: &mut bool| {
                if let Some(p) = prov.get_mut(d as usize) {
                    let n = p.join(v);
                    if n != *p {
                        *p = n;
                        *changed = true;
                    }
                }
            };
            match &inst.op {
                Op::Ld {
                    space, d, addr, ty, ..
                } => {
                    let v = match space {
                        SpaceSel::Space(Space::Param)
                            if addr.base.is_none() && ty.size() == 8 && d.len() == 1 =>
                        {
                            u32::try_from(addr.offset).map_or(Prov::Unknown, Prov::Param)
                        }
                        _ => Prov::Unknown,
                    };
                    for r in d.iter().flatten() {
                        def(*r, v, &mut prov, &mut changed);
                    }
                }
                Op::Alu { d, a, b, c, e, .. } => {
                    let opcode = opcode(&info.text);
                    let v = if matches!(opcode, "mov" | "add" | "sub" | "mad" | "and" | "or") {
                        of(&prov, a)
                            .join(of(&prov, b))
                            .join(of(&prov, c))
                            .join(of(&prov, e))
                    } else {
                        Prov::None
                    };
                    def(*d, v, &mut prov, &mut changed);
                }
                Op::Cvta { d, a, .. } => {
                    let v = of(&prov, a);
                    def(*d, v, &mut prov, &mut changed);
                }
                Op::Selp { d, a, b, .. } => {
                    let v = of(&prov, a).join(of(&prov, b));
                    def(*d, v, &mut prov, &mut changed);
                }
                Op::Cvt { d, .. } | Op::Set { d, .. } | Op::Activemask { d } => {
                    def(*d, Prov::None, &mut prov, &mut changed);
                }
                Op::Carry { d, cc, .. } => {
                    def(*d, Prov::Unknown, &mut prov, &mut changed);
                    def(*cc, Prov::Unknown, &mut prov, &mut changed);
                }
                Op::Atom { d: Some(d), .. }
                | Op::Shfl { d, .. }
                | Op::Match { d, .. }
                | Op::Redux { d, .. } => def(*d, Prov::Unknown, &mut prov, &mut changed),
                Op::Vote { d: Src::Reg(d), .. } => def(*d, Prov::Unknown, &mut prov, &mut changed),
                Op::BarRed { d: Src::Reg(d), .. } => {
                    def(*d, Prov::Unknown, &mut prov, &mut changed)
                }
                _ => {}
            }
        }
        if !changed {
            break;
        }
    }
    k.code
        .iter()
        .map(|inst| {
            let (space, addr) = match &inst.op {
                Op::Ld { space, addr, .. }
                | Op::St { space, addr, .. }
                | Op::Atom { space, addr, .. } => (space, addr),
                _ => return u32::MAX,
            };
            if !matches!(space, SpaceSel::Generic | SpaceSel::Space(Space::Global)) {
                return u32::MAX;
            }
            match addr.base.and_then(|r| prov.get(r as usize)) {
                Some(Prov::Param(off)) => *off,
                _ => u32::MAX,
            }
        })
        .collect()
}

/// One 32-bit word of a kernel's parameters at byte `po` of the parameter buffer: part of a
/// 64-bit parameter (the pointer it may be), of a smaller one (no pointer), or of an aggregate
/// (`.b8` array) or nothing declared (unknown).
#[derive(Clone, Copy, PartialEq, Eq)]
enum ParamWord {
    Wide(u32),
    Small,
    Aggregate(u32),
    Unknown,
}

fn param_word(k: &Kernel, po: u32) -> ParamWord {
    match k
        .params
        .iter()
        .find(|p| po >= p.offset && po - p.offset < p.size)
    {
        Some(p) if p.size == 8 => ParamWord::Wide(p.offset),
        Some(p) if p.size <= 4 => ParamWord::Small,
        Some(p) => ParamWord::Aggregate(p.offset),
        None => ParamWord::Unknown,
    }
}

/// What `bytes` (4 or 8) bytes of constant bank `bank` at `off` hold. Bank 0 below the
/// parameters holds the launch's shape and the memory descriptor (no pointer) and the local
/// window (`c[0x0][0x20..0x30]`: a pointer, but not to global memory); other banks hold
/// jump tables, `__constant__` data and module-variable addresses (unknown).
fn const_prov(k: &Kernel, bank: u8, off: u32, bytes: u8) -> Prov {
    const PARAMS: u32 = 0x210;
    if bank != 0 {
        return Prov::Unknown;
    }
    if off < PARAMS {
        return if (0x20..0x30).contains(&off) {
            Prov::Unknown
        } else {
            Prov::None
        };
    }
    let po = off - PARAMS;
    let word = |po: u32| match param_word(k, po) {
        ParamWord::Wide(o) => Prov::Param(o),
        ParamWord::Small => Prov::None,
        ParamWord::Aggregate(_) | ParamWord::Unknown => Prov::Unknown,
    };
    if bytes == 8 {
        // A 64-bit member of an aggregate, read whole, is a pointer like a 64-bit parameter.
        if let (ParamWord::Aggregate(a), ParamWord::Aggregate(b)) =
            (param_word(k, po), param_word(k, po + 4))
        {
            return if a == b && po.is_multiple_of(8) {
                Prov::Param(po)
            } else {
                Prov::Unknown
            };
        }
        return word(po).join(word(po + 4));
    }
    if bytes == 4 {
        word(po)
    } else {
        // A byte or half-word: part of a pointer or not, it does not hold one.
        match word(po & !3) {
            Prov::Param(_) => Prov::Unknown,
            p => p,
        }
    }
}

/// [`pointer_params`] of a kernel that runs as SASS (see the module docs).
pub fn sass_pointer_params(k: &Kernel, sc: &SassCode) -> Vec<u32> {
    let n = sc.insts.len();
    let nregs = k.num_regs as usize;
    let unguarded = |g: PIn| g == PIn::TRUE;
    // Successors: (falls through, branch target). A `RET` returns to the instruction after a
    // `CALL` (ptxas's `CALL.REL.NOINC` subroutines: the caller puts the address of the
    // instruction after the `CALL` in the register the `RET` reads); any other indirect jump
    // (`BRX`) may reach anything.
    let text = |pc: usize| opcode(k.info.get(pc).map_or("", |i| i.text.as_str()));
    let is_ret = |pc: usize| text(pc) == "RET";
    let returns: Vec<usize> = (0..n)
        .filter(|&pc| text(pc) == "CALL")
        .map(|pc| pc + 1)
        .collect();
    let mut has_jmp = false;
    let succ: Vec<(bool, Option<u32>)> = sc
        .insts
        .iter()
        .enumerate()
        .map(|(pc, si)| match &si.op {
            SOp::Bra { target, cond } => {
                (!(unguarded(si.guard) && *cond == PIn::TRUE), Some(*target))
            }
            SOp::BraAny { target } | SOp::BraDiv { target, .. } => (true, Some(*target)),
            SOp::Exit => (!unguarded(si.guard), None),
            SOp::Jmp { .. } => {
                has_jmp |= !is_ret(pc);
                (!unguarded(si.guard), None)
            }
            _ => (true, None),
        })
        .collect();
    // Basic blocks: every instruction starts one when an indirect jump may reach it.
    let mut leader = vec![has_jmp; n + 1];
    leader[0] = true;
    for (i, (fall, t)) in succ.iter().enumerate() {
        if let Some(t) = t {
            if let Some(l) = leader.get_mut(*t as usize) {
                *l = true;
            }
        }
        if t.is_some() || !fall || matches!(sc.insts[i].op, SOp::Jmp { .. }) {
            leader[i + 1] = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&i| leader[i]).collect();
    let mut block_of = vec![0usize; n];
    for (b, &s0) in starts.iter().enumerate() {
        let end = starts.get(b + 1).copied().unwrap_or(n);
        block_of[s0..end].iter_mut().for_each(|x| *x = b);
    }
    let end_of = |b: usize| starts.get(b + 1).copied().unwrap_or(n);
    let mut inn: Vec<Option<Vec<Prov>>> = vec![None; starts.len()];
    if n == 0 {
        return Vec::new();
    }
    inn[0] = Some(vec![Prov::None; nregs]);
    let mut work: Vec<usize> = vec![0];
    let mut queued = vec![false; starts.len()];
    queued[0] = true;
    let join_into = |inn: &mut Vec<Option<Vec<Prov>>>, b: usize, st: &[Prov]| -> bool {
        match &mut inn[b] {
            None => {
                inn[b] = Some(st.to_vec());
                true
            }
            Some(cur) => {
                let mut changed = false;
                for (c, v) in cur.iter_mut().zip(st) {
                    let j = c.join(*v);
                    if j != *c {
                        *c = j;
                        changed = true;
                    }
                }
                changed
            }
        }
    };
    while let Some(b) = work.pop() {
        queued[b] = false;
        let Some(mut st) = inn[b].clone() else {
            continue;
        };
        let last = end_of(b) - 1;
        for pc in starts[b]..=last {
            sass_transfer(k, sc, pc, &mut st);
        }
        let (fall, t) = succ[last];
        let mut targets: Vec<usize> = Vec::new();
        if fall && last + 1 < n {
            targets.push(block_of[last + 1]);
        }
        if let Some(t) = t.filter(|&t| (t as usize) < n) {
            targets.push(block_of[t as usize]);
        }
        if matches!(sc.insts[last].op, SOp::Jmp { .. }) {
            if is_ret(last) {
                targets.extend(returns.iter().filter(|&&r| r < n).map(|&r| block_of[r]));
            } else {
                targets.extend(0..starts.len());
            }
        }
        for s in targets {
            if join_into(&mut inn, s, &st) && !queued[s] {
                queued[s] = true;
                work.push(s);
            }
        }
    }
    let mut out = vec![u32::MAX; n];
    for (b, st0) in inn.iter().enumerate() {
        let Some(st0) = st0 else { continue };
        let mut st = st0.clone();
        for (pc, o) in out.iter_mut().enumerate().take(end_of(b)).skip(starts[b]) {
            *o = sass_address(k, sc, pc, &st);
            sass_transfer(k, sc, pc, &mut st);
        }
    }
    out
}

/// The pointer parameter the global or generic address of SASS instruction `pc` derives from
/// under register state `st` (`u32::MAX`: none known, or not such an access).
fn sass_address(k: &Kernel, sc: &SassCode, pc: usize, st: &[Prov]) -> u32 {
    let addr = match &sc.insts[pc].op {
        SOp::Mem { .. } => &sc.insts[pc].op,
        SOp::Atom64 { addr, .. } => addr.as_ref(),
        _ => return u32::MAX,
    };
    let SOp::Mem {
        base, wide, ubase, ..
    } = addr
    else {
        return u32::MAX;
    };
    let space = match k.code.get(pc).map(|i| &i.op) {
        Some(Op::Ld { space, .. } | Op::St { space, .. } | Op::Atom { space, .. }) => space,
        _ => return u32::MAX,
    };
    if !matches!(space, SpaceSel::Generic | SpaceSel::Space(Space::Global)) {
        return u32::MAX;
    }
    let reg = |r: u16| -> Prov {
        if r == sc.zero {
            Prov::None
        } else {
            st.get(r as usize).copied().unwrap_or(Prov::Unknown)
        }
    };
    let mut v = reg(*base).join(reg(*ubase));
    if *wide && *base != sc.zero {
        v = v.join(reg(*base + 1));
    }
    match v {
        Prov::Param(off) => off,
        _ => u32::MAX,
    }
}

/// Steps register state `st` over SASS instruction `pc` (see the module docs).
fn sass_transfer(k: &Kernel, sc: &SassCode, pc: usize, st: &mut [Prov]) {
    use crate::ir::sass::Src as SSrc;
    let si = &sc.insts[pc];
    let guarded = si.guard != PIn::TRUE;
    let reg = |st: &[Prov], r: u16| -> Prov {
        if r == sc.zero {
            Prov::None
        } else {
            st.get(r as usize).copied().unwrap_or(Prov::Unknown)
        }
    };
    let src = |st: &[Prov], s: &SSrc| -> Prov {
        match s.o {
            Opnd::R(r) => reg(st, r),
            Opnd::Imm(_) => Prov::None,
            Opnd::C { bank, off } => const_prov(k, bank, off, 4),
        }
    };
    // The high word of a pair operand.
    let src_hi = |st: &[Prov], s: &SSrc| -> Prov {
        match s.o {
            Opnd::R(r) if r != sc.zero => reg(st, r + 1),
            Opnd::R(_) | Opnd::Imm(_) => Prov::None,
            Opnd::C { bank, off } => const_prov(k, bank, off + 4, 4),
        }
    };
    // The result of an instruction that does not carry pointers.
    let opaque = |vs: &[Prov]| {
        if vs.iter().all(|v| *v == Prov::None) {
            Prov::None
        } else {
            Prov::Unknown
        }
    };
    let mut defs: Vec<(u16, Prov)> = Vec::new();
    let carries = matches!(
        opcode(k.info.get(pc).map_or("", |i| i.text.as_str())).trim_start_matches('U'),
        "MOV" | "IMAD" | "IADD3" | "VIADD" | "LEA" | "LOP3" | "SEL"
    );
    match &si.op {
        SOp::Alu { d, a, b, c, .. } | SOp::AluP { d, a, b, c, .. } => {
            let v = [src(st, a), src(st, b), src(st, c)];
            let p = if carries {
                v[0].join(v[1]).join(v[2])
            } else {
                opaque(&v)
            };
            defs.push((*d, p));
        }
        SOp::AluW { d, a, b, c, .. } => {
            defs.push((*d, opaque(&[src(st, a), src(st, b), src(st, c)])));
        }
        SOp::Alu64 { d, a, b, c, .. } => {
            let p = opaque(&[
                src(st, a),
                src_hi(st, a),
                src(st, b),
                src_hi(st, b),
                src(st, c),
                src_hi(st, c),
            ]);
            defs.push((*d, p));
            defs.push((d + 1, p));
        }
        SOp::Cvt {
            d, a, dst, src: s, ..
        } => {
            let mut v = vec![src(st, a)];
            if s.size() == 8 {
                v.push(src_hi(st, a));
            }
            let p = opaque(&v);
            defs.push((*d, p));
            if dst.size() == 8 {
                defs.push((d + 1, p));
            }
        }
        SOp::P2r { d, a, .. } => defs.push((*d, opaque(&[src(st, a)]))),
        SOp::ImadWide { d, a, b, c, hi, .. } => {
            let p = src(st, a)
                .join(src(st, b))
                .join(src(st, c))
                .join(src_hi(st, c));
            defs.push((*d, p));
            if !hi {
                defs.push((d + 1, p));
            }
        }
        SOp::AddCarry { d, a, b, c, .. } | SOp::Lop3P { d, a, b, c, .. } => {
            defs.push((*d, src(st, a).join(src(st, b)).join(src(st, c))));
        }
        SOp::S2r { d, .. } => defs.push((*d, Prov::None)),
        SOp::Ldc {
            d,
            bank,
            r,
            off,
            bytes,
            ..
        } => {
            let p = if *r != sc.zero {
                Prov::Unknown
            } else {
                const_prov(k, *bank, *off, *bytes)
            };
            defs.push((*d, p));
            if *bytes == 8 {
                defs.push((d + 1, p));
            }
        }
        SOp::R2ur { d, a, .. } => defs.push((*d, reg(st, *a))),
        SOp::Match { d, .. } | SOp::Shfl { d, .. } | SOp::Vote { d, .. } | SOp::Redux { d, .. } => {
            defs.push((*d, Prov::Unknown))
        }
        SOp::Atom64 { d, .. } => {
            defs.push((*d, Prov::Unknown));
            defs.push((d + 1, Prov::Unknown));
        }
        SOp::Mem { .. } | SOp::Tex { .. } => {
            // What memory or the texture unit gives is of unknown provenance.
            let ds: Vec<u32> = match k.code.get(pc).map(|i| &i.op) {
                Some(Op::Ld { d, .. }) => d.iter().flatten().copied().collect(),
                Some(Op::Atom { d: Some(d), .. }) => vec![*d],
                Some(Op::Tex(t)) => t.d.iter().flatten().copied().collect(),
                _ => Vec::new(),
            };
            for r in ds {
                if let Ok(r) = u16::try_from(r) {
                    defs.push((r, Prov::Unknown));
                }
            }
        }
        // The mbarrier word's state, a timer, a lane index: no pointer.
        SOp::SyncsExch { d, .. } | SOp::SyncsArrive { d, .. } | SOp::Timer64 { d } => {
            defs.push((*d, Prov::Unknown));
            defs.push((d + 1, Prov::Unknown));
        }
        SOp::Elect { d, .. } => defs.push((*d, Prov::Unknown)),
        // `LDGSTS` writes only the stage slots, which no instruction names.
        SOp::LdgSts { .. }
        | SOp::PhaseChk { .. }
        | SOp::LdgstsBar { .. }
        | SOp::Ublkcp { .. }
        | SOp::CpAsyncCommit
        | SOp::CpAsyncWait { .. }
        | SOp::Fchk { .. }
        | SOp::Isetp { .. }
        | SOp::Fsetp { .. }
        | SOp::DsetpMinMax { .. }
        | SOp::Plop3 { .. }
        | SOp::BraDiv { .. }
        | SOp::BraAny { .. }
        | SOp::Jmp { .. }
        | SOp::Warpsync { .. }
        | SOp::WarpsyncNop { .. }
        | SOp::Bra { .. }
        | SOp::Bssy { .. }
        | SOp::Bsync { .. }
        | SOp::Break { .. }
        | SOp::Bar { .. }
        | SOp::Exit
        | SOp::Yield
        | SOp::Nop => {}
    }
    for (d, v) in defs {
        if d == sc.sink || d == sc.zero {
            continue;
        }
        if let Some(slot) = st.get_mut(d as usize) {
            *slot = if guarded { slot.join(v) } else { v };
        }
    }
}

/// The opcode of an instruction's text: `add` of `@%p1 add.s64 %rd4, %rd2, %rd3`.
fn opcode(text: &str) -> &str {
    let mut words = text.split_whitespace();
    let mut w = words.next().unwrap_or("");
    if w.starts_with('@') {
        w = words.next().unwrap_or("");
    }
    w.split('.').next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::opcode;

    #[test]
    fn opcode_skips_the_guard() {
        assert_eq!(opcode("@%p1 add.s64 %rd4, %rd2, %rd3;"), "add");
        assert_eq!(opcode("mad.wide.s32 %rd5, %r1, 4, %rd2;"), "mad");
        assert_eq!(opcode(""), "");
    }
}
