//! A PTX file with gpumemsim's header: the C++-name map and the ptxas resource usage recorded
//! when it was compiled, so that running it later needs no compiler.

use std::path::{Path, PathBuf};

use super::RunError;
use crate::frontend::nvrtc::KernelResources;

const KERNEL_TAG: &str = "// gpumemsim-kernel: ";
const RESOURCES_TAG: &str = "// gpumemsim-resources: ";

/// PTX text with its name map and resource usage.
#[derive(Clone, Debug)]
pub struct PtxFile {
    /// Where it came from (the `.ptx`, or the `.cu` it was compiled from).
    pub path: PathBuf,
    /// The PTX text (header included).
    pub text: String,
    /// (C++ name, PTX entry name).
    pub names: Vec<(String, String)>,
    /// What ptxas reported per kernel.
    pub resources: Vec<KernelResources>,
}

impl PtxFile {
    /// Reads a `.ptx` file and its header.
    pub fn read(path: &Path) -> Result<PtxFile, RunError> {
        let text = std::fs::read_to_string(path).map_err(|e| RunError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let mut names = Vec::new();
        let mut resources = Vec::new();
        for line in text
            .lines()
            .take_while(|l| l.starts_with("//") || l.trim().is_empty())
        {
            if let Some(rest) = line.strip_prefix(KERNEL_TAG) {
                if let Some((cxx, mangled)) = rest.rsplit_once(" = ") {
                    names.push((cxx.trim().to_string(), mangled.trim().to_string()));
                }
            } else if let Some(rest) = line.strip_prefix(RESOURCES_TAG) {
                let mut it = rest.split_whitespace();
                let mut r = KernelResources {
                    mangled_name: it.next().unwrap_or("").to_string(),
                    registers: 0,
                    spill_stores: 0,
                    spill_loads: 0,
                    stack_frame: 0,
                    static_shared: 0,
                    const_bytes: 0,
                    barriers: 0,
                };
                for kv in it {
                    let Some((k, v)) = kv.split_once('=') else {
                        continue;
                    };
                    let v: u32 = v.parse().unwrap_or(0);
                    match k {
                        "registers" => r.registers = v,
                        "spill_stores" => r.spill_stores = v,
                        "spill_loads" => r.spill_loads = v,
                        "stack_frame" => r.stack_frame = v,
                        "static_shared" => r.static_shared = v,
                        "const_bytes" => r.const_bytes = v,
                        "barriers" => r.barriers = v,
                        _ => {}
                    }
                }
                resources.push(r);
            }
        }
        Ok(PtxFile {
            path: path.to_path_buf(),
            text,
            names,
            resources,
        })
    }

    /// PTX fresh from NVRTC, with the header written in front of it.
    pub fn from_compiled(
        src: &Path,
        ptx: String,
        names: Vec<(String, String)>,
        resources: Vec<KernelResources>,
    ) -> PtxFile {
        let mut text = String::new();
        text.push_str(&format!(
            "// gpumemsim: compiled from {} by NVRTC for compute_90 (-lineinfo); resources from an sm_90 build\n",
            src.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default()
        ));
        for (cxx, mangled) in &names {
            text.push_str(&format!("{KERNEL_TAG}{cxx} = {mangled}\n"));
        }
        for r in &resources {
            text.push_str(&format!(
                "{RESOURCES_TAG}{} registers={} spill_stores={} spill_loads={} stack_frame={} static_shared={} const_bytes={} barriers={}\n",
                r.mangled_name, r.registers, r.spill_stores, r.spill_loads, r.stack_frame, r.static_shared, r.const_bytes, r.barriers
            ));
        }
        text.push_str(&ptx);
        PtxFile {
            path: src.to_path_buf(),
            text,
            names,
            resources,
        }
    }

    /// The PTX entry name for a spec's kernel name: the header's map, an exact entry name, or
    /// a plain C++ function name matched to its unique mangled entry (`copy` → `_Z4copyPfPKfi`).
    pub fn resolve(&self, name: &str) -> Option<String> {
        if let Some((_, m)) = self.names.iter().find(|(c, _)| c == name) {
            return Some(m.clone());
        }
        let entries = self.entries();
        if entries.iter().any(|e| e == name) {
            return Some(name.to_string());
        }
        let prefix = format!("_Z{}{}", name.len(), name);
        let hits: Vec<&String> = entries.iter().filter(|e| e.starts_with(&prefix)).collect();
        (hits.len() == 1).then(|| hits[0].clone())
    }

    /// The `.entry` names in the text.
    pub fn entries(&self) -> Vec<String> {
        let mut out = Vec::new();
        for line in self.text.lines() {
            if let Some(pos) = line.find(".entry ") {
                let rest = &line[pos + 7..];
                let name: String = rest
                    .chars()
                    .take_while(|c| !c.is_whitespace() && *c != '(')
                    .collect();
                out.push(name);
            }
        }
        out
    }

    /// The kernels a spec may name, for messages.
    pub fn kernel_list(&self) -> String {
        let mut v: Vec<String> = self.names.iter().map(|(c, _)| c.clone()).collect();
        for e in self.entries() {
            if !self.names.iter().any(|(_, m)| *m == e) {
                v.push(e);
            }
        }
        v.join(", ")
    }

    /// The resource usage ptxas reported for `mangled`, if recorded.
    pub fn resources(&self, mangled: &str) -> Option<&KernelResources> {
        self.resources.iter().find(|r| r.mangled_name == mangled)
    }
}
