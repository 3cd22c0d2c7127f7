//! Lowering of the texture and surface instructions (PTX ISA 9.7.10 `tex`, `tld4`, `txq`;
//! 9.7.11 `suld`, `sust`) to [`TexInst`]. Forms gpumemsim does not run (explicit samplers,
//! `tex.grad`, offsets, depth compare, `.f16` results, formatted `suld.p`/`sust.p`, `txq.level`)
//! are refused here with their line and column, which sets the kernel aside.

use super::*;
use crate::ir::tex::{Geom, SurfClamp, TexDtype, TexInst, TexKind, TxqQuery};

impl KernelBuilder<'_> {
    /// A texture or surface instruction; `i.opcode` is one of tex, tld4, txq, suld, sust.
    pub(super) fn tex_op(
        &self,
        i: &ast::Instruction,
        frame: &Frame,
        mods: &[&str],
    ) -> Result<Op, PtxError> {
        let span = i.span;
        let full = format!("{}.{}", i.opcode, mods.join("."));
        let unsupported = |what: &str| -> PtxError {
            self.error(
                span,
                format!("unsupported instruction '{full}': {what} not supported yet"),
            )
        };
        let ops = &i.operands;
        let geom = mods
            .iter()
            .find_map(|m| Geom::from_mod(m))
            .unwrap_or(Geom::D1);
        if mods
            .iter()
            .any(|m| matches!(*m, "cube" | "acube" | "2dms" | "a2dms"))
        {
            return Err(unsupported("cube-map and multisample textures are"));
        }
        let types: Vec<ScalarType> = mods
            .iter()
            .filter_map(|m| ScalarType::from_suffix(m))
            .collect();
        let reference = |k: usize| -> Result<&Vec<Operand>, PtxError> {
            match ops.get(k) {
                Some(Operand::TexRef(v)) => Ok(v),
                Some(o) => self.err(
                    span,
                    format!(
                        "'{}' needs a texture or surface reference [handle, {{coordinates}}], found {}",
                        i.opcode,
                        describe(o)
                    ),
                ),
                None => self.err(span, format!("'{}' is missing its operands", i.opcode)),
            }
        };
        let vector = |o: &Operand| -> Vec<Operand> {
            match o {
                Operand::Vector(v) => v.clone(),
                o => vec![o.clone()],
            }
        };
        let dests = |o: &Operand| -> Result<Vec<Option<Reg>>, PtxError> {
            vector(o)
                .iter()
                .map(|d| match d {
                    Operand::Name(n) if n == "_" => Ok(None),
                    d => self.dst(frame, d, span).map(Some),
                })
                .collect()
        };
        let coords_of = |v: &[Operand], cty: ScalarType| -> Result<[Src; 4], PtxError> {
            let mut c = [Src::Imm(0); 4];
            if v.len() > 4 {
                return self.err(span, "more than four coordinates");
            }
            for (k, o) in v.iter().enumerate() {
                c[k] = self.src(frame, o, cty, span)?;
            }
            Ok(c)
        };
        let handle_of = |o: &Operand| self.src(frame, o, ScalarType::U64, span);
        let mut t = TexInst {
            kind: TexKind::Tex,
            geom,
            dtype: TexDtype::F32,
            int_coords: false,
            handle: Src::Imm(0),
            coords: [Src::Imm(0); 4],
            lod: None,
            d: Vec::new(),
            s: Vec::new(),
            elem_bytes: 4,
            pred: None,
        };
        match i.opcode.as_str() {
            "tex" | "tld4" => {
                if i.opcode == "tex" && mods.contains(&"grad") {
                    return Err(unsupported("tex.grad (tex2DGrad) is"));
                }
                if i.opcode == "tex" && mods.contains(&"base") {
                    return Err(unsupported("tex.base (mipmap base level) is"));
                }
                if i.opcode == "tld4" {
                    let comp = match mods.first() {
                        Some(&"r") => 0,
                        Some(&"g") => 1,
                        Some(&"b") => 2,
                        Some(&"a") => 3,
                        _ => return self.err(span, "tld4 needs a component: .r, .g, .b or .a"),
                    };
                    t.kind = TexKind::Tld4(comp);
                    if geom != Geom::D2 {
                        return Err(unsupported("tld4 on other than .2d textures is"));
                    }
                }
                let [dt, ct] = types[..] else {
                    return self.err(
                        span,
                        format!(
                            "'{}' needs a destination and a coordinate type (.v4.f32.f32)",
                            i.opcode
                        ),
                    );
                };
                t.dtype = match dt {
                    ScalarType::F32 => TexDtype::F32,
                    ScalarType::S32 => TexDtype::S32,
                    ScalarType::U32 => TexDtype::U32,
                    _ => {
                        return Err(unsupported(
                            &format!(".{dt:?} texture results are").to_lowercase(),
                        ))
                    }
                };
                t.int_coords = match ct {
                    ScalarType::F32 => false,
                    ScalarType::S32 => true,
                    _ => return self.err(span, "texture coordinates are .f32 or .s32"),
                };
                let (d, pred) = match ops.first() {
                    Some(Operand::Pair(a, p)) => (
                        vec![Some(self.dst(frame, &Operand::Name(a.clone()), span)?)],
                        Some(self.pred_reg(frame, p, span)?),
                    ),
                    Some(Operand::VectorPair(v, p)) => (
                        dests(&Operand::Vector(v.clone()))?,
                        Some(self.pred_reg(frame, p, span)?),
                    ),
                    Some(o) => (dests(o)?, None),
                    None => return self.err(span, format!("'{}' needs operands", i.opcode)),
                };
                if d.len() != 4 {
                    return Err(unsupported(
                        "texture fetches into other than four registers are",
                    ));
                }
                t.d = d;
                t.pred = pred;
                let r = reference(1)?;
                if r.len() != 2 {
                    return Err(unsupported(
                        "independent texture and sampler references are",
                    ));
                }
                t.handle = handle_of(&r[0])?;
                let c = vector(&r[1]);
                let need = geom.dims() + usize::from(geom.layered());
                if c.len() < need {
                    return self.err(
                        span,
                        format!(
                            "a .{} fetch needs {need} coordinates, found {}",
                            mods.iter()
                                .find(|m| Geom::from_mod(m).is_some())
                                .unwrap_or(&"1d"),
                            c.len()
                        ),
                    );
                }
                let cty = if t.int_coords {
                    ScalarType::S32
                } else {
                    ScalarType::F32
                };
                t.coords = coords_of(&c, cty)?;
                if geom.layered() {
                    // The layer index is an integer in either coordinate type.
                    t.coords[0] = self.src(frame, &c[0], ScalarType::S32, span)?;
                    return Err(unsupported("layered textures (.a1d, .a2d) are"));
                }
                let level = mods.contains(&"level");
                match (level, ops.len()) {
                    (true, 3) => t.lod = Some(self.src(frame, &ops[2], ScalarType::F32, span)?),
                    (false, 2) => {}
                    _ => return Err(unsupported("texture offsets and depth compare are")),
                }
            }
            "txq" => {
                if mods.first() == Some(&"level") {
                    return Err(unsupported("txq.level is"));
                }
                let q = match mods.first().copied().unwrap_or("") {
                    "width" => TxqQuery::Width,
                    "height" => TxqQuery::Height,
                    "depth" => TxqQuery::Depth,
                    "channel_data_type" => TxqQuery::ChannelDataType,
                    "channel_order" => TxqQuery::ChannelOrder,
                    "normalized_coords" => TxqQuery::NormalizedCoords,
                    "filter_mode" => TxqQuery::FilterMode,
                    "addr_mode_0" => TxqQuery::AddrMode(0),
                    "addr_mode_1" => TxqQuery::AddrMode(1),
                    "addr_mode_2" => TxqQuery::AddrMode(2),
                    "array_size" => TxqQuery::ArraySize,
                    "num_mipmap_levels" => TxqQuery::NumMipmapLevels,
                    "num_samples" => TxqQuery::NumSamples,
                    "force_unnormalized_coords" => {
                        return Err(unsupported("txq.force_unnormalized_coords (samplers) is"))
                    }
                    q => return self.err(span, format!("unknown txq query '.{q}'")),
                };
                t.kind = TexKind::Txq(q);
                if ops.len() != 2 {
                    return self.err(span, "txq needs a destination and [handle]");
                }
                t.d = vec![Some(self.dst(frame, &ops[0], span)?)];
                t.handle = match &ops[1] {
                    Operand::Address(Some(n), 0) => handle_of(&Operand::Name(n.clone()))?,
                    o => {
                        return self.err(span, format!("txq needs [handle], found {}", describe(o)))
                    }
                };
            }
            "suld" | "sust" => {
                if mods.first() == Some(&"p") {
                    return Err(unsupported(
                        "formatted surface accesses (suld.p, sust.p) are",
                    ));
                }
                if mods.first() != Some(&"b") {
                    return self.err(span, format!("'{}' needs .b (unformatted)", i.opcode));
                }
                let clamp = match mods.last() {
                    Some(&"trap") => SurfClamp::Trap,
                    Some(&"clamp") => SurfClamp::Clamp,
                    Some(&"zero") => SurfClamp::Zero,
                    _ => {
                        return self
                            .err(span, format!("'{}' needs .trap, .clamp or .zero", i.opcode))
                    }
                };
                let Some(&ety) = types.first() else {
                    return self.err(span, format!("'{}' needs an element type (.b32)", i.opcode));
                };
                if !matches!(ety.bits(), 8 | 16 | 32 | 64) {
                    return self.err(span, "surface elements are .b8, .b16, .b32 or .b64");
                }
                t.elem_bytes = (ety.bits() / 8) as u8;
                t.int_coords = true;
                if geom.layered() {
                    return Err(unsupported("layered surfaces (.a1d, .a2d) are"));
                }
                let (r, data) = if i.opcode == "suld" {
                    t.kind = TexKind::Suld(clamp);
                    if ops.len() != 2 {
                        return self.err(
                            span,
                            "suld needs a destination and [surface, {coordinates}]",
                        );
                    }
                    t.d = dests(&ops[0])?;
                    (reference(1)?, None)
                } else {
                    t.kind = TexKind::Sust(clamp);
                    if ops.len() != 2 {
                        return self
                            .err(span, "sust needs [surface, {coordinates}] and the values");
                    }
                    (reference(0)?, Some(&ops[1]))
                };
                if let Some(v) = data {
                    t.s = vector(v)
                        .iter()
                        .map(|o| self.src(frame, o, ety, span))
                        .collect::<Result<_, _>>()?;
                }
                let n = t.d.len().max(t.s.len());
                if !matches!(n, 1 | 2 | 4) || n * t.elem_bytes as usize > 16 {
                    return self.err(
                        span,
                        "a surface vector has 1, 2 or 4 elements of at most 16 bytes together",
                    );
                }
                if r.len() != 2 {
                    return self.err(span, "a surface reference is [surface, {coordinates}]");
                }
                t.handle = handle_of(&r[0])?;
                let c = vector(&r[1]);
                if c.len() < geom.dims() {
                    return self.err(
                        span,
                        format!("a surface access needs {} coordinates", geom.dims()),
                    );
                }
                t.coords = coords_of(&c, ScalarType::S32)?;
            }
            _ => return Err(unsupported("this instruction is")),
        }
        Ok(Op::Tex(Box::new(t)))
    }
}
