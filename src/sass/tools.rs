//! Getting the SASS of a PTX module with nothing but pip packages: `ptxas` from
//! `nvidia-cuda-nvcc` compiles it to an sm_90 cubin, `nvdisasm` from `nvidia-cuda-nvdisasm`
//! disassembles that with the CUDA source line of every instruction.
//!
//! The flags are those of the H200 recordings (`tests/hw/collect.sh`: `ptxas -arch=sm_90 -O3
//! -lineinfo`, which is also what the driver's JIT does with `CU_JIT_GENERATE_LINE_INFO`).
//! `-lineinfo` does not change the machine code: without it ptxas 13.0.88 gives byte-identical
//! SASS for all 20 committed modules (checked with `nvdisasm` on both cubins, 2026-12-01). The
//! SASS of the committed PTX made here is the one the H200's `cuobjdump -sass` shows in
//! `tests/hw/h200/hw/logs/*.sass` (same instructions; nvdisasm prints branch targets as labels).
//!
//! Results are cached by the SHA-256 of the PTX text in `$GPUMEMSIM_CACHE` (default
//! `$XDG_CACHE_HOME/gpumemsim` or `~/.cache/gpumemsim`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use sha2::{Digest, Sha256};

use super::{COOP_GROUP_TAG, KERNEL_TAG, PTX_HASH_TAG};

/// The pip package versions the committed SASS was made with.
pub const PTXAS_PACKAGE: &str = "nvidia-cuda-nvcc==13.0.88";
/// The pip package of `nvdisasm`.
pub const NVDISASM_PACKAGE: &str = "nvidia-cuda-nvdisasm==13.2.86";

/// Bumped when what [`compile`] writes changes, so older cache entries are not reused.
const CACHE_FORMAT: &str = "v3";

/// Why the SASS could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The tool is not installed.
    #[error("{tool} not found: install it with `pip install {package}` (or set {var})")]
    Missing {
        /// Tool name.
        tool: &'static str,
        /// The pip package that provides it.
        package: &'static str,
        /// The environment variable that names it.
        var: &'static str,
    },
    /// The tool ran and failed.
    #[error("{tool} failed: {log}")]
    Failed {
        /// Tool name.
        tool: &'static str,
        /// Its output.
        log: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// Path.
        path: String,
        /// Why.
        message: String,
    },
}

fn io(p: &Path, e: std::io::Error) -> ToolError {
    ToolError::Io {
        path: p.display().to_string(),
        message: e.to_string(),
    }
}

/// Finds `ptxas` or `nvdisasm`: `$GPUMEMSIM_PTXAS`/`$GPUMEMSIM_NVDISASM` (when set, it must name
/// the file), `$CUDA_HOME/bin`,
/// the pip package (`<site-packages>/nvidia/cu13/bin`), then `PATH`.
pub fn find(tool: &'static str) -> Result<PathBuf, ToolError> {
    let (var, package) = match tool {
        "ptxas" => ("GPUMEMSIM_PTXAS", PTXAS_PACKAGE),
        _ => ("GPUMEMSIM_NVDISASM", NVDISASM_PACKAGE),
    };
    if let Some(p) = std::env::var_os(var).filter(|v| !v.is_empty()) {
        // The variable decides: a path that is no file is a missing tool, not a reason to
        // look elsewhere.
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(ToolError::Missing { tool, package, var })
        };
    }
    let mut dirs: Vec<PathBuf> = Vec::new();
    for v in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(p) = std::env::var_os(v).filter(|v| !v.is_empty()) {
            dirs.push(PathBuf::from(p).join("bin"));
        }
    }
    for sp in crate::frontend::nvrtc::site_packages() {
        dirs.push(sp.join("nvidia/cu13/bin"));
    }
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter()
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
        .ok_or(ToolError::Missing { tool, package, var })
}

fn run(tool: &'static str, cmd: &mut Command) -> Result<String, ToolError> {
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| ToolError::Failed {
            tool,
            log: e.to_string(),
        })?;
    let mut log = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(ToolError::Failed {
            tool,
            log: format!("{log}{err}"),
        });
    }
    log.push_str(&err);
    Ok(log)
}

/// The SHA-256 of a PTX text, as the `.sass` header records it.
pub fn ptx_hash(ptx: &str) -> String {
    let d = Sha256::digest(ptx.as_bytes());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// What ptxas -v said per kernel: (name, registers, stack frame).
fn ptxas_resources(log: &str) -> Vec<(String, u32, u32)> {
    let mut out: Vec<(String, u32, u32)> = Vec::new();
    let num_before = |l: &str, word: &str| -> Option<u32> {
        let i = l.find(word)?;
        l[..i].split_whitespace().last()?.parse().ok()
    };
    for l in log.lines() {
        if let Some(rest) = l.split("Compiling entry function '").nth(1) {
            if let Some(name) = rest.split('\'').next() {
                out.push((name.to_string(), 0, 0));
            }
        } else if let Some(k) = out.last_mut() {
            if l.contains("bytes stack frame") {
                k.2 = num_before(l, "bytes stack frame").unwrap_or(0);
            }
            if l.contains("Used ") && l.contains(" registers") {
                k.1 = num_before(l, "registers").unwrap_or(0);
            }
        }
    }
    out
}

fn cache_dir() -> PathBuf {
    if let Some(p) = std::env::var_os("GPUMEMSIM_CACHE").filter(|v| !v.is_empty()) {
        return PathBuf::from(p);
    }
    if let Some(p) = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(p).join("gpumemsim");
    }
    match std::env::var_os("HOME") {
        Some(h) => PathBuf::from(h).join(".cache/gpumemsim"),
        None => std::env::temp_dir().join("gpumemsim-cache"),
    }
}

/// nvdisasm's output with only the code and constant-bank sections (the rest, ELF notes and
/// `.nv.info` attributes, is not needed to run the kernels).
fn keep_sections(full: &str) -> String {
    let mut out = String::new();
    let mut keep = true;
    for line in full.lines() {
        if let Some(rest) = line.strip_prefix("//---------------------") {
            let name = rest.trim().trim_end_matches('-').trim();
            keep = name.starts_with(".text.") || name.starts_with(".nv.constant");
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Per kernel, the instructions ptxas lists in the cubin's `EIATTR_COOP_GROUP_INSTR_OFFSETS`
/// with the words of `EIATTR_COOP_GROUP_MASK_REGIDS` at the same index (nvdisasm prints both in
/// the kernel's `.nv.info.KERNEL` section): (kernel, [(byte offset, mask word)]). See
/// [`super::COOP_GROUP_TAG`] for what they are.
fn coop_group_sites(full: &str) -> Vec<(String, Vec<(u32, u32)>)> {
    let mut out: Vec<(String, Vec<u32>, Vec<u32>)> = Vec::new();
    let mut attr = "";
    let mut in_info = false;
    for line in full.lines() {
        let t = line.trim();
        if let Some(rest) = t
            .strip_prefix(".section")
            .filter(|r| r.starts_with(char::is_whitespace))
        {
            let name = rest.trim().split(',').next().unwrap_or("");
            in_info = false;
            attr = "";
            if let Some(k) = name.strip_prefix(".nv.info.") {
                in_info = true;
                out.push((k.to_string(), Vec::new(), Vec::new()));
            }
        } else if let Some(a) = t.strip_prefix("//----- nvinfo :") {
            attr = match a.trim() {
                "EIATTR_COOP_GROUP_INSTR_OFFSETS" => "offsets",
                "EIATTR_COOP_GROUP_MASK_REGIDS" => "masks",
                _ => "",
            };
        } else if in_info && !attr.is_empty() {
            // `/*005c*/ 	.word	0x000000b0`
            let mut w = t.split_whitespace().skip(1);
            if let (Some(".word"), Some(v)) = (w.next(), w.next()) {
                if let (Some(k), Ok(v)) = (
                    out.last_mut(),
                    u32::from_str_radix(v.trim_start_matches("0x"), 16),
                ) {
                    if attr == "offsets" {
                        k.1.push(v);
                    } else {
                        k.2.push(v);
                    }
                }
            }
        }
    }
    out.into_iter()
        .filter(|k| !k.1.is_empty())
        .map(|(name, offs, masks)| {
            let sites = offs
                .iter()
                .enumerate()
                .map(|(i, o)| (*o, masks.get(i).copied().unwrap_or(u32::MAX)))
                .collect();
            (name, sites)
        })
        .collect()
}

/// A cubin and the `.sass` text of a PTX module.
pub struct Compiled {
    /// The sm_90 cubin ptxas made.
    pub cubin: Vec<u8>,
    /// nvdisasm's text with gpumemsim's header.
    pub sass: String,
}

/// Compiles `ptx` with ptxas and disassembles it (cached by the PTX's SHA-256).
pub fn compile(ptx: &str) -> Result<Compiled, ToolError> {
    let hash = ptx_hash(ptx);
    let dir = cache_dir();
    let (cubin_p, sass_p) = (
        dir.join(format!("{hash}-{CACHE_FORMAT}.cubin")),
        dir.join(format!("{hash}-{CACHE_FORMAT}.sass")),
    );
    if let (Ok(cubin), Ok(sass)) = (std::fs::read(&cubin_p), std::fs::read_to_string(&sass_p)) {
        return Ok(Compiled { cubin, sass });
    }
    let ptxas = find("ptxas")?;
    let nvdisasm = find("nvdisasm")?;
    std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
    let tmp = dir.join(format!("{hash}.{}.tmp", std::process::id()));
    std::fs::create_dir_all(&tmp).map_err(|e| io(&tmp, e))?;
    let result = (|| {
        let input = tmp.join("in.ptx");
        let cubin_tmp = tmp.join("out.cubin");
        std::fs::write(&input, ptx).map_err(|e| io(&input, e))?;
        let log = run(
            "ptxas",
            Command::new(&ptxas)
                .args(["-arch=sm_90", "-O3", "-lineinfo", "-v"])
                .arg(&input)
                .arg("-o")
                .arg(&cubin_tmp),
        )?;
        let full = run(
            "nvdisasm",
            Command::new(&nvdisasm)
                .arg("--print-line-info")
                .arg(&cubin_tmp),
        )?;
        let text = keep_sections(&full);
        let version = |p: &Path| -> String {
            run("version", Command::new(p).arg("--version"))
                .ok()
                .and_then(|v| {
                    v.lines()
                        .rev()
                        .find(|l| l.contains("release"))
                        .map(|l| l.trim().to_string())
                })
                .unwrap_or_default()
        };
        let mut sass = String::new();
        sass.push_str(&format!(
            "// gpumemsim: sm_90 SASS of the PTX whose SHA-256 follows: ptxas -arch=sm_90 -O3 -lineinfo ({}; {}), nvdisasm --print-line-info ({}; {})\n",
            PTXAS_PACKAGE,
            version(&ptxas),
            NVDISASM_PACKAGE,
            version(&nvdisasm)
        ));
        sass.push_str(&format!("{PTX_HASH_TAG}{hash}\n"));
        for (name, regs, frame) in ptxas_resources(&log) {
            sass.push_str(&format!(
                "{KERNEL_TAG}{name} registers={regs} stack_frame={frame}\n"
            ));
        }
        for (name, sites) in coop_group_sites(&full) {
            let list: Vec<String> = sites
                .iter()
                .map(|(o, m)| format!("{o:#x}={m:#010x}"))
                .collect();
            sass.push_str(&format!("{COOP_GROUP_TAG}{name} {}\n", list.join(" ")));
        }
        sass.push_str("//\n");
        sass.push_str(&text);
        let cubin = std::fs::read(&cubin_tmp).map_err(|e| io(&cubin_tmp, e))?;
        Ok(Compiled { cubin, sass })
    })();
    let _ = std::fs::remove_dir_all(&tmp);
    let c = result?;
    // Best effort: a cache that cannot be written is only slower.
    let _ = std::fs::write(&cubin_p, &c.cubin);
    let _ = std::fs::write(&sass_p, &c.sass);
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::coop_group_sites;

    #[test]
    fn coop_group_sites_pairs_offsets_with_mask_words() {
        // nvdisasm 13.2.86 of syncwarp_bad_mask's cubin (abridged), with a second site.
        let text = "\t.section\t.nv.info._Z9half_maskPi,\"\",@\"SHT_CUDA_INFO\"\n\
                    \t.sectionflags\t@\"\"\n\
                    \t//----- nvinfo : EIATTR_COOP_GROUP_MASK_REGIDS\n\
                    \t.align\t\t4\n\
                    \x20       /*0024*/ \t.byte\t0x04, 0x29\n\
                    \x20       /*0028*/ \t.word\t0x05000003\n\
                    \x20       /*002c*/ \t.word\t0xffffffff\n\
                    \t//----- nvinfo : EIATTR_COOP_GROUP_INSTR_OFFSETS\n\
                    \x20       /*0030*/ \t.word\t0x000000b0\n\
                    \x20       /*0034*/ \t.word\t0x00000120\n\
                    \t//----- nvinfo : EIATTR_EXIT_INSTR_OFFSETS\n\
                    \x20       /*0038*/ \t.word\t0x00000100\n\
                    \t.section\t.text._Z9half_maskPi,\"ax\",@progbits\n";
        assert_eq!(
            coop_group_sites(text),
            [(
                "_Z9half_maskPi".to_string(),
                vec![(0xb0, 0x0500_0003), (0x120, 0xffff_ffff)]
            )]
        );
    }
}
