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
/// (or generic) address derives from, `u32::MAX` where none is known.
pub fn pointer_params(k: &Kernel) -> Vec<u32> {
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
