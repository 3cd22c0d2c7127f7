//! Log parsing. NVRTC's log (`kernel.cu(12): error: identifier "x" is undefined`, followed by the
//! source line indented by two spaces and a caret line) is parsed into [`Diagnostic`]s with file,
//! line, column, message and the offending source line; they render like rustc/clang
//! (`kernel.cu:12:5: error: …` plus a snippet with a caret).
//!
//! ptxas's info lines (`--ptxas-options=-v`) give each kernel's registers, barriers, shared
//! memory, stack and spills; the formats handled are the ones of the logs quoted in this file's
//! tests (NVRTC 13.5, pip `nvidia-cuda-nvrtc` 13.5, and an older format that still prints
//! `cmem[0]`).

use super::*;

pub(super) struct Header {
    pub(super) file: String,
    pub(super) line: u32,
    pub(super) severity: Severity,
    pub(super) code: Option<String>,
    pub(super) message: String,
}

/// Parses `file(line): severity[ #code]: message` \[LOG\].
pub(super) fn parse_header(text: &str) -> Option<Header> {
    let mut search_from = 0;
    while let Some(rel) = text[search_from..].find("): ") {
        let close = search_from + rel;
        search_from = close + 3;
        let before = &text[..close];
        let Some(open) = before.rfind('(') else {
            continue;
        };
        let digits = &before[open + 1..];
        if open == 0 || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(line) = digits.parse::<u32>() else {
            continue;
        };
        let rest = &text[close + 3..];
        let Some((head, message)) = rest.split_once(": ") else {
            continue;
        };
        let (word, code) = match head.split_once(" #") {
            Some((w, c)) => (w, Some(format!("#{c}"))),
            None => (head, None),
        };
        let severity = match word {
            "error" => Severity::Error,
            "catastrophic error" | "internal error" | "fatal error" => Severity::Fatal,
            "warning" => Severity::Warning,
            "note" => Severity::Note,
            "remark" => Severity::Remark,
            _ => continue,
        };
        return Some(Header {
            file: before[..open].to_string(),
            line,
            severity,
            code,
            message: message.trim_end().to_string(),
        });
    }
    None
}

pub(super) fn is_caret(line: &str) -> bool {
    line.trim() == "^"
}

/// 1-based column: from the caret line (which repeats the source line's indentation after NVRTC's
/// two-space prefix \[LOG\]), else the first whole-token occurrence of the token the message quotes,
/// else 1.
pub(super) fn find_column(source_line: Option<&str>, caret: Option<&str>, message: &str) -> u32 {
    let line_len = source_line.map(|s| s.chars().count());
    if let Some(c) = caret {
        if let Some(pos) = c.chars().position(|ch| ch == '^') {
            let col0 = pos.saturating_sub(2);
            if line_len.is_none_or(|n| col0 <= n) {
                return col0 as u32 + 1;
            }
        }
    }
    if let (Some(src), Some(token)) = (source_line, quoted_token(message)) {
        if let Some(byte) = find_token(src, token) {
            return src[..byte].chars().count() as u32 + 1;
        }
    }
    1
}

pub(super) fn quoted_token(message: &str) -> Option<&str> {
    let start = message.find('"')? + 1;
    let len = message[start..].find('"')?;
    let token = &message[start..start + len];
    (!token.is_empty()).then_some(token)
}

pub(super) fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Byte offset of `token` in `line`, at identifier boundaries when the token is an identifier.
pub(super) fn find_token(line: &str, token: &str) -> Option<usize> {
    let ident = token.chars().all(is_ident_char);
    let mut from = 0;
    while let Some(rel) = line[from..].find(token) {
        let at = from + rel;
        let end = at + token.len();
        let before_ok = !ident || !line[..at].chars().next_back().is_some_and(is_ident_char);
        let after_ok = !ident || !line[end..].chars().next().is_some_and(is_ident_char);
        if before_ok && after_ok {
            return Some(at);
        }
        from = at + token.len().max(1);
    }
    None
}

/// Parses ptxas's `-v` lines \[LOG\]; the bool says whether the `Used` line had a `cmem[0]` item.
pub(super) fn parse_ptxas_log_inner(
    log: &str,
) -> Result<Vec<(KernelResources, bool)>, FrontendError> {
    struct Partial {
        r: KernelResources,
        used_seen: bool,
        has_cmem: bool,
    }
    let mut entries: Vec<Partial> = Vec::new();
    // Index of the entry whose `Used` line comes next, and of the function whose stack line does.
    let mut compiling: Option<usize> = None;
    let mut properties: Option<usize> = None;
    let bad =
        |line: &str, why: &str| FrontendError::PtxasLog(format!("{why} in `{}`", line.trim()));
    for line in log.lines() {
        // Older versions print the stack-frame line without the `ptxas` prefix.
        let body = line.strip_prefix("ptxas").unwrap_or(line).trim_start();
        let body = body
            .strip_prefix("info")
            .map(|b| b.trim_start().strip_prefix(':').unwrap_or(b).trim())
            .or_else(|| body.strip_prefix('.').map(str::trim))
            .unwrap_or(body);
        if let Some(after) = body.strip_prefix("Compiling entry function") {
            let name = after
                .trim()
                .strip_prefix('\'')
                .and_then(|s| s.split_once('\''))
                .map(|(n, _)| n.to_string())
                .ok_or_else(|| bad(line, "no quoted function name"))?;
            entries.push(Partial {
                r: KernelResources {
                    mangled_name: name,
                    registers: 0,
                    spill_stores: 0,
                    spill_loads: 0,
                    stack_frame: 0,
                    static_shared: 0,
                    const_bytes: 0,
                    barriers: 0,
                },
                used_seen: false,
                has_cmem: false,
            });
            compiling = Some(entries.len() - 1);
        } else if let Some(name) = body.strip_prefix("Function properties for") {
            let name = name.trim();
            properties = entries.iter().rposition(|e| e.r.mangled_name == name);
        } else if body.contains("bytes stack frame") {
            if let Some(i) = properties {
                for (n, what) in counted_items(body).map_err(|w| bad(line, &w))? {
                    let r = &mut entries[i].r;
                    match what {
                        "bytes stack frame" => r.stack_frame = n,
                        "bytes spill stores" => r.spill_stores = n,
                        "bytes spill loads" => r.spill_loads = n,
                        _ => {}
                    }
                }
            }
        } else if body.starts_with("Used ") {
            let i = compiling.ok_or_else(|| bad(line, "`Used` line before any entry function"))?;
            let e = &mut entries[i];
            e.used_seen = true;
            for (n, what) in counted_items(body).map_err(|w| bad(line, &w))? {
                match what {
                    "registers" => e.r.registers = n,
                    "barriers" => e.r.barriers = n,
                    "bytes smem" => e.r.static_shared = n,
                    "bytes cmem[0]" => {
                        e.r.const_bytes = n;
                        e.has_cmem = true;
                    }
                    _ => {}
                }
            }
        }
    }
    entries
        .into_iter()
        .map(|e| {
            if e.used_seen {
                Ok((e.r, e.has_cmem))
            } else {
                Err(FrontendError::PtxasLog(format!(
                    "no `Used N registers` line for {}",
                    e.r.mangled_name
                )))
            }
        })
        .collect()
}

/// Splits `Used 12 registers, used 1 barriers, 4096 bytes smem` into (12, "registers"),
/// (1, "barriers"), (4096, "bytes smem").
pub(super) fn counted_items(body: &str) -> Result<Vec<(u32, &str)>, String> {
    body.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let item = item
                .strip_prefix("Used ")
                .or_else(|| item.strip_prefix("used "))
                .unwrap_or(item);
            let (n, what) = item
                .split_once(' ')
                .ok_or_else(|| format!("item `{item}` has no count"))?;
            let n = n
                .parse::<u32>()
                .map_err(|_| format!("`{n}` is not a count"))?;
            Ok((n, what.trim()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verbatim from NVRTC 13.5 (`-arch=sm_90 --ptxas-options=-v`) on three kernels \[LOG\].
    const PTXAS_LOG: &str = "ptxas info    : 0 bytes gmem\nptxas info    : Compiling entry function '_Z9sh_strideILi32EEvPf' for 'sm_90'\nptxas info    : Function properties for _Z9sh_strideILi32EEvPf\nptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\nptxas info    : Used 12 registers, used 1 barriers, 4096 bytes smem\nptxas info    : Compile time = 3.563 ms\nptxas info    : Compiling entry function '_Z5spillPfi' for 'sm_90'\nptxas info    : Function properties for _Z5spillPfi\nptxas         .     1024 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\nptxas info    : Used 32 registers, used 0 barriers, 1024 bytes cumulative stack size\nptxas info    : Compile time = 88.413 ms\nptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90'\nptxas info    : Function properties for _Z3fooPf\nptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\nptxas info    : Used 10 registers, used 0 barriers\nptxas info    : Compile time = 1.962 ms\n";

    #[test]
    fn ptxas_log_13_5() {
        let r = parse_ptxas_log(PTXAS_LOG).unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].mangled_name, "_Z9sh_strideILi32EEvPf");
        assert_eq!(
            (
                r[0].registers,
                r[0].barriers,
                r[0].static_shared,
                r[0].stack_frame
            ),
            (12, 1, 4096, 0)
        );
        assert_eq!(r[1].mangled_name, "_Z5spillPfi");
        assert_eq!(
            (r[1].registers, r[1].stack_frame, r[1].spill_stores),
            (32, 1024, 0)
        );
        assert_eq!(
            (
                r[2].mangled_name.as_str(),
                r[2].registers,
                r[2].static_shared
            ),
            ("_Z3fooPf", 10, 0)
        );
    }

    #[test]
    fn ptxas_log_older_format_with_cmem_and_device_function() {
        // The CUDA 11/12 layout: cmem[0] on the `Used` line; a non-inlined device function's
        // properties between an entry's header and its `Used` line.
        let log = "ptxas info    : 0 bytes gmem\n\
ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n\
ptxas info    : Function properties for _Z3devv\n\
    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n\
ptxas info    : Function properties for _Z1kPf\n\
ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n\
ptxas info    : Used 255 registers, 536 bytes cmem[0]\n";
        let r = parse_ptxas_log_inner(log).unwrap();
        assert_eq!(r.len(), 1);
        let (k, has_cmem) = &r[0];
        assert!(*has_cmem);
        assert_eq!((k.registers, k.const_bytes), (255, 536));
        assert_eq!((k.stack_frame, k.spill_stores, k.spill_loads), (16, 8, 12));
    }

    #[test]
    fn ptxas_log_missing_used_line_is_an_error() {
        let log = "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n";
        assert!(matches!(
            parse_ptxas_log(log),
            Err(FrontendError::PtxasLog(_))
        ));
    }

    /// Verbatim NVRTC 13.5 log for a 5-line source with four errors \[LOG\].
    const ERR_SRC: &str = "__global__ void f(float*a){\n  x = 1;\n  a[0] = y;\n int z = \n}\n";
    const ERR_LOG: &str = "kernel.cu(2): error: identifier \"x\" is undefined\n    x = 1;\n    ^\n\nkernel.cu(3): error: identifier \"y\" is undefined\n    a[0] = y;\n           ^\n\nkernel.cu(5): error: expected an expression\n  }\n  ^\n\nkernel.cu(5): error: expected a \";\"\n  }\n  ^\n\n4 errors detected in the compilation of \"kernel.cu\".\n";

    #[test]
    fn nvrtc_errors_are_located() {
        let d = parse_nvrtc_log(ERR_LOG, "kernel.cu", ERR_SRC);
        assert_eq!(d.len(), 4);
        // `x` is the 3rd character of "  x = 1;", `y` the 10th of "  a[0] = y;", `}` the 1st.
        let got: Vec<(u32, u32)> = d.iter().map(|d| (d.line, d.column)).collect();
        assert_eq!(got, vec![(2, 3), (3, 10), (5, 1), (5, 1)]);
        assert_eq!(d[0].message, "identifier \"x\" is undefined");
        assert_eq!(d[1].source_line.as_deref(), Some("  a[0] = y;"));
        assert!(d
            .iter()
            .all(|d| d.severity == Severity::Error && d.file == "kernel.cu"));
    }

    #[test]
    fn column_from_quoted_token_without_caret() {
        let log = "bad.cu(1): error: identifier \"xy\" is undefined\n";
        let d = parse_nvrtc_log(log, "bad.cu", "int axy = xy;\n");
        // whole-token match skips "axy": "xy" starts at character 11.
        assert_eq!((d[0].line, d[0].column), (1, 11));
        let d = parse_nvrtc_log(
            "bad.cu(1): error: expected a type\n",
            "bad.cu",
            "foo bar;\n",
        );
        assert_eq!(d[0].column, 1);
    }

    #[test]
    fn tabs_warnings_notes_and_paths_with_parentheses() {
        // Verbatim NVRTC 13.5 shapes [LOG]: tab indentation, a warning with a number, a note with
        // an instantiation context line.
        let src = "__global__ void f(float*a){\n\tint z;\n\t\tx = 1;\n}\n";
        let log = "dir (1)/k.cu(3): error: identifier \"x\" is undefined\n  \t\tx = 1;\n  \t\t^\n\ndir (1)/k.cu(2): warning #177-D: variable \"z\" was declared but never referenced\n  \tint z;\n  \t    ^\n\ndir (1)/k.cu(2): note #3453-D: the final comparison was 3 < 2\n  \tint z;\n  \t^\n          detected during instantiation of \"void f<N>(float *) [with N=3]\" \n\n1 error detected in the compilation of \"k.cu\".\n";
        let d = parse_nvrtc_log(log, "dir (1)/k.cu", src);
        assert_eq!(d.len(), 3);
        assert_eq!(
            (d[0].file.as_str(), d[0].line, d[0].column),
            ("dir (1)/k.cu", 3, 3)
        );
        assert_eq!(
            (d[1].severity, d[1].code.as_deref(), d[1].column),
            (Severity::Warning, Some("#177-D"), 6)
        );
        assert_eq!(
            d[2].notes,
            vec!["detected during instantiation of \"void f<N>(float *) [with N=3]\"".to_string()]
        );
        // The rendered caret copies the tabs.
        assert!(d[0].to_string().ends_with("| \t\t^"), "{}", d[0]);
    }
}
