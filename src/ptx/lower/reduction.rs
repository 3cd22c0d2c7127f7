//! The two ptxas-imitation passes on atomics ([`LowerOptions::ptxas_passes`]): an `atom` whose
//! result is never read counts as a reduction, and a global reduction (or integer `atom.add`)
//! at an address proven warp-uniform is performed by one elected lane (`REDUX` + `REDG`), with
//! the warp-uniformity analysis that proves it. The recorded SASS and Nsight Compute counters
//! each rests on are cited at the pass. Both change what a request counts, never what a
//! program computes.

use super::*;

/// ptxas turns an `atom` whose result no instruction reads into a `RED` (SASS `RED.E.ADD`), and
/// Nsight Compute counts it as a reduction (tests/hw/h200/hw/ncu/histogram.csv: the global
/// `atomicAdd` without a used result shows under `op_red`). Mark those atomics as reductions so
/// the requests they make carry the same kind.
///
/// This changes what is counted, never what is computed: the atomic still reads, modifies and
/// writes memory and still writes its destination, and the executor uses `kind` only to label
/// the request it reports. The read set is every register any instruction reads
/// ([`regs_of`]), on any path, guarded or not, so a destination read anywhere keeps its atomic.
pub(super) fn mark_unused_atomics(code: &mut [Inst]) {
    let read: HashSet<Reg> = code.iter().flat_map(|i| regs_of(&i.op).0).collect();
    for i in code.iter_mut() {
        if let Op::Atom { d, kind, .. } = &mut i.op {
            if d.is_none_or(|r| !read.contains(&r)) {
                *kind = AccessKind::Reduction;
            }
        }
    }
}

/// ptxas turns a global reduction (an `atom` whose result is unused, or a `red`) whose address
/// it proves the same for every lane of the warp, and whose operation `REDUX` can compute (32-bit
/// integer add, min, max, and, or, xor; `inc` with the limit 0xffffffff is an add of 1), into a
/// warp-wide `REDUX` and one `REDG` predicated on a single lane: one sector instead of 32
/// (tests/hw/h200/hw/logs/k_isa.sass, `isa_atom`: `REDUX.SUM` ... `@P0 REDG.E.ADD`; Nsight
/// Compute counts 16 warps x 10 such reductions as 160 sectors, tests/hw/h200/hw/ncu/k_isa.csv).
/// The proof here is a conservative warp-uniformity analysis: a register is uniform when its one
/// definition is unpredicated and computes from immediates, uniform special registers
/// (`%ctaid`, `%nctaid`, `%ntid`, ...), kernel parameters or constant memory at uniform addresses,
/// and other uniform registers. Counting only: the reduction's effect is the same.
///
/// An integer `atom.add` whose result is used, at a uniform address, is aggregated the same way:
/// ptxas computes the lanes' prefix sums with `SHFL.UP` and one elected lane performs the
/// `ATOMG.E.ADD`, each lane's result being the old value plus its prefix (measured:
/// tests/hw/h200/cache2/logs/k_cache.sass, `atom_same`; Nsight Compute counts 8,192 sectors for
/// 8,192 such warp instructions, tests/hw/h200/cache2/ncu/k_cache.csv launch 26). The executor
/// performs the lanes' additions in lane order, which gives those same results.
pub(super) fn mark_elected_reductions(code: &mut [Inst]) {
    use crate::ir::types::ScalarType as T;
    let uniform = uniform_registers(code);
    for i in code.iter_mut() {
        if i.guard.is_some() {
            continue;
        }
        if let Op::Atom {
            space,
            op,
            ty,
            addr,
            b,
            kind,
            elected,
            ..
        } = &mut i.op
        {
            let global = matches!(space, SpaceSel::Space(Space::Global));
            let word = matches!(ty, T::U32 | T::S32 | T::B32);
            let redux_op = match op {
                AtomOp::Add
                | AtomOp::Min
                | AtomOp::Max
                | AtomOp::And
                | AtomOp::Or
                | AtomOp::Xor => true,
                AtomOp::Inc => *b == Src::Imm(0xffff_ffff),
                _ => false,
            };
            let addr_uniform = addr.base.is_none_or(|r| uniform.contains(&r));
            let aggregated = *kind == AccessKind::Reduction
                || (*kind == AccessKind::Atomic && *op == AtomOp::Add);
            if global && word && redux_op && addr_uniform && aggregated {
                *elected = true;
            }
        }
    }
}

/// Special registers that hold one value for the whole warp.
pub(super) fn uniform_sreg(sr: Sreg) -> bool {
    matches!(
        sr,
        Sreg::Ntid(_)
            | Sreg::Ctaid(_)
            | Sreg::Nctaid(_)
            | Sreg::NSmId
            | Sreg::GridId
            | Sreg::NWarpId
            | Sreg::DynamicSmemSize
            | Sreg::TotalSmemSize
            | Sreg::AggrSmemSize
            | Sreg::Zero
            | Sreg::One
    )
}

/// Registers proven warp-uniform (see [`mark_elected_reductions`]): the least fixpoint over
/// registers with exactly one, unpredicated, definition.
pub(super) fn uniform_registers(code: &[Inst]) -> HashSet<Reg> {
    let mut defs: HashMap<Reg, usize> = HashMap::new();
    let mut def_at: HashMap<Reg, usize> = HashMap::new();
    for (pc, i) in code.iter().enumerate() {
        for r in regs_of(&i.op).1 {
            *defs.entry(r).or_default() += 1;
            def_at.insert(r, pc);
        }
    }
    let candidates: Vec<(Reg, usize)> = def_at
        .iter()
        .filter(|(r, pc)| defs[r] == 1 && code[**pc].guard.is_none())
        .map(|(r, pc)| (*r, *pc))
        .collect();
    let mut uniform: HashSet<Reg> = HashSet::new();
    loop {
        let before = uniform.len();
        for &(r, pc) in &candidates {
            if uniform.contains(&r) {
                continue;
            }
            let u = |s: &Src| match s {
                Src::Imm(_) => true,
                Src::Reg(x) => uniform.contains(x),
                Src::Sreg(sr) => uniform_sreg(*sr),
                Src::Pred(_) => false,
            };
            let addr_u = |a: &Addr| a.base.is_none_or(|b| uniform.contains(&b));
            let ok = match &code[pc].op {
                Op::Alu { a, b, c, e, .. } => u(a) && u(b) && u(c) && u(e),
                Op::Cvt { a, .. } | Op::Cvta { a, .. } => u(a),
                // A kernel parameter (not a callee's per-thread frame slot), or constant memory
                // at a uniform address.
                Op::Ld {
                    space: SpaceSel::Space(Space::Param),
                    d,
                    addr,
                    ..
                } => {
                    d.len() == 1
                        && addr.base.is_none()
                        && (addr.offset as u64) & crate::mem::space::PARAM_FRAME_BIT == 0
                }
                Op::Ld {
                    space: SpaceSel::Space(Space::Const),
                    d,
                    addr,
                    ..
                } => d.len() == 1 && addr_u(addr),
                _ => false,
            };
            if ok {
                uniform.insert(r);
            }
        }
        if uniform.len() == before {
            return uniform;
        }
    }
}

/// Registers an operation reads and writes.
pub(super) fn regs_of(op: &Op) -> (Vec<Reg>, Vec<Reg>) {
    let mut srcs: Vec<Src> = Vec::new();
    let mut reads: Vec<Reg> = Vec::new();
    let mut writes: Vec<Reg> = Vec::new();
    match op {
        Op::Alu { d, a, b, c, e, .. } => {
            srcs.extend([*a, *b, *c, *e]);
            writes.push(*d);
        }
        Op::Carry { d, a, b, c, cc, .. } => {
            srcs.extend([*a, *b, *c]);
            reads.push(*cc);
            writes.extend([*d, *cc]);
        }
        Op::Shfl {
            d, a, b, c, mask, ..
        } => {
            srcs.extend([*a, *b, *c]);
            srcs.extend(mask.iter().copied());
            writes.push(*d);
        }
        Op::Match { d, a, mask, .. } | Op::Redux { d, a, mask, .. } => {
            srcs.extend([*a, *mask]);
            writes.push(*d);
        }
        Op::Cvt { d, a, .. } | Op::Cvta { d, a, .. } => {
            srcs.push(*a);
            writes.push(*d);
        }
        Op::PredFromReg { a, .. } => srcs.push(*a),
        Op::Setp { a, b, .. } => srcs.extend([*a, *b]),
        Op::Set { d, a, b, .. } | Op::Selp { d, a, b, .. } => {
            srcs.extend([*a, *b]);
            writes.push(*d);
        }
        Op::Ld { addr, d, .. } => {
            reads.extend(addr.base);
            writes.extend(d.iter().flatten());
        }
        Op::St { s, addr, .. } => {
            srcs.extend(s.iter().copied());
            reads.extend(addr.base);
        }
        Op::Atom { addr, b, c, d, .. } => {
            srcs.extend([*b, *c]);
            reads.extend(addr.base);
            writes.extend(d.iter().copied());
        }
        Op::Bar { id, count, .. } => {
            srcs.push(*id);
            srcs.extend(count.iter().copied());
        }
        Op::BarRed { id, d, .. } => {
            srcs.push(*id);
            if let Src::Reg(r) = d {
                writes.push(*r);
            }
        }
        Op::Vote { d, mask, .. } => {
            srcs.extend(mask.iter().copied());
            if let Src::Reg(r) = d {
                writes.push(*r);
            }
        }
        Op::WarpSync { mask } => srcs.push(*mask),
        Op::Activemask { d } => writes.push(*d),
        Op::Tex(t) => {
            srcs.push(t.handle);
            srcs.extend(t.coords);
            srcs.extend(t.lod);
            srcs.extend(t.s.iter().copied());
            writes.extend(t.d.iter().flatten());
        }
        _ => {}
    }
    reads.extend(srcs.iter().filter_map(|s| match s {
        Src::Reg(r) => Some(*r),
        _ => None,
    }));
    (reads, writes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_reductions_at_a_uniform_address_are_elected() {
        // red at [param] (uniform), at [param + tid * 4] (per lane), and an atom.inc with a
        // limit (not a REDUX operation) at [param].
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
            .visible .entry k(.param .u64 p)\n{\n\
            \t.reg .b32 %r<4>;\n\t.reg .b64 %rd<5>;\n\
            \tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\
            \tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n\
            \tadd.s64 %rd4, %rd2, %rd3;\n\
            \tred.global.add.u32 [%rd2], %r1;\n\
            \tred.global.max.u32 [%rd4], %r1;\n\
            \tatom.global.inc.u32 %r2, [%rd2+4], 99;\n\
            \tatom.global.add.u32 %r2, [%rd2+8], %r1;\n\
            \tatom.global.max.u32 %r3, [%rd2+12], %r1;\n\
            \tadd.u32 %r2, %r2, %r3;\n\tst.global.u32 [%rd4], %r2;\n\
            \tret;\n}\n";
        let m = crate::ptx::parse::parse(ptx).expect("parse");
        let p = lower(&m, ptx).expect("lower");
        let elected: Vec<bool> = p.kernels[0]
            .code
            .iter()
            .filter_map(|i| match i.op {
                Op::Atom { elected, .. } => Some(elected),
                _ => None,
            })
            .collect();
        // The used atom.add at [param + 8] is aggregated; the used atom.max is not.
        assert_eq!(elected, vec![true, false, false, true, false]);
    }
}
