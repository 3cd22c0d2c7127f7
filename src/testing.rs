//! Test support: tests that need something outside the repository (NVRTC, a C compiler, the CUDA
//! headers) ask [`require`] for it, so that a missing dependency is never a silent pass.
//!
//! Under CI (`CI=true` in the environment, as `.ci/run` is run) a missing dependency fails the
//! test with what is missing and how to install it. Elsewhere the test prints one `SKIP` line to
//! stderr (past the harness's capture, so `cargo test` shows it) and returns without checking
//! anything.
//!
//! [`ncu_profiles`] reads several Nsight Compute recordings of one program packed into one file
//! (tests/hw/h200/srange), for the range comparison of `crate::report::compare`.

use std::fmt::Display;
use std::io::Write;

use crate::report::compare::{parse_ncu_csv, NcuLaunch};

/// Whether the tests run under CI: `CI` is `true` or `1` (any case).
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// The value `probe` found, or, when it reports `what` missing: under CI a panic naming the
/// test, what is missing, why, and `install` (how to get it); elsewhere a `SKIP` line on stderr
/// and `None`.
pub fn require<T, E: Display>(what: &str, probe: Result<T, E>, install: &str) -> Option<T> {
    match probe {
        Ok(v) => Some(v),
        Err(e) => {
            let thread = std::thread::current();
            let test = thread.name().unwrap_or("a test");
            let msg = format!("{test}: {what} is missing ({e}); to install it: {install}");
            if under_ci() {
                panic!("CI=true and a test dependency is missing: {msg}");
            }
            // Written to the stderr handle, not through `eprintln!`, which the test harness
            // captures and hides for a passing test: `cargo test` shows this line.
            let _ = writeln!(std::io::stderr(), "SKIP {msg}");
            None
        }
    }
}

/// [`require`] for a command-line tool: runs `program --version`.
pub fn require_tool(program: &str, install: &str) -> bool {
    let probe = std::process::Command::new(program)
        .arg("--version")
        .output()
        .map_err(|e| format!("`{program} --version` could not run: {e}"))
        .and_then(|o| {
            if o.status.success() {
                Ok(())
            } else {
                Err(format!("`{program} --version` exited with {}", o.status))
            }
        });
    require(&format!("`{program}`"), probe, install).is_some()
}

/// How CI installs NVRTC and the CUDA headers (`.ci/run`).
pub const INSTALL_NVRTC: &str = "python3 -m pip install nvidia-cuda-nvrtc==13.0.88 \
     nvidia-cuda-runtime==13.0.96 (or set GPUMEMSIM_NVRTC to libnvrtc.so)";

/// How to get the C and C++ compilers.
pub const INSTALL_CC: &str = "install a C/C++ compiler providing `cc` and `c++` \
     (e.g. apt-get install build-essential)";

/// Several Nsight Compute recordings of one program packed into one zstd file, as
/// tests/hw/cas/srange_pack.sh writes them: each recording's CSV (`ncu --csv --print-units base
/// --metrics ...`) unchanged after a line `# NAME`. Returns (NAME, its launches) per recording,
/// in the file's order.
pub fn ncu_profiles(path: &str) -> Result<Vec<(String, Vec<NcuLaunch>)>, String> {
    use std::io::Read;
    let z = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&z[..])
        .map_err(|e| format!("{path}: not a zstd frame: {e}"))?;
    let mut text = String::new();
    dec.read_to_string(&mut text)
        .map_err(|e| format!("{path}: {e}"))?;
    split_profiles(&text).map_err(|e| format!("{path}: {e}"))
}

/// The recordings of [`ncu_profiles`]'s decompressed text.
fn split_profiles(text: &str) -> Result<Vec<(String, Vec<NcuLaunch>)>, String> {
    let mut out = Vec::new();
    let mut name: Option<&str> = None;
    let mut body = String::new();
    let mut flush = |name: Option<&str>, body: &mut String| -> Result<(), String> {
        if let Some(n) = name {
            let launches = parse_ncu_csv(body).map_err(|e| format!("{n}: {e}"))?;
            out.push((n.to_string(), launches));
        }
        body.clear();
        Ok(())
    };
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("# ") {
            flush(name, &mut body)?;
            name = Some(n);
        } else if name.is_none() {
            return Err(format!("text before the first `# NAME` line: {line:?}"));
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(name, &mut body)?;
    if out.is_empty() {
        return Err("no recording".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_profiles_split_at_their_names() {
        let row = |id: u32, v: u32| format!("\"{id}\",\"k(int)\",\"a.sum\",\"{v}\"\n");
        let head = "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Value\"\n";
        let text = format!(
            "# one.csv\n==PROF== noise\n{head}{}{}# two.csv\n{head}{}{}",
            row(0, 1),
            row(1, 2),
            row(0, 3),
            row(1, 1_000)
        );
        let p = split_profiles(&text).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].0.as_str(), p[1].0.as_str()), ("one.csv", "two.csv"));
        assert_eq!(p[1].1[1].metrics["a.sum"], 1000.0);
        assert_eq!(p[0].1.len(), 2);
        assert!(split_profiles("stray\n# a\n").is_err());
    }

    #[test]
    fn a_found_dependency_is_returned() {
        assert_eq!(require::<u32, String>("x", Ok(7), "n/a"), Some(7));
    }

    #[test]
    fn a_missing_dependency_fails_under_ci_and_skips_elsewhere() {
        let r =
            std::panic::catch_unwind(|| require::<(), _>("the-thing", Err("not found"), "get it"));
        if under_ci() {
            let e = r.unwrap_err();
            let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
            assert!(msg.contains("the-thing") && msg.contains("get it"), "{msg}");
        } else {
            assert_eq!(r.unwrap(), None);
        }
    }

    #[test]
    fn a_tool_that_does_not_exist_is_missing() {
        let r = std::panic::catch_unwind(|| {
            require_tool("gpumemsim-no-such-tool-4d1f", "nothing to install")
        });
        match r {
            Err(_) => assert!(under_ci()),
            Ok(found) => assert!(!under_ci() && !found),
        }
    }
}
