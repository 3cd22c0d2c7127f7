//! The memory chart, after Nsight Compute's "Memory Workload Analysis" chart: the kernel on the
//! left, the units it talks to (shared memory, L1/TEX, the constant cache), then L2 and device
//! memory, with the traffic on each link under its Nsight Compute metric name.
//!
//! Every number is read from the launch's metrics by their `crate::metrics::Metric` id. Links
//! and boxes whose metrics the report does not hold are drawn dashed and say "not modelled yet".

use std::collections::BTreeMap;

use svg::node::element::{Definitions, Line, Marker, Path, Rectangle, TSpan, Text, Title};
use svg::Document;

use super::fmt_metric;
use crate::metrics::Metric;

/// One piece of a label: plain text, or a metric's value.
enum Piece {
    Text(&'static str),
    Metric(Metric),
}
use Piece::{Metric as M, Text as T};

struct Unit {
    name: &'static str,
    x: u32,
    y: u32,
    w: u32,
    h: u32,
    /// Lines inside the box.
    inner: Vec<Vec<Piece>>,
}

struct Link {
    from: usize,
    to: usize,
    lines: Vec<Vec<Piece>>,
}

/// Whether any metric of the pieces is present, and all are.
fn presence(lines: &[Vec<Piece>], m: &BTreeMap<String, f64>) -> (bool, bool) {
    let names: Vec<&str> = lines
        .iter()
        .flatten()
        .filter_map(|p| match p {
            Piece::Metric(n) => Some(n.name()),
            Piece::Text(_) => None,
        })
        .collect();
    (
        names.iter().any(|n| m.contains_key(*n)),
        names.iter().all(|n| m.contains_key(*n)),
    )
}

fn text_line(x: u32, y: u32, pieces: &[Piece], m: &BTreeMap<String, f64>, anchor: &str) -> Text {
    let mut t = Text::new("")
        .set("x", x)
        .set("y", y)
        .set("class", "chart-label")
        .set("text-anchor", anchor);
    for p in pieces {
        match p {
            Piece::Text(s) => t = t.add(TSpan::new(*s)),
            Piece::Metric(metric) => match m.get(metric.name()) {
                Some(v) => {
                    let d = metric.def();
                    t = t.add(
                        TSpan::new(fmt_metric(d.name, *v))
                            .set("class", "num")
                            .set("data-metric", d.name)
                            .add(Title::new(format!("{}: {}", d.name, d.description))),
                    )
                }
                None => t = t.add(TSpan::new("—").set("class", "absent")),
            },
        }
    }
    t
}

/// Draws the chart for a launch's metrics.
pub fn draw(m: &BTreeMap<String, f64>) -> String {
    let has = |k: Metric| m.get(k.name()).copied().unwrap_or(0.0) > 0.0;
    let units = vec![
        Unit {
            name: "Kernel",
            x: 6,
            y: 150,
            w: 124,
            h: 80,
            inner: vec![vec![M(Metric::PtxInstExecuted), T(" warp inst")]],
        },
        Unit {
            name: "Shared memory",
            x: 420,
            y: 20,
            w: 170,
            h: 70,
            inner: vec![vec![T("32 banks × 4 bytes")]],
        },
        Unit {
            name: "L1/TEX cache",
            x: 420,
            y: 150,
            w: 170,
            h: 80,
            inner: vec![vec![T("hit rate "), M(Metric::L1HitRate)]],
        },
        Unit {
            name: "Constant cache",
            x: 420,
            y: 290,
            w: 170,
            h: 60,
            inner: vec![],
        },
        Unit {
            name: "L2 cache",
            x: 790,
            y: 150,
            w: 130,
            h: 80,
            inner: vec![vec![T("hit rate "), M(Metric::L2HitRate)]],
        },
        Unit {
            name: "Device memory",
            x: 790,
            y: 290,
            w: 130,
            h: 80,
            inner: vec![vec![T("HBM3e")]],
        },
    ];
    let mut shared = vec![
        vec![
            T("ld "),
            M(Metric::SharedLdInst),
            T(" inst · "),
            M(Metric::SharedLdWavefronts),
            T(" wf · "),
            M(Metric::SharedLdConflicts),
            T(" conflicts"),
        ],
        vec![
            T("st "),
            M(Metric::SharedStInst),
            T(" inst · "),
            M(Metric::SharedStWavefronts),
            T(" wf · "),
            M(Metric::SharedStConflicts),
            T(" conflicts"),
        ],
    ];
    if has(Metric::SharedAtomInst) {
        shared.push(vec![
            T("atom "),
            M(Metric::SharedAtomInst),
            T(" inst · "),
            M(Metric::SharedAtomWavefronts),
            T(" wf"),
        ]);
    }
    let mut l1 = vec![
        vec![
            T("global ld "),
            M(Metric::GlobalLdRequests),
            T(" req · "),
            M(Metric::GlobalLdSectors),
            T(" sectors"),
        ],
        vec![
            T("global st "),
            M(Metric::GlobalStRequests),
            T(" req · "),
            M(Metric::GlobalStSectors),
            T(" sectors"),
        ],
    ];
    for (what, req, sec) in [
        (
            "global atom ",
            Metric::GlobalAtomRequests,
            Metric::GlobalAtomSectors,
        ),
        (
            "global red ",
            Metric::GlobalRedRequests,
            Metric::GlobalRedSectors,
        ),
        ("local ld ", Metric::LocalLdRequests, Metric::LocalLdSectors),
        ("local st ", Metric::LocalStRequests, Metric::LocalStSectors),
    ] {
        if has(req) {
            l1.push(vec![T(what), M(req), T(" req · "), M(sec), T(" sectors")]);
        }
    }
    let links = vec![
        Link {
            from: 0,
            to: 1,
            lines: shared,
        },
        Link {
            from: 0,
            to: 2,
            lines: l1,
        },
        Link {
            from: 0,
            to: 3,
            lines: vec![vec![
                M(Metric::ConstInst),
                T(" loads · "),
                M(Metric::ConstRequests),
                T(" requests"),
            ]],
        },
        Link {
            from: 2,
            to: 4,
            lines: vec![
                vec![T("rd "), M(Metric::L2ReadSectors), T(" sectors")],
                vec![T("wr "), M(Metric::L2WriteSectors), T(" sectors")],
            ],
        },
        Link {
            from: 4,
            to: 5,
            lines: vec![
                vec![T("rd "), M(Metric::DramBytesRead), T(" B")],
                vec![T("wr "), M(Metric::DramBytesWrite), T(" B")],
            ],
        },
    ];
    let (w, h) = (1000u32, 380u32);
    let mut doc = Document::new()
        .set("viewBox", (0, 0, w, h))
        .set("width", w)
        .set("height", h)
        .set("class", "chart-svg")
        .set("role", "img")
        .add(Title::new("memory chart"))
        .add(
            Definitions::new().add(
                Marker::new()
                    .set("id", "arrow")
                    .set("viewBox", (0, 0, 10, 10))
                    .set("refX", 9)
                    .set("refY", 5)
                    .set("markerWidth", 7)
                    .set("markerHeight", 7)
                    .set("orient", "auto-start-reverse")
                    .add(Path::new().set("d", "M 0 0 L 10 5 L 0 10 z")),
            ),
        );
    for l in &links {
        let (a, b) = (&units[l.from], &units[l.to]);
        // From the kernel, the links fan out from its right edge (top, middle, bottom).
        let (x1, y1) = if l.from == 0 {
            let y = match l.to {
                1 => a.y + 12,
                3 => a.y + a.h - 12,
                _ => a.y + a.h / 2,
            };
            (a.x + a.w, y)
        } else {
            (a.x + a.w, a.y + a.h / 2)
        };
        // A unit below its source (device memory under L2) is reached from the bottom edge.
        let below = l.from != 0 && b.y > a.y + a.h;
        let (x1, y1) = if below {
            (a.x + a.w / 2, a.y + a.h)
        } else {
            (x1, y1)
        };
        let (x2, y2) = if below {
            (b.x + b.w / 2, b.y + 2)
        } else {
            (b.x - 2, b.y + b.h / 2)
        };
        let (any, all) = presence(&l.lines, m);
        let idle = all && l.lines.iter().flatten().all(
            |p| !matches!(p, Piece::Metric(n) if m.get(n.name()).copied().unwrap_or(0.0) != 0.0),
        );
        let class = if idle {
            "flow idle"
        } else if all {
            "flow"
        } else if any {
            "flow partial"
        } else {
            "flow absent"
        };
        doc = doc.add(
            Line::new()
                .set("class", class)
                .set("x1", x1)
                .set("y1", y1)
                .set("x2", x2)
                .set("y2", y2)
                .set("marker-end", "url(#arrow)"),
        );
        // Labels: from the kernel, near the arrow's far end, right-aligned to leave the start
        // free; between units, above the arrow's middle; downwards, right of the arrow.
        let n = l.lines.len() as u32;
        let (lx, anchor, top) = if below {
            (x1 + 8, "start", (y1 + y2) / 2 + 4 - 7 * n.saturating_sub(1))
        } else if l.from == 0 && y2 < y1 {
            (x2 - 8, "end", y2 - 6 - 15 * n.saturating_sub(1))
        } else if l.from == 0 && y2 > y1 {
            (x2 - 8, "end", y2 + 18)
        } else if l.from == 0 {
            (x2 - 8, "end", y2 - 8 - 15 * n.saturating_sub(1))
        } else {
            ((x1 + x2) / 2, "middle", y2 - 8 - 15 * n.saturating_sub(1))
        };
        if any {
            for (i, line) in l.lines.iter().enumerate() {
                doc = doc.add(text_line(lx, top + 15 * i as u32, line, m, anchor));
            }
        } else {
            doc = doc.add(
                Text::new("not modelled yet")
                    .set("x", lx)
                    .set("y", top)
                    .set("class", "chart-label absent")
                    .set("text-anchor", anchor),
            );
        }
    }
    for u in &units {
        let (any, _) = presence(&u.inner, m);
        let modelled = any
            || u.inner.is_empty()
            || !u
                .inner
                .iter()
                .flatten()
                .any(|p| matches!(p, Piece::Metric(_)));
        let off = match u.name {
            "L2 cache" => !any,
            "Device memory" => !m.contains_key(Metric::DramBytesRead.name()),
            _ => false,
        };
        doc = doc.add(
            Rectangle::new()
                .set("class", if off { "unit absent" } else { "unit" })
                .set("x", u.x)
                .set("y", u.y)
                .set("width", u.w)
                .set("height", u.h)
                .set("rx", 6),
        );
        doc = doc.add(
            Text::new(u.name)
                .set("x", u.x + u.w / 2)
                .set("y", u.y + 24)
                .set("class", "unit-name")
                .set("text-anchor", "middle"),
        );
        for (i, line) in u.inner.iter().enumerate() {
            let y = u.y + 46 + 16 * i as u32;
            if modelled {
                doc = doc.add(text_line(u.x + u.w / 2, y, line, m, "middle"));
            } else {
                doc = doc.add(
                    Text::new("not modelled yet")
                        .set("x", u.x + u.w / 2)
                        .set("y", y)
                        .set("class", "chart-label absent")
                        .set("text-anchor", "middle"),
                );
            }
        }
    }
    doc.to_string()
}
