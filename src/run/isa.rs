//! Which instruction set a spec's kernels run in, and why.
//!
//! SASS is the default wherever a kernel's sm_90 SASS is obtainable: the `.sass` committed next
//! to the `.ptx` when its header records this PTX's SHA-256, or made by ptxas and nvdisasm from
//! the pip packages ([`crate::sass::tools`]). An H200 runs that machine code, not the PTX, so
//! its instruction counts, spills, fusions and contractions are the hardware's. Otherwise the
//! PTX runs, and the report says why in one line (`isa: PTX (no SASS: ptxas not installed —
//! pip install nvidia-cuda-nvcc==13.0.88)`).
//!
//! Under the default ([`Isa::Auto`]) a module whose SASS cannot be decoded yet (an opcode or
//! modifier gpumemsim does not execute) falls back to its PTX, with the located SASS line as
//! the reason, and so does a spec whose SASS run stops at something the SASS executor does not
//! model ([`crate::run::run_spec`]); `--isa sass` makes either an error instead, and `--isa ptx`
//! runs the PTX.

use crate::run::ptxfile::PtxFile;
use crate::run::RunError;
use crate::runtime::{Device, RuntimeError};
use crate::sass::tools::ToolError;

/// Which instruction set a spec's kernels run in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Isa {
    /// SASS where it is obtainable and decodes, the PTX otherwise (the default).
    #[default]
    Auto,
    /// The PTX.
    Ptx,
    /// The sm_90 SASS ptxas makes of it: the committed `.sass` next to the `.ptx` when it was
    /// made from that PTX, otherwise made with ptxas and nvdisasm ([`crate::sass::tools`]).
    Sass,
}

/// The instruction set that ran and why, as the report shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IsaChoice {
    /// `"sass"` or `"ptx"`.
    pub isa: &'static str,
    /// Where the SASS came from, or why the PTX ran (one line).
    pub reason: String,
}

impl IsaChoice {
    fn ptx(reason: impl Into<String>) -> Self {
        IsaChoice {
            isa: "ptx",
            reason: reason.into(),
        }
    }
}

/// Where a module's SASS text came from.
pub enum SassSource {
    /// The committed `.sass` next to the `.ptx`.
    Committed(String),
    /// Made by ptxas and nvdisasm (or read from their cache); the path is where
    /// `gpumemsim sass` would commit it.
    Made(String),
}

/// The `.sass` text for `ptx`: the file next to it (`X.ptx` → `X.sass`) when its header
/// records this PTX's hash, else compiled and disassembled (cached).
pub fn find_sass(ptx: &PtxFile) -> Result<(String, SassSource), ToolError> {
    let path = ptx.path.with_extension("sass");
    let hash = crate::sass::tools::ptx_hash(&ptx.text);
    if let Ok(text) = std::fs::read_to_string(&path) {
        if crate::sass::header(&text).1.as_deref() == Some(hash.as_str()) {
            return Ok((text, SassSource::Committed(path.display().to_string())));
        }
    }
    let c = crate::sass::tools::compile(&ptx.text)?;
    Ok((c.sass, SassSource::Made(path.display().to_string())))
}

/// Why no SASS could be had, in one line.
fn no_sass(e: &ToolError) -> String {
    match e {
        ToolError::Missing { tool, package, .. } => {
            format!("{tool} not installed — pip install {package}")
        }
        ToolError::Failed { tool, log } => format!(
            "{tool} failed: {}",
            log.lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .trim()
        ),
        ToolError::Io { path, message } => format!("{path}: {message}"),
    }
}

/// Loads the SASS of the module `dev` holds (loaded from `ptx`) as `isa` asks, and says which
/// instruction set the kernels will run.
pub fn load(dev: &mut Device, ptx: &PtxFile, isa: Isa) -> Result<IsaChoice, RunError> {
    if isa == Isa::Ptx {
        return Ok(IsaChoice::ptx("--isa ptx"));
    }
    let (text, source) = match find_sass(ptx) {
        Ok(found) => found,
        Err(e) if isa == Isa::Auto => {
            return Ok(IsaChoice::ptx(format!("no SASS: {}", no_sass(&e))));
        }
        Err(e) => {
            return Err(RunError::NoSass {
                path: ptx.path.with_extension("sass").display().to_string(),
                why: no_sass(&e),
            })
        }
    };
    let (name, reason) = match &source {
        SassSource::Committed(p) => (p.clone(), p.clone()),
        SassSource::Made(p) => (p.clone(), format!("{p}, made by ptxas and nvdisasm")),
    };
    let loaded = if isa == Isa::Auto {
        dev.load_sass_whole(&text, &name)
    } else {
        dev.load_sass(&text, &name)
    };
    match loaded {
        Ok(_) => Ok(IsaChoice {
            isa: "sass",
            reason,
        }),
        Err(RuntimeError::Sass(e)) if isa == Isa::Auto => Ok(IsaChoice::ptx(format!(
            "SASS not run: {}:{}: {}: {}",
            e.file,
            e.line,
            e.message,
            e.text.trim()
        ))),
        Err(e) => Err(e.into()),
    }
}

/// Why the PTX ran after the SASS run stopped at `f`, an unsupported-feature fault (one line).
pub fn rerun_reason(f: &crate::exec::fault::KernelFault) -> String {
    format!(
        "SASS run stopped: {} in {} (block {:?}, thread {:?}) at SASS line {}: {}",
        f.kind,
        f.kernel,
        f.block,
        f.thread,
        f.ptx_line,
        f.ptx_text.trim()
    )
}
