//! The HTML report: one self-contained file (inline CSS, SVG and a few lines of script; no
//! network, fonts or external files) drawn from the same [`Report`] the JSON holds, with its
//! launch [`detail`](crate::report::detail) recorded.
//!
//! Per launch: a summary (each number under its Nsight Compute metric name, shown on hover),
//! the memory chart ([`chart`]), the source annotated with each line's counters and a heat
//! colour for its share of the launch's memory cost (shared wavefronts + L1TEX sectors +
//! constant requests), the worst lines flagged with the text report's finding and fix, the PTX
//! of a line on demand; bank diagrams ([`bank`]) for the shared-memory instructions and sector
//! maps ([`sectors`]) for the global and local ones, texel maps ([`texels`]) for the texture
//! and surface ones, each for the worst and a typical warp instance; and the occupancy graphs
//! ([`occupancy`]).
//!
//! Pages are rendered with the `minijinja` template engine (templates in `templates/`, HTML
//! auto-escaped); the diagrams are SVG built with the `svg` crate. Every number shown in a
//! summary, a table or the chart carries `data-metric="NAME"`, so a browser test can compare it
//! with the JSON report.

pub mod bank;
pub mod chart;
pub mod occupancy;
pub mod sectors;
pub mod texels;

use std::collections::BTreeMap;

use minijinja::Environment;
use serde::Serialize;
use thiserror::Error;

use super::detail::LaunchDetail;
use super::sample::{InstSample, TexSample};
use super::text::{line_findings, thousands};
use super::{LaunchReport, Report};
use crate::gpu::config::GpuConfig;
use crate::mem::request::{AccessKind, Space};
use crate::mem::shared_banks::shared_wavefronts;
use crate::metrics::Metric;

/// Why a page could not be rendered (a template error: a bug, not a user's mistake).
#[derive(Debug, Error)]
#[error("HTML template error: {0}")]
pub struct HtmlError(#[from] minijinja::Error);

const STYLE: &str = include_str!("templates/style.css");
const SCRIPT: &str = include_str!("templates/script.js");
const BASE: &str = include_str!("templates/base.html");
const REPORT: &str = include_str!("templates/report.html");
const DIFF: &str = include_str!("templates/diff.html");

/// Most diagrams drawn per kind and launch (the instructions of highest total cost).
const MAX_DIAGRAMS: usize = 8;

/// The template environment with every page.
pub(crate) fn environment() -> Result<Environment<'static>, HtmlError> {
    let mut env = Environment::new();
    env.add_template("base.html", BASE)?;
    env.add_template("report.html", REPORT)?;
    env.add_template("diff.html", DIFF)?;
    Ok(env)
}

/// A metric's value as the report shows it: percentages with one decimal, counts with
/// thousands separators, anything else with two decimals.
pub fn fmt_metric(name: &str, v: f64) -> String {
    if name.ends_with(".pct") || name.ends_with("_pct") {
        format!("{v:.1}%")
    } else if v.fract() == 0.0 && v.abs() < 1e18 {
        let s = thousands(v.abs() as u64);
        if v < 0.0 {
            format!("-{s}")
        } else {
            s
        }
    } else {
        format!("{v:.2}")
    }
}

/// The metrics whose sum is a line's or a launch's memory cost: shared wavefronts, L1TEX
/// sectors of the LSU pipe (the totals, not their L1 lookup hits and misses) and constant
/// requests.
const COST: [Metric; 9] = [
    Metric::SharedLdWavefronts,
    Metric::SharedStWavefronts,
    Metric::SharedAtomWavefronts,
    Metric::GlobalLdSectors,
    Metric::GlobalStSectors,
    Metric::GlobalAtomSectors,
    Metric::GlobalRedSectors,
    Metric::LocalLdSectors,
    Metric::LocalStSectors,
];

/// The memory cost of a set of metrics: the sum of [`COST`] and the constant requests.
pub fn memory_cost<'a>(metrics: impl IntoIterator<Item = (&'a String, f64)>) -> f64 {
    metrics
        .into_iter()
        .filter(|(k, _)| {
            Metric::by_name(k).is_some_and(|m| COST.contains(&m) || m == Metric::ConstRequests)
        })
        .map(|(_, v)| v)
        .sum()
}

#[derive(Serialize)]
struct Row {
    label: String,
    value: String,
    metric: Option<String>,
    hint: String,
}

#[derive(Serialize)]
struct SrcRow {
    n: u32,
    text: String,
    cost: String,
    heat: String,
    badges: Vec<String>,
    tip: String,
    ptx: Vec<String>,
    findings: Vec<String>,
    rank: Option<usize>,
}

#[derive(Serialize)]
struct SourceView {
    file: String,
    rows: Vec<SrcRow>,
}

#[derive(Serialize)]
struct Drawing {
    which: &'static str,
    caption: String,
    svg: String,
    cost: u32,
}

#[derive(Serialize)]
struct Diagram {
    file: String,
    line: u32,
    code: String,
    ptx: String,
    op: &'static str,
    space: &'static str,
    width: u32,
    summary: String,
    histogram: String,
    drawings: Vec<Drawing>,
}

#[derive(Serialize)]
struct LaunchView {
    n: usize,
    id: String,
    kernel: String,
    config: String,
    summary: Vec<Row>,
    all_metrics: Vec<Row>,
    chart: String,
    sources: Vec<SourceView>,
    banks: Vec<Diagram>,
    sectors: Vec<Diagram>,
    texels: Vec<Diagram>,
    occupancy: Vec<String>,
    occupancy_note: String,
    printf: String,
    has_detail: bool,
}

#[derive(Serialize)]
struct Page {
    title: String,
    spec: String,
    gpu: String,
    isa: String,
    version: &'static str,
    style: &'static str,
    script: &'static str,
    launches: Vec<LaunchView>,
}

/// Renders the report as one HTML page.
pub fn render(r: &Report, gpu: &GpuConfig) -> Result<String, HtmlError> {
    let page = Page {
        title: format!("gpumemsim: {}", r.spec),
        spec: r.spec.clone(),
        gpu: gpu.full_name.to_string(),
        isa: crate::report::text::isa_line(r),
        version: env!("CARGO_PKG_VERSION"),
        style: STYLE,
        script: SCRIPT,
        launches: r
            .launches
            .iter()
            .enumerate()
            .map(|(i, l)| launch_view(i + 1, l, gpu))
            .collect(),
    };
    let env = environment()?;
    Ok(env
        .get_template("report.html")?
        .render(minijinja::value::Serde(&page))?)
}

fn m(l: &LaunchReport, k: Metric) -> f64 {
    l.metrics.get(k.name()).copied().unwrap_or(0.0)
}

/// A summary row of `metric`, when the launch has it; its hint is the metric's name and
/// description.
fn metric_row(l: &LaunchReport, label: &str, metric: Metric) -> Option<Row> {
    let d = metric.def();
    l.metrics.get(d.name).map(|v| Row {
        label: label.to_string(),
        value: fmt_metric(d.name, *v),
        metric: Some(d.name.to_string()),
        hint: format!("{}: {}", d.name, d.description),
    })
}

fn summary(l: &LaunchReport) -> Vec<Row> {
    let mut rows = Vec::new();
    let plain = |label: &str, value: String, hint: &str| Row {
        label: label.into(),
        value,
        metric: None,
        hint: hint.into(),
    };
    rows.push(plain(
        "launch",
        launch_config(l),
        "kernel<<<grid, block, dynamic shared bytes>>>",
    ));
    rows.extend(metric_row(
        l,
        "registers per thread (allocated)",
        Metric::RegistersPerThread,
    ));
    if let Some(r) = &l.resources {
        rows.push(plain(
            "ptxas",
            format!(
                "{} registers, {} B spill stores, {} B spill loads, {} B stack, {} B static shared",
                r.registers, r.spill_stores, r.spill_loads, r.stack_frame, r.static_shared
            ),
            "ptxas -v resource usage",
        ));
    } else {
        rows.push(plain(
            "ptxas",
            "not known (this PTX has no ptxas figures; `gpumemsim compile SPEC` records them)"
                .into(),
            "",
        ));
    }
    rows.extend(metric_row(
        l,
        "theoretical occupancy",
        Metric::MaximumWarpsPct,
    ));
    if let Some(lim) = &l.occupancy_limiter {
        rows.push(plain(
            "occupancy limited by",
            lim.clone(),
            "the launch__occupancy_limit_* that binds",
        ));
    }
    for (label, name) in [
        ("shared load wavefronts", Metric::SharedLdWavefronts),
        ("shared load bank conflicts", Metric::SharedLdConflicts),
        ("shared store wavefronts", Metric::SharedStWavefronts),
        ("shared store bank conflicts", Metric::SharedStConflicts),
        ("global load requests", Metric::GlobalLdRequests),
        ("global load sectors", Metric::GlobalLdSectors),
        ("global store requests", Metric::GlobalStRequests),
        ("global store sectors", Metric::GlobalStSectors),
    ] {
        rows.extend(metric_row(l, label, name));
    }
    for (label, req, sec) in [
        (
            "global load sectors per request",
            Metric::GlobalLdRequests,
            Metric::GlobalLdSectors,
        ),
        (
            "global store sectors per request",
            Metric::GlobalStRequests,
            Metric::GlobalStSectors,
        ),
    ] {
        if m(l, req) > 0.0 {
            rows.push(plain(
                label,
                format!("{:.2}", m(l, sec) / m(l, req)),
                &format!("{} / {}", sec.name(), req.name()),
            ));
        }
    }
    for (label, name) in [
        ("local load sectors", Metric::LocalLdSectors),
        ("local store sectors", Metric::LocalStSectors),
        ("constant requests", Metric::ConstRequests),
        ("texture fetches", Metric::TexInst),
        ("constant serialization", Metric::ConstSerialization),
    ] {
        if m(l, name) > 0.0 {
            rows.extend(metric_row(l, label, name));
        }
    }
    // Filled in as the cache, texture and timing models add their metrics.
    for (label, name) in [
        ("L1 hit rate", Metric::L1HitRate),
        ("L2 hit rate", Metric::L2HitRate),
        ("DRAM bytes read", Metric::DramBytesRead),
        ("DRAM bytes written", Metric::DramBytesWrite),
    ] {
        rows.extend(metric_row(l, label, name));
    }
    rows.extend(metric_row(
        l,
        "warp instructions (PTX)",
        Metric::PtxInstExecuted,
    ));
    rows.extend(metric_row(
        l,
        "warp instructions (SASS)",
        Metric::InstExecuted,
    ));
    rows.extend(metric_row(
        l,
        "thread instructions (SASS)",
        Metric::SassThreadInstExecuted,
    ));
    if let Some(mix) = &l.inst_mix {
        rows.push(plain(
            "instruction mix",
            mix.render_classes(),
            "warp-level executions by class of opcode (sections of the Hopper instruction set table)",
        ));
        rows.push(plain(
            "top opcodes",
            mix.render_top_opcodes(8),
            "sass__inst_executed_per_opcode",
        ));
    }
    rows
}

fn launch_config(l: &LaunchReport) -> String {
    format!(
        "{}<<<({},{},{}), ({},{},{}), {}>>>",
        l.kernel, l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], l.shared
    )
}

fn launch_view(n: usize, l: &LaunchReport, gpu: &GpuConfig) -> LaunchView {
    let all_metrics = l
        .metrics
        .iter()
        .map(|(k, v)| Row {
            label: k.clone(),
            value: fmt_metric(k, *v),
            metric: Some(k.clone()),
            hint: k.clone(),
        })
        .collect();
    let (banks, sectors) = match &l.detail {
        Some(d) => diagrams(l, d, gpu),
        None => (Vec::new(), Vec::new()),
    };
    let texels = l
        .detail
        .as_ref()
        .map(|d| texel_diagrams(l, d))
        .unwrap_or_default();
    let (occupancy, occupancy_note) = match l.detail.as_ref().and_then(|d| d.occupancy.as_ref()) {
        Some(p) => {
            let input = p.clone();
            let g = occupancy::graphs(gpu, &input);
            (
                g.iter()
                    .map(|g| occupancy::draw(g, gpu.max_warps_per_sm))
                    .collect(),
                format!(
                    "{} threads per block, {} registers per thread, {} bytes of shared memory per block (static {} + dynamic {}); the marked point is this launch",
                    p.block_threads,
                    p.regs_per_thread,
                    p.static_shared + p.dynamic_shared,
                    p.static_shared,
                    p.dynamic_shared
                ),
            )
        }
        None => (
            Vec::new(),
            "not known: this PTX has no ptxas register figures (`gpumemsim compile SPEC` records them from the .cu)".into(),
        ),
    };
    LaunchView {
        n,
        id: format!("l{n}"),
        kernel: l.kernel.clone(),
        config: launch_config(l),
        summary: summary(l),
        all_metrics,
        chart: chart::draw(&l.metrics),
        sources: l.detail.as_ref().map(|d| sources(l, d)).unwrap_or_default(),
        banks,
        sectors,
        texels,
        occupancy,
        occupancy_note,
        printf: l.printf.clone(),
        has_detail: l.detail.is_some(),
    }
}

/// The heat colour of a share (0..1) of the launch's memory cost.
fn heat(share: f64) -> String {
    if share <= 0.0 {
        return String::new();
    }
    // At least faintly visible; red at the top.
    let a = 0.12 + 0.68 * share.clamp(0.0, 1.0).sqrt();
    format!("rgba(230,60,30,{a:.2})")
}

fn sources(l: &LaunchReport, d: &LaunchDetail) -> Vec<SourceView> {
    let total = memory_cost(l.metrics.iter().map(|(k, v)| (k, *v)));
    let sh_wf = (m(l, Metric::SharedLdWavefronts) + m(l, Metric::SharedStWavefronts)) as u64;
    // Findings of every line, ranked over the launch.
    let mut ranked: Vec<(u64, String, u32)> = Vec::new();
    for ln in &l.lines {
        for (waste, _) in line_findings(ln, sh_wf) {
            ranked.push((waste, ln.file.clone(), ln.line));
        }
    }
    ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
    ranked.dedup_by(|a, b| a.1 == b.1 && a.2 == b.2);
    let mut out = Vec::new();
    for f in &d.sources {
        let mut rows = Vec::new();
        for (i, text) in f.lines.iter().enumerate() {
            let n = i as u32 + 1;
            let lr = l.lines.iter().find(|x| x.file == f.file && x.line == n);
            let ptx: Vec<String> = match lr.filter(|lr| !lr.sass.is_empty()) {
                // Under SASS: the line's instructions as Nsight Compute's Source page lists
                // them (address, instructions executed, instruction).
                Some(lr) => lr
                    .sass
                    .iter()
                    .map(|i| {
                        format!(
                            "/*{:04x}*/ {:>12}  {}",
                            i.address,
                            thousands(i.executed),
                            i.text
                        )
                    })
                    .collect(),
                None => d
                    .ptx
                    .iter()
                    .filter(|p| p.file == f.file && p.line == n)
                    .map(|p| format!("{:>5}  {}", p.ptx_line, p.text))
                    .collect(),
            };
            let (cost, badges, tip, findings) = match lr {
                Some(lr) => {
                    let c = memory_cost(lr.metrics.iter().map(|(k, v)| (k, *v as f64)));
                    let mut badges = Vec::new();
                    if lr.max_way > 1 {
                        badges.push(format!("{}-way", lr.max_way));
                    }
                    let get = |k: Metric| lr.metrics.get(k.name()).copied().unwrap_or(0);
                    let wf = get(Metric::SharedLdWavefronts)
                        + get(Metric::SharedStWavefronts)
                        + get(Metric::SharedAtomWavefronts);
                    if wf > 0 {
                        badges.push(format!("{} wf", thousands(wf)));
                    }
                    use Metric::*;
                    let sec: u64 = [
                        GlobalLdSectors,
                        GlobalStSectors,
                        GlobalAtomSectors,
                        GlobalRedSectors,
                        LocalLdSectors,
                        LocalStSectors,
                    ]
                    .map(get)
                    .iter()
                    .sum();
                    let req: u64 = [
                        GlobalLdRequests,
                        GlobalStRequests,
                        GlobalAtomRequests,
                        GlobalRedRequests,
                        LocalLdRequests,
                        LocalStRequests,
                    ]
                    .map(get)
                    .iter()
                    .sum();
                    if sec > 0 {
                        badges.push(format!(
                            "{} sect ({:.1}/req)",
                            thousands(sec),
                            sec as f64 / req.max(1) as f64
                        ));
                    }
                    if let Some((c, (l1, l1h))) = lr
                        .cache
                        .as_ref()
                        .map(|c| (c, l1_lookups(c)))
                        .filter(|x| x.1 .0 > 0)
                    {
                        badges.push(format!("L1 {:.0}% hit", 100.0 * l1h as f64 / l1 as f64));
                        if c.l2_sectors > 0 {
                            badges.push(format!(
                                "L2 {:.0}% hit",
                                100.0 * c.l2_hits as f64 / c.l2_sectors as f64
                            ));
                        }
                    }
                    let cr = get(Metric::ConstRequests);
                    if cr > 0 {
                        badges.push(format!("{} const req", thousands(cr)));
                    }
                    let inst = get(Metric::InstExecuted);
                    if inst > 0 {
                        badges.push(format!("{} inst", thousands(inst)));
                    }
                    let mut tip: Vec<String> = lr
                        .metrics
                        .iter()
                        .map(|(k, v)| format!("{k} = {}", thousands(*v)))
                        .collect();
                    if let Some(c) = &lr.cache {
                        let (l1, l1h) = l1_lookups(c);
                        tip.push(format!(
                            "caches: L1 {} of {} sectors hit, L2 {} of {}, DRAM {} sectors read, {} written",
                            thousands(l1h),
                            thousands(l1),
                            thousands(c.l2_hits),
                            thousands(c.l2_sectors),
                            thousands(c.dram_read_sectors),
                            thousands(c.dram_write_sectors)
                        ));
                    }
                    let fs = line_findings(lr, sh_wf)
                        .into_iter()
                        .map(|(_, t)| t)
                        .collect();
                    (c, badges, tip.join("\n"), fs)
                }
                None => (0.0, Vec::new(), String::new(), Vec::new()),
            };
            let rank = ranked
                .iter()
                .take(5)
                .position(|r| r.1 == f.file && r.2 == n)
                .map(|p| p + 1);
            rows.push(SrcRow {
                n,
                text: text.clone(),
                cost: if cost > 0.0 {
                    format!("{:.1}%", 100.0 * cost / total.max(1.0))
                } else {
                    String::new()
                },
                heat: heat(cost / total.max(1.0)),
                badges,
                tip,
                ptx,
                findings,
                rank,
            });
        }
        out.push(SourceView {
            file: f.file.clone(),
            rows,
        });
    }
    if out.is_empty() {
        // No source: the PTX itself, with each memory instruction's cost.
        let by_pc: BTreeMap<u32, &InstSample> = d.samples.iter().map(|s| (s.pc, s)).collect();
        let total: u64 = d.samples.iter().map(|s| s.total_cost).sum();
        let rows = d
            .ptx
            .iter()
            .enumerate()
            .map(|(pc, p)| {
                let s = by_pc.get(&(pc as u32));
                let c = s.map_or(0, |s| s.total_cost);
                SrcRow {
                    n: p.ptx_line,
                    text: p.text.clone(),
                    cost: if c > 0 {
                        format!("{:.1}%", 100.0 * c as f64 / total.max(1) as f64)
                    } else {
                        String::new()
                    },
                    heat: heat(c as f64 / total.max(1) as f64),
                    badges: s
                        .map(|s| vec![format!("{} {}", thousands(s.total_cost), s.unit)])
                        .unwrap_or_default(),
                    tip: String::new(),
                    ptx: Vec::new(),
                    findings: Vec::new(),
                    rank: None,
                }
            })
            .collect();
        out.push(SourceView {
            file: d.ptx_file.clone(),
            rows,
        });
    }
    out
}

/// L1 sector lookups of a line, loads and stores together, and the hits among them.
fn l1_lookups(c: &super::LineCaches) -> (u64, u64) {
    (
        c.l1_load_sectors + c.l1_store_sectors,
        c.l1_load_hits + c.l1_store_hits,
    )
}

fn kind_of(op: &str) -> AccessKind {
    match op {
        "st" => AccessKind::Store,
        "atom" => AccessKind::Atomic,
        "red" => AccessKind::Reduction,
        _ => AccessKind::Load,
    }
}

fn histogram(s: &InstSample) -> String {
    histogram_of(&s.histogram)
}

/// `n noun` or `n nouns`, `n` with thousands separators.
fn counted(n: u64, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// `cost in executions, ...`, lowest cost first.
fn histogram_of(h: &[(u32, u64)]) -> String {
    h.iter()
        .map(|(c, n)| format!("{c} in {}", thousands(*n)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The source file, line, source text and PTX (or SASS) text of instruction `pc`, which
/// accesses `width` bytes per lane.
fn head(l: &LaunchReport, d: &LaunchDetail, pc: u32, width: u32) -> (String, u32, String, String) {
    let p = &d.ptx[pc as usize];
    let code = l
        .lines
        .iter()
        .find(|x| x.file == p.file && x.line == p.line)
        .map(|x| x.text.clone())
        .unwrap_or_default();
    let merged = if p.merged > 1 {
        format!(
            " (with the next {} loads or stores: the lowering merges consecutive accesses into one {width}-byte access, as ptxas does)",
            p.merged - 1
        )
    } else {
        String::new()
    };
    (
        p.file.clone(),
        p.line,
        code,
        format!("{}  {}{merged}", p.ptx_line, p.text),
    )
}

/// The caches' record of a source line (all its instructions, all executions), as a caption
/// clause; empty when the line made no L1 lookups.
fn line_caches(l: &LaunchReport, file: &str, line: u32) -> String {
    l.lines
        .iter()
        .find(|x| x.file == file && x.line == line)
        .and_then(|x| x.cache.as_ref())
        .map(|c| (c, l1_lookups(c)))
        .filter(|(_, (l1, _))| *l1 > 0)
        .map(|(c, (l1, l1h))| {
            format!(
                "; caches, whole line: L1 hit {} of {} sectors ({:.0}%), L2 hit {} of {}, DRAM read {} sectors",
                thousands(l1h),
                thousands(l1),
                100.0 * l1h as f64 / l1 as f64,
                thousands(c.l2_hits),
                thousands(c.l2_sectors),
                thousands(c.dram_read_sectors)
            )
        })
        .unwrap_or_default()
}

fn diagrams(l: &LaunchReport, d: &LaunchDetail, gpu: &GpuConfig) -> (Vec<Diagram>, Vec<Diagram>) {
    let mut shared: Vec<&InstSample> = d.samples.iter().filter(|s| s.space == "shared").collect();
    let mut global: Vec<&InstSample> = d
        .samples
        .iter()
        .filter(|s| s.space == "global" || s.space == "local")
        .collect();
    // One diagram per source line and access (an unrolled loop puts many instructions on one
    // line): the instruction of the highest total cost stands for them; the lines of highest
    // cost are drawn.
    let key = |s: &InstSample| {
        let p = &d.ptx[s.pc as usize];
        (p.file.clone(), p.line, s.space, s.op, s.width)
    };
    // (instructions, total cost, executions) per (file, line, space, op, width).
    type Key<'k> = (String, u32, &'k str, &'k str, u32);
    let mut siblings: BTreeMap<Key, (usize, u64, u64)> = BTreeMap::new();
    for s in &d.samples {
        let e = siblings.entry(key(s)).or_default();
        e.0 += 1;
        e.1 += s.total_cost;
        e.2 += s.executions;
    }
    for v in [&mut shared, &mut global] {
        v.sort_by_key(|s| (std::cmp::Reverse(s.total_cost), s.pc));
        let mut seen = std::collections::BTreeSet::new();
        v.retain(|s| {
            let p = &d.ptx[s.pc as usize];
            // Without `.loc`, every instruction is its own line.
            p.line == 0 || seen.insert(key(s))
        });
        v.sort_by_key(|s| (std::cmp::Reverse(siblings[&key(s)].1), s.pc));
        v.truncate(MAX_DIAGRAMS);
        v.sort_by_key(|s| s.pc);
    }
    let also = |s: &InstSample| {
        let (n, cost, exec) = siblings[&key(s)];
        if n > 1 && d.ptx[s.pc as usize].line != 0 {
            format!(
                "; the line has {n} such instructions ({} executions, {} {} in all), drawn: the one of highest cost",
                thousands(exec),
                thousands(cost),
                s.unit
            )
        } else {
            String::new()
        }
    };
    let head = |s: &InstSample| head(l, d, s.pc, s.width);
    let banks = shared
        .into_iter()
        .map(|s| {
            let (file, line, code, ptx) = head(s);
            let kind = kind_of(s.op);
            let mut drawings = Vec::new();
            for (which, inst) in [("worst", &s.worst), ("typical", &s.typical)] {
                if which == "typical" && inst.cost == s.worst.cost {
                    continue;
                }
                let lay = bank::layout(inst, s.width, kind);
                let model = shared_wavefronts(
                    &bank::request(inst, s.width, kind, Space::Shared),
                    gpu,
                );
                let way = if model.max_way > 1 {
                    format!("{}-way bank conflict", model.max_way)
                } else {
                    "no bank conflict".into()
                };
                let phases = if lay.phases.len() > 1 {
                    format!(", {} phases of {} lanes", lay.phases.len(), lay.phases[0].end - lay.phases[0].first)
                } else {
                    String::new()
                };
                let shared_words: Vec<usize> = lay
                    .cells
                    .iter()
                    .filter(|c| c.lanes.len() > 1)
                    .map(|c| c.lanes.len())
                    .collect();
                let bcast = if shared_words.is_empty() {
                    String::new()
                } else {
                    format!(
                        ", broadcast: {} word{} read by several lanes at once (up to {})",
                        shared_words.len(),
                        if shared_words.len() == 1 { "" } else { "s" },
                        shared_words.iter().max().copied().unwrap_or(0)
                    )
                };
                let caption = format!(
                    "{which}: block ({},{},{}) warp {}: {} wavefront{} (ideal {}), {way}{phases}{bcast}; {} of {} executions cost this",
                    inst.block[0],
                    inst.block[1],
                    inst.block[2],
                    inst.warp,
                    model.wavefronts,
                    if model.wavefronts == 1 { "" } else { "s" },
                    model.ideal_wavefronts,
                    thousands(inst.executions),
                    thousands(s.executions)
                );
                drawings.push(Drawing {
                    which,
                    svg: bank::draw(inst, &lay, &caption),
                    caption,
                    cost: model.wavefronts,
                });
            }
            Diagram {
                file,
                line,
                code,
                ptx,
                op: s.op,
                space: s.space,
                width: s.width,
                summary: format!(
                    "{} executions, {} wavefronts in all{}",
                    thousands(s.executions),
                    thousands(s.total_cost),
                    also(s)
                ),
                histogram: histogram(s),
                drawings,
            }
        })
        .collect();
    let line_caches = |file: &str, line: u32| line_caches(l, file, line);
    let sectors = global
        .into_iter()
        .map(|s| {
            let (file, line, code, ptx) = head(s);
            let caches = line_caches(&file, line);
            let local = s.space == "local";
            let mut drawings = Vec::new();
            for (which, inst) in [("worst", &s.worst), ("typical", &s.typical)] {
                if which == "typical" && inst.cost == s.worst.cost {
                    continue;
                }
                let map = sectors::map(inst, s.width, local);
                let more = map.lines.len().saturating_sub(sectors::MAX_ROWS);
                let atomic = matches!(s.op, "atom" | "red");
                let caption = format!(
                    "{which}: block ({},{},{}) warp {}: {} sector{} in {} line{} of 128 bytes; {} bytes used of {} fetched ({:.0}%){}{}; {} of {} executions cost this",
                    inst.block[0],
                    inst.block[1],
                    inst.block[2],
                    inst.warp,
                    map.sectors.len(),
                    if map.sectors.len() == 1 { "" } else { "s" },
                    map.lines.len(),
                    if map.lines.len() == 1 { "" } else { "s" },
                    thousands(map.bytes_used),
                    thousands(map.bytes_fetched()),
                    100.0 * map.bytes_used as f64 / map.bytes_fetched().max(1) as f64,
                    if atomic {
                        format!("; the model charges {} sectors (same-address lanes are served one after another)", inst.cost)
                    } else {
                        String::new()
                    },
                    if more > 0 {
                        format!(" ({more} more lines not drawn)")
                    } else {
                        String::new()
                    },
                    thousands(inst.executions),
                    thousands(s.executions)
                );
                drawings.push(Drawing {
                    which,
                    svg: sectors::draw(inst, &map, &caption),
                    caption,
                    cost: inst.cost,
                });
            }
            Diagram {
                file,
                line,
                code,
                ptx,
                op: s.op,
                space: s.space,
                width: s.width,
                summary: format!(
                    "{} executions, {} sectors in all{}{}{}",
                    thousands(s.executions),
                    thousands(s.total_cost),
                    also(s),
                    caches,
                    if local {
                        "; local offsets drawn interleaved as the hardware stores them (4 bytes per lane in turn)"
                    } else {
                        ""
                    }
                ),
                histogram: histogram(s),
                drawings,
            }
        })
        .collect();
    (banks, sectors)
}

/// The texel maps of a launch: one per source line and instruction kind (the instruction of
/// highest total cost stands for a line's others), the lines of most sector lookups first, at
/// most [`MAX_DIAGRAMS`].
fn texel_diagrams(l: &LaunchReport, d: &LaunchDetail) -> Vec<Diagram> {
    let key = |s: &TexSample| {
        let p = &d.ptx[s.pc as usize];
        (p.file.clone(), p.line, s.op)
    };
    let mut siblings: BTreeMap<(String, u32, &str), (usize, u64)> = BTreeMap::new();
    for s in &d.tex_samples {
        let e = siblings.entry(key(s)).or_default();
        e.0 += 1;
        e.1 += s.total_cost;
    }
    let mut v: Vec<&TexSample> = d.tex_samples.iter().collect();
    v.sort_by_key(|s| (std::cmp::Reverse(s.total_cost), s.pc));
    let mut seen = std::collections::BTreeSet::new();
    v.retain(|s| d.ptx[s.pc as usize].line == 0 || seen.insert(key(s)));
    v.sort_by_key(|s| (std::cmp::Reverse(siblings[&key(s)].1), s.pc));
    v.truncate(MAX_DIAGRAMS);
    v.sort_by_key(|s| s.pc);
    v.into_iter()
        .map(|s| {
            let res = &s.resource;
            let (file, line, code, ptx) = head(l, d, s.pc, res.texel_bytes);
            let lanes_per_request = match s.op {
                "tex" | "tld4" => 4,
                _ => 8,
            };
            let mut drawings = Vec::new();
            for (which, inst) in [("worst", &s.worst), ("typical", &s.typical)] {
                if which == "typical" && inst.cost == s.worst.cost {
                    continue;
                }
                let m = texels::map(res, inst, lanes_per_request);
                let footprint = match m.per_lane {
                    0 => "no texel in memory (border)".to_string(),
                    1 => "1 texel per lane".to_string(),
                    4 if s.op == "tld4" => "4 texels per lane (a gather)".to_string(),
                    4 => "4 texels per lane (bilinear)".to_string(),
                    8 => "8 texels per lane (trilinear)".to_string(),
                    n => format!("up to {n} texels per lane"),
                };
                let row_major = match m.row_major_sectors {
                    Some(rm) => format!(
                        "; in a row-major buffer ({} bytes per row, as global loads would read the image) the same texels lie in {}",
                        thousands(u64::from(res.extent[0]) * u64::from(res.texel_bytes)),
                        counted(rm as u64, "sector")
                    ),
                    None => String::new(),
                };
                let cut = if m.not_drawn > 0 {
                    format!(
                        " ({} texels outside the drawn window{})",
                        thousands(m.not_drawn as u64),
                        if res.extent[2] > 1 { " or in other slices" } else { "" }
                    )
                } else {
                    String::new()
                };
                let caption = format!(
                    "{which}: block ({},{},{}) warp {}: {}, {footprint}, {} distinct texel{} in {} of 32 bytes ({} of 128){row_major}; the texture pipe looked up {} in {} (a request per {} lanes, each looks up its own sectors){cut}; {} of {} executions cost this",
                    inst.block[0],
                    inst.block[1],
                    inst.block[2],
                    inst.warp,
                    counted(inst.lanes.len() as u64, "lane"),
                    thousands(m.texels as u64),
                    if m.texels == 1 { "" } else { "s" },
                    counted(m.sectors.len() as u64, "sector"),
                    counted(m.lines as u64, "line"),
                    counted(u64::from(inst.cost), "sector"),
                    counted(u64::from(inst.requests), "request"),
                    lanes_per_request,
                    thousands(inst.executions),
                    thousands(s.executions)
                );
                drawings.push(Drawing {
                    which,
                    svg: texels::draw(&m, res, &caption),
                    caption,
                    cost: inst.cost,
                });
            }
            let (n, cost) = siblings[&key(s)];
            let also = if n > 1 && d.ptx[s.pc as usize].line != 0 {
                format!(
                    "; the line has {n} such instructions ({} sector lookups in all), drawn: the one of highest cost",
                    thousands(cost)
                )
            } else {
                String::new()
            };
            let where_ = match res.kind {
                "array" => format!(
                    "a {} CUDA array of {}-byte texels (block-linear)",
                    res.extent
                        .iter()
                        .take(if res.extent[2] > 1 { 3 } else if res.extent[1] > 1 { 2 } else { 1 })
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join(" x "),
                    res.texel_bytes
                ),
                "pitch2d" => format!(
                    "pitch-2D memory, {} x {} texels of {} bytes, {} bytes per row",
                    res.extent[0], res.extent[1], res.texel_bytes, res.pitch
                ),
                _ => format!("linear memory of {}-byte texels", res.texel_bytes),
            };
            let caches = line_caches(l, &file, line);
            Diagram {
                file,
                line,
                code,
                ptx,
                op: s.op,
                space: if matches!(s.op, "suld" | "sust") {
                    "surface"
                } else {
                    "texture"
                },
                width: res.texel_bytes,
                summary: format!(
                    "{where_}; {} executions, {} sector lookups in all{also}{caches}",
                    thousands(s.executions),
                    thousands(s.total_cost)
                ),
                histogram: histogram_of(&s.histogram),
                drawings,
            }
        })
        .collect()
}

/// Renders a page from the `diff` module's view.
pub(crate) fn render_template<S: Serialize>(name: &str, ctx: &S) -> Result<String, HtmlError> {
    let env = environment()?;
    Ok(env
        .get_template(name)?
        .render(minijinja::value::Serde(ctx))?)
}

/// The inline style and script, for other pages.
pub(crate) fn assets() -> (&'static str, &'static str) {
    (STYLE, SCRIPT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_cost_counts_totals_not_their_parts() {
        let m: BTreeMap<String, f64> = [
            ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 100.0),
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                60.0,
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
                40.0,
            ),
            ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 32.0),
            (
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                31.0,
            ),
            ("gpumemsim__const_requests.sum", 5.0),
            ("lts__t_sectors_srcunit_tex_op_read.sum", 100.0),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(memory_cost(m.iter().map(|(k, v)| (k, *v))), 137.0);
    }

    #[test]
    fn metrics_are_formatted_as_the_test_reads_them() {
        assert_eq!(fmt_metric("x.sum", 1_048_576.0), "1,048,576");
        assert_eq!(
            fmt_metric("sm__maximum_warps_per_active_cycle_pct", 87.5),
            "87.5%"
        );
        assert_eq!(fmt_metric("l1tex__t_sector_hit_rate.pct", 86.111), "86.1%");
        assert_eq!(fmt_metric("x.sum", -3.0), "-3");
        assert_eq!(fmt_metric("x.ratio", 4.25), "4.25");
    }
}
