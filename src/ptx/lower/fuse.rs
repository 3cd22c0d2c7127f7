//! The ptxas-imitation pass that fuses runs of 4-byte shared loads from one aligned base into
//! one vector load ([`LowerOptions::ptxas_passes`]; measured on the H200's SASS of the tiled
//! matrix multiply, tests/hw/h200/hw/logs/matmul.sass, see [`fuse_shared_loads`]), and the
//! register-alignment dataflow that proves the base aligned ([`register_alignment`]). It fuses
//! only what its analysis proves, so a program computes the same.

use super::*;

/// How an instruction's result alignment (the largest power of two dividing it) follows from
/// its sources; used to find the shared loads ptxas fuses.
#[derive(Clone, Copy, Debug)]
pub(super) enum AlignRule {
    Unknown,
    Copy(Src),
    Add(Src, Src),
    Mul(Src, Src),
    Mad(Src, Src, Src),
    Shl(Src, Src),
    And(Src, Src),
}

pub(super) fn align_rule(opcode: &str, mods: &[&str], op: &Op) -> AlignRule {
    let float = mods
        .iter()
        .any(|m| m.starts_with('f') && ScalarType::from_suffix(m).is_some_and(|t| t.is_float()));
    if float || mods.contains(&"hi") {
        return AlignRule::Unknown;
    }
    match op {
        Op::Alu { a, b, c, .. } => match opcode {
            "mov" => AlignRule::Copy(*a),
            "add" | "sub" => AlignRule::Add(*a, *b),
            "mul" => AlignRule::Mul(*a, *b),
            "mad" => AlignRule::Mad(*a, *b, *c),
            "shl" => AlignRule::Shl(*a, *b),
            "and" => AlignRule::And(*a, *b),
            _ => AlignRule::Unknown,
        },
        Op::Cvt { a, dst, src, .. } if !dst.is_float() && !src.is_float() => AlignRule::Copy(*a),
        Op::Cvta { a, .. } => AlignRule::Copy(*a),
        _ => AlignRule::Unknown,
    }
}

pub(super) const ALIGN_CAP: u64 = 64;

pub(super) fn lowbit(v: u64) -> u64 {
    if v == 0 {
        ALIGN_CAP
    } else {
        (1u64 << v.trailing_zeros()).min(ALIGN_CAP)
    }
}

/// The width a 4-byte load of type `ty` into a `dst_bytes`-wide register sign-extends to, if it
/// does (as the executor loads: a signed type into a wider register); otherwise it zero-extends.
pub(super) fn sign_extension(ty: ScalarType, dst_bytes: u8) -> Option<u8> {
    (ty.is_signed() && ty.size() < dst_bytes as u32).then_some(dst_bytes)
}

/// The sources an alignment rule reads.
pub(super) fn rule_srcs(rule: AlignRule) -> [Option<Src>; 3] {
    match rule {
        AlignRule::Unknown => [None; 3],
        AlignRule::Copy(x) => [Some(x), None, None],
        AlignRule::Add(x, y)
        | AlignRule::Mul(x, y)
        | AlignRule::Shl(x, y)
        | AlignRule::And(x, y) => [Some(x), Some(y), None],
        AlignRule::Mad(x, y, z) => [Some(x), Some(y), Some(z)],
    }
}

/// Proven alignment of every register: the largest power of two (up to [`ALIGN_CAP`]) that
/// divides every value any definition can give it, computed to the least fixpoint over all
/// definitions (flow-insensitive, so it holds at every instruction). `None` when the analysis
/// did not settle within its step budget, which proves nothing.
///
/// A worklist re-evaluates a definition only when one of its sources has dropped. Each
/// register's value only drops, through at most `log2(ALIGN_CAP) + 1` levels, so the evaluations
/// are bounded by `definitions + levels * uses`: that bound, computed from the code's size, is
/// the budget.
pub(super) fn register_alignment(
    code: &[Inst],
    rules: &[(usize, AlignRule)],
    num_regs: usize,
) -> Option<Vec<u64>> {
    let rule_at: HashMap<usize, AlignRule> = rules.iter().copied().collect();
    // (the registers a definition writes, its rule) for every instruction that writes one.
    let mut defs: Vec<(Vec<Reg>, AlignRule)> = Vec::new();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); num_regs];
    let mut uses = 0usize;
    for (pc, i) in code.iter().enumerate() {
        let writes = regs_of(&i.op).1;
        if writes.is_empty() {
            continue;
        }
        let rule = if i.guard.is_none() || matches!(i.op, Op::Alu { .. }) {
            rule_at.get(&pc).copied().unwrap_or(AlignRule::Unknown)
        } else {
            AlignRule::Unknown
        };
        for s in rule_srcs(rule).into_iter().flatten() {
            if let Src::Reg(r) = s {
                users.get_mut(r as usize)?.push(defs.len());
                uses += 1;
            }
        }
        defs.push((writes, rule));
    }
    let levels = ALIGN_CAP.trailing_zeros() as usize + 1;
    let budget = defs.len() + levels * uses + 1;
    let mut align = vec![ALIGN_CAP; num_regs];
    let val = |s: Src, align: &[u64]| -> u64 {
        match s {
            Src::Reg(r) => align.get(r as usize).copied().unwrap_or(1),
            Src::Imm(v) => lowbit(v),
            _ => 1,
        }
    };
    let mut todo: Vec<usize> = (0..defs.len()).rev().collect();
    let mut queued = vec![true; defs.len()];
    let mut steps = 0usize;
    while let Some(k) = todo.pop() {
        queued[k] = false;
        steps += 1;
        if steps > budget {
            return None;
        }
        let (writes, rule) = &defs[k];
        let a = match *rule {
            AlignRule::Unknown => 1,
            AlignRule::Copy(s) => val(s, &align),
            AlignRule::Add(x, y) => val(x, &align).min(val(y, &align)),
            AlignRule::Mul(x, y) => (val(x, &align) * val(y, &align)).min(ALIGN_CAP),
            AlignRule::Mad(x, y, z) => (val(x, &align) * val(y, &align))
                .min(ALIGN_CAP)
                .min(val(z, &align)),
            AlignRule::Shl(x, Src::Imm(k)) => (val(x, &align) << k.min(6)).min(ALIGN_CAP),
            AlignRule::Shl(x, _) => val(x, &align),
            AlignRule::And(x, y) => val(x, &align).max(val(y, &align)),
        };
        for &w in writes {
            let slot = align.get_mut(w as usize)?;
            if a < *slot {
                *slot = a;
                for &u in &users[w as usize] {
                    if !queued[u] {
                        queued[u] = true;
                        todo.push(u);
                    }
                }
            }
        }
    }
    Some(align)
}

/// ptxas turns runs of 4-byte shared loads from one 16- (or 8-) byte aligned base at
/// consecutive offsets into one 128-bit (64-bit) load (`LDS.128`), as the H200's SASS of the
/// tiled matrix multiply shows (tests/hw/h200/hw/logs/matmul.sass: the `As[ty][k]` row loads
/// become `LDS.128`; Nsight Compute counts 20 shared loads per thread and tile, not 32). The
/// pass proves the base's alignment with a dataflow over integer arithmetic run to its fixpoint
/// ([`register_alignment`]; when it does not settle nothing is fused), then hoists the later
/// loads of a run to the first (leaving `Nop`s, so instruction indices stay), but only inside
/// one basic block, with no store, atomic or barrier in between, when the loads have the same
/// type and destination width, when the first does not overwrite the base, and when no
/// instruction in between touches the hoisted loads' destinations or the base register.
pub(super) fn fuse_shared_loads(code: &mut [Inst], rules: &[(usize, AlignRule)], num_regs: usize) {
    let Some(align) = register_alignment(code, rules, num_regs) else {
        return;
    };
    let targets: std::collections::HashSet<u32> = code
        .iter()
        .filter_map(|i| match i.op {
            Op::Bra { target } => Some(target),
            _ => None,
        })
        .collect();
    // (destination, offset, base, type, destination width) of an unguarded scalar 4-byte load.
    let shared_scalar = |i: &Inst| -> Option<(Reg, i64, Reg, ScalarType, u8)> {
        match &i.op {
            Op::Ld {
                space: SpaceSel::Space(Space::Shared),
                ty,
                d,
                dst_bytes,
                addr:
                    Addr {
                        base: Some(b),
                        offset,
                    },
                ..
            } if i.guard.is_none() && d.len() == 1 && ty.size() == 4 => {
                d[0].map(|r| (r, *offset, *b, *ty, *dst_bytes))
            }
            _ => None,
        }
    };
    let mut pc = 0;
    while pc < code.len() {
        let Some((d0, off0, base, ty, bytes0)) = shared_scalar(&code[pc]) else {
            pc += 1;
            continue;
        };
        // A first load that overwrites its base changes the later loads' addresses.
        if d0 == base {
            pc += 1;
            continue;
        }
        let a = align.get(base as usize).copied().unwrap_or(1);
        for (n, need) in [(4usize, 16u64), (2, 8)] {
            if a < need || off0.rem_euclid(need as i64) != 0 {
                continue;
            }
            // Find the loads at off0+4, +8, ... within the block.
            let mut found: Vec<(usize, Reg)> = Vec::new();
            let mut q = pc + 1;
            while q < code.len() && q < pc + 64 && found.len() < n - 1 {
                if targets.contains(&(q as u32)) {
                    break;
                }
                match &code[q].op {
                    Op::St { .. }
                    | Op::Atom { .. }
                    | Op::Bar { .. }
                    | Op::BarRed { .. }
                    | Op::Bra { .. }
                    | Op::Exit => break,
                    _ => {}
                }
                if let Some((dq, offq, bq, tq, bytesq)) = shared_scalar(&code[q]) {
                    if bq == base
                        && sign_extension(tq, bytesq) == sign_extension(ty, bytes0)
                        && Some(offq) == off0.checked_add(4 * (found.len() as i64 + 1))
                    {
                        found.push((q, dq));
                    }
                }
                if regs_of(&code[q].op).1.contains(&base) {
                    break;
                }
                q += 1;
            }
            if found.len() != n - 1 {
                continue;
            }
            // The hoisted destinations must be untouched between the first load and their own.
            let mut dests = vec![d0];
            let ok = found.iter().all(|&(qpc, dq)| {
                if dests.contains(&dq) {
                    return false;
                }
                dests.push(dq);
                (pc + 1..qpc).all(|k| {
                    let (r, w) = regs_of(&code[k].op);
                    !r.contains(&dq) && !w.contains(&dq)
                })
            });
            if !ok {
                continue;
            }
            if let Op::Ld { d, .. } = &mut code[pc].op {
                *d = dests.iter().map(|&r| Some(r)).collect();
            }
            for &(qpc, _) in &found {
                code[qpc].op = Op::Nop;
            }
            break;
        }
        pc += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mov(d: Reg, a: Src) -> Inst {
        Inst {
            op: Op::Alu {
                f: |a, _, _, _| a,
                d,
                a,
                b: Src::Imm(0),
                c: Src::Imm(0),
                e: Src::Imm(0),
                w: None,
            },
            guard: None,
        }
    }

    /// `r_k = r_{k-1}` for k = n..1 laid out last link first, then `r_0 = 4`: an in-order sweep
    /// learns one link per pass; the fixpoint knows every register is 4-aligned, no more.
    #[test]
    fn alignment_reaches_the_fixpoint_of_a_long_reversed_chain() {
        let n: Reg = 10_000;
        let mut code = Vec::new();
        let mut rules = Vec::new();
        for k in (1..=n).rev() {
            rules.push((code.len(), AlignRule::Copy(Src::Reg(k - 1))));
            code.push(mov(k, Src::Reg(k - 1)));
        }
        rules.push((code.len(), AlignRule::Copy(Src::Imm(4))));
        code.push(mov(0, Src::Imm(4)));
        let align = register_alignment(&code, &rules, n as usize + 1).expect("settles");
        assert!(align.iter().all(|&a| a == 4), "{:?}", &align[..8]);
    }

    #[test]
    fn alignment_is_the_minimum_over_every_definition() {
        // r1 = 16, r1 = r1 + 8 (a loop's increment): 8-aligned, not 16.
        let code = vec![mov(1, Src::Imm(16)), mov(1, Src::Reg(1))];
        let rules = vec![
            (0, AlignRule::Copy(Src::Imm(16))),
            (1, AlignRule::Add(Src::Reg(1), Src::Imm(8))),
        ];
        assert_eq!(register_alignment(&code, &rules, 2), Some(vec![64, 8]));
    }
}
