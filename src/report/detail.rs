//! The per-launch detail the HTML report draws from, beyond the metrics: the kernel's source
//! files, its PTX instruction by instruction with the source line each belongs to, one
//! representative warp instance per memory instruction ([`sample`](super::sample)), and the
//! inputs of the occupancy calculation (so the occupancy graphs can vary one of them).
//!
//! It is recorded only when asked for (`gpumemsim run --html`), and it is part of the JSON
//! report then (`"detail"`), so the HTML is drawn from the same data the JSON holds.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::sample::{InstSample, Samples, TexSample};
use crate::gpu::occupancy::OccupancyInput;
use crate::ir::{Kernel, Op};
use crate::spec::Spec;

/// What the HTML report needs of one launch beyond its metrics.
#[derive(Clone, Debug, Serialize)]
pub struct LaunchDetail {
    /// The source files the kernel's instructions come from (`.loc`), with their text.
    pub sources: Vec<SourceFile>,
    /// The PTX file the kernel was loaded from.
    pub ptx_file: String,
    /// Every instruction of the kernel, in order.
    pub ptx: Vec<PtxInst>,
    /// One sample per memory instruction that executed (see [`InstSample`]).
    pub samples: Vec<InstSample>,
    /// One sample per texture or surface instruction that executed (see [`TexSample`]).
    pub tex_samples: Vec<TexSample>,
    /// The occupancy calculation's inputs, when ptxas's resource figures are known.
    pub occupancy: Option<OccupancyInput>,
}

/// A source file and its lines.
#[derive(Clone, Debug, Serialize)]
pub struct SourceFile {
    /// The file name, as [`LineReport::file`](super::LineReport::file) names it.
    pub file: String,
    /// Its lines (empty when the file cannot be read).
    pub lines: Vec<String>,
}

/// One PTX instruction.
#[derive(Clone, Debug, Serialize)]
pub struct PtxInst {
    /// 1-based line in the PTX file.
    pub ptx_line: u32,
    /// Source file name (empty without `.loc`).
    pub file: String,
    /// 1-based source line (0 without `.loc`).
    pub line: u32,
    /// The instruction as written.
    pub text: String,
    /// For a load or store: how many PTX accesses it stands for after lowering (more than 1
    /// when the lowering merged consecutive scalar accesses into one vector access, as ptxas
    /// does; see [`crate::ptx::lower`]); 0 otherwise.
    #[serde(skip_serializing_if = "is_zero")]
    pub merged: u32,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

impl LaunchDetail {
    /// Collects the detail of a launch of `kernel` (loaded from `ptx_file`).
    pub fn new(
        spec: &Spec,
        kernel: &Kernel,
        ptx_file: &Path,
        samples: Samples,
        occupancy: Option<&OccupancyInput>,
    ) -> LaunchDetail {
        let mut names: BTreeMap<u32, String> = BTreeMap::new();
        let mut sources = Vec::new();
        for info in &kernel.info {
            if info.src_line == 0 || names.contains_key(&info.src_file) {
                continue;
            }
            let path = kernel
                .files
                .iter()
                .find(|(i, _)| *i == info.src_file)
                .map(|(_, p)| p.clone())
                .unwrap_or_default();
            let name = super::file_name(&path);
            names.insert(info.src_file, name.clone());
            let lines = super::read_source(&path, &spec.dir);
            if !lines.is_empty() && !sources.iter().any(|s: &SourceFile| s.file == name) {
                sources.push(SourceFile { file: name, lines });
            }
        }
        let ptx = kernel
            .info
            .iter()
            .zip(&kernel.code)
            .map(|(i, inst)| PtxInst {
                ptx_line: i.ptx_line,
                file: if i.src_line == 0 {
                    String::new()
                } else {
                    names.get(&i.src_file).cloned().unwrap_or_default()
                },
                line: i.src_line,
                text: i.text.clone(),
                merged: match &inst.op {
                    // A PTX vector access names its width (`.v2`, `.v4`); anything wider than
                    // one element without it was merged by the lowering.
                    Op::Ld { d, .. } if d.len() > 1 && !i.text.contains(".v") => d.len() as u32,
                    Op::St { s, .. } if s.len() > 1 && !i.text.contains(".v") => s.len() as u32,
                    _ => 0,
                },
            })
            .collect();
        LaunchDetail {
            sources,
            ptx_file: super::file_name(&ptx_file.display().to_string()),
            ptx,
            samples: samples.mem,
            tex_samples: samples.tex,
            occupancy: occupancy.cloned(),
        }
    }
}
