//! The sm_90 texture and surface instructions: `TEX`, `TLD`, `TLD4`, `TXQ`, `SULD`, `SUST`.
//!
//! Each decodes to [`SOp::Tex`] plus, at the same index of the kernel's code, the
//! [`crate::ir::Op::Tex`] the PTX form of the same fetch lowers to, with this kernel's register
//! slots as its operands: the executor runs that one texture-unit implementation
//! ([`crate::tex::TexState::fetch`], [`crate::tex::TexState::surface`]) for both instruction
//! sets, and the observer sees the same [`crate::tex::event::TexRequest`].
//!
//! Operand conventions, read off ptxas 13.0.88's output (`nvdisasm --print-line-info`) for the
//! texture kernels of `examples/rotate.cu`, `tests/hw/texture/sweep_kernels.cu`,
//! `tests/hw/texture_mem/tex_probe.cu` and `tests/fixtures/tex_forms/forms.cu`, each instruction
//! next to the PTX and CUDA line it comes from:
//!
//! ```text
//! TEX.LL  [P,] Dhi, Dlo, Ra, Rb, URh, 0x0, 2D [, mask]     tex.2d, tex.level.2d (Rb: the LOD)
//! TEX.LZ  [P,] Dhi, Dlo, Ra, URh, 0x0, 2D [, mask]         tex.level.2d with LOD 0.0
//! TLD.LZ  [P,] Dhi, Dlo, Ra, [Rb,] URh, 0x0, 1D [, mask]   tex with .s32 coordinates (Rb: .AOFFI)
//! TLD4.R  [P,] Dhi, Dlo, Ra, URh, 0x0, 2D [, mask]         tld4.r (.G, .B, .A)
//! TXQ     Dhi, Dlo, Ra, TEX_HEADER_DIMENSION, URh, 0x0, mask    txq.width (0x1), .height (0x2), .depth (0x4)
//! SULD.D.BA.2D[.U8|.U16|.64|.128].STRONG.SM[.IGN|.TRAP] D, [Ra], URh, 0x0    suld.b
//! SUST.D.BA.2D[.U8|.U16|.64|.128].STRONG.SM[.IGN|.TRAP] [Ra], S, URh, 0x0    sust.b
//! ```
//!
//! - Coordinates are consecutive registers from `Ra` (x, y, z; for surfaces x is in bytes).
//!   ptxas samples a 1D texture as `2D` with y = 0.0 (`MOV R7, RZ` before the `TEX`), the
//!   rule the H200's 1D fetches follow too (see [`crate::tex::TexState::fetch`]).
//! - `TEX.LL`'s `Rb` is the level of detail: the one of `tex2DLod`, and -32.0 (`0xc2000000`) for
//!   a plain `tex2D`, where PTX has no level. Arrays here have one level, so it selects level 0
//!   either way.
//! - `.AOFFI`: ptxas folds a constant added to integer coordinates into `Rb`, one signed 4-bit
//!   field per coordinate (x in bits 0-3, y in 4-7, z in 8-11: `i % 9 - 2, i / 9 - 1` gives
//!   `0xfe`, `i % 5 - 1, i / 5 - 2, i % 3 + 1` gives `0x1ef`); the texel is `Ra + offset`.
//! - Results: the channels the mask selects (default `0xf`), in order, go to `Dlo`, `Dlo+1`,
//!   then `Dhi`, `Dhi+1` (`TEX.LL R9, R6, ..., 0x7`: x, y, z to R6, R7, R9; mask `0xa`: y, w to
//!   `Dlo`, `Dlo+1`); `RZ` drops them.
//! - `P` (the sparse-residency output of PTX's `d|p`) is set where a texel is *not* resident:
//!   PTX's `selp.u32 r, 1, 0, p` becomes `SEL R0, RZ, 0x1, P0`.
//! - The handle is a 32-bit register: ptxas loads the low word of the `cudaTextureObject_t`
//!   parameter (`ULDC UR4, c[0x0][0x210]`, and `UMOV UR5, URZ` after it for the texture
//!   forms; surfaces take the one register). A handle that differs between lanes is made
//!   uniform by a loop of `R2UR` (see [`SOp::R2ur`]) around the instruction.
//! - `TXQ` answers only the dimension queries; `txq.channel_data_type`, `.normalized_coords`,
//!   `.filter_mode`, `.addr_mode_N`, `.num_mipmap_levels`, `.array_size`, `.num_samples`
//!   become global loads from a driver table (`c[0x0][0xf0]` plus the handle times the
//!   relocation `.nv.unified.texrefDescSize`), which gpumemsim does not model: such a kernel is
//!   refused, located, at that instruction.
//! - Surface widths: none is 32 bits, `.U8`/`.U16` zero-extend (a signed read sign-extends
//!   afterwards with its own instruction), `.64` and `.128` are 2 and 4 registers. `.IGN` is
//!   `cudaBoundaryModeZero`, `.TRAP` `cudaBoundaryModeTrap`, neither `cudaBoundaryModeClamp`;
//!   `.D.BA` is PTX's unformatted, byte-addressed `suld.b`/`sust.b`. `.STRONG.SM` (the memory
//!   order) has no effect here.

use super::*;
use crate::ir::tex::{Geom, SurfClamp, TexDtype, TexInst, TexKind, TxqQuery};

impl Dec<'_> {
    /// `TEX`, `TLD`, `TLD4`, `TXQ`, `SULD`, `SUST`.
    pub(super) fn tex(&self, base: &str, mods: &[&str], ops: &[&str]) -> R<(SOp, Option<Inst>)> {
        let reg = |s: u16| crate::ir::Src::Reg(u32::from(s));
        let mut t = TexInst {
            kind: TexKind::Tex,
            geom: Geom::D2,
            dtype: TexDtype::F32,
            int_coords: false,
            handle: crate::ir::Src::Imm(0),
            coords: [crate::ir::Src::Imm(0); 4],
            lod: None,
            d: Vec::new(),
            s: Vec::new(),
            elem_bytes: 4,
            pred: None,
        };
        let mut nonresident = PSINK;
        let mut aoffi = None;
        match base {
            "TEX" | "TLD" | "TLD4" => {
                let mut lod_operand = false;
                let mut offsets = false;
                for m in mods {
                    match (base, *m) {
                        (_, "NODEP") => {}
                        ("TEX", "LL") => lod_operand = true,
                        ("TEX" | "TLD", "LZ") => {}
                        ("TLD", "AOFFI") => offsets = true,
                        ("TLD4", "R") => t.kind = TexKind::Tld4(0),
                        ("TLD4", "G") => t.kind = TexKind::Tld4(1),
                        ("TLD4", "B") => t.kind = TexKind::Tld4(2),
                        ("TLD4", "A") => t.kind = TexKind::Tld4(3),
                        _ => return Err(self.unsupported()),
                    }
                }
                // The LOD mode is always explicit in compute code (LL or LZ).
                let lod_mode = mods.iter().any(|m| matches!(*m, "LL" | "LZ"));
                if base == "TLD4" && !matches!(t.kind, TexKind::Tld4(_))
                    || base != "TLD4" && !lod_mode
                {
                    return Err(self.unsupported());
                }
                t.int_coords = base == "TLD";
                let (ops, p) = self.pred_first(ops)?;
                nonresident = p;
                let (ops, mask) = self.dims_and_mask(ops, &mut t)?;
                // Dhi, Dlo, Ra, [Rb], handle, 0x0.
                let rb = lod_operand || offsets;
                self.want(ops, 5 + usize::from(rb))?;
                let (dhi, dlo, ra) = (self.rdst(ops[0])?, self.rdst(ops[1])?, self.rsrc(ops[2])?);
                let rb = if rb { Some(self.rsrc(ops[3])?) } else { None };
                t.handle = reg(self.rsrc(ops[ops.len() - 2])?);
                self.slot_zero(ops[ops.len() - 1])?;
                let dims = t.geom.dims();
                if base == "TLD4" && t.geom != Geom::D2 {
                    return Err(self.err("TLD4 on other than 2D textures is not modelled"));
                }
                for k in 0..dims {
                    t.coords[k] = reg(self.group(ra, k as u16));
                }
                if offsets {
                    // The texel is Ra + offset: the PTX form reads the sums from the scratch
                    // slots the executor fills (see `SOp::Tex`).
                    aoffi = rb.map(|r| (r, ra, dims as u8));
                    for k in 0..dims {
                        t.coords[k] = reg(self.s.wide + k as u16);
                    }
                } else if lod_operand {
                    t.lod = rb.map(reg);
                }
                t.d = self.channels(dlo, dhi, mask, 4)?;
            }
            "TXQ" => {
                self.no_mods(mods, &["NODEP"])?;
                self.want(ops, 7)?;
                let (dhi, dlo) = (self.rdst(ops[0])?, self.rdst(ops[1])?);
                // ops[2]: the mip level the query is for; arrays here have one level.
                self.rsrc(ops[2])?;
                if ops[3] != "TEX_HEADER_DIMENSION" {
                    return Err(self.err(format!(
                        "TXQ query '{}' is not modelled (only TEX_HEADER_DIMENSION: width, height, depth)",
                        ops[3]
                    )));
                }
                t.handle = reg(self.rsrc(ops[4])?);
                self.slot_zero(ops[5])?;
                let mask = self.imm(ops[6], ImmKind::Int)?;
                let q = match mask {
                    0x1 => TxqQuery::Width,
                    0x2 => TxqQuery::Height,
                    0x4 => TxqQuery::Depth,
                    0x8 => TxqQuery::NumMipmapLevels,
                    _ => {
                        return Err(self.err(format!(
                            "TXQ TEX_HEADER_DIMENSION with mask {mask:#x}: only one of width (0x1), height (0x2), depth (0x4), levels (0x8) at a time is decoded"
                        )))
                    }
                };
                t.kind = TexKind::Txq(q);
                t.geom = Geom::D1;
                let _ = dhi;
                t.d = vec![(dlo != self.s.sink).then_some(u32::from(dlo))];
            }
            "SULD" | "SUST" => {
                let mut clamp = SurfClamp::Clamp;
                let mut regs = 1u16;
                let (mut raw, mut ba) = (false, false);
                let mut geom = None;
                for m in mods {
                    match *m {
                        "D" => raw = true,
                        "P" => raw = false,
                        "BA" => ba = true,
                        "1D" => geom = Some(Geom::D1),
                        "2D" => geom = Some(Geom::D2),
                        "3D" => geom = Some(Geom::D3),
                        "U8" => t.elem_bytes = 1,
                        "U16" => t.elem_bytes = 2,
                        "32" => {}
                        "64" => regs = 2,
                        "128" => regs = 4,
                        "STRONG" | "WEAK" | "SM" | "CTA" | "GPU" | "SYS" => {}
                        "IGN" => clamp = SurfClamp::Zero,
                        "TRAP" => clamp = SurfClamp::Trap,
                        _ => return Err(self.unsupported()),
                    }
                }
                if !raw || !ba {
                    return Err(self.err(format!(
                        "'{}': only unformatted, byte-addressed surface accesses (.D.BA, PTX suld.b/sust.b) are modelled",
                        self.opcode
                    )));
                }
                let Some(geom) = geom else {
                    return Err(self.err(format!(
                        "'{}': layered surfaces (ARRAY_1D, ARRAY_2D) are not modelled; 1D, 2D or 3D expected",
                        self.opcode
                    )));
                };
                if t.elem_bytes < 4 && regs > 1 {
                    return Err(self.unsupported());
                }
                t.geom = geom;
                t.int_coords = true;
                self.want(ops, 4)?;
                let (coord_t, data_t) = if base == "SULD" {
                    (ops[1], ops[0])
                } else {
                    (ops[0], ops[1])
                };
                let ra = self.bracketed(coord_t)?;
                for k in 0..geom.dims() {
                    t.coords[k] = reg(self.group(ra, k as u16));
                }
                t.handle = reg(self.rsrc(ops[2])?);
                self.slot_zero(ops[3])?;
                if base == "SULD" {
                    t.kind = TexKind::Suld(clamp);
                    let d = self.rdst(data_t)?;
                    self.aligned(d, regs, data_t)?;
                    t.d = (0..regs)
                        .map(|k| (d != self.s.sink).then(|| u32::from(d + k)))
                        .collect();
                } else {
                    t.kind = TexKind::Sust(clamp);
                    let s = self.rsrc(data_t)?;
                    self.aligned(s, regs, data_t)?;
                    t.s = (0..regs).map(|k| reg(self.group(s, k))).collect();
                }
            }
            _ => return Err(self.unsupported()),
        }
        Ok((
            SOp::Tex { aoffi, nonresident },
            Some(Inst {
                op: Op::Tex(Box::new(t)),
                guard: None,
            }),
        ))
    }

    /// Refuses the driver's texture descriptor table, which ptxas reads for the `txq` queries
    /// `TXQ` does not answer (see the module docs).
    pub(super) fn texture_descriptor_table(&self, text: &str) -> R<()> {
        if text.contains(".nv.unified.texrefDescSize") {
            return Err(self.err(
                "this reads the driver's texture descriptor table (.nv.unified.texrefDescSize, c[0x0][0xf0]): ptxas's form of txq.channel_data_type, .channel_order, .normalized_coords, .filter_mode, .addr_mode_N, .num_mipmap_levels, .array_size, .num_samples, which gpumemsim does not model (txq.width, .height and .depth are TXQ and run)",
            ));
        }
        Ok(())
    }

    /// A sparse fetch's leading predicate destination, if any: the rest and its slot (the sink
    /// when there is none).
    fn pred_first<'o>(&self, ops: &'o [&'o str]) -> R<(&'o [&'o str], u8)> {
        match ops.first() {
            Some(p) if p.starts_with('P') || p.starts_with("UP") => Ok((&ops[1..], self.pdst(p)?)),
            _ => Ok((ops, PSINK)),
        }
    }

    /// Takes the trailing `DIM[, mask]` off a fetch's operands, setting the geometry; returns
    /// the rest and the channel mask (0xf without one).
    fn dims_and_mask<'o>(&self, ops: &'o [&'o str], t: &mut TexInst) -> R<(&'o [&'o str], u32)> {
        let geom = |d: &str| -> R<Option<Geom>> {
            Ok(Some(match d {
                "1D" => Geom::D1,
                "2D" => Geom::D2,
                "3D" => Geom::D3,
                "ARRAY_1D" | "ARRAY_2D" | "CUBE" | "ARRAY_CUBE" | "ARRAY_3D" => {
                    return Err(self.err(format!(
                        "'{}': {d} textures (layered, cube maps) are not modelled",
                        self.opcode
                    )))
                }
                _ => return Ok(None),
            }))
        };
        let n = ops.len();
        if n >= 2 {
            if let Some(g) = geom(ops[n - 2])? {
                t.geom = g;
                let mask = self.imm(ops[n - 1], ImmKind::Int)?;
                if mask == 0 || mask > 0xf {
                    return Err(self.err(format!("bad channel mask '{}'", ops[n - 1])));
                }
                return Ok((&ops[..n - 2], mask));
            }
        }
        match ops.last().map(|d| geom(d)).transpose()?.flatten() {
            Some(g) => {
                t.geom = g;
                Ok((&ops[..n - 1], 0xf))
            }
            None => Err(self.err(format!(
                "'{}' without a texture dimension (1D, 2D, 3D) as its last operands",
                self.opcode
            ))),
        }
    }

    /// The destinations of the four result channels: those `mask` selects, in order, go to
    /// `lo`, `lo+1`, `hi`, `hi+1`; `RZ` drops them.
    fn channels(&self, lo: u16, hi: u16, mask: u32, n: usize) -> R<Vec<Option<u32>>> {
        let mut d = vec![None; n];
        let mut k = 0u16;
        for (c, slot) in d.iter_mut().enumerate() {
            if mask >> c & 1 == 0 {
                continue;
            }
            let (r, i) = if k < 2 { (lo, k) } else { (hi, k - 2) };
            k += 1;
            if r == self.s.sink {
                continue;
            }
            if r + i >= self.s.nr {
                return Err(self.err("a texture destination register group runs past R254"));
            }
            *slot = Some(u32::from(r + i));
        }
        Ok(d)
    }

    /// Register `k` of the group starting at `r` (`RZ`: every one reads 0).
    fn group(&self, r: u16, k: u16) -> u16 {
        if r == self.s.zero {
            r
        } else {
            r + k
        }
    }

    /// `[R2]`: the first coordinate register of a surface access.
    fn bracketed(&self, t: &str) -> R<u16> {
        let inner = t
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .ok_or_else(|| self.err(format!("expected [coordinates], found '{t}'")))?;
        self.rsrc(inner.trim())
    }

    /// The `0x0` after the handle (the texture slot of bound textures; 0 for objects).
    fn slot_zero(&self, t: &str) -> R<()> {
        if self.imm(t, ImmKind::Int)? != 0 {
            return Err(self.err(format!(
                "'{}' with texture slot {t}: only texture and surface objects (slot 0x0) are modelled",
                self.opcode
            )));
        }
        Ok(())
    }

    /// A group of `n` registers from `r` must be aligned to `n` and inside the register file.
    fn aligned(&self, r: u16, n: u16, t: &str) -> R<()> {
        if r == self.s.zero || r == self.s.sink {
            return Ok(());
        }
        if !r.is_multiple_of(n) || r + n > self.s.nr {
            return Err(self.err(format!(
                "register '{t}' is not aligned to its {n}-register group"
            )));
        }
        Ok(())
    }
}
