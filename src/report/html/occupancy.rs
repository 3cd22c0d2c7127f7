//! The occupancy graphs, as the CUDA Occupancy Calculator draws them: resident warps per SM
//! against threads per block, registers per thread and shared memory per block, each with the
//! other two held at the launch's values and the launch marked. Every point is computed by
//! [`crate::gpu::occupancy::occupancy`], the calculator the report uses; a configuration that
//! cannot launch is drawn at 0.
//!
//! The shared-memory graph lifts the 48 KB default ceiling on dynamic shared memory (as if
//! `cudaFuncAttributeMaxDynamicSharedMemorySize` were raised to the opt-in maximum), so it shows
//! the whole range an SM offers, as the calculator's graph does.

use svg::node::element::{Circle, Line, Polyline, Title};
use svg::Document;

use super::bank::{label, label_mid};
use crate::gpu::config::GpuConfig;
use crate::gpu::occupancy::{occupancy, OccupancyInput};

/// One graph: its title, x-axis name, the points (x, warps), and the launch's point.
pub struct Graph {
    /// What varies.
    pub title: &'static str,
    /// The x axis unit.
    pub x_name: &'static str,
    /// (x, resident warps per SM).
    pub points: Vec<(u32, u32)>,
    /// The launch's (x, warps).
    pub at: (u32, u32),
    /// Largest x.
    pub x_max: u32,
}

fn warps(gpu: &GpuConfig, i: &OccupancyInput) -> u32 {
    occupancy(gpu, i).map(|o| o.active_warps).unwrap_or(0)
}

/// The three graphs for a launch with calculator input `input`.
pub fn graphs(gpu: &GpuConfig, input: &OccupancyInput) -> Vec<Graph> {
    let now = warps(gpu, input);
    let block: Vec<(u32, u32)> = (1..=gpu.max_threads_per_block / 32)
        .map(|w| {
            let mut i = input.clone();
            i.block_threads = w * 32;
            (w * 32, warps(gpu, &i))
        })
        .collect();
    let regs: Vec<(u32, u32)> = (1..=gpu.max_regs_per_thread)
        .map(|r| {
            let mut i = input.clone();
            i.regs_per_thread = r;
            (r, warps(gpu, &i))
        })
        .collect();
    let total = input.static_shared + input.dynamic_shared;
    let optin = gpu.max_shared_per_block_optin;
    let mut shared: Vec<(u32, u32)> = (0..=optin / 512)
        .filter_map(|k| {
            let bytes = k * 512;
            let dynamic = bytes.checked_sub(input.static_shared)?;
            let mut i = input.clone();
            i.dynamic_shared = dynamic;
            i.max_dynamic_shared = Some(optin.saturating_sub(input.static_shared));
            Some((bytes, warps(gpu, &i)))
        })
        .collect();
    if !shared.iter().any(|p| p.0 == total) {
        shared.push((total, now));
        shared.sort_unstable();
    }
    vec![
        Graph {
            title: "threads per block",
            x_name: "threads per block",
            points: block,
            at: (input.block_threads, now),
            x_max: gpu.max_threads_per_block,
        },
        Graph {
            title: "registers per thread",
            x_name: "registers per thread",
            points: regs,
            at: (input.regs_per_thread, now),
            x_max: gpu.max_regs_per_thread,
        },
        Graph {
            title: "shared memory per block",
            x_name: "shared memory per block (bytes)",
            points: shared,
            at: (total, now),
            x_max: optin,
        },
    ]
}

const W: u32 = 330;
const H: u32 = 230;
const L: u32 = 44;
const R: u32 = 14;
const T: u32 = 26;
const B: u32 = 40;

/// Draws one graph (y: 0 to `max_warps` resident warps).
pub fn draw(g: &Graph, max_warps: u32) -> String {
    let pw = W - L - R;
    let ph = H - T - B;
    let sx = |x: u32| L as f64 + f64::from(x) / f64::from(g.x_max.max(1)) * f64::from(pw);
    let sy = |y: u32| (T + ph) as f64 - f64::from(y) / f64::from(max_warps.max(1)) * f64::from(ph);
    let mut doc = Document::new()
        .set("viewBox", (0, 0, W, H))
        .set("width", W)
        .set("height", H)
        .set("class", "occ-svg")
        .set("role", "img")
        .add(Title::new(format!(
            "resident warps per SM against {}",
            g.title
        )))
        .add(label_mid(
            W / 2,
            16,
            &format!("warps per SM vs {}", g.title),
            "occ-title",
        ));
    // Axes and grid.
    for k in 0..=4 {
        let y = max_warps * k / 4;
        let py = sy(y);
        doc = doc
            .add(
                Line::new()
                    .set("class", "grid")
                    .set("x1", L)
                    .set("x2", W - R)
                    .set("y1", py)
                    .set("y2", py),
            )
            .add(label(4, py as u32 + 4, &y.to_string(), "tick"));
    }
    for k in 0..=4 {
        let x = g.x_max * k / 4;
        doc = doc.add(label_mid(sx(x) as u32, T + ph + 14, &x.to_string(), "tick"));
    }
    doc = doc.add(label_mid(L + pw / 2, H - 6, g.x_name, "axis"));
    // The step curve: horizontal to each x, then vertical.
    let mut pts = String::new();
    let mut prev: Option<(f64, f64)> = None;
    for &(x, y) in &g.points {
        let (px, py) = (sx(x), sy(y));
        if let Some((_, qy)) = prev {
            pts.push_str(&format!("{px:.1},{qy:.1} "));
        }
        pts.push_str(&format!("{px:.1},{py:.1} "));
        prev = Some((px, py));
    }
    doc = doc.add(Polyline::new().set("class", "curve").set("points", pts));
    let (ax, ay) = (sx(g.at.0), sy(g.at.1));
    doc = doc
        .add(
            Line::new()
                .set("class", "at")
                .set("x1", ax)
                .set("x2", ax)
                .set("y1", T)
                .set("y2", T + ph),
        )
        .add(
            Circle::new()
                .set("class", "at-dot")
                .set("cx", ax)
                .set("cy", ay)
                .set("r", 5)
                .add(Title::new(format!(
                    "this launch: {} {}, {} warps per SM",
                    g.at.0, g.x_name, g.at.1
                ))),
        )
        .add(label(
            (ax as u32 + 6).min(W - 90),
            (ay as u32).saturating_sub(8).max(T + 10),
            &format!("this launch: {}", g.at.1),
            "at-label",
        ));
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::config::H200;

    #[test]
    fn curves_pass_through_the_launch() {
        let input = OccupancyInput {
            block_threads: 256,
            regs_per_thread: 32,
            static_shared: 4096,
            dynamic_shared: 0,
            carveout_percent: None,
            max_dynamic_shared: None,
        };
        let want = occupancy(&H200, &input).unwrap().active_warps;
        for g in graphs(&H200, &input) {
            assert_eq!(g.at.1, want);
            assert!(g.points.contains(&g.at), "{}: {:?}", g.title, g.at);
        }
    }
}
