//! nvdisasm text ▶ [`SassCode`]: the instructions of each kernel, decoded once.
//!
//! The text is `nvdisasm --print-line-info` output: per kernel a `.text.NAME` section, one
//! instruction a line (`/*0040*/  @!P0 IADD3 R1, R1, -0x190, RZ ;`), labels (`.L_x_3:`), and
//! `//## File "x.cu", line N` comments giving the CUDA source line of the instructions after
//! them. An opcode, modifier or operand this decoder does not know is an error at load time,
//! located at the SASS line, with the opcode and its modifiers.

use std::collections::HashMap;

use crate::exec::sass_alu as alu;
use crate::exec::sass_half as half2;
use crate::ir::sass::*;
use crate::ir::types::ScalarType;
use crate::ir::{Addr, AtomOp, Inst, InstInfo, Op, ReduxOp, ShflMode, SpaceSel, Sreg, VoteMode};
use crate::mem::request::{AccessKind, CacheOp, Space};

use super::SassError;

mod tex;

/// One kernel's instructions as text.
pub(crate) struct RawKernel {
    pub name: String,
    /// (SASS line, source file, source line, instruction text without the address and `;`).
    pub insts: Vec<(u32, String, u32, String)>,
    pub labels: HashMap<String, u32>,
}

/// What the module's data sections say: the addresses bank 4 holds, the variables of bank 3.
#[derive(Default)]
pub(crate) struct ModuleData {
    /// `.nv.constant4`: (offset, symbol) of each 64-bit address (`.dword g_acc`).
    pub bank4: Vec<(u32, String)>,
    /// `.nv.constant3`: (symbol, offset) of each `__constant__` variable.
    pub bank3: Vec<(String, u32)>,
    /// `.nv.constant2.KERNEL`: each kernel's bank 2 (ptxas's jump tables of `BRX`).
    pub bank2: HashMap<String, Vec<u8>>,
}

/// Splits nvdisasm output into kernels and the module's constant-bank data.
pub(crate) fn split(text: &str) -> (Vec<RawKernel>, ModuleData) {
    let mut out: Vec<RawKernel> = Vec::new();
    let mut data = ModuleData::default();
    let mut src = (String::new(), 0u32);
    let mut section = String::new();
    let mut c3_off = 0u32;
    for (i, line) in text.lines().enumerate() {
        let ln = i as u32 + 1;
        let t = line.trim();
        if let Some(rest) = t
            .strip_prefix(".section")
            .filter(|r| r.starts_with(char::is_whitespace))
        {
            section = rest.trim().split(',').next().unwrap_or("").to_string();
            continue;
        }
        if section == ".nv.constant4" {
            // /*0000*/ 	.dword	g_acc
            if let Some((off, rest)) = t.strip_prefix("/*").and_then(|r| r.split_once("*/")) {
                let mut it = rest.split_whitespace();
                if let (Ok(off), Some(".dword"), Some(sym)) =
                    (u32::from_str_radix(off, 16), it.next(), it.next())
                {
                    data.bank4.push((off, sym.to_string()));
                }
            }
            continue;
        }
        if let Some(kernel) = section.strip_prefix(".nv.constant2.") {
            // /*0000*/ 	.byte	0x30, 0x09, 0x00, 0x00, ...
            if let Some((_, rest)) = t.strip_prefix("/*").and_then(|r| r.split_once("*/")) {
                let rest = rest.trim();
                if let Some(bytes) = rest.strip_prefix(".byte") {
                    let v = data.bank2.entry(kernel.to_string()).or_default();
                    for b in bytes.split(',') {
                        let b = b.trim().trim_start_matches("0x");
                        v.push(u8::from_str_radix(b, 16).unwrap_or(0));
                    }
                }
            }
            continue;
        }
        if section == ".nv.constant3" {
            let mut it = t.split_whitespace();
            let (d, arg) = (it.next().unwrap_or(""), it.collect::<Vec<_>>().join(""));
            let items = arg.split(',').filter(|x| !x.is_empty()).count() as u32;
            match d {
                ".zero" => c3_off += arg.parse::<u32>().unwrap_or(0),
                ".byte" => c3_off += items,
                ".short" => c3_off += 2 * items,
                ".word" => c3_off += 4 * items,
                ".dword" => c3_off += 8 * items,
                ".align" => {
                    let a = arg.parse::<u32>().unwrap_or(1).max(1);
                    c3_off = c3_off.div_ceil(a) * a;
                }
                _ => {
                    if let Some(sym) = t.strip_suffix(':') {
                        if !sym.starts_with('.') {
                            data.bank3.push((sym.to_string(), c3_off));
                        }
                    }
                }
            }
            continue;
        }
        if !section.starts_with(".text.") {
            continue;
        }
        if let Some(rest) = t.strip_prefix(".text.") {
            if let Some(name) = rest.strip_suffix(':') {
                out.push(RawKernel {
                    name: name.to_string(),
                    insts: Vec::new(),
                    labels: HashMap::new(),
                });
                src = (String::new(), 0);
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("//## File \"") {
            // `//## File "path", line N` (an inlined call adds `inlined at ...`: the line of
            // the instruction itself comes first).
            if let Some((path, after)) = rest.split_once('"') {
                let n = after
                    .trim_start_matches(',')
                    .trim()
                    .strip_prefix("line ")
                    .map(|s| {
                        s.chars()
                            .take_while(|c| c.is_ascii_digit())
                            .collect::<String>()
                    })
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0);
                src = (path.to_string(), n);
            }
            continue;
        }
        let Some(k) = out.last_mut() else { continue };
        if let Some(label) = t.strip_suffix(':') {
            if label.starts_with(".L") || label.starts_with('$') {
                k.labels.insert(label.to_string(), k.insts.len() as u32);
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix("/*") {
            if let Some((addr, body)) = rest.split_once("*/") {
                if u32::from_str_radix(addr, 16).is_ok() {
                    let body = body.trim();
                    let body = body.strip_suffix(';').unwrap_or(body).trim();
                    k.insts.push((ln, src.0.clone(), src.1, body.to_string()));
                }
            }
        }
    }
    (out, data)
}

/// Register-slot layout of one kernel (see [`crate::ir::sass`]).
#[derive(Clone, Copy)]
pub(crate) struct Slots {
    pub nr: u16,
    pub zero: u16,
    pub ur: u16,
    pub b: u16,
    pub wsync: u16,
    pub gid: u16,
    pub aux: u16,
    pub wide: u16,
    /// Four slots holding the bytes an `LDGSTS` read, until they are queued.
    pub stage: u16,
    pub sink: u16,
    /// Convergence-barrier slots (`B0..`).
    pub nb: u16,
    /// The general registers the text names (bit `n`: `Rn`).
    pub named_r: [u64; 4],
    /// The uniform registers the text names (bit `n`: `URn`).
    pub named_ur: u64,
}

impl Slots {
    pub fn total(&self) -> u32 {
        self.sink as u32 + 1
    }

    /// The slot ranges `[start, end)` a block must find zeroed (see
    /// [`crate::ir::sass::SassCode::reset`]): every register an instruction can name, with the
    /// rest of its aligned group of four (a 128-bit operand names only the first register of
    /// four; pairs and quads are aligned), the convergence barriers, the group ids and the
    /// schedule's bookkeeping. The zero slot is never written; the `WARPSYNC` wait records and
    /// the 64-bit atomic slots are written before they are read; the sink is never read.
    pub fn reset_ranges(&self) -> Vec<(u16, u16)> {
        let mut zero = vec![false; self.total() as usize];
        for n in 0..256u16 {
            if self.named_r[n as usize / 64] >> (n % 64) & 1 == 1 {
                for r in n..=(n | 3) {
                    if r < self.nr {
                        zero[r as usize] = true;
                    }
                }
            }
        }
        for n in 0..64u16 {
            if self.named_ur >> n & 1 == 1 {
                for u in n..=(n | 3) {
                    if self.ur + u < self.b {
                        zero[(self.ur + u) as usize] = true;
                    }
                }
            }
        }
        for slot in (self.b..self.b + self.nb).chain([self.gid, self.aux]) {
            zero[slot as usize] = true;
        }
        let mut out: Vec<(u16, u16)> = Vec::new();
        for (i, z) in zero.iter().enumerate() {
            if !*z {
                continue;
            }
            let i = i as u16;
            match out.last_mut() {
                Some((_, end)) if *end == i => *end = i + 1,
                _ => out.push((i, i + 1)),
            }
        }
        out
    }

    fn of(k: &RawKernel) -> Slots {
        let (mut max_r, mut max_ur) = (0u32, 0u32);
        let (mut named_r, mut named_ur) = ([0u64; 4], 0u64);
        // Convergence barriers used (`BSSY B1, ...`): only those get slots, since every slot is
        // zeroed for each block.
        let mut nb = 0u16;
        for (_, _, _, t) in &k.insts {
            for w in t.split([' ', ',']) {
                if let Some(n) = w.strip_prefix('B').and_then(|n| n.parse::<u16>().ok()) {
                    if n < 16 {
                        nb = nb.max(n + 1);
                    }
                }
            }
            let b = t.as_bytes();
            for i in 0..b.len() {
                if b[i] != b'R'
                    || i > 0
                        && (b[i - 1].is_ascii_alphanumeric() && b[i - 1] != b'U'
                            || b[i - 1] == b'_')
                {
                    continue;
                }
                let uniform = i > 0 && b[i - 1] == b'U';
                if uniform && i > 1 && (b[i - 2].is_ascii_alphanumeric() || b[i - 2] == b'_') {
                    continue;
                }
                let digits: String = t[i + 1..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                if let Ok(n) = digits.parse::<u32>() {
                    if uniform {
                        max_ur = max_ur.max(n);
                        if n < 64 {
                            named_ur |= 1 << n;
                        }
                    } else {
                        max_r = max_r.max(n);
                        if n < 256 {
                            named_r[n as usize / 64] |= 1 << (n % 64);
                        }
                    }
                }
            }
        }
        // Room for the widest register group an instruction names (a 128-bit access).
        // Registers past R254 and UR63 do not exist; a larger number is refused when decoded.
        let nr = max_r.saturating_add(4).min(256) as u16;
        let zero = nr;
        let ur = zero + 1;
        let b = ur + max_ur.saturating_add(2).min(66) as u16;
        let wsync = b + nb;
        let gid = wsync + 1;
        let aux = gid + 1;
        let wide = aux + 1;
        let stage = wide + 3;
        let sink = stage + 4;
        Slots {
            nr,
            zero,
            ur,
            b,
            wsync,
            gid,
            aux,
            wide,
            stage,
            sink,
            nb,
            named_r,
            named_ur,
        }
    }
}

/// One kernel decoded: the SASS ops, the PTX form of each memory access, and line info.
pub(crate) struct Decoded {
    pub insts: Vec<SInst>,
    pub code: Vec<Inst>,
    pub info: Vec<InstInfo>,
    pub files: Vec<(u32, String)>,
    pub slots: Slots,
}

struct Dec<'a> {
    file: &'a str,
    line: u32,
    /// The instruction's index (its address / 16).
    index: u32,
    text: &'a str,
    opcode: &'a str,
    s: Slots,
    labels: &'a HashMap<String, u32>,
}

type R<T> = Result<T, SassError>;

const NOP: Inst = Inst {
    op: Op::Nop,
    guard: None,
};

pub(crate) fn decode(k: &RawKernel, file: &str) -> R<Decoded> {
    let s = Slots::of(k);
    let mut insts = Vec::with_capacity(k.insts.len());
    let mut code = Vec::with_capacity(k.insts.len());
    let mut info = Vec::with_capacity(k.insts.len());
    let mut files: Vec<(u32, String)> = Vec::new();
    for (index, (line, sfile, sline, text)) in k.insts.iter().enumerate() {
        let mut d = Dec {
            file,
            line: *line,
            index: index as u32,
            text,
            opcode: "",
            s,
            labels: &k.labels,
        };
        let (si, mem) = d.inst()?;
        insts.push(si);
        code.push(mem.unwrap_or(NOP));
        let fidx = if sfile.is_empty() {
            0
        } else if let Some((i, _)) = files.iter().find(|(_, f)| f == sfile) {
            *i
        } else {
            let i = files.len() as u32 + 1;
            files.push((i, sfile.clone()));
            i
        };
        info.push(InstInfo {
            ptx_line: *line,
            src_file: fidx,
            src_line: if fidx == 0 { 0 } else { *sline },
            text: text.clone(),
        });
    }
    Ok(Decoded {
        insts,
        code,
        info,
        files,
        slots: s,
    })
}

fn cmp_of(m: &str) -> Option<Cmp> {
    Some(match m {
        "F" => Cmp::F,
        "LT" => Cmp::Lt,
        "EQ" => Cmp::Eq,
        "LE" => Cmp::Le,
        "GT" => Cmp::Gt,
        "NE" => Cmp::Ne,
        "GE" => Cmp::Ge,
        "T" => Cmp::T,
        "NUM" => Cmp::Num,
        "NAN" => Cmp::Nan,
        "LTU" => Cmp::Ltu,
        "EQU" => Cmp::Equ,
        "LEU" => Cmp::Leu,
        "GTU" => Cmp::Gtu,
        "NEU" => Cmp::Neu,
        "GEU" => Cmp::Geu,
        _ => return None,
    })
}

fn logic_of(m: &str) -> Option<PLogic> {
    Some(match m {
        "AND" => PLogic::And,
        "OR" => PLogic::Or,
        "XOR" => PLogic::Xor,
        _ => return None,
    })
}

/// Immediate kinds: how a literal is read.
#[derive(Clone, Copy, PartialEq)]
enum ImmKind {
    Int,
    F32,
    F16x2,
    /// A double whose high word the instruction encodes.
    F64,
}

impl Dec<'_> {
    fn err(&self, message: impl Into<String>) -> SassError {
        SassError {
            file: self.file.to_string(),
            line: self.line,
            text: self.text.to_string(),
            message: message.into(),
        }
    }

    fn unsupported(&self) -> SassError {
        self.err(format!(
            "unsupported SASS instruction '{}' (opcode and modifiers): gpumemsim does not execute it yet; run with --isa ptx",
            self.opcode
        ))
    }

    fn pred_slot(&self, t: &str, dst: bool) -> R<u8> {
        let v = match t {
            "PT" | "UPT" => {
                if dst {
                    PSINK
                } else {
                    PT
                }
            }
            _ => {
                let (base, n) = if let Some(n) = t.strip_prefix("UP") {
                    (8u8, n)
                } else if let Some(n) = t.strip_prefix('P') {
                    (0u8, n)
                } else {
                    return Err(self.err(format!("expected a predicate, found '{t}'")));
                };
                let n: u8 = n
                    .parse()
                    .ok()
                    .filter(|&n| n < 7)
                    .ok_or_else(|| self.err(format!("bad predicate '{t}'")))?;
                base + n
            }
        };
        Ok(v)
    }

    fn pin(&self, t: &str) -> R<PIn> {
        let (neg, t) = match t.strip_prefix('!') {
            Some(r) => (true, r),
            None => (false, t),
        };
        Ok(PIn {
            idx: self.pred_slot(t, false)?,
            neg,
        })
    }

    fn pdst(&self, t: &str) -> R<u8> {
        self.pred_slot(t, true)
    }

    /// A register name to its slot (`None`: not a register name).
    fn reg_slot(&self, t: &str, dst: bool) -> Option<u16> {
        let t = t.strip_suffix(".reuse").unwrap_or(t);
        let t = t.strip_suffix(".64").unwrap_or(t);
        match t {
            "RZ" | "URZ" => return Some(if dst { self.s.sink } else { self.s.zero }),
            _ => {}
        }
        if let Some(n) = t.strip_prefix("UR") {
            let n: u16 = n.parse().ok()?;
            let slot = self.s.ur.checked_add(n)?;
            return (slot < self.s.b).then_some(slot);
        }
        if let Some(n) = t.strip_prefix('R') {
            let n: u16 = n.parse().ok()?;
            return (n < self.s.nr && n < 255).then_some(n);
        }
        if let Some(n) = t.strip_prefix('B') {
            let n: u16 = n.parse().ok()?;
            return (n < self.s.wsync - self.s.b).then(|| self.s.b + n);
        }
        None
    }

    fn rdst(&self, t: &str) -> R<u16> {
        self.reg_slot(t, true)
            .ok_or_else(|| self.err(format!("expected a destination register, found '{t}'")))
    }

    fn rsrc(&self, t: &str) -> R<u16> {
        self.reg_slot(t, false)
            .ok_or_else(|| self.err(format!("expected a register, found '{t}'")))
    }

    /// `count` consecutive destination slots from `t` (the sink for each when `t` is `RZ`).
    fn rdst_n(&self, t: &str, count: u16) -> R<Vec<u32>> {
        let d = self.rdst(t)?;
        if d == self.s.sink {
            return Ok(vec![d as u32; count as usize]);
        }
        if d % count != 0 && d < self.s.nr {
            return Err(self.err(format!(
                "register '{t}' is not aligned to its {count}-register group"
            )));
        }
        Ok((0..count).map(|i| (d + i) as u32).collect())
    }

    fn imm(&self, t: &str, kind: ImmKind) -> R<u32> {
        let bad = || self.err(format!("bad immediate '{t}'"));
        let (neg, body) = match t.strip_prefix('-') {
            Some(r) => (true, r),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        if let Some(h) = body.strip_prefix("0x") {
            let v = u64::from_str_radix(h, 16).map_err(|_| bad())?;
            if v > u32::MAX as u64 {
                return Err(bad());
            }
            let v = v as u32;
            return Ok(if neg { v.wrapping_neg() } else { v });
        }
        let f: f64 = match body {
            "INF" => f64::INFINITY,
            "QNAN" | "NAN" => f64::NAN,
            _ => body.parse().map_err(|_| bad())?,
        };
        let f = if neg { -f } else { f };
        Ok(match kind {
            ImmKind::Int => {
                if f.fract() != 0.0 || f.abs() > u32::MAX as f64 {
                    return Err(bad());
                }
                f as i64 as u32
            }
            ImmKind::F32 => {
                if f.is_nan() {
                    0x7fff_ffff
                } else {
                    (f as f32).to_bits()
                }
            }
            ImmKind::F16x2 => half::f16::from_f64(f).to_bits() as u32,
            ImmKind::F64 => {
                let bits = if f.is_nan() {
                    0x7fff_ffff_0000_0000
                } else {
                    f.to_bits()
                };
                if bits as u32 != 0 {
                    return Err(bad());
                }
                (bits >> 32) as u32
            }
        })
    }

    /// A source operand: register (with `-`, `~`, `|..|`, `.H0_H0` ...), immediate or
    /// `c[bank][offset]`.
    fn src(&self, t: &str, kind: ImmKind) -> R<Src> {
        // `.reuse` (an operand-cache hint) may stand inside `|..|` or before `.H0_H0`.
        let owned;
        let mut t = t.trim();
        if t.contains(".reuse") {
            owned = t.replace(".reuse", "");
            t = owned.as_str();
        }
        let mut m = 0u8;
        let float = kind != ImmKind::Int;
        if let Some(r) = t.strip_prefix('-') {
            // `-R22.H0_H0`: a negated register with a half selector.
            let reg = r.trim_start_matches('|');
            let reg = reg
                .strip_suffix(".H0_H0")
                .or_else(|| reg.strip_suffix(".H1_H1"))
                .unwrap_or(reg);
            if self.reg_slot(reg, false).is_some() || r.starts_with('|') || r.starts_with("c[") {
                m |= match kind {
                    ImmKind::Int => Src::INEG,
                    ImmKind::F32 | ImmKind::F64 => Src::FNEG,
                    ImmKind::F16x2 => Src::HNEG,
                };
                t = r;
            }
        }
        if let Some(r) = t.strip_prefix('~') {
            m |= Src::NOT;
            t = r;
        }
        if let Some(r) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
            if !float {
                return Err(self.err(format!("'|x|' of an integer operand '{t}'")));
            }
            m |= if kind == ImmKind::F16x2 {
                Src::HABS
            } else {
                Src::FABS
            };
            t = r;
        }
        let t = t.strip_suffix(".reuse").unwrap_or(t);
        let (t, hm) = if let Some(r) = t.strip_suffix(".H0_H0") {
            (r, Src::H0_H0)
        } else if let Some(r) = t.strip_suffix(".H1_H1") {
            (r, Src::H1_H1)
        } else if let Some(r) = t.strip_suffix(".H1_H0") {
            (r, 0)
        } else {
            (t, 0)
        };
        m |= hm;
        if let Some(slot) = self.reg_slot(t, false) {
            return Ok(Src {
                o: Opnd::R(slot),
                m,
            });
        }
        if t.starts_with("c[") {
            let (bank, r, off) = self.cref(t)?;
            if r != self.s.zero {
                return Err(self.err(format!("indexed constant '{t}' as an operand")));
            }
            return Ok(Src {
                o: Opnd::C { bank, off },
                m,
            });
        }
        let v = self.imm(t, kind)?;
        Ok(Src { o: Opnd::Imm(v), m })
    }

    fn isrc(&self, t: &str) -> R<Src> {
        self.src(t, ImmKind::Int)
    }

    /// `c[0xB][0xOFF]`, `c[0xB][R0+0xOFF]`: bank, index register (zero slot when none), offset.
    fn cref(&self, t: &str) -> R<(u8, u16, u32)> {
        let bad = || self.err(format!("bad constant operand '{t}'"));
        let rest = t.strip_prefix("c[").ok_or_else(bad)?;
        let (bank, rest) = rest.split_once("][").ok_or_else(bad)?;
        let inner = rest.strip_suffix(']').ok_or_else(bad)?;
        let bank = self.imm(bank, ImmKind::Int)?;
        if bank > 17 {
            return Err(bad());
        }
        let (r, off) = self.base_off(inner)?;
        if off < 0 {
            return Err(bad());
        }
        Ok((bank as u8, r.0, off as u32))
    }

    /// `R2.64+0x10`, `R6+URZ`, `0x10`, `R1+-0x4`: (base slot and width flag, uniform slot,
    /// offset).
    fn base_off(&self, inner: &str) -> R<((u16, bool), i64)> {
        let (b, _, off) = self.addr_parts(inner)?;
        Ok((b, off))
    }

    fn addr_parts(&self, inner: &str) -> R<((u16, bool), u16, i64)> {
        let mut base = (self.s.zero, false);
        let mut ubase = self.s.zero;
        let mut off: i64 = 0;
        for part in inner.split('+') {
            let p = part.trim();
            if p.is_empty() {
                continue;
            }
            let wide = p.ends_with(".64");
            match self.reg_slot(p, false) {
                Some(slot) if p.starts_with("UR") || p == "URZ" => ubase = slot,
                Some(slot) => base = (slot, wide),
                None => {
                    let v = self.imm(p, ImmKind::Int)? as i32 as i64;
                    off += v;
                }
            }
        }
        Ok((base, ubase, off))
    }

    fn target(&self, t: &str) -> R<u32> {
        let l = t
            .trim()
            .strip_prefix("`(")
            .and_then(|r| r.strip_suffix(')'))
            .ok_or_else(|| self.err(format!("bad branch target '{t}'")))?;
        self.labels
            .get(l)
            .copied()
            .ok_or_else(|| self.err(format!("unknown label '{l}'")))
    }

    fn want(&self, ops: &[&str], n: usize) -> R<()> {
        if ops.len() != n {
            return Err(self.err(format!(
                "'{}' takes {n} operands here, found {}",
                self.opcode,
                ops.len()
            )));
        }
        Ok(())
    }

    fn alu(&self, f: Lane3, d: &str, a: Src, b: Src, c: Src, k: u32) -> R<SOp> {
        Ok(SOp::Alu {
            f,
            d: self.rdst(d)?,
            a,
            b,
            c,
            k,
        })
    }

    fn zero(&self) -> Src {
        Src::of(Opnd::R(self.s.zero))
    }

    fn inst(&mut self) -> R<(SInst, Option<Inst>)> {
        let text: &str = self.text;
        // nvdisasm's annotations: `BRX R2 -0x7c0 (*"BRANCH_TARGETS .L_x_51,.L_x_52"*)`.
        let text = match text.find("(*") {
            Some(i) => &text[..i],
            None => text,
        };
        self.texture_descriptor_table(text)?;
        let mut rest = text.trim();
        let mut guard = PIn::TRUE;
        if let Some(r) = rest.strip_prefix('@') {
            let (g, r) = r.split_once(char::is_whitespace).unwrap_or((r, ""));
            guard = self.pin(g)?;
            rest = r.trim();
        }
        let (opcode, ops) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        self.opcode = opcode;
        let ops: Vec<&str> = if ops.trim().is_empty() {
            Vec::new()
        } else {
            ops.split(',').map(|s| s.trim()).collect()
        };
        let mut parts = opcode.split('.');
        let base = parts.next().unwrap_or("");
        let mods: Vec<&str> = parts.collect();
        let (op, mem) = self.op(base, &mods, &ops)?;
        Ok((SInst { guard, op }, mem))
    }

    /// `HADD2`, `HMUL2`, `HFMA2` with `.MMA`, `.BF16_V2`, `.SAT`, `.RELU` (`HFMA2`), `.F32`
    /// (`HADD2`); an operand may be a pair of f16 immediates, the high half first.
    fn half2(&self, base: &str, mods: &[&str], ops: &[&str]) -> R<SOp> {
        let mut k = 0;
        let mut f32_out = false;
        for m in mods {
            match *m {
                "MMA" if base == "HFMA2" => {}
                "BF16_V2" => k |= half2::BF16,
                "SAT" => k |= half2::SAT,
                "RELU" if base == "HFMA2" => k |= half2::RELU,
                "F32" if base == "HADD2" => f32_out = true,
                _ => return Err(self.unsupported()),
            }
        }
        if f32_out && k != 0 {
            return Err(self.unsupported());
        }
        let h = |t: &str| self.src(t, ImmKind::F16x2);
        let pair = |hi: &str, lo: &str| -> R<Src> {
            if k & half2::BF16 != 0 {
                // The immediates would be bf16: not met yet.
                return Err(self.unsupported());
            }
            let (hi, lo) = (self.imm(hi, ImmKind::F16x2)?, self.imm(lo, ImmKind::F16x2)?);
            Ok(Src::of(Opnd::Imm(hi << 16 | lo)))
        };
        let is_imm = |t: &str| self.imm(t, ImmKind::F16x2).is_ok();
        let n = if base == "HFMA2" { 4 } else { 3 };
        if ops.len() != n && ops.len() != n + 1 {
            self.want(ops, n)?;
        }
        let wide = ops.len() == n + 1;
        if base != "HFMA2" {
            let b = if wide {
                pair(ops[2], ops[3])?
            } else {
                h(ops[2])?
            };
            let f: Lane3 = match (base, f32_out) {
                ("HADD2", true) => half2::hadd2_f32,
                ("HADD2", false) => half2::hadd2,
                _ => half2::hmul2,
            };
            return self.alu(f, ops[0], h(ops[1])?, b, self.zero(), k);
        }
        // HFMA2 d, a, b, c with one of b, c a pair of immediates (`HFMA2.MMA R7, -RZ, RZ,
        // 1.875, 0` moves a constant; `HFMA2.MMA R23, R21, 1, 1, R22` adds).
        let (b, c) = match wide {
            false => (h(ops[2])?, h(ops[3])?),
            true if is_imm(ops[2]) => (pair(ops[2], ops[3])?, h(ops[4])?),
            true => (h(ops[2])?, pair(ops[3], ops[4])?),
        };
        self.alu(half2::hfma2, ops[0], h(ops[1])?, b, c, k)
    }

    fn no_mods(&self, mods: &[&str], allowed: &[&str]) -> R<()> {
        match mods.iter().find(|m| !allowed.contains(m)) {
            Some(_) => Err(self.unsupported()),
            None => Ok(()),
        }
    }

    #[allow(clippy::too_many_lines)]
    fn op(&self, base: &str, mods: &[&str], ops: &[&str]) -> R<(SOp, Option<Inst>)> {
        let has = |m: &str| mods.contains(&m);
        let none = |op: SOp| Ok((op, None));
        match base {
            "YIELD" => none(SOp::Yield),
            // `LDGDEPBAR` and `DEPBAR.LE SB0, n` are how ptxas writes `cp.async.commit_group`
            // and `cp.async.wait_group n` (tests/corpus/globalToShmemAsyncCopy: each
            // `cp.async.wait_group n` of the .ptx is a `DEPBAR.LE SB0, n` of the .sass).
            "LDGDEPBAR" => {
                self.no_mods(mods, &[])?;
                none(SOp::CpAsyncCommit)
            }
            "DEPBAR" if mods == ["LE"] && ops.first().map(|o| o.trim()) == Some("SB0") => {
                self.want(ops, 2)?;
                none(SOp::CpAsyncWait {
                    n: self.imm(ops[1], ImmKind::Int)?,
                })
            }
            "NOP" | "MEMBAR" | "ERRBAR" | "CCTL" | "DEPBAR" | "NANOSLEEP" | "FENCE"
            | "CGAERRBAR" => none(SOp::Nop),
            "EXIT" => {
                self.no_mods(mods, &[])?;
                none(SOp::Exit)
            }
            "BRA" if mods == ["DIV"] => {
                self.want(ops, 2)?;
                none(SOp::BraDiv {
                    mask: self.isrc(ops[0])?,
                    target: self.target(ops[1])?,
                })
            }
            "BRA" if mods == ["U", "ANY"] => {
                self.want(ops, 1)?;
                none(SOp::BraAny {
                    target: self.target(ops[0])?,
                })
            }
            "BRA" => {
                self.no_mods(mods, &["U"])?;
                let t = ops.last().ok_or_else(|| self.err("BRA without a target"))?;
                let cond = match ops.len() {
                    1 => PIn::TRUE,
                    2 => self.pin(ops[0])?,
                    _ => return Err(self.unsupported()),
                };
                none(SOp::Bra {
                    target: self.target(t)?,
                    cond,
                })
            }
            "BSSY" | "BSYNC" | "BREAK" => {
                self.no_mods(mods, &[])?;
                let b = self.rsrc(ops.first().copied().unwrap_or(""))?;
                if b < self.s.b {
                    return Err(self.err("expected a convergence barrier register B0..B15"));
                }
                none(match base {
                    "BSSY" => SOp::Bssy { b },
                    "BSYNC" => SOp::Bsync { b },
                    _ => SOp::Break { b },
                })
            }
            "BAR" => {
                let arrive = has("ARV");
                self.no_mods(mods, &["SYNC", "DEFER_BLOCKING", "ARV"])?;
                if ops.is_empty() || ops.len() > 2 {
                    return Err(self.unsupported());
                }
                let id = self.isrc(ops[0])?;
                let count = match ops.get(1) {
                    Some(c) => Some(self.isrc(c)?),
                    None => None,
                };
                none(SOp::Bar { id, count, arrive })
            }
            "WARPSYNC" => {
                // `WARPSYNC.ALL` waits for every live lane of the warp and merges its groups:
                // so every instruction of binaryPartitionCG and shfl_scan executes as often as
                // the H200's Source page says (their launch counters are higher by one per
                // merge, counted on no instruction: src/exec/simt/sass.rs, `Release`).
                if mods == ["ALL"] {
                    return none(SOp::Warpsync {
                        mask: Src::of(Opnd::Imm(u32::MAX)),
                        exclusive: false,
                    });
                }
                let ok = match mods {
                    [] | ["EXCLUSIVE"] => ops.len() == 1,
                    // WARPSYNC.COLLECTIVE R7, `(.L_x_6)`: the label ends the collective block.
                    ["COLLECTIVE"] => ops.len() == 2,
                    ["COLLECTIVE", "ALL"] => ops.len() == 1,
                    _ => false,
                };
                if !ok {
                    return Err(self.unsupported());
                }
                if mods == ["COLLECTIVE", "ALL"] {
                    return none(SOp::Nop);
                }
                let mask = self.isrc(ops[0])?;
                if mask.o == Opnd::Imm(u32::MAX) {
                    return none(SOp::Nop);
                }
                none(SOp::Warpsync {
                    mask,
                    exclusive: !mods.is_empty(),
                })
            }
            "S2R" | "S2UR" | "CS2R" => {
                self.want(ops, 2)?;
                if base == "CS2R" && !(mods.is_empty() || mods == ["32"]) {
                    return Err(self.unsupported());
                }
                if base != "CS2R" && !mods.is_empty() {
                    return Err(self.unsupported());
                }
                if base == "CS2R" && mods.is_empty() && ops[1] == "SRZ" {
                    // `CS2R R6, SRZ` (no `.32`) zeroes the pair R6, R7 (ptxas's two zero
                    // coordinates of `tex2D(t, 0.0f, 0.0f)`, read as R6 and R7 by the TEX).
                    let d = self.rdst_n(ops[0], 2)?[0] as u16;
                    return none(SOp::Alu64 {
                        f: |_, _, _, _| 0,
                        d,
                        a: self.zero(),
                        b: self.zero(),
                        c: self.zero(),
                        k: 0,
                    });
                }
                if base == "CS2R" && mods.is_empty() && ops[1] == "SR_GLOBALTIMERLO" {
                    let d = self.rdst_n(ops[0], 2)?[0] as u16;
                    return none(SOp::Timer64 { d });
                }
                let sr = match ops[1] {
                    "SR_TID.X" => SpecialReg::Ptx(Sreg::Tid(0)),
                    "SR_TID.Y" => SpecialReg::Ptx(Sreg::Tid(1)),
                    "SR_TID.Z" => SpecialReg::Ptx(Sreg::Tid(2)),
                    "SR_CTAID.X" => SpecialReg::Ptx(Sreg::Ctaid(0)),
                    "SR_CTAID.Y" => SpecialReg::Ptx(Sreg::Ctaid(1)),
                    "SR_CTAID.Z" => SpecialReg::Ptx(Sreg::Ctaid(2)),
                    "SR_LANEID" => SpecialReg::Ptx(Sreg::LaneId),
                    "SR_VIRTID" | "SR_WARPID" => SpecialReg::Ptx(Sreg::WarpId),
                    "SR_SMID" | "SR_VIRTUALSMID" => SpecialReg::Ptx(Sreg::SmId),
                    "SR_EQMASK" => SpecialReg::Ptx(Sreg::LanemaskEq),
                    "SR_LTMASK" => SpecialReg::Ptx(Sreg::LanemaskLt),
                    "SR_LEMASK" => SpecialReg::Ptx(Sreg::LanemaskLe),
                    "SR_GTMASK" => SpecialReg::Ptx(Sreg::LanemaskGt),
                    "SR_GEMASK" => SpecialReg::Ptx(Sreg::LanemaskGe),
                    "SR_CLOCKLO" => SpecialReg::Ptx(Sreg::Clock),
                    "SR_CgaCtaId" => SpecialReg::CgaCtaId,
                    "SR_SWINHI" => SpecialReg::SwinHi,
                    "SRZ" => SpecialReg::Zero,
                    _ => {
                        return Err(self.err(format!(
                            "unsupported special register '{}' of '{}'",
                            ops[1], self.opcode
                        )))
                    }
                };
                none(SOp::S2r {
                    d: self.rdst(ops[0])?,
                    sr,
                    uniform: base == "S2UR",
                })
            }
            "LDC" | "ULDC" => {
                self.want(ops, 2)?;
                let (bytes, signed) = match mods {
                    [] => (4u8, false),
                    ["64"] => (8, false),
                    ["U8"] => (1, false),
                    ["S8"] => (1, true),
                    ["U16"] => (2, false),
                    ["S16"] => (2, true),
                    _ => return Err(self.unsupported()),
                };
                let (bank, r, off) = self.cref(ops[1])?;
                let d = self.rdst(ops[0])?;
                if bank == 0 || bank == 2 || bank == 4 || base == "ULDC" {
                    return none(SOp::Ldc {
                        d,
                        bank,
                        r,
                        off,
                        bytes,
                        signed,
                        uniform: base == "ULDC",
                    });
                }
                // A user constant (bank 3): a constant-space load, with its request.
                if bank != 3 {
                    return Err(self.err(format!("constant bank {bank} is not modelled")));
                }
                let n = if bytes == 8 { 2 } else { 1 };
                let dregs = self.rdst_n(ops[0], n)?;
                let ty = ld_type(bytes, signed);
                Ok((
                    SOp::Mem {
                        base: r,
                        wide: false,
                        ubase: self.s.zero,
                        off: off as i32,
                        shared: false,
                    },
                    Some(ld(Space::Const, ty, dregs, CacheOp::Default)),
                ))
            }
            "MOV" | "UMOV" => {
                self.want(ops, 2)?;
                let b = self.isrc(ops[1])?;
                self.no_mods(mods, &["64"]).and(if mods.is_empty() {
                    Ok(())
                } else {
                    Err(self.unsupported())
                })?;
                none(self.alu(alu::mov, ops[0], self.zero(), b, self.zero(), 0)?)
            }
            "R2UR" => {
                let or = match mods {
                    [] => false,
                    ["OR"] => true,
                    _ => return Err(self.unsupported()),
                };
                let (p, ops) = if ops.len() == 3 {
                    (self.pdst(ops[0])?, &ops[1..])
                } else {
                    (PSINK, ops)
                };
                self.want(ops, 2)?;
                none(SOp::R2ur {
                    d: self.rdst(ops[0])?,
                    a: self.rsrc(ops[1])?,
                    p,
                    or,
                })
            }
            "IMAD" | "UIMAD" => self.imad(mods, ops).map(|o| (o, None)),
            "IADD3" | "UIADD3" => self.iadd3(mods, ops).map(|o| (o, None)),
            "VIADD" => {
                self.want(ops, 3)?;
                if !mods.is_empty() {
                    return Err(self.unsupported());
                }
                let (a, b) = (self.isrc(ops[1])?, self.isrc(ops[2])?);
                none(self.alu(alu::iadd3, ops[0], a, b, self.zero(), 0)?)
            }
            "LEA" | "ULEA" => self.lea(mods, ops).map(|o| (o, None)),
            "LOP3" | "ULOP3" => {
                if mods != ["LUT"] {
                    return Err(self.unsupported());
                }
                let (p, ops) = if ops.len() == 7 {
                    (Some(self.pdst(ops[0])?), &ops[1..])
                } else {
                    (None, ops)
                };
                self.want(ops, 6)?;
                let (a, b, c) = (self.isrc(ops[1])?, self.isrc(ops[2])?, self.isrc(ops[3])?);
                let lut = self.imm(ops[4], ImmKind::Int)?;
                let pin = self.pin(ops[5])?;
                if pin != (PIn { idx: PT, neg: true }) {
                    return Err(self.err("LOP3.LUT with a predicate input other than !PT"));
                }
                let d = self.rdst(ops[0])?;
                match p {
                    Some(p) if p != PSINK => none(SOp::Lop3P {
                        p,
                        d,
                        a,
                        b,
                        c,
                        lut: lut as u8,
                    }),
                    _ => none(SOp::Alu {
                        f: alu::lop3,
                        d,
                        a,
                        b,
                        c,
                        k: lut & 0xff,
                    }),
                }
            }
            "PLOP3" | "UPLOP3" => {
                if mods != ["LUT"] {
                    return Err(self.unsupported());
                }
                self.want(ops, 7)?;
                none(SOp::Plop3 {
                    p: self.pdst(ops[0])?,
                    q: self.pdst(ops[1])?,
                    s: [self.pin(ops[2])?, self.pin(ops[3])?, self.pin(ops[4])?],
                    lut: [
                        self.imm(ops[5], ImmKind::Int)? as u8,
                        self.imm(ops[6], ImmKind::Int)? as u8,
                    ],
                })
            }
            "SHF" | "USHF" => {
                self.want(ops, 4)?;
                let mut k = 0u32;
                let mut dir = false;
                for m in mods {
                    match *m {
                        "L" => dir = true,
                        "R" => {
                            k |= alu::SHF_R;
                            dir = true
                        }
                        "HI" => k |= alu::SHF_HI,
                        "W" => k |= alu::SHF_W,
                        "U32" => {}
                        "S32" => k |= alu::SHF_S,
                        "U64" => k |= alu::SHF_64,
                        "S64" => k |= alu::SHF_64 | alu::SHF_S,
                        _ => return Err(self.unsupported()),
                    }
                }
                if !dir {
                    return Err(self.unsupported());
                }
                let (a, b, c) = (self.isrc(ops[1])?, self.isrc(ops[2])?, self.isrc(ops[3])?);
                none(self.alu(alu::shf, ops[0], a, b, c, k)?)
            }
            "PRMT" | "UPRMT" => {
                self.want(ops, 4)?;
                if !mods.is_empty() {
                    return Err(self.unsupported());
                }
                let (a, b, c) = (self.isrc(ops[1])?, self.isrc(ops[2])?, self.isrc(ops[3])?);
                none(self.alu(alu::prmt, ops[0], a, b, c, 0)?)
            }
            "SEL" | "USEL" | "FSEL" => {
                self.want(ops, 4)?;
                if !mods.is_empty() {
                    return Err(self.unsupported());
                }
                let kind = if base == "FSEL" {
                    ImmKind::F32
                } else {
                    ImmKind::Int
                };
                let (a, b) = (self.src(ops[1], kind)?, self.src(ops[2], kind)?);
                none(SOp::AluP {
                    f: alu::sel,
                    d: self.rdst(ops[0])?,
                    a,
                    b,
                    c: self.zero(),
                    p: self.pin(ops[3])?,
                })
            }
            "VIMNMX" => {
                self.want(ops, 4)?;
                let f: Lane3 = match mods {
                    [] => alu::vimnmx_s32,
                    ["U32"] => alu::vimnmx_u32,
                    _ => return Err(self.unsupported()),
                };
                let (a, b) = (self.isrc(ops[1])?, self.isrc(ops[2])?);
                none(SOp::AluP {
                    f,
                    d: self.rdst(ops[0])?,
                    a,
                    b,
                    c: self.zero(),
                    p: self.pin(ops[3])?,
                })
            }
            "VIADDMNMX" => {
                self.want(ops, 5)?;
                let f: Lane3 = match mods {
                    [] => alu::viaddmnmx_s32,
                    ["U32"] => alu::viaddmnmx_u32,
                    _ => return Err(self.unsupported()),
                };
                let (a, b, c) = (self.isrc(ops[1])?, self.isrc(ops[2])?, self.isrc(ops[3])?);
                none(SOp::AluP {
                    f,
                    d: self.rdst(ops[0])?,
                    a,
                    b,
                    c,
                    p: self.pin(ops[4])?,
                })
            }
            "FMNMX" => {
                self.want(ops, 4)?;
                let f: Lane3 = match mods {
                    [] => alu::fmnmx,
                    ["FTZ"] => alu::fmnmx_ftz,
                    _ => return Err(self.unsupported()),
                };
                let (a, b) = (
                    self.src(ops[1], ImmKind::F32)?,
                    self.src(ops[2], ImmKind::F32)?,
                );
                none(SOp::AluP {
                    f,
                    d: self.rdst(ops[0])?,
                    a,
                    b,
                    c: self.zero(),
                    p: self.pin(ops[3])?,
                })
            }
            "VABSDIFF" => {
                self.want(ops, 4)?;
                let f: Lane3 = match mods {
                    [] => alu::vabsdiff_s32,
                    ["U32"] => alu::vabsdiff_u32,
                    _ => return Err(self.unsupported()),
                };
                let (a, b, c) = (self.isrc(ops[1])?, self.isrc(ops[2])?, self.isrc(ops[3])?);
                none(self.alu(f, ops[0], a, b, c, 0)?)
            }
            "MUFU" => {
                self.want(ops, 2)?;
                let f: Lane3 = match mods {
                    ["RCP"] => alu::mufu_rcp,
                    ["RSQ"] => alu::mufu_rsq,
                    ["SQRT"] => alu::mufu_sqrt,
                    ["EX2"] => alu::mufu_ex2,
                    ["LG2"] => alu::mufu_lg2,
                    ["SIN"] => alu::mufu_sin,
                    ["COS"] => alu::mufu_cos,
                    ["TANH"] => alu::mufu_tanh,
                    ["RCP64H"] => alu::mufu_rcp64h,
                    ["RSQ64H"] => alu::mufu_rsq64h,
                    ["EX2", "F16"] => alu::mufu_ex2_f16,
                    ["TANH", "F16"] => alu::mufu_tanh_f16,
                    ["EX2", "BF16"] => alu::mufu_ex2_bf16,
                    ["TANH", "BF16"] => alu::mufu_tanh_bf16,
                    _ => return Err(self.unsupported()),
                };
                // The 16-bit forms read one half: the low one, or the high one with `.H1`
                // (`tests/hw/h200/mufu/sass/sass_probe.sass`: ptxas 13.0 emits `R0` and
                // `R0.H1` for the two halves of an x2 instruction).
                let (t, high) = match ops[1].replace(".reuse", "") {
                    t if mods.len() == 2 => match t.strip_suffix(".H1") {
                        Some(r) => (r.to_string(), true),
                        None => (t.strip_suffix(".H0").unwrap_or(&t).to_string(), false),
                    },
                    t => (t, false),
                };
                let mut b = self.src(&t, ImmKind::F32)?;
                if high {
                    b.m |= Src::H1_H1;
                }
                // The f32 functions of the interpolator also have a warp form (the same bits).
                let w: Option<Warp3> = match mods {
                    ["RCP"] => Some(alu::mufu_rcp_warp),
                    ["RSQ"] => Some(alu::mufu_rsq_warp),
                    ["SQRT"] => Some(alu::mufu_sqrt_warp),
                    ["EX2"] => Some(alu::mufu_ex2_warp),
                    ["LG2"] => Some(alu::mufu_lg2_warp),
                    ["SIN"] => Some(alu::mufu_sin_warp),
                    ["COS"] => Some(alu::mufu_cos_warp),
                    _ => None,
                };
                if let Some(f) = w {
                    let (a, c) = (self.zero(), self.zero());
                    return none(SOp::AluW {
                        f,
                        d: self.rdst(ops[0])?,
                        a,
                        b,
                        c,
                    });
                }
                none(self.alu(f, ops[0], self.zero(), b, self.zero(), 0)?)
            }
            "FCHK" => {
                self.want(ops, 3)?;
                if !mods.is_empty() && mods != ["DIVIDE"] {
                    return Err(self.unsupported());
                }
                none(SOp::Fchk {
                    p: self.pdst(ops[0])?,
                    a: self.src(ops[1], ImmKind::F32)?,
                    b: self.src(ops[2], ImmKind::F32)?,
                })
            }
            "P2R" => {
                self.want(ops, 4)?;
                if !mods.is_empty() || ops[1] != "PR" {
                    return Err(self.unsupported());
                }
                none(SOp::P2r {
                    d: self.rdst(ops[0])?,
                    a: self.isrc(ops[2])?,
                    mask: self.imm(ops[3], ImmKind::Int)?,
                })
            }
            "DADD" | "DMUL" | "DFMA" => {
                let mut rnd = crate::ir::types::Rounding::Rn;
                for m in mods {
                    match *m {
                        "RN" => {}
                        "RZ" => rnd = crate::ir::types::Rounding::Rz,
                        "RM" => rnd = crate::ir::types::Rounding::Rm,
                        "RP" => rnd = crate::ir::types::Rounding::Rp,
                        _ => return Err(self.unsupported()),
                    }
                }
                let k = alu::fmode_bits(rnd, false, false);
                let f = |t: &str| self.src(t, ImmKind::F64);
                let n = if base == "DFMA" { 4 } else { 3 };
                self.want(ops, n)?;
                let d = self.rdst(ops[0])?;
                if d != self.s.sink && d % 2 != 0 {
                    return Err(self.err("a 64-bit destination is not an even register"));
                }
                let (a, b) = (f(ops[1])?, f(ops[2])?);
                let c = if n == 4 { f(ops[3])? } else { self.zero() };
                let g: Lane64 = match base {
                    "DADD" => alu::dadd,
                    "DMUL" => alu::dmul,
                    _ => alu::dfma,
                };
                none(SOp::Alu64 {
                    f: g,
                    d,
                    a,
                    b,
                    c,
                    k,
                })
            }
            "F2I" | "I2F" | "F2F" | "FRND" | "I2FP" => self.cvt(base, mods, ops).map(|o| (o, None)),
            "F2FP" => {
                self.want(ops, 3)?;
                let f: Lane3 = match mods {
                    ["F16", "F32", "PACK_AB"] => alu::f2fp_f16,
                    ["BF16", "F32", "PACK_AB"] => alu::f2fp_bf16,
                    _ => return Err(self.unsupported()),
                };
                let (a, b) = (
                    self.src(ops[1], ImmKind::F32)?,
                    self.src(ops[2], ImmKind::F32)?,
                );
                none(self.alu(f, ops[0], a, b, self.zero(), 0)?)
            }
            "MATCH" => {
                let (all, wide) = match mods {
                    ["ANY"] => (false, false),
                    ["ANY", "U64"] => (false, true),
                    ["ALL"] => (true, false),
                    ["ALL", "U64"] => (true, true),
                    _ => return Err(self.unsupported()),
                };
                let (p, ops) = if all {
                    self.want(ops, 3)?;
                    (self.pdst(ops[0])?, &ops[1..])
                } else {
                    self.want(ops, 2)?;
                    (PSINK, ops)
                };
                let a = self.rsrc(ops[1])?;
                if wide && a % 2 != 0 && a < self.s.nr {
                    return Err(self.err("a 64-bit source is not an even register"));
                }
                none(SOp::Match {
                    all,
                    wide,
                    p,
                    d: self.rdst(ops[0])?,
                    a,
                })
            }
            "ENDCOLLECTIVE" => {
                self.no_mods(mods, &[])?;
                none(SOp::Nop)
            }
            "CALL" => {
                if mods != ["REL", "NOINC"] || ops.len() != 1 {
                    return Err(self.unsupported());
                }
                none(SOp::Bra {
                    target: self.target(ops[0])?,
                    cond: PIn::TRUE,
                })
            }
            "RET" | "BRX" => {
                // RET.REL.NODEC R16 `(kernel)`; BRX R4 -0x1230 `(.L_x_5)`: the register holds a
                // byte address (RET) or an offset from the next instruction (BRX).
                let ok = if base == "RET" {
                    mods == ["REL", "NODEC"]
                } else {
                    mods.is_empty()
                };
                if !ok || ops.len() != 1 {
                    return Err(self.unsupported());
                }
                let mut it = ops[0].split_whitespace();
                let r = self.rsrc(it.next().unwrap_or(""))?;
                let mut off = 0u32;
                for t in it {
                    if t.starts_with('`') {
                        continue;
                    }
                    off = self.imm(t, ImmKind::Int)?;
                }
                if base == "BRX" {
                    off = off.wrapping_add((self.index + 1) * 16);
                }
                none(SOp::Jmp { r, off })
            }
            "POPC" | "UPOPC" | "BREV" | "UBREV" | "IABS" | "FLO" | "UFLO" => {
                self.want(ops, 2)?;
                let b = self.isrc(ops[1])?;
                let (f, k): (Lane3, u32) = match (base.trim_start_matches('U'), mods) {
                    ("POPC", []) => (alu::popc, 0),
                    ("BREV", []) => (alu::brev, 0),
                    ("IABS", []) => (alu::iabs, 0),
                    ("FLO", ["U32"]) => (alu::flo_u32, 0),
                    ("FLO", ["U32", "SH"]) => (alu::flo_u32, 1),
                    ("FLO", []) => (alu::flo_s32, 0),
                    ("FLO", ["SH"]) => (alu::flo_s32, 1),
                    _ => return Err(self.unsupported()),
                };
                none(self.alu(f, ops[0], self.zero(), b, self.zero(), k)?)
            }
            "SGXT" | "USGXT" => {
                self.want(ops, 3)?;
                let k = match mods {
                    [] => 0,
                    ["U32"] => 1,
                    _ => return Err(self.unsupported()),
                };
                let (a, b) = (self.isrc(ops[1])?, self.isrc(ops[2])?);
                none(self.alu(alu::sgxt, ops[0], a, b, self.zero(), k)?)
            }
            "ISETP" | "UISETP" => self.isetp(mods, ops).map(|o| (o, None)),
            "DSETP" if has("MIN") || has("MAX") => {
                let op = match mods {
                    ["MIN" | "MAX", l] => logic_of(l).ok_or_else(|| self.unsupported())?,
                    _ => return Err(self.unsupported()),
                };
                self.want(ops, 5)?;
                none(SOp::DsetpMinMax {
                    max: has("MAX"),
                    op,
                    p: self.pdst(ops[0])?,
                    q: self.pdst(ops[1])?,
                    a: self.src(ops[2], ImmKind::F64)?,
                    b: self.src(ops[3], ImmKind::F64)?,
                    pin: self.pin(ops[4])?,
                })
            }
            "FSET" => {
                // FSET.BF.cmp.AND d, a, b, PT: 1.0 where the comparison holds, else 0.0 (.BF:
                // a float boolean; ptxas's form of tex_probe.cu's `a == -1.0f ? 1.0f : 0.0f`).
                let f: Option<Lane3> = match mods {
                    ["BF", c, "AND"] => match cmp_of(c) {
                        Some(Cmp::Eq) => Some(|a, b, _, _| fset(fl(a) == fl(b))),
                        Some(Cmp::Ne) => Some(|a, b, _, _| fset(fl(a) < fl(b) || fl(a) > fl(b))),
                        Some(Cmp::Lt) => Some(|a, b, _, _| fset(fl(a) < fl(b))),
                        Some(Cmp::Le) => Some(|a, b, _, _| fset(fl(a) <= fl(b))),
                        Some(Cmp::Gt) => Some(|a, b, _, _| fset(fl(a) > fl(b))),
                        Some(Cmp::Ge) => Some(|a, b, _, _| fset(fl(a) >= fl(b))),
                        Some(Cmp::Neu) => Some(|a, b, _, _| fset(fl(a) != fl(b))),
                        Some(Cmp::Equ) => {
                            Some(|a, b, _, _| fset(!(fl(a) < fl(b) || fl(a) > fl(b))))
                        }
                        _ => None,
                    },
                    _ => None,
                };
                let f = f.ok_or_else(|| self.unsupported())?;
                self.want(ops, 4)?;
                if self.pin(ops[3])? != PIn::TRUE {
                    return Err(self.unsupported());
                }
                let (a, b) = (
                    self.src(ops[1], ImmKind::F32)?,
                    self.src(ops[2], ImmKind::F32)?,
                );
                none(self.alu(f, ops[0], a, b, self.zero(), 0)?)
            }
            "FSETP" | "DSETP" | "HSETP2" => {
                let f64 = base == "DSETP";
                let half = base == "HSETP2";
                let mut cmp = None;
                let mut op = None;
                let mut ftz = false;
                for m in mods {
                    if let Some(c) = cmp_of(m).filter(|_| cmp.is_none()) {
                        cmp = Some(c);
                    } else if let Some(l) = logic_of(m).filter(|_| op.is_none()) {
                        op = Some(l);
                    } else if *m == "FTZ" {
                        ftz = true;
                    } else {
                        return Err(self.unsupported());
                    }
                }
                let (Some(cmp), Some(op)) = (cmp, op) else {
                    return Err(self.unsupported());
                };
                self.want(ops, 5)?;
                let kind = match base {
                    "DSETP" => ImmKind::F64,
                    "HSETP2" => ImmKind::F16x2,
                    _ => ImmKind::F32,
                };
                let (q, a, b) = (
                    self.pdst(ops[1])?,
                    self.src(ops[2], kind)?,
                    self.src(ops[3], kind)?,
                );
                if half {
                    // Decoded: both halves compare alike (`.H0_H0`/`.H1_H1` operands) and the
                    // second predicate, that of the high halves, is unused (`PT`).
                    let one = |x: &Src| x.m & (Src::H0_H0 | Src::H1_H1) != 0;
                    if q != PSINK || ftz || !one(&a) || !one(&b) {
                        return Err(self.unsupported());
                    }
                }
                none(SOp::Fsetp {
                    cmp,
                    op,
                    ftz,
                    f64,
                    half,
                    p: self.pdst(ops[0])?,
                    q,
                    a,
                    b,
                    pin: self.pin(ops[4])?,
                })
            }
            "FADD" | "FMUL" | "FFMA" => {
                let mut rnd = crate::ir::types::Rounding::Rn;
                let (mut ftz, mut sat) = (false, false);
                for m in mods {
                    match *m {
                        "FTZ" => ftz = true,
                        "SAT" => sat = true,
                        "RN" => {}
                        "RZ" => rnd = crate::ir::types::Rounding::Rz,
                        "RM" => rnd = crate::ir::types::Rounding::Rm,
                        "RP" => rnd = crate::ir::types::Rounding::Rp,
                        _ => return Err(self.unsupported()),
                    }
                }
                let k = alu::fmode_bits(rnd, ftz, sat);
                let f = |t: &str| self.src(t, ImmKind::F32);
                if base == "FFMA" {
                    self.want(ops, 4)?;
                    if k == 0 {
                        none(SOp::AluW {
                            f: alu::ffma_rn_warp,
                            d: self.rdst(ops[0])?,
                            a: f(ops[1])?,
                            b: f(ops[2])?,
                            c: f(ops[3])?,
                        })
                    } else {
                        none(self.alu(alu::ffma, ops[0], f(ops[1])?, f(ops[2])?, f(ops[3])?, k)?)
                    }
                } else {
                    self.want(ops, 3)?;
                    let g: Lane3 = if base == "FADD" { alu::fadd } else { alu::fmul };
                    none(self.alu(g, ops[0], f(ops[1])?, f(ops[2])?, self.zero(), k)?)
                }
            }
            "HFMA2" | "HADD2" | "HMUL2" => self.half2(base, mods, ops).map(|o| (o, None)),
            "HMNMX2" => {
                self.want(ops, 4)?;
                let f: Lane3 = match mods {
                    [] => half2::hmnmx2,
                    ["NAN"] => half2::hmnmx2_nan,
                    _ => return Err(self.unsupported()),
                };
                none(SOp::AluP {
                    f,
                    d: self.rdst(ops[0])?,
                    a: self.src(ops[1], ImmKind::F16x2)?,
                    b: self.src(ops[2], ImmKind::F16x2)?,
                    c: self.zero(),
                    p: self.pin(ops[3])?,
                })
            }
            "SHFL" => {
                self.want(ops, 5)?;
                let mode = match mods {
                    ["IDX"] => ShflMode::Idx,
                    ["UP"] => ShflMode::Up,
                    ["DOWN"] => ShflMode::Down,
                    ["BFLY"] => ShflMode::Bfly,
                    _ => return Err(self.unsupported()),
                };
                none(SOp::Shfl {
                    mode,
                    p: self.pdst(ops[0])?,
                    d: self.rdst(ops[1])?,
                    a: self.rsrc(ops[2])?,
                    b: self.isrc(ops[3])?,
                    c: self.isrc(ops[4])?,
                })
            }
            "VOTE" | "VOTEU" => {
                let mode = match mods {
                    ["ALL"] => VoteMode::All,
                    ["ANY"] => VoteMode::Any,
                    ["EQ"] => VoteMode::Uni,
                    _ => return Err(self.unsupported()),
                };
                // VOTE.ALL P2, P0: no ballot destination.
                let (d, ops) = if ops.len() == 2 {
                    (self.s.sink, ops)
                } else {
                    self.want(ops, 3)?;
                    (self.rdst(ops[0])?, &ops[1..])
                };
                none(SOp::Vote {
                    mode,
                    d,
                    p: self.pdst(ops[0])?,
                    a: self.pin(ops[1])?,
                    uniform: base == "VOTEU",
                })
            }
            "REDUX" => {
                self.want(ops, 2)?;
                let (op, signed) = match mods {
                    [] | ["AND"] => (ReduxOp::And, false),
                    ["SUM"] => (ReduxOp::Add, false),
                    ["SUM", "S32"] => (ReduxOp::Add, true),
                    ["OR"] => (ReduxOp::Or, false),
                    ["XOR"] => (ReduxOp::Xor, false),
                    ["MIN"] => (ReduxOp::Min, false),
                    ["MIN", "S32"] => (ReduxOp::Min, true),
                    ["MAX"] => (ReduxOp::Max, false),
                    ["MAX", "S32"] => (ReduxOp::Max, true),
                    _ => return Err(self.unsupported()),
                };
                none(SOp::Redux {
                    op,
                    signed,
                    d: self.rdst(ops[0])?,
                    a: self.rsrc(ops[1])?,
                })
            }
            "LDG" | "LDS" | "LDL" | "LD" => self.load(base, mods, ops),
            "LDGSTS" => self.ldgsts(mods, ops),
            "SYNCS" => self.syncs(mods, ops),
            "ARRIVES" => {
                let arrive = match mods {
                    ["LDGSTSBAR", "64", "ARVCNT"] => true,
                    ["LDGSTSBAR", "64", "TRANSCNT"] => false,
                    _ => return Err(self.unsupported()),
                };
                self.want(ops, 1)?;
                none(SOp::LdgstsBar {
                    addr: Box::new(self.mem_addr(ops[0], true)?),
                    arrive,
                })
            }
            "UBLKCP" if mods == ["S", "G"] => {
                self.want(ops, 3)?;
                let reg = |t: &str| -> R<u16> {
                    let t = t.trim();
                    let r = t
                        .strip_prefix('[')
                        .and_then(|r| r.strip_suffix(']'))
                        .unwrap_or(t);
                    self.rsrc(r)
                };
                none(SOp::Ublkcp {
                    dst: reg(ops[0])?,
                    src: reg(ops[1])?,
                    size: self.rsrc(ops[2])?,
                })
            }
            "ELECT" => {
                self.no_mods(mods, &[])?;
                self.want(ops, 3)?;
                none(SOp::Elect {
                    p: self.pdst(ops[0])?,
                    d: self.rdst(ops[1])?,
                    q: self.pin(ops[2])?,
                })
            }
            "STG" | "STS" | "STL" | "ST" => self.store(base, mods, ops),
            "ATOMS" | "ATOMG" | "ATOM" | "REDG" | "RED" => self.atomic(base, mods, ops),
            "TEX" | "TLD" | "TLD4" | "TXQ" | "SULD" | "SUST" => self.tex(base, mods, ops),
            _ => Err(self.unsupported()),
        }
    }

    /// `F2I`, `I2F`, `I2FP`, `F2F`, `FRND` with their types and rounding (the integer type of
    /// `F2I` and the float type of `I2F` are the destination's; `F2F.D.S` names both).
    fn cvt(&self, base: &str, mods: &[&str], ops: &[&str]) -> R<SOp> {
        use crate::ir::types::Rounding;
        self.want(ops, 2)?;
        let ty = |m: &str| {
            Some(match m {
                "U8" => ScalarType::U8,
                "S8" => ScalarType::S8,
                "U16" => ScalarType::U16,
                "S16" => ScalarType::S16,
                "U32" => ScalarType::U32,
                "S32" => ScalarType::S32,
                "U64" => ScalarType::U64,
                "S64" => ScalarType::S64,
                "F16" => ScalarType::F16,
                "BF16" => ScalarType::BF16,
                "F32" => ScalarType::F32,
                "F64" => ScalarType::F64,
                _ => return None,
            })
        };
        let (mut ints, mut floats) = (Vec::new(), Vec::new());
        let (mut rnd, mut ftz) = (None, false);
        for m in mods {
            match *m {
                "FTZ" => ftz = true,
                "NTZ" => {}
                "RN" | "ROUND" => rnd = Some(Rounding::Rn),
                "RZ" | "TRUNC" => rnd = Some(Rounding::Rz),
                "RM" | "FLOOR" => rnd = Some(Rounding::Rm),
                "RP" | "CEIL" => rnd = Some(Rounding::Rp),
                _ => match ty(m) {
                    Some(t) if t.is_float() => floats.push(t),
                    Some(t) => ints.push(t),
                    None => return Err(self.unsupported()),
                },
            }
        }
        let one = |v: &[ScalarType], default: ScalarType| -> R<ScalarType> {
            match v {
                [] => Ok(default),
                [t] => Ok(*t),
                _ => Err(self.unsupported()),
            }
        };
        let (dst, src, int_rnd) = match base {
            "F2I" => (
                one(&ints, ScalarType::S32)?,
                one(&floats, ScalarType::F32)?,
                true,
            ),
            "I2F" | "I2FP" => (
                one(&floats, ScalarType::F32)?,
                one(&ints, ScalarType::S32)?,
                false,
            ),
            "FRND" => {
                let t = one(&floats, ScalarType::F32)?;
                if !ints.is_empty() {
                    return Err(self.unsupported());
                }
                (t, t, true)
            }
            _ => {
                // F2F.DST.SRC
                if !ints.is_empty() || floats.len() != 2 {
                    return Err(self.unsupported());
                }
                (floats[0], floats[1], false)
            }
        };
        let rnd = Some(rnd.unwrap_or(Rounding::Rn));
        let kind = if src == ScalarType::F64 {
            ImmKind::F64
        } else if src.is_float() {
            ImmKind::F32
        } else {
            ImmKind::Int
        };
        let a = self.src(ops[1], kind)?;
        let d = self.rdst(ops[0])?;
        if dst.size() == 8 && d != self.s.sink && d % 2 != 0 {
            return Err(self.err("a 64-bit destination is not an even register"));
        }
        if src.size() == 8 {
            if let Opnd::R(r) = a.o {
                if r % 2 != 0 && r < self.s.nr {
                    return Err(self.err("a 64-bit source is not an even register"));
                }
            }
        }
        // The common 32-bit conversions as lane functions.
        if !ftz && rnd == Some(Rounding::Rn) && a.m == 0 {
            let f: Option<Lane3> = match (dst, src) {
                (ScalarType::F32, ScalarType::S32) => Some(alu::i2f_s32),
                (ScalarType::F32, ScalarType::U32) => Some(alu::i2f_u32),
                _ => None,
            };
            if let Some(f) = f {
                return self.alu(f, ops[0], a, self.zero(), self.zero(), 0);
            }
        }
        Ok(SOp::Cvt {
            d,
            a,
            dst,
            src,
            rnd,
            int_rnd,
            ftz,
        })
    }

    fn imad(&self, mods: &[&str], ops: &[&str]) -> R<SOp> {
        let mut wide = false;
        let mut hi = false;
        let mut x = false;
        let mut unsigned = false;
        for m in mods {
            match *m {
                "MOV" | "IADD" | "SHL" => {}
                "U32" => unsigned = true,
                "WIDE" => wide = true,
                "HI" => hi = true,
                "X" => x = true,
                _ => return Err(self.unsupported()),
            }
        }
        if x && wide && !hi {
            // IMAD.WIDE.U32.X d, a, b, c, P: `a * b + c:c+1 + P`, the high part of a 128-bit
            // product chain (`__umul64hi`).
            self.want(ops, 5)?;
            let d = self.rdst(ops[0])?;
            if d != self.s.sink && d % 2 != 0 {
                return Err(self.err("IMAD.WIDE destination is not an even register"));
            }
            return Ok(SOp::ImadWide {
                d,
                a: self.isrc(ops[1])?,
                b: self.isrc(ops[2])?,
                c: self.isrc(ops[3])?,
                signed: !unsigned,
                hi: false,
                cin: self.pin(ops[4])?,
                cout: PSINK,
            });
        }
        if x {
            // IMAD.X d, a, b, c, P: the high word of a 64-bit addition, carry in from P.
            self.want(ops, 5)?;
            if wide || hi {
                return Err(self.unsupported());
            }
            let (a, b, c) = (self.isrc(ops[1])?, self.isrc(ops[2])?, self.isrc(ops[3])?);
            return Ok(SOp::AddCarry {
                f: |a, b, c, _| (a.wrapping_mul(b) as u64) + c as u64,
                d: self.rdst(ops[0])?,
                a,
                b,
                c,
                k: 0,
                cin: [self.pin(ops[4])?, PIn { idx: PT, neg: true }],
                cout: [PSINK, PSINK],
            });
        }
        // IMAD.WIDE.U32 d, P, a, b, c and IMAD.HI.U32 d, P, a, b, c: the carry out of the
        // 64-bit sum into P.
        let (cout, ops) = if (wide || hi) && ops.len() == 5 {
            let p = self.pdst(ops[1])?;
            (p, [ops[0], ops[2], ops[3], ops[4]])
        } else {
            self.want(ops, 4)?;
            (PSINK, [ops[0], ops[1], ops[2], ops[3]])
        };
        let (a, b, c) = (self.isrc(ops[1])?, self.isrc(ops[2])?, self.isrc(ops[3])?);
        let no_cin = PIn { idx: PT, neg: true };
        if hi && !wide {
            return Ok(SOp::ImadWide {
                d: self.rdst(ops[0])?,
                a,
                b,
                c,
                signed: !unsigned,
                hi: true,
                cin: no_cin,
                cout,
            });
        }
        if wide {
            if hi {
                return Err(self.unsupported());
            }
            let d = self.rdst(ops[0])?;
            if d != self.s.sink && d % 2 != 0 {
                return Err(self.err("IMAD.WIDE destination is not an even register"));
            }
            return Ok(SOp::ImadWide {
                d,
                a,
                b,
                c,
                signed: !unsigned,
                hi: false,
                cin: no_cin,
                cout,
            });
        }
        let f: Lane3 = alu::imad;
        self.alu(f, ops[0], a, b, c, 0)
    }

    /// Integer sources of an addition with carries: a negated source becomes its complement,
    /// and (for a low word) one more is added, so the carries are those of the subtraction.
    fn carry_srcs(&self, ts: &[&str]) -> R<(Vec<Src>, u32)> {
        let mut plus = 0;
        let mut v = Vec::new();
        for t in ts {
            let mut s = self.isrc(t)?;
            if s.m & Src::INEG != 0 {
                s.m = (s.m & !Src::INEG) ^ Src::NOT;
                plus += 1;
            }
            v.push(s);
        }
        Ok((v, plus))
    }

    fn iadd3(&self, mods: &[&str], ops: &[&str]) -> R<SOp> {
        let x = match mods {
            [] => false,
            ["X"] => true,
            _ => return Err(self.unsupported()),
        };
        // IADD3 d, [P0, [P1,]] a, b, c [, Pin0, Pin1 with .X]
        let mut i = 1;
        let mut cout = [PSINK, PSINK];
        let d = ops.first().copied().unwrap_or("");
        while i < ops.len() && self.pred_slot(ops[i], true).is_ok() && i <= 2 && ops.len() - i > 3 {
            cout[i - 1] = self.pdst(ops[i])?;
            i += 1;
        }
        let srcs = &ops[i..];
        let (srcs, cin) = if x {
            if srcs.len() != 5 {
                return Err(self.err("IADD3.X takes three sources and two carry predicates"));
            }
            (&srcs[..3], [self.pin(srcs[3])?, self.pin(srcs[4])?])
        } else {
            if srcs.len() != 3 {
                return Err(self.err("IADD3 takes three sources"));
            }
            (srcs, [PIn { idx: PT, neg: true }; 2])
        };
        if !x && cout == [PSINK, PSINK] {
            let (a, b, c) = (
                self.isrc(srcs[0])?,
                self.isrc(srcs[1])?,
                self.isrc(srcs[2])?,
            );
            return self.alu(alu::iadd3, d, a, b, c, 0);
        }
        let (s, plus) = self.carry_srcs(srcs)?;
        let plus = if x { 0 } else { plus };
        Ok(SOp::AddCarry {
            f: |a, b, c, k| a as u64 + b as u64 + c as u64 + k as u64,
            d: self.rdst(d)?,
            a: s[0],
            b: s[1],
            c: s[2],
            k: plus,
            cin,
            cout,
        })
    }

    fn lea(&self, mods: &[&str], ops: &[&str]) -> R<SOp> {
        let (hi, x, sx) = match mods {
            [] => (false, false, false),
            ["HI"] => (true, false, false),
            ["HI", "X"] => (true, true, false),
            ["HI", "SX32"] => (true, false, true),
            ["HI", "X", "SX32"] => (true, true, true),
            ["X"] => (false, true, false),
            _ => return Err(self.unsupported()),
        };
        let d = ops.first().copied().unwrap_or("");
        // LEA d, [P,] a, b, [hi,] shift [, Pcin]
        let mut rest = &ops[1..];
        let mut cout = PSINK;
        let nsrc = match (hi, sx) {
            (true, false) => 4,
            _ => 3,
        } + x as usize;
        if rest.len() == nsrc + 1 {
            cout = self.pdst(rest[0])?;
            rest = &rest[1..];
        }
        if rest.len() != nsrc {
            return Err(self.err(format!("'{}' takes {nsrc} sources", self.opcode)));
        }
        let a = self.isrc(rest[0])?;
        let b = self.isrc(rest[1])?;
        let (c, sh) = if hi && !sx {
            (self.isrc(rest[2])?, rest[3])
        } else {
            (self.zero(), rest[2])
        };
        let k = self.imm(sh, ImmKind::Int)?;
        let cin = if x {
            self.pin(rest[nsrc - 1])?
        } else {
            PIn { idx: PT, neg: true }
        };
        if !x && cout == PSINK {
            let f: Lane3 = match (hi, sx) {
                (false, _) => alu::lea,
                (true, false) => alu::lea_hi,
                (true, true) => alu::lea_hi_sx32,
            };
            return self.alu(f, d, a, b, c, k);
        }
        let f: fn(u32, u32, u32, u32) -> u64 = match (hi, sx) {
            (false, _) => |a, b, _, k| ((a << (k & 31)) as u64) + b as u64,
            (true, false) => |a, b, c, k| {
                let v = ((c as u64) << 32) | a as u64;
                (((v << (k & 63)) >> 32) as u32 as u64) + b as u64
            },
            (true, true) => |a, b, _, k| {
                let v = a as i32 as i64 as u64;
                (((v << (k & 63)) >> 32) as u32 as u64) + b as u64
            },
        };
        // LEA with a negated first source (a subtraction) is not decoded yet.
        if a.m & Src::INEG != 0 {
            return Err(self.unsupported());
        }
        Ok(SOp::AddCarry {
            f,
            d: self.rdst(d)?,
            a,
            b,
            c,
            k,
            cin: [cin, PIn { idx: PT, neg: true }],
            cout: [cout, PSINK],
        })
    }

    fn isetp(&self, mods: &[&str], ops: &[&str]) -> R<SOp> {
        let mut cmp = None;
        let mut op = None;
        let mut unsigned = false;
        let mut ex = false;
        for m in mods {
            if let Some(c) = cmp_of(m).filter(|_| cmp.is_none()) {
                cmp = Some(c);
            } else if let Some(l) = logic_of(m).filter(|_| op.is_none()) {
                op = Some(l);
            } else if *m == "U32" {
                unsigned = true;
            } else if *m == "EX" {
                ex = true;
            } else {
                return Err(self.unsupported());
            }
        }
        let (Some(cmp), Some(op)) = (cmp, op) else {
            return Err(self.unsupported());
        };
        if matches!(cmp, Cmp::Num | Cmp::Nan) || cmp as u8 >= Cmp::Ltu as u8 {
            return Err(self.unsupported());
        }
        self.want(ops, if ex { 6 } else { 5 })?;
        Ok(SOp::Isetp {
            cmp,
            unsigned,
            op,
            p: self.pdst(ops[0])?,
            q: self.pdst(ops[1])?,
            a: self.isrc(ops[2])?,
            b: self.isrc(ops[3])?,
            pin: self.pin(ops[4])?,
            ex: if ex { Some(self.pin(ops[5])?) } else { None },
        })
    }

    /// The `[...]` address of a memory operand (`desc[URx][...]` for global accesses).
    fn mem_addr(&self, t: &str, shared: bool) -> R<SOp> {
        let t = t.trim();
        let inner = if let Some(r) = t.strip_prefix("desc[") {
            // desc[UR4][R2.64+0x10]: the descriptor (c[0x0][0x208]) only carries cache policy.
            let (_, r) = r
                .split_once("][")
                .ok_or_else(|| self.err(format!("bad address '{t}'")))?;
            r.strip_suffix(']')
        } else {
            t.strip_prefix('[').and_then(|r| r.strip_suffix(']'))
        }
        .ok_or_else(|| self.err(format!("bad address '{t}'")))?;
        let ((base, wide), ubase, off) = self.addr_parts(inner)?;
        if wide && base % 2 != 0 && base < self.s.nr {
            return Err(self.err(format!("64-bit address register in '{t}' is not even")));
        }
        Ok(SOp::Mem {
            base,
            wide,
            ubase,
            off: off as i32,
            shared,
        })
    }

    /// Width and type of a memory instruction's modifiers; the rest must be cache and memory
    /// order qualifiers.
    fn mem_width(&self, mods: &[&str]) -> R<(u8, bool, CacheOp)> {
        let mut bytes = 4u8;
        let mut signed = false;
        let mut cache = CacheOp::Default;
        // A strong access at GPU or system scope must be coherent at that scope, which the
        // SM's L1 is not: ptxas writes `ld.global.cg` (`__ldcg`) as `LDG.E.STRONG.GPU` and
        // `ld.global.cv` (`__ldcv`) as `LDG.E.STRONG.SYS` (tests/hw/kernels/cache.sass,
        // `reread_op<0>` and `<4>`), and on the H200 both miss in L1 on every sector of a
        // re-read (tests/hw/h200/cache2/ncu/k_cache.csv launches 11 and 15: 0 hits of 4,096).
        if mods.contains(&"STRONG") {
            if mods.contains(&"GPU") {
                cache = CacheOp::Cg;
            } else if mods.contains(&"SYS") {
                cache = CacheOp::Cv;
            }
        }
        for m in mods {
            match *m {
                "E" | "STRONG" | "GPU" | "SYS" | "CTA" | "SM" | "WEAK" | "EL" | "EF" | "LTC64B"
                | "LTC128B" | "LTC256B" | "ZD" | "PRIVATE" | "MMIO" | "RELAXED" | "ACQUIRE"
                | "RELEASE" => {}
                "LU" => cache = CacheOp::Lu,
                "CONSTANT" => cache = CacheOp::Nc,
                "U8" => bytes = 1,
                "S8" => {
                    bytes = 1;
                    signed = true
                }
                "U16" => bytes = 2,
                "S16" => {
                    bytes = 2;
                    signed = true
                }
                "32" => bytes = 4,
                "64" => bytes = 8,
                "128" => bytes = 16,
                _ => return Err(self.unsupported()),
            }
        }
        Ok((bytes, signed, cache))
    }

    fn space(&self, base: &str) -> R<Space> {
        Ok(
            match base.trim_start_matches("LD").trim_start_matches("ST") {
                "G" => Space::Global,
                "S" => Space::Shared,
                "L" => Space::Local,
                _ => return Err(self.unsupported()),
            },
        )
    }

    fn load(&self, base: &str, mods: &[&str], ops: &[&str]) -> R<(SOp, Option<Inst>)> {
        self.want(ops, 2)?;
        // `LD`: a generic load, resolved per lane through the windows (see [`make_generic`]).
        let generic = base == "LD";
        let space = if generic {
            Space::Global
        } else {
            self.space(base)?
        };
        let (bytes, signed, cache) = self.mem_width(mods)?;
        let n = (bytes as u16).div_ceil(4);
        let d = self.rdst_n(ops[0], n)?;
        let addr = self.mem_addr(ops[1], space == Space::Shared)?;
        let mut inst = ld(space, ld_type(bytes, signed), d, cache);
        if generic {
            make_generic(&mut inst);
        }
        Ok((addr, Some(inst)))
    }

    /// `SYNCS.EXCH.64`, `SYNCS.ARRIVE.TRANS64[.RED].{A1T0,ART0,A0TR,A0TX,A0T1}` and the
    /// plain `SYNCS.ARRIVE.TRANS64` (arrive 1, expect the operand),
    /// `SYNCS.PHASECHK.TRANS64[.TRYWAIT]`, `SYNCS.CCTL.IV`: the mbarrier operations. Which
    /// PTX operation each is: tests/hw/h200/mbarrier/mbar_probe.sass against
    /// tests/hw/mbarrier/mbar_probe.cu (`expect_tx` is `A0TR`, `complete_tx` `A0TX`,
    /// `arrive` with a count `ART0`, `arrive.expect_tx` the plain form).
    fn syncs(&self, mods: &[&str], ops: &[&str]) -> R<(SOp, Option<Inst>)> {
        let none = |op: SOp| Ok((op, None));
        match mods {
            ["CCTL", "IV"] => none(SOp::Nop),
            ["EXCH", "64"] => {
                self.want(ops, 3)?;
                none(SOp::SyncsExch {
                    d: self.rdst_n(ops[0], 2)?[0] as u16,
                    addr: Box::new(self.mem_addr(ops[1], true)?),
                    s: self.rsrc(ops[2])?,
                })
            }
            ["PHASECHK", "TRANS64"] | ["PHASECHK", "TRANS64", "TRYWAIT"] => {
                self.want(ops, 3)?;
                none(SOp::PhaseChk {
                    trywait: mods.len() == 3,
                    p: self.pdst(ops[0])?,
                    addr: Box::new(self.mem_addr(ops[1], true)?),
                    b: self.rsrc(ops[2])?,
                })
            }
            ["ARRIVE", "TRANS64", rest @ ..] => {
                let (red, form) = match rest {
                    ["RED", f] => (true, *f),
                    [f] => (false, *f),
                    [] => (false, ""),
                    _ => return Err(self.unsupported()),
                };
                let (arrive, expect, complete) = match form {
                    "A1T0" => (1, 0, 0),
                    "ART0" => (2, 0, 0),
                    "A0TR" => (0, 2, 0),
                    "A0TX" => (0, 0, 2),
                    "A0T1" => (0, 1, 0),
                    "" => (1, 2, 0),
                    _ => return Err(self.unsupported()),
                };
                self.want(ops, 3)?;
                let d = if red {
                    self.s.sink
                } else {
                    self.rdst_n(ops[0], 2)?[0] as u16
                };
                none(SOp::SyncsArrive {
                    d,
                    addr: Box::new(self.mem_addr(ops[1], true)?),
                    b: self.rsrc(ops[2])?,
                    arrive,
                    expect,
                    complete,
                })
            }
            _ => Err(self.unsupported()),
        }
    }

    /// `LDGSTS.E[.BYPASS][.64|.128] [shared], desc[UR][global.64]`: `cp.async` (PTX ISA
    /// "cp.async"). The global load is the PTX form; the bytes then wait in the warp's queue
    /// as `cp.async`'s do (see [`SOp::LdgSts`]). `.BYPASS` is `cp.async.cg` (L1 not
    /// allocated). Zero fill (`.ZFILL`, a source size operand) is not supported yet.
    fn ldgsts(&self, mods: &[&str], ops: &[&str]) -> R<(SOp, Option<Inst>)> {
        self.want(ops, 2)?;
        let bypass = mods.contains(&"BYPASS");
        let rest: Vec<&str> = mods.iter().copied().filter(|m| *m != "BYPASS").collect();
        let (bytes, signed, _) = self.mem_width(&rest)?;
        if signed || bytes < 4 {
            return Err(self.unsupported());
        }
        let n = u16::from(bytes) / 4;
        let shared = self.mem_addr(ops[0], true)?;
        let global = self.mem_addr(ops[1], false)?;
        let cache = if bypass { CacheOp::Cg } else { CacheOp::Ca };
        let d = (self.s.stage..self.s.stage + n).map(u32::from).collect();
        let inst = ld(Space::Global, ScalarType::B32, d, cache);
        Ok((
            SOp::LdgSts {
                global: Box::new(global),
                shared: Box::new(shared),
                n: n as u8,
            },
            Some(inst),
        ))
    }

    fn store(&self, base: &str, mods: &[&str], ops: &[&str]) -> R<(SOp, Option<Inst>)> {
        self.want(ops, 2)?;
        // `ST`: a generic store (see [`make_generic`]).
        let generic_st = base == "ST";
        let space = if generic_st {
            Space::Global
        } else {
            self.space(base)?
        };
        let (bytes, signed, cache) = self.mem_width(mods)?;
        if signed {
            return Err(self.unsupported());
        }
        let n = (bytes as u16).div_ceil(4);
        let r = self.rsrc(ops[1])?;
        let s: Vec<crate::ir::Src> = (0..n)
            .map(|i| {
                crate::ir::Src::Reg(if r == self.s.zero {
                    r as u32
                } else {
                    (r + i) as u32
                })
            })
            .collect();
        let ty = match bytes {
            1 => ScalarType::B8,
            2 => ScalarType::B16,
            _ => ScalarType::B32,
        };
        let addr = self.mem_addr(ops[0], space == Space::Shared)?;
        let mut inst = Inst {
            op: Op::St {
                space: SpaceSel::Space(space),
                ty,
                s,
                addr: Addr {
                    base: None,
                    offset: 0,
                },
                cache,
            },
            guard: None,
        };
        if generic_st {
            make_generic(&mut inst);
        }
        Ok((addr, Some(inst)))
    }

    fn atomic(&self, base: &str, mods: &[&str], ops: &[&str]) -> R<(SOp, Option<Inst>)> {
        // `ATOM`/`RED`: generic (see [`make_generic`]); the address is a register pair (`.E`).
        let generic_atom = base == "ATOM" || base == "RED";
        let space = if base.ends_with('S') {
            Space::Shared
        } else {
            Space::Global
        };
        let red = base.starts_with("RED");
        let mut op = None;
        let mut ty = ScalarType::U32;
        let mut popc_inc = false;
        let (mut wide, mut spin, mut float) = (false, false, false);
        for m in mods {
            match *m {
                "E" | "STRONG" | "GPU" | "SYS" | "CTA" | "SM" | "RN" | "FTZ" => {}
                "ADD" => op = Some(AtomOp::Add),
                "MIN" => op = Some(AtomOp::Min),
                "MAX" => op = Some(AtomOp::Max),
                "INC" => op = Some(AtomOp::Inc),
                "DEC" => op = Some(AtomOp::Dec),
                "EXCH" => op = Some(AtomOp::Exch),
                "AND" => op = Some(AtomOp::And),
                "OR" => op = Some(AtomOp::Or),
                "XOR" => op = Some(AtomOp::Xor),
                "CAS" => op = Some(AtomOp::Cas),
                "CAST" => op = Some(AtomOp::Cas),
                "SPIN" => spin = true,
                "POPC" => popc_inc = true,
                "S32" => ty = ScalarType::S32,
                "32" | "U32" => {}
                "64" | "U64" => {
                    wide = true;
                    ty = if ty == ScalarType::S32 {
                        ScalarType::S64
                    } else {
                        ScalarType::U64
                    }
                }
                "S64" => {
                    wide = true;
                    ty = ScalarType::S64
                }
                "F32" => {
                    float = true;
                    ty = ScalarType::F32
                }
                "F64" => {
                    float = true;
                    wide = true;
                    ty = ScalarType::F64
                }
                _ => return Err(self.unsupported()),
            }
        }
        let Some(mut op) = op else {
            return Err(self.unsupported());
        };
        if float {
            if op != AtomOp::Add {
                return Err(self.unsupported());
            }
            op = AtomOp::FAdd;
        }
        if wide && ty == ScalarType::S32 {
            ty = ScalarType::S64;
        }
        if spin && (op != AtomOp::Cas || !wide) {
            return Err(self.unsupported());
        }
        // ATOMS.POPC.INC.32 d, [a]: every lane adds one (ptxas's atomicAdd(&shared, 1)).
        let (op, b) = if popc_inc {
            if op != AtomOp::Inc || wide {
                return Err(self.unsupported());
            }
            (AtomOp::Add, crate::ir::Src::Imm(1))
        } else {
            (op, crate::ir::Src::Reg(0))
        };
        // ATOMG/ATOM write a predicate first (PT when the program ignores it).
        let ops: &[&str] = match ops.first() {
            Some(&"PT") if !red => &ops[1..],
            Some(p) if !red && self.pred_slot(p, true).is_ok() => {
                return Err(self.err(format!("'{}' with a predicate result {p}", self.opcode)))
            }
            _ => ops,
        };
        let cas = op == AtomOp::Cas;
        let (d, addr_t, val_t, new_t) = if red {
            self.want(ops, 2)?;
            (None, ops[0], Some(ops[1]), None)
        } else if popc_inc {
            self.want(ops, 2)?;
            (Some(self.rdst(ops[0])?), ops[1], None, None)
        } else if cas {
            self.want(ops, 4)?;
            (Some(self.rdst(ops[0])?), ops[1], Some(ops[2]), Some(ops[3]))
        } else {
            self.want(ops, 3)?;
            (Some(self.rdst(ops[0])?), ops[1], Some(ops[2]), None)
        };
        let d = d.filter(|&d| d != self.s.sink);
        let mut addr = self.mem_addr(addr_t, space == Space::Shared)?;
        // `ATOMG.E.CAS ..., [R6+0x18], ...`: nvdisasm leaves out the `.64` of a global
        // atomic's address, which is a register pair all the same (`.E`).
        if let SOp::Mem { base, wide, .. } = &mut addr {
            if space == Space::Global && *base != self.s.zero {
                if *base % 2 != 0 && *base < self.s.nr {
                    return Err(self.err("64-bit address register is not even"));
                }
                *wide = true;
            }
        }
        let reg = |t: Option<&str>| -> R<u16> {
            match t {
                Some(t) => self.rsrc(t),
                None => Ok(self.s.zero),
            }
        };
        let (bv, cv) = (reg(val_t)?, reg(new_t)?);
        // A shared atomic whose result goes to RZ is counted as a reduction: its same-word
        // lanes do not serialize (measured: examples/histogram.cu's `ATOMS.POPC.INC.32 RZ` is
        // one wavefront per instruction when all lanes hit one bin, 32,768 wavefronts for
        // 32,768 instructions, tests/hw/h200/hw/ncu/histogram.csv launch 2). Its instruction is
        // still an ATOMS (`op_shared_atom`); a global one keeps `ATOMG` (`op_global_atom`).
        // `ATOMS.INC`/`ATOMS.DEC` to `RZ` do serialize: 32 lanes on one word are 32 wavefronts
        // (tests/hw/h200/source/k_isa.csv launch 4, 0x0bf0 and 0x0c00: 512 for 16
        // instructions).
        let serial = matches!(op, AtomOp::Inc | AtomOp::Dec);
        let kind = if red || (space == Space::Shared && d.is_none() && !cas && !serial) {
            AccessKind::Reduction
        } else {
            AccessKind::Atomic
        };
        let sel = if generic_atom {
            SpaceSel::Generic
        } else {
            SpaceSel::Space(space)
        };
        let inst = |d: Option<u32>, b: crate::ir::Src, c: crate::ir::Src| Inst {
            op: Op::Atom {
                space: sel,
                op,
                ty,
                d,
                addr: Addr {
                    base: None,
                    offset: 0,
                },
                b,
                c,
                kind,
                elected: false,
            },
            guard: None,
        };
        if wide || spin {
            for r in [bv, cv].into_iter().chain(d) {
                if r % 2 != 0 && r < self.s.nr {
                    return Err(self.err("a 64-bit operand is not an even register"));
                }
            }
            let w = self.s.wide as u32;
            let (b, c) = (crate::ir::Src::Reg(w), crate::ir::Src::Reg(w + 1));
            return Ok((
                SOp::Atom64 {
                    addr: Box::new(addr),
                    b: bv,
                    c: cv,
                    d: d.unwrap_or(self.s.sink),
                    spin,
                },
                Some(inst(d.map(|_| w + 2), b, c)),
            ));
        }
        let b = match val_t {
            Some(_) => crate::ir::Src::Reg(bv as u32),
            None => b,
        };
        let c = if cas {
            crate::ir::Src::Reg(cv as u32)
        } else {
            crate::ir::Src::Imm(0)
        };
        Ok((addr, Some(inst(d.map(|d| d as u32), b, c))))
    }
}

fn fl(x: u32) -> f32 {
    f32::from_bits(x)
}

/// `FSET.BF`'s result: 1.0 or 0.0.
fn fset(t: bool) -> u32 {
    if t {
        1.0f32.to_bits()
    } else {
        0
    }
}

fn ld_type(bytes: u8, signed: bool) -> ScalarType {
    match (bytes, signed) {
        (1, false) => ScalarType::U8,
        (1, true) => ScalarType::S8,
        (2, false) => ScalarType::U16,
        (2, true) => ScalarType::S16,
        _ => ScalarType::B32,
    }
}

fn ld(space: Space, ty: ScalarType, d: Vec<u32>, cache: CacheOp) -> Inst {
    let n = d.len();
    // A load narrower than a word fills the whole register (zero- or sign-extended).
    let dst_bytes = if ty.size() < 4 { 4 } else { ty.size() as u8 };
    let _ = n;
    Inst {
        op: Op::Ld {
            space: SpaceSel::Space(space),
            ty,
            d: d.into_iter().map(Some).collect(),
            dst_bytes,
            addr: Addr {
                base: None,
                offset: 0,
            },
            cache,
        },
        guard: None,
    }
}

/// Makes a decoded load or store generic (`LD`, `ST`): the core resolves each lane's address
/// through the generic windows ([`crate::mem::space::resolve_generic`]); the SASS executor
/// first takes the 1 KB reserved window off addresses in the shared window, as for `LDS`.
fn make_generic(inst: &mut Inst) {
    match &mut inst.op {
        Op::Ld { space, .. } | Op::St { space, .. } => *space = SpaceSel::Generic,
        _ => {}
    }
}
