//! The SASS front end: sm_90 machine code, the instructions an H200 really runs.
//!
//! ```text
//!  .ptx ──ptxas -arch=sm_90 -O3 (pip: nvidia-cuda-nvcc)──▶ cubin ──nvdisasm --print-line-info
//!  (pip: nvidia-cuda-nvdisasm)──▶ .sass text ──[decode]──▶ ir::Kernel with ir::sass::SassCode
//! ```
//!
//! [`tools`] runs the two NVIDIA tools (cached by content hash); the `.sass` committed next to
//! each example's `.ptx` is their output, so running it needs nothing installed. [`load`]
//! decodes a `.sass` file into one [`Kernel`] per kernel, taking from the PTX of the same module
//! what the disassembly does not carry (parameter layout, shared-memory layout) and from the
//! header ptxas's stack frame and register count.
//!
//! The sm_90 conventions the executor follows were read off the disassembly of the committed
//! PTX (ptxas 13.0.88) and checked by running it against the PTX executor (`tests/front/sass.rs`):
//! - constant bank 0: `c[0x0][0x0..0xc]` the block size x, y, z, `c[0x0][0xc..0x18]` the grid
//!   size, `c[0x0][0x20..0x28]` the generic address of the local window (added to `R1` to
//!   make a generic pointer to the stack, subtracted to turn it back), `c[0x0][0x28]` the top
//!   of the thread's local stack (`R1` starts there and the frame is carved below it), `c[0x0][0x208]` the global memory descriptor (`desc[URx]`: a cache
//!   policy only), kernel parameters from `c[0x0][0x210]` in the PTX parameter layout;
//!   `__constant__` variables in bank 3 at their module offsets.
//! - shared memory: a kernel forms shared addresses as `(SR_CgaCtaId << 24) + 0x400 + offset`:
//!   the first 1 KB of the window is the system's reservation (the H200 reserves 1 KB per
//!   block, `GpuConfig::reserved_shared_per_block`) and `SR_CgaCtaId` is the block's rank in
//!   its cluster, 0 without clusters. The executor subtracts the 1 KB, so the memory models see
//!   the same shared offsets as for the PTX.
//! - generic addresses (`LD`, `ST`, `ATOM`, `RED`): `cvta.shared` is `SR_SWINHI` as the high
//!   word over the shared address (`(SR_CgaCtaId << 24) + 0x400 + offset`) as the low word
//!   (tests/fixtures/sass_generic's disassembly). `SR_SWINHI` reads the high word of the
//!   window gpumemsim's PTX path uses ([`crate::mem::space::SHARED_WINDOW`]); the executor takes
//!   the reserved kilobyte off, and the core resolves each lane's address through the same
//!   windows as PTX's generic accesses. `cg::block_tile_memory` reads
//!   `%reserved_smem_offset_1` from `c[0x0][0x6c]` (reduction_multiwarp's SASS) and makes a
//!   generic pointer of it with `SR_SWINHI` alone: a window offset into the reserved kilobyte
//!   (0 on the H200). gpumemsim places that kilobyte after the block's own shared memory
//!   (`ir::reserved_smem_base`, for kernels whose PTX reads `%reserved_smem_offset_*`), so the
//!   word holds its offset plus the 0x400 the executor takes off; other kernels may not read it.
//! - `YIELD` (ptxas puts it in spin-wait loops) ends the warp's turn, so the warp it waits for
//!   runs, and takes the yielding lanes out of every convergence barrier they are in (as a
//!   `BREAK` of each), so that lanes leaving a loop that holds a `YIELD` run on alone: the
//!   H200's Source page of cas_probe's one-warp user `atomicCAS` loops (tests/hw/h200/cas)
//!   counts the code after such a loop once per leaving lane, up to `EXIT`.
//! - reconvergence: `BSSY B, L` opens a convergence barrier over the active lanes, `BSYNC B`
//!   waits for them (Volta's independent thread scheduling reconverges where the compiler put
//!   `BSYNC`, not at an immediate post-dominator); `BREAK B` takes lanes out of it. The lanes a
//!   divergent branch separates stay separate groups until a `BSYNC` joins them, even where
//!   they reach the same instruction: each group issues it (the `BSYNC` itself included), which
//!   is what the H200 counts (`smsp__inst_executed.sum` of examples/histogram.cu is one
//!   instruction per block higher than a schedule that merges lanes at equal addresses).

pub mod decode;
pub mod tools;

use std::sync::Arc;

use crate::ir::sass::{SassCode, NUM_PREDS};
use crate::ir::{Kernel, Program};

/// A located error in a SASS file.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{file}:{line}: {message}\n  {text}")]
pub struct SassError {
    /// The `.sass` file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// The instruction as written.
    pub text: String,
    /// What is wrong.
    pub message: String,
}

/// What the `.sass` header says of one kernel (written by [`tools::disassemble`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeaderInfo {
    /// Mangled name.
    pub name: String,
    /// Registers per thread.
    pub registers: u32,
    /// Stack frame bytes per thread.
    pub stack_frame: u32,
    /// The cubin's cooperative-group sites ([`COOP_GROUP_TAG`]): (byte offset, mask word).
    pub coop_group: Vec<(u32, u32)>,
}

/// The header tag of a kernel's resources.
pub const KERNEL_TAG: &str = "// gpumemsim-sass-kernel: ";
/// The header tag of a kernel's cooperative-group sites: `NAME 0xb0=0x05000003 ...`, each the
/// byte offset of an instruction the cubin lists in `EIATTR_COOP_GROUP_INSTR_OFFSETS` and the
/// word of `EIATTR_COOP_GROUP_MASK_REGIDS` at the same index (nvdisasm's `.nv.info.NAME`
/// section). Where ptxas compiles a `bar.warp.sync` (`__syncwarp`) to no instruction, it
/// leaves a `NOP` at its place, keeps the mask in a register and records both here
/// (`0x05000000 | R`: the mask is in `R`; `0xffffffff`: the full mask); compute-sanitizer's
/// synccheck checks the mask there (tests/hw/h200/sanitize/syncwarp_bad_mask.synccheck.log:
/// "Invalid arguments" at `half_mask(int *)+0xb0`, the `NOP` whose site is `0xb0=0x05000003`,
/// the mask `0xffff` in `R3`). Such a `NOP` decodes as [`crate::ir::sass::SOp::WarpsyncNop`].
pub const COOP_GROUP_TAG: &str = "// gpumemsim-sass-coop-group: ";
/// The header tag of the SHA-256 of the PTX the SASS was made from.
pub const PTX_HASH_TAG: &str = "// gpumemsim-sass-ptx-sha256: ";

/// The kernels' resources and the PTX hash a `.sass` header records.
pub fn header(text: &str) -> (Vec<HeaderInfo>, Option<String>) {
    let mut ks = Vec::new();
    let mut hash = None;
    for line in text
        .lines()
        .take_while(|l| l.starts_with("//") || l.trim().is_empty())
    {
        if let Some(h) = line.strip_prefix(PTX_HASH_TAG) {
            hash = Some(h.trim().to_string());
        } else if let Some(rest) = line.strip_prefix(KERNEL_TAG) {
            let mut it = rest.split_whitespace();
            let mut h = HeaderInfo {
                name: it.next().unwrap_or("").to_string(),
                ..Default::default()
            };
            for kv in it {
                if let Some((k, v)) = kv.split_once('=') {
                    let v = v.parse().unwrap_or(0);
                    match k {
                        "registers" => h.registers = v,
                        "stack_frame" => h.stack_frame = v,
                        _ => {}
                    }
                }
            }
            ks.push(h);
        } else if let Some(rest) = line.strip_prefix(COOP_GROUP_TAG) {
            let mut it = rest.split_whitespace();
            let name = it.next().unwrap_or("");
            let sites: Vec<(u32, u32)> = it
                .filter_map(|kv| {
                    let (o, m) = kv.split_once('=')?;
                    let hex = |v: &str| u32::from_str_radix(v.trim_start_matches("0x"), 16).ok();
                    Some((hex(o)?, hex(m)?))
                })
                .collect();
            match ks.iter_mut().find(|h| h.name == name) {
                Some(h) => h.coop_group = sites,
                None => ks.push(HeaderInfo {
                    name: name.to_string(),
                    coop_group: sites,
                    ..Default::default()
                }),
            }
        }
    }
    (ks, hash)
}

/// Makes the `NOP` at byte `off` a [`SOp::WarpsyncNop`] when the cubin's cooperative-group
/// site `word` names the register that holds its mask ([`COOP_GROUP_TAG`]). A site at another
/// instruction, or with the full mask (which every lane is in), is left as decoded.
fn mark_warpsync_nop(insts: &mut [crate::ir::sass::SInst], regs: u16, off: u32, word: u32) {
    use crate::ir::sass::{Opnd, SOp, Src};
    if !off.is_multiple_of(16) || word >> 24 != 0x05 {
        return;
    }
    let r = (word & 0xff) as u16;
    if let Some(si) = insts.get_mut((off / 16) as usize) {
        if matches!(si.op, SOp::Nop) && r < regs {
            si.op = SOp::WarpsyncNop {
                mask: Src::of(Opnd::R(r)),
            };
        }
    }
}

/// Refuses a read of constant bank 0 outside what gpumemsim fills in (see the module docs).
fn check_bank0(
    code: &SassCode,
    raw: &decode::RawKernel,
    file: &str,
    param_bytes: u32,
    reserved_smem: bool,
) -> Result<(), SassError> {
    use crate::ir::sass::{Opnd, SOp};
    let known = |off: u32, n: u32| {
        let end = off + n;
        end <= 0x18
            || (off >= 0x20 && end <= 0x2c)
            || (reserved_smem && off >= 0x6c && end <= 0x70)
            || (off >= 0x208 && end <= 0x210 + param_bytes)
    };
    for (i, si) in code.insts.iter().enumerate() {
        let mut bad = None;
        let mut check = |o: &Opnd| {
            if let Opnd::C { bank: 0, off } = o {
                if !known(*off, 4) {
                    bad = Some(*off);
                }
            }
        };
        match &si.op {
            SOp::Alu { a, b, c, .. }
            | SOp::AluW { a, b, c, .. }
            | SOp::AluP { a, b, c, .. }
            | SOp::Alu64 { a, b, c, .. }
            | SOp::AddCarry { a, b, c, .. }
            | SOp::Lop3P { a, b, c, .. } => {
                check(&a.o);
                check(&b.o);
                check(&c.o);
            }
            SOp::Fchk { a, b, .. }
            | SOp::Isetp { a, b, .. }
            | SOp::Fsetp { a, b, .. }
            | SOp::DsetpMinMax { a, b, .. } => {
                check(&a.o);
                check(&b.o);
            }
            SOp::ImadWide { a, b, c, .. } => {
                check(&a.o);
                check(&b.o);
                check(&c.o);
            }
            SOp::Ldc {
                bank: 0,
                r,
                off,
                bytes,
                ..
            } if *r == code.zero && !known(*off, *bytes as u32) => bad = Some(*off),
            _ => {}
        }
        if let Some(off) = bad {
            let (line, _, _, text) = &raw.insts[i];
            return Err(SassError {
                file: file.to_string(),
                line: *line,
                text: text.clone(),
                message: format!(
                    "c[0x0][{off:#x}] is a part of constant bank 0 gpumemsim does not model"
                ),
            });
        }
    }
    Ok(())
}

impl SassError {
    /// The same error as a located [`crate::ptx::error::PtxError`] of the `.sass` text `sass`
    /// (line, the instruction's column, its text), the form a kernel set aside at load
    /// carries until it is launched.
    pub fn located(&self, sass: &str) -> crate::ptx::error::PtxError {
        let line_text = sass
            .lines()
            .nth(self.line.saturating_sub(1) as usize)
            .unwrap_or("")
            .to_string();
        let col = line_text.find(self.text.as_str()).map_or(1, |c| c + 1) as u32;
        crate::ptx::error::PtxError {
            file: self.file.clone(),
            line: self.line,
            col,
            message: self.message.clone(),
            len: self.text.len().max(1) as u32,
            line_text,
        }
    }
}

/// What [`load`] makes of a `.sass` file.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The kernels that run as SASS.
    pub kernels: Vec<Kernel>,
    /// The kernels whose SASS holds something gpumemsim does not decode, with the located
    /// error: like a PTX kernel with an unsupported instruction, each is set aside and the
    /// error reported when it is launched, so the module's other kernels still run.
    pub unrunnable: Vec<(String, SassError)>,
}

/// Decodes `text` (a `.sass` file named `file`) into kernels that run as SASS, one per kernel
/// of `ptx` that the file has. A kernel the PTX lacks is ignored (the SASS of the same module
/// has the same kernels). A kernel that does not decode is listed in [`Loaded::unrunnable`];
/// what is wrong with the module's data (constant banks 3 and 4) is an error of the whole load.
pub fn load(text: &str, file: &str, ptx: &Program) -> Result<Loaded, SassError> {
    let (infos, _) = header(text);
    let mut out = Vec::new();
    let (raws, data) = decode::split(text);
    let err = |message: String| SassError {
        file: file.to_string(),
        line: 0,
        text: String::new(),
        message,
    };
    // Bank 3 must hold the `__constant__` variables where the PTX module placed them.
    for (sym, off) in &data.bank3 {
        let v = ptx
            .vars
            .iter()
            .find(|v| &v.name == sym && v.space == crate::mem::request::Space::Const);
        if v.map(|v| v.addr) != Some(*off as u64) {
            return Err(err(format!(
                "constant bank 3 places '{sym}' at {off:#x}, the PTX module at {:?}",
                v.map(|v| v.addr)
            )));
        }
    }
    let mut bank4 = Vec::new();
    for (off, sym) in &data.bank4 {
        let v = ptx.vars.iter().find(|v| &v.name == sym).ok_or_else(|| {
            err(format!(
                "constant bank 4 names '{sym}', which the PTX module lacks"
            ))
        })?;
        let o = *off as usize;
        if bank4.len() < o + 8 {
            bank4.resize(o + 8, 0);
        }
        bank4[o..o + 8].copy_from_slice(&v.addr.to_le_bytes());
    }
    let mut unrunnable = Vec::new();
    for raw in raws {
        let Some(pk) = ptx.kernel(&raw.name) else {
            continue;
        };
        let d = match decode::decode(&raw, file) {
            Ok(d) => d,
            Err(e) => {
                unrunnable.push((pk.name.clone(), e));
                continue;
            }
        };
        let info = infos.iter().find(|h| h.name == raw.name);
        let stack_frame = info.map(|h| h.stack_frame).unwrap_or(0);
        let mut insts = d.insts;
        for &(off, word) in info.map(|h| h.coop_group.as_slice()).unwrap_or(&[]) {
            mark_warpsync_nop(&mut insts, d.slots.zero, off, word);
        }
        let code = SassCode {
            insts,
            zero: d.slots.zero,
            sink: d.slots.sink,
            b: d.slots.b,
            gid: d.slots.gid,
            wide: d.slots.wide,
            stage: d.slots.stage,
            wsync: d.slots.wsync,
            aux: d.slots.aux,
            reset: d.slots.reset_ranges(),
            registers: info.map(|h| h.registers).unwrap_or(0),
            stack_frame,
            file: file.to_string(),
            bank4: bank4.clone(),
            bank2: data.bank2.get(&raw.name).cloned().unwrap_or_default(),
        };
        if let Err(e) = check_bank0(&code, &raw, file, pk.param_bytes, pk.reserved_smem) {
            unrunnable.push((pk.name.clone(), e));
            continue;
        }
        out.push(Kernel {
            name: pk.name.clone(),
            code: d.code,
            info: d.info,
            num_regs: d.slots.total(),
            num_preds: NUM_PREDS,
            params: pk.params.clone(),
            param_bytes: pk.param_bytes,
            static_shared: pk.static_shared,
            dynamic_shared_offset: pk.dynamic_shared_offset,
            local_bytes: stack_frame as u64,
            files: d.files,
            reqntid: pk.reqntid,
            sass: Some(Arc::new(code)),
            reserved_smem: pk.reserved_smem,
        });
    }
    Ok(Loaded {
        kernels: out,
        unrunnable,
    })
}
