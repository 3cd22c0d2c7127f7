//! Texture and surface instructions on the SIMT core: reads each executing lane's handle and
//! coordinates, lets the texture unit ([`crate::tex::TexState`]) compute the result, writes
//! the destinations and tells the observer which texels each lane touched
//! ([`Observer::tex`]). Every rule of what a fetch returns lives in [`crate::tex`].

use super::*;
use crate::ir::tex::{TexDtype, TexInst, TexKind};
use crate::tex::event::{Geometry, ResourceKind, TexLane, TexOp, TexRequest};

const EMPTY_LANE: TexLane = TexLane {
    lane: 0,
    handle: 0,
    geometry: Geometry {
        kind: ResourceKind::Linear,
        base: 0,
        pitch: 0,
        width: 0,
        height: 0,
        depth: 0,
        texel_bytes: 0,
        channels: 0,
    },
    n: 0,
    linear: false,
    texels: [[0; 3]; 8],
};

impl<O: Observer> Ctx<'_, '_, O> {
    /// Runs one texture or surface instruction for the lanes in `e`.
    pub(super) fn tex(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        t: &TexInst,
        e: u32,
        pc: u32,
    ) -> Result<(), Fault> {
        self.tex_lanes.clear();
        let mut op = match t.kind {
            TexKind::Tex => TexOp::Tex,
            TexKind::Tld4(_) => TexOp::Tld4,
            TexKind::Txq(_) => TexOp::Txq,
            TexKind::Suld(_) => TexOp::Suld,
            TexKind::Sust(_) => TexOp::Sust,
        };
        let width = match t.kind {
            TexKind::Suld(_) | TexKind::Sust(_) => {
                u32::from(t.elem_bytes) * t.d.len().max(t.s.len()) as u32
            }
            TexKind::Txq(_) => 4,
            _ => 16,
        };
        for l in lanes(e) {
            let fault = |detail: String| (FaultKind::Texture { detail }, pc, w.id * 32 + l as u32);
            let handle = self.val(w, mem, t.handle, l);
            let mut c = [0u32; 4];
            for (k, s) in t.coords.iter().enumerate() {
                c[k] = self.val(w, mem, *s, l) as u32;
            }
            let mut lane = EMPTY_LANE;
            lane.lane = l as u8;
            match t.kind {
                TexKind::Suld(clamp) | TexKind::Sust(clamp) => {
                    let size = u32::from(t.elem_bytes) * t.d.len().max(t.s.len()) as u32;
                    let mut buf = [0u8; 32];
                    let store = matches!(t.kind, TexKind::Sust(_));
                    if store {
                        for (k, s) in t.s.iter().enumerate() {
                            let v = self.val(w, mem, *s, l);
                            let n = t.elem_bytes as usize;
                            buf[k * n..k * n + n].copy_from_slice(&v.to_le_bytes()[..n]);
                        }
                    }
                    let coords = [c[0] as i32, c[1] as i32, c[2] as i32];
                    let mut out = [0u8; 32];
                    self.l
                        .textures
                        .surface(
                            handle,
                            t.geom,
                            clamp,
                            coords,
                            size,
                            store.then_some(&buf[..size as usize]),
                            &mut out,
                            &mut lane,
                        )
                        .map_err(|f| fault(f.to_string()))?;
                    if !store {
                        let n = t.elem_bytes as usize;
                        for (k, d) in t.d.iter().enumerate() {
                            if let Some(d) = d {
                                let mut b = [0u8; 8];
                                b[..n].copy_from_slice(&out[k * n..k * n + n]);
                                w.reg_mut(*d)[l] = u64::from_le_bytes(b);
                            }
                        }
                    }
                }
                _ => {
                    let lod = t.lod.map(|s| f32::from_bits(self.val(w, mem, s, l) as u32));
                    let r = self
                        .l
                        .textures
                        .fetch(
                            self.l.global,
                            t.kind,
                            t.geom,
                            t.int_coords,
                            handle,
                            c,
                            lod,
                            &mut lane,
                        )
                        .map_err(|f| fault(f.to_string()))?;
                    if t.int_coords && lane.geometry.kind == ResourceKind::Linear {
                        op = TexOp::Fetch;
                    }
                    for (k, d) in t.d.iter().enumerate() {
                        if let Some(d) = d {
                            w.reg_mut(*d)[l] = u64::from(r[k]);
                        }
                    }
                    let _ = TexDtype::F32;
                }
            }
            self.tex_lanes.push(lane);
        }
        if let Some(p) = t.pred {
            // The texel is always resident: `d|p` sets p in every executing lane.
            w.preds[p as usize] |= e;
        }
        let req = TexRequest {
            warp: w.id,
            pc,
            op,
            width,
            lanes: &self.tex_lanes,
        };
        self.obs.tex(&req);
        Ok(())
    }
}

impl<O: Observer> Ctx<'_, '_, O> {
    /// A SASS texture or surface instruction ([`crate::ir::sass::SOp::Tex`]): the PTX form at
    /// `code[pc]` run by [`Ctx::tex`], after `.AOFFI`'s offsets are added to the integer
    /// coordinates (into the scratch slots that form reads). Like the PTX path, an instruction
    /// whose guard holds in no lane still reaches the observer, with no lanes.
    pub(super) fn sass_tex(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        sc: &crate::ir::sass::SassCode,
        pc: u32,
        e: u32,
        aoffi: Option<(u16, u16, u8)>,
    ) -> Result<(), Fault> {
        if let Some((off, ra, n)) = aoffi {
            for l in lanes(e) {
                let o = w.regs[off as usize * 32 + l] as u32;
                for k in 0..n as usize {
                    let c = if ra == sc.zero {
                        0
                    } else {
                        w.regs[(ra as usize + k) * 32 + l] as u32
                    };
                    // A signed 4-bit field per coordinate, x in bits 0-3.
                    let d = ((o >> (4 * k)) as i32) << 28 >> 28;
                    w.regs[(sc.wide as usize + k) * 32 + l] = u64::from(c.wrapping_add(d as u32));
                }
            }
        }
        let kernel = self.l.kernel;
        let Op::Tex(t) = &kernel.code[pc as usize].op else {
            return Err((
                FaultKind::Unsupported {
                    detail: "a SASS texture instruction without its texture operation".into(),
                },
                pc,
                w.id * 32 + e.trailing_zeros().min(31),
            ));
        };
        self.tex(w, mem, t, e, pc)
    }
}
