//! The compile cache. PTX (and resource usage) is cached by a content hash (FNV-1a 64, written
//! here) of the source, the files it includes with `#include "…"`, the options, the name
//! expressions and the NVRTC version, in `$GPUMEMSIM_CACHE`, `$XDG_CACHE_HOME/gpumemsim` or
//! `~/.cache/gpumemsim`. Failing to write the cache is not an error.

use super::*;

#[derive(Serialize, Deserialize)]
pub(super) struct PtxEntry {
    pub(super) key: String,
    pub(super) ptx: String,
    pub(super) lowered_names: Vec<(String, String)>,
    pub(super) log: String,
}

#[derive(Serialize, Deserialize)]
pub(super) struct ResEntry {
    pub(super) key: String,
    pub(super) resources: Vec<KernelResources>,
}

pub(super) trait Keyed {
    fn key(&self) -> &str;
}
impl Keyed for PtxEntry {
    fn key(&self) -> &str {
        &self.key
    }
}
impl Keyed for ResEntry {
    fn key(&self) -> &str {
        &self.key
    }
}

/// FNV-1a, 64-bit (Fowler–Noll–Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3).
#[derive(Clone, Copy)]
pub(super) struct Fnv1a64(u64);

impl Fnv1a64 {
    fn new() -> Self {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, data: &[u8]) {
        for &b in data {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// A length-prefixed field, so that field boundaries are part of the hash.
    fn field(&mut self, data: &[u8]) {
        self.bytes(&(data.len() as u64).to_le_bytes());
        self.bytes(data);
    }
}

pub(super) fn cache_key(
    kind: &str,
    version: (i32, i32),
    path: &Path,
    file_name: &str,
    source: &str,
    names: &[String],
    options: &[String],
) -> u64 {
    let mut h = Fnv1a64::new();
    h.field(b"gpumemsim-nvrtc-cache-v1");
    h.field(kind.as_bytes());
    h.field(&version.0.to_le_bytes());
    h.field(&version.1.to_le_bytes());
    h.field(file_name.as_bytes());
    h.field(source.as_bytes());
    h.field(&(names.len() as u64).to_le_bytes());
    for n in names {
        h.field(n.as_bytes());
    }
    h.field(&(options.len() as u64).to_le_bytes());
    for o in options {
        h.field(o.as_bytes());
    }
    for (name, text) in std_headers::HEADERS {
        h.field(name.as_bytes());
        h.field(text.as_bytes());
    }
    hash_local_includes(&mut h, path, source);
    h.0
}

/// Hashes the files reached through `#include "…"` (resolved against the including file's
/// directory, then the main file's), so editing a local header invalidates the cache.
pub(super) fn hash_local_includes(h: &mut Fnv1a64, path: &Path, source: &str) {
    let main_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut stack: Vec<(PathBuf, String, usize)> = vec![(main_dir.clone(), source.to_string(), 0)];
    while let Some((dir, text, depth)) = stack.pop() {
        for name in quoted_includes(&text) {
            let found = [dir.join(name), main_dir.join(name)]
                .into_iter()
                .find(|p| p.is_file());
            match found {
                Some(p) => {
                    if !seen.insert(p.clone()) {
                        continue;
                    }
                    let contents = std::fs::read_to_string(&p).unwrap_or_default();
                    h.field(p.display().to_string().as_bytes());
                    h.field(contents.as_bytes());
                    if depth < 16 {
                        let d = p.parent().map(Path::to_path_buf).unwrap_or_default();
                        stack.push((d, contents, depth + 1));
                    }
                }
                None => h.field(format!("missing:{name}").as_bytes()),
            }
        }
    }
}

pub(super) fn quoted_includes(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| {
            let rest = l
                .trim_start()
                .strip_prefix('#')?
                .trim_start()
                .strip_prefix("include")?;
            let rest = rest.trim_start().strip_prefix('"')?;
            rest.split_once('"').map(|(name, _)| name)
        })
        .collect()
}

pub(super) fn cache_dir(mode: &CacheMode) -> Option<PathBuf> {
    match mode {
        CacheMode::Disabled => None,
        CacheMode::Dir(d) => Some(d.clone()),
        CacheMode::Default => env_path("GPUMEMSIM_CACHE")
            .or_else(|| env_path("XDG_CACHE_HOME").map(|d| d.join("gpumemsim")))
            .or_else(|| env_path("HOME").map(|h| h.join(".cache").join("gpumemsim"))),
    }
}

pub(super) fn cache_read<T: for<'de> Deserialize<'de> + Keyed>(
    dir: &Path,
    name: &str,
    key: u64,
) -> Option<T> {
    let text = std::fs::read_to_string(dir.join(name)).ok()?;
    let entry: T = serde_json::from_str(&text).ok()?;
    (entry.key() == format!("{key:016x}")).then_some(entry)
}

/// Best effort: write to a temporary name, then rename, so readers never see half a file.
pub(super) fn cache_write<T: Serialize>(dir: &Path, name: &str, entry: &T) {
    let Ok(text) = serde_json::to_string(entry) else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = dir.join(format!("{name}.tmp{}", std::process::id()));
    if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, dir.join(name)).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_64_reference_values() {
        // Published FNV-1a 64 test vectors (Fowler/Noll/Vo reference code, test suite):
        // "" -> cbf29ce484222325, "a" -> af63dc4c8601ec8c, "foobar" -> 85944171f73967e8.
        for (input, want) in [
            ("", 0xcbf29ce484222325u64),
            ("a", 0xaf63dc4c8601ec8c),
            ("foobar", 0x85944171f73967e8),
        ] {
            let mut h = Fnv1a64::new();
            h.bytes(input.as_bytes());
            assert_eq!(h.0, want, "{input:?}");
        }
    }

    #[test]
    fn quoted_includes_are_found() {
        let src = "#include <cuda_fp16.h>\n  #  include \"a.h\"\n#include\"b/c.cuh\" // x\n";
        assert_eq!(quoted_includes(src), vec!["a.h", "b/c.cuh"]);
    }
}
