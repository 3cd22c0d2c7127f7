//! Comparing two runs (`gpumemsim diff a.json b.json`): the counters of each pair of launches
//! side by side with their change, and the per-line memory costs side by side, lines paired by
//! their source text (a longest common subsequence), so the naive and the padded version of a
//! kernel, or a kernel before and after a fix, line up where their code is the same.
//!
//! The inputs are JSON reports (`gpumemsim run SPEC --json`); only the fields every report has
//! are read (kernel, launch shape, metrics, lines), so reports of other versions still compare.

use crate::metrics::{Aggregation, Metric, Source, Unit};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::html::{self, fmt_metric, memory_cost, HtmlError};
use super::text::thousands;

/// Why two reports could not be compared.
#[derive(Debug, Error)]
pub enum DiffError {
    /// A file could not be read.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What happened.
        message: String,
    },
    /// A file is not a gpumemsim JSON report.
    #[error("{path}:{line}:{column}: error: not a gpumemsim JSON report: {message}")]
    Json {
        /// The file.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's message.
        message: String,
    },
    /// A launch number is out of range.
    #[error("{path}: {flag} {n}: the report has {count} launch(es)")]
    NoLaunch {
        /// The file.
        path: String,
        /// The flag that named it.
        flag: &'static str,
        /// The 1-based launch asked for.
        n: usize,
        /// Launches in the report.
        count: usize,
    },
}

/// The part of a JSON report a diff reads.
#[derive(Clone, Debug, Deserialize)]
pub struct RunReport {
    /// The spec file.
    pub spec: String,
    /// Launches in order.
    pub launches: Vec<RunLaunch>,
}

/// One launch of a JSON report.
#[derive(Clone, Debug, Deserialize)]
pub struct RunLaunch {
    /// Kernel name.
    pub kernel: String,
    /// Grid.
    pub grid: [u32; 3],
    /// Block.
    pub block: [u32; 3],
    /// Dynamic shared memory.
    pub shared: u32,
    /// Metrics.
    pub metrics: BTreeMap<String, f64>,
    /// Lines with memory traffic.
    #[serde(default)]
    pub lines: Vec<RunLine>,
}

/// One line of a JSON report.
#[derive(Clone, Debug, Deserialize)]
pub struct RunLine {
    /// File name.
    pub file: String,
    /// Line.
    pub line: u32,
    /// Its text.
    #[serde(default)]
    pub text: String,
    /// Its non-zero metrics.
    #[serde(default)]
    pub metrics: BTreeMap<String, u64>,
}

/// Reads a JSON report.
pub fn load(path: &Path) -> Result<RunReport, DiffError> {
    let p = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| DiffError::Io {
        path: p.clone(),
        message: e.to_string(),
    })?;
    let mut r: RunReport = serde_json::from_str(&text).map_err(|e| DiffError::Json {
        path: p,
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    // A SASS report lists every line that executed; the comparison pairs the memory lines.
    for l in &mut r.launches {
        l.lines.retain(|ln| {
            ln.metrics.keys().any(|k| {
                Metric::by_name(k)
                    .is_some_and(|m| matches!(m.def().source, Source::Lsu | Source::Texture))
            })
        });
    }
    Ok(r)
}

/// One metric of a launch pair.
#[derive(Clone, Debug, Serialize)]
pub struct MetricRow {
    /// Metric name.
    pub name: String,
    /// Value in A (formatted; empty when absent).
    pub a: String,
    /// Value in B.
    pub b: String,
    /// B - A, formatted with its sign.
    pub delta: String,
    /// B / A, when both are non-zero.
    pub ratio: String,
    /// `better`, `worse` or empty: lower is better for costs (wavefronts, conflicts,
    /// sectors, requests), higher for occupancy.
    pub verdict: &'static str,
}

/// A line's cost in one run.
#[derive(Clone, Debug, Serialize)]
pub struct LineCost {
    /// `file:line`.
    pub at: String,
    /// The code.
    pub text: String,
    /// Memory cost (shared wavefronts + L1TEX sectors + constant requests).
    pub cost: u64,
    /// The cost with thousands separators.
    pub shown: String,
}

/// A row of the per-line comparison.
#[derive(Clone, Debug, Serialize)]
pub struct LineRow {
    /// The line in A.
    pub a: Option<LineCost>,
    /// The line in B.
    pub b: Option<LineCost>,
    /// Cost change, formatted.
    pub delta: String,
    /// As in [`MetricRow::verdict`].
    pub verdict: &'static str,
}

/// A pair of launches.
#[derive(Clone, Debug, Serialize)]
pub struct LaunchPair {
    /// `kernel<<<...>>>` of A.
    pub a: String,
    /// `kernel<<<...>>>` of B.
    pub b: String,
    /// Every metric either side has, in name order.
    pub metrics: Vec<MetricRow>,
    /// The memory lines paired by text.
    pub lines: Vec<LineRow>,
    /// Total memory cost of A and B.
    pub cost_a: u64,
    /// As `cost_a`, for B.
    pub cost_b: u64,
    /// `cost_a` and `cost_b` with thousands separators.
    pub shown: (String, String),
}

/// The comparison of two reports.
#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    /// A's file.
    pub a: String,
    /// B's file.
    pub b: String,
    /// The launch pairs.
    pub pairs: Vec<LaunchPair>,
}

fn config(l: &RunLaunch) -> String {
    format!(
        "{}<<<({},{},{}), ({},{},{}), {}>>>",
        l.kernel, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], l.shared
    )
}

/// Rates and occupancy: more is better.
fn higher_is_better(name: &str) -> bool {
    use Metric::*;
    Metric::by_name(name).is_some_and(|m| {
        m.def().unit == Unit::Percent
            || matches!(
                m,
                OccupancyLimitRegisters
                    | OccupancyLimitSharedMem
                    | OccupancyLimitWarps
                    | OccupancyLimitBlocks
            )
    })
}

/// Memory traffic summed over the launch: less is better.
fn is_cost(name: &str) -> bool {
    Metric::by_name(name).is_some_and(|m| {
        let d = m.def();
        d.aggregation == Aggregation::Sum
            && matches!(
                d.unit,
                Unit::Wavefront | Unit::Conflict | Unit::Sector | Unit::Request | Unit::Byte
            )
    })
}

fn verdict(name: &str, a: f64, b: f64) -> &'static str {
    if a == b {
        ""
    } else if higher_is_better(name) == (b > a) && (higher_is_better(name) || is_cost(name)) {
        "better"
    } else if higher_is_better(name) || is_cost(name) {
        "worse"
    } else {
        ""
    }
}

fn signed(name: &str, d: f64) -> String {
    if d > 0.0 {
        format!("+{}", fmt_metric(name, d))
    } else {
        fmt_metric(name, d)
    }
}

fn line_cost(l: &RunLine) -> LineCost {
    let cost = memory_cost(l.metrics.iter().map(|(k, v)| (k, *v as f64))) as u64;
    LineCost {
        at: format!("{}:{}", l.file, l.line),
        text: l.text.clone(),
        cost,
        shown: thousands(cost),
    }
}

/// Pairs the lines of two launches by equal text, in order (longest common subsequence).
fn align(a: &[RunLine], b: &[RunLine]) -> Vec<(Option<usize>, Option<usize>)> {
    let (n, m) = (a.len(), b.len());
    let mut t = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i][j] = if a[i].text == b[j].text {
                t[i + 1][j + 1] + 1
            } else {
                t[i + 1][j].max(t[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < n || j < m {
        if i < n && j < m && a[i].text == b[j].text {
            out.push((Some(i), Some(j)));
            i += 1;
            j += 1;
        } else if j >= m || (i < n && t[i + 1][j] >= t[i][j + 1]) {
            out.push((Some(i), None));
            i += 1;
        } else {
            out.push((None, Some(j)));
            j += 1;
        }
    }
    out
}

fn pair(a: &RunLaunch, b: &RunLaunch) -> LaunchPair {
    let names: BTreeSet<&String> = a.metrics.keys().chain(b.metrics.keys()).collect();
    let metrics = names
        .into_iter()
        .map(|name| {
            let (va, vb) = (a.metrics.get(name), b.metrics.get(name));
            let (x, y) = (va.copied().unwrap_or(0.0), vb.copied().unwrap_or(0.0));
            MetricRow {
                name: name.clone(),
                a: va.map(|v| fmt_metric(name, *v)).unwrap_or_default(),
                b: vb.map(|v| fmt_metric(name, *v)).unwrap_or_default(),
                delta: if x == y {
                    String::new()
                } else {
                    signed(name, y - x)
                },
                ratio: if x != 0.0 && y != 0.0 && x != y {
                    format!("{:.2}×", y / x)
                } else {
                    String::new()
                },
                verdict: verdict(name, x, y),
            }
        })
        .collect();
    let lines = align(&a.lines, &b.lines)
        .into_iter()
        .map(|(i, j)| {
            let la = i.map(|i| line_cost(&a.lines[i]));
            let lb = j.map(|j| line_cost(&b.lines[j]));
            let (x, y) = (
                la.as_ref().map_or(0, |l| l.cost) as f64,
                lb.as_ref().map_or(0, |l| l.cost) as f64,
            );
            LineRow {
                a: la,
                b: lb,
                delta: if x == y {
                    String::new()
                } else {
                    signed("cost", y - x)
                },
                verdict: verdict("sectors", x, y),
            }
        })
        .collect();
    let total = |l: &RunLaunch| memory_cost(l.metrics.iter().map(|(k, v)| (k, *v))) as u64;
    LaunchPair {
        a: config(a),
        b: config(b),
        metrics,
        lines,
        cost_a: total(a),
        cost_b: total(b),
        shown: (thousands(total(a)), thousands(total(b))),
    }
}

/// Compares report `a` (file `pa`) with `b` (file `pb`): launch `la` of A with launch `lb` of B
/// when given (1-based), else every launch with the one at the same position.
pub fn diff(
    pa: &str,
    a: &RunReport,
    pb: &str,
    b: &RunReport,
    la: Option<usize>,
    lb: Option<usize>,
) -> Result<Diff, DiffError> {
    fn pick<'r>(
        path: &str,
        r: &'r RunReport,
        n: usize,
        flag: &'static str,
    ) -> Result<&'r RunLaunch, DiffError> {
        n.checked_sub(1)
            .and_then(|i| r.launches.get(i))
            .ok_or_else(|| DiffError::NoLaunch {
                path: path.to_string(),
                flag,
                n,
                count: r.launches.len(),
            })
    }
    let pairs = if la.is_some() || lb.is_some() {
        let x = pick(pa, a, la.unwrap_or(1), "--launch-a")?;
        let y = pick(pb, b, lb.unwrap_or(1), "--launch-b")?;
        vec![pair(x, y)]
    } else {
        a.launches
            .iter()
            .zip(&b.launches)
            .map(|(x, y)| pair(x, y))
            .collect()
    };
    Ok(Diff {
        a: pa.to_string(),
        b: pb.to_string(),
        pairs,
    })
}

/// The diff as text: the metrics that differ, then the lines whose cost differs.
pub fn render_text(d: &Diff) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "gpumemsim diff: A = {}, B = {}", d.a, d.b);
    for (i, p) in d.pairs.iter().enumerate() {
        let _ = writeln!(s, "\nlaunch pair {}:\n  A: {}\n  B: {}", i + 1, p.a, p.b);
        let _ = writeln!(
            s,
            "  memory cost (shared wavefronts + L1TEX sectors + constant requests): {} -> {}",
            thousands(p.cost_a),
            thousands(p.cost_b)
        );
        let changed: Vec<&MetricRow> = p.metrics.iter().filter(|r| r.a != r.b).collect();
        if changed.is_empty() {
            let _ = writeln!(s, "  every metric is equal");
        }
        for r in changed {
            let _ = writeln!(
                s,
                "  {:<62} {:>14} {:>14} {:>14} {}",
                r.name, r.a, r.b, r.delta, r.verdict
            );
        }
        let lines: Vec<&LineRow> = p.lines.iter().filter(|r| !r.delta.is_empty()).collect();
        if !lines.is_empty() {
            let _ = writeln!(s, "  lines whose memory cost differs (A -> B):");
        }
        for r in lines {
            let at = |l: &Option<LineCost>| {
                l.as_ref()
                    .map(|l| format!("{} ({})", l.at, thousands(l.cost)))
                    .unwrap_or_else(|| "-".into())
            };
            let text =
                r.a.as_ref()
                    .or(r.b.as_ref())
                    .map(|l| l.text.clone())
                    .unwrap_or_default();
            let _ = writeln!(s, "    {} -> {}  {}  {}", at(&r.a), at(&r.b), r.delta, text);
        }
    }
    s
}

#[derive(Serialize)]
struct DiffPage<'a> {
    title: String,
    version: &'static str,
    style: &'static str,
    script: &'static str,
    diff: &'a Diff,
}

/// The diff as one self-contained HTML page.
pub fn render_html(d: &Diff) -> Result<String, HtmlError> {
    let (style, script) = html::assets();
    html::render_template(
        "diff.html",
        &DiffPage {
            title: format!("gpumemsim diff: {} vs {}", d.a, d.b),
            version: env!("CARGO_PKG_VERSION"),
            style,
            script,
            diff: d,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str, sectors: u64) -> RunLine {
        RunLine {
            file: "k.cu".into(),
            line: 1,
            text: text.into(),
            metrics: [(
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum".to_string(),
                sectors,
            )]
            .into_iter()
            .collect(),
        }
    }

    #[test]
    fn lines_pair_by_text() {
        let a = [
            line("x = a[i];", 4),
            line("t[i][j] = x;", 32),
            line("b[i] = y;", 4),
        ];
        let b = [
            line("x = a[i];", 4),
            line("t[i][j+1] = x;", 1),
            line("b[i] = y;", 4),
        ];
        let al = align(&a, &b);
        assert_eq!(
            al,
            vec![
                (Some(0), Some(0)),
                (Some(1), None),
                (None, Some(1)),
                (Some(2), Some(2))
            ]
        );
    }

    #[test]
    fn verdicts() {
        assert_eq!(
            verdict("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 32.0, 4.0),
            "better"
        );
        assert_eq!(
            verdict(
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                0.0,
                31.0
            ),
            "worse"
        );
        assert_eq!(
            verdict("sm__maximum_warps_per_active_cycle_pct", 50.0, 100.0),
            "better"
        );
        assert_eq!(verdict("launch__grid_size", 1.0, 2.0), "");
    }
}
