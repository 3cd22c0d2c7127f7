//! The bank diagram: one warp instance of a shared-memory instruction drawn as the seed draws it
//! (`../shared/seeds/`, 1.7.1): the 32 lanes on top, the 32 banks below, the 4-byte words each
//! lane touches stacked in their bank's column (word index written in the cell), a line from each
//! lane to each of its words, lanes that share a word (broadcast) and the shared word outlined, and every wavefront in
//! its own colour.
//!
//! The layout follows the rules of [`crate::mem::shared_banks`]: accesses of `n = width / 4`
//! words per lane are split into `n` phases of `32 / n` lanes (halved for wide loads whose lane
//! pairs share addresses), each phase costs the largest number of distinct words one bank serves
//! (every lane-word access counts for atomics with a result), and phases add up. Within a phase
//! the k-th distinct word of a bank (lanes in order) is served in the phase's k-th wavefront.
//! The unit tests check that the wavefronts drawn equal the model's count on many patterns.

use std::fmt::Write;

use svg::node::element::{Group, Line, Rectangle, Text, Title};
use svg::Document;

use crate::mem::request::{AccessKind, CacheOp, MemRequest, Space};
use crate::report::sample::WarpInstance;

/// Most words of one lane's access that are drawn (as the model counts: a misaligned 32-byte
/// access).
const MAX_WORDS_PER_LANE: u64 = 9;

/// A word cell in one bank's column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WordCell {
    /// The 4-byte word index (byte address / 4).
    pub word: u64,
    /// Its bank.
    pub bank: u32,
    /// The wavefront (0-based, over the whole instruction) that serves it.
    pub wavefront: u32,
    /// Row in the bank's column (0-based, over the whole instruction).
    pub row: u32,
    /// The lanes that access it (more than one: a broadcast).
    pub lanes: Vec<u32>,
}

/// One phase: lanes `first..end`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// First lane.
    pub first: u32,
    /// One past the last lane.
    pub end: u32,
    /// Wavefronts this phase costs.
    pub wavefronts: u32,
}

/// The whole instruction's layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankLayout {
    /// The phases, in order (only those with an active lane).
    pub phases: Vec<Phase>,
    /// Every word cell.
    pub cells: Vec<WordCell>,
    /// Total wavefronts.
    pub wavefronts: u32,
    /// Rows the deepest bank column needs.
    pub rows: u32,
}

/// Lays out one warp instance of a shared-memory access of `width` bytes per lane.
pub fn layout(inst: &WarpInstance, width: u32, kind: AccessKind) -> BankLayout {
    let width = u64::from(width.max(1));
    let merge = kind != AccessKind::Atomic;
    let mut passes = width.div_ceil(4).clamp(1, 32) as u32;
    if passes > 1 && kind == AccessKind::Load && uniform_pairs(inst) {
        passes /= 2;
    }
    let per_phase = 32u32.div_ceil(passes);
    let mut out = BankLayout {
        phases: Vec::new(),
        cells: Vec::new(),
        wavefronts: 0,
        rows: 0,
    };
    let mut base_row = 0u32;
    let mut first = 0u32;
    while first < 32 {
        let end = (first + per_phase).min(32);
        let start = out.cells.len();
        let mut depth = [0u32; 32];
        for lane in first..end {
            if inst.mask >> lane & 1 == 0 {
                continue;
            }
            let a = inst.addrs[lane as usize];
            let (w0, w1) = (a / 4, a.saturating_add(width - 1) / 4);
            for w in w0..=w1.min(w0 + MAX_WORDS_PER_LANE - 1) {
                let bank = (w % 32) as u32;
                if merge {
                    if let Some(c) = out.cells[start..].iter_mut().find(|c| c.word == w) {
                        if !c.lanes.contains(&lane) {
                            c.lanes.push(lane);
                        }
                        continue;
                    }
                }
                let slot = depth[bank as usize];
                depth[bank as usize] += 1;
                out.cells.push(WordCell {
                    word: w,
                    bank,
                    wavefront: out.wavefronts + slot,
                    row: base_row + slot,
                    lanes: vec![lane],
                });
            }
        }
        let wf = depth.iter().copied().max().unwrap_or(0);
        if wf > 0 {
            out.phases.push(Phase {
                first,
                end,
                wavefronts: wf,
            });
        }
        out.wavefronts += wf;
        base_row += wf;
        first = end;
    }
    out.rows = base_row;
    out
}

/// The model's packing condition (see [`crate::mem::shared_banks`]).
fn uniform_pairs(inst: &WarpInstance) -> bool {
    [1usize, 2].iter().any(|&x| {
        (0..32usize).all(|n| {
            let m = n ^ x;
            inst.mask >> n & 1 == 0 || inst.mask >> m & 1 == 0 || inst.addrs[n] == inst.addrs[m]
        })
    })
}

/// The request a sample stands for (to ask the model).
pub fn request(inst: &WarpInstance, width: u32, kind: AccessKind, space: Space) -> MemRequest {
    MemRequest {
        warp: inst.warp,
        space,
        kind,
        width,
        addrs: inst.addrs,
        mask: inst.mask,
        pc: 0,
        cache_op: CacheOp::Default,
        cas: crate::mem::request::Cas::No,
        ldgsts: false,
    }
}

/// A colour per wavefront: hues a golden angle apart, so neighbours differ.
pub fn wavefront_colour(i: u32) -> String {
    let hue = (f64::from(i) * 137.508) % 360.0;
    format!("hsl({hue:.0},70%,62%)")
}

const CW: u32 = 30; // column width
const LEFT: u32 = 64;
const LANE_Y: u32 = 22;
const LANE_H: u32 = 22;
const BANK_Y: u32 = 130;
const ROW_H: u32 = 18;

/// Draws the layout as SVG. `title` is announced to screen readers.
pub fn draw(inst: &WarpInstance, lay: &BankLayout, title: &str) -> String {
    let rows = lay.rows.max(1);
    let height = BANK_Y + 20 + rows * ROW_H + 12;
    let width = LEFT + 32 * CW + 12;
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width, height))
        .set("width", width)
        .set("height", height)
        .set("class", "bank-svg")
        .set("role", "img")
        .add(Title::new(title));
    doc = doc
        .add(label(4, LANE_Y + 15, "lane", "axis"))
        .add(label(4, BANK_Y + 14, "bank", "axis"))
        .add(label(4, BANK_Y + 34, "words", "axis"));
    // Bank columns (background) and headers.
    for b in 0..32u32 {
        let x = LEFT + b * CW;
        doc = doc.add(
            Rectangle::new()
                .set("class", "bank-col")
                .set("data-bank", b)
                .set("x", x + 1)
                .set("y", BANK_Y)
                .set("width", CW - 2)
                .set("height", 20 + rows * ROW_H + 4),
        );
        doc = doc.add(label_mid(
            x + CW / 2,
            BANK_Y + 14,
            &b.to_string(),
            "bank-no",
        ));
    }
    // Which wavefront(s) and cell(s) each lane uses.
    let mut lane_cells: Vec<Vec<usize>> = vec![Vec::new(); 32];
    for (i, c) in lay.cells.iter().enumerate() {
        for &l in &c.lanes {
            lane_cells[l as usize].push(i);
        }
    }
    // Links first (under the boxes).
    let mut links = Group::new().set("class", "links");
    for (lane, cells) in lane_cells.iter().enumerate() {
        let lx = LEFT + lane as u32 * CW + CW / 2;
        for &ci in cells {
            let c = &lay.cells[ci];
            let cx = LEFT + c.bank * CW + CW / 2;
            let cy = BANK_Y + 20 + c.row * ROW_H + 2;
            links = links.add(
                Line::new()
                    .set("class", "link")
                    .set("data-lane", lane)
                    .set("x1", lx)
                    .set("y1", LANE_Y + LANE_H)
                    .set("x2", cx)
                    .set("y2", cy)
                    .set("stroke", wavefront_colour(c.wavefront)),
            );
        }
    }
    doc = doc.add(links);
    // Word cells.
    for c in &lay.cells {
        let x = LEFT + c.bank * CW + 2;
        let y = BANK_Y + 20 + c.row * ROW_H + 2;
        let mut tip = format!(
            "word {} (byte {:#x}), bank {}, wavefront {}: lane",
            c.word,
            c.word * 4,
            c.bank,
            c.wavefront + 1
        );
        if c.lanes.len() > 1 {
            tip.push('s');
        }
        for (i, l) in c.lanes.iter().enumerate() {
            let _ = write!(tip, "{}{l}", if i == 0 { " " } else { ", " });
        }
        if c.lanes.len() > 1 {
            let _ = write!(tip, " (broadcast)");
        }
        let mut g = Group::new()
            .set(
                "class",
                if c.lanes.len() > 1 {
                    "word bcast"
                } else {
                    "word"
                },
            )
            .set("data-bank", c.bank)
            .set("data-wavefront", c.wavefront + 1)
            .add(Title::new(tip))
            .add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", y)
                    .set("width", CW - 4)
                    .set("height", ROW_H - 3)
                    .set("rx", 2)
                    .set("fill", wavefront_colour(c.wavefront)),
            );
        g = g.add(label_mid(
            x + (CW - 4) / 2,
            y + ROW_H - 7,
            &short_word(c.word),
            "word-no",
        ));
        doc = doc.add(g);
    }
    // Lanes.
    for lane in 0..32u32 {
        let x = LEFT + lane * CW + 2;
        let active = inst.mask >> lane & 1 == 1;
        let cells = &lane_cells[lane as usize];
        let broadcast = cells.iter().any(|&ci| lay.cells[ci].lanes.len() > 1);
        let fill = match cells.first() {
            Some(&ci) => wavefront_colour(lay.cells[ci].wavefront),
            None => "#eee".into(),
        };
        let mut class = String::from("lane");
        if !active {
            class.push_str(" inactive");
        }
        if broadcast {
            class.push_str(" broadcast");
        }
        let mut tip = format!("lane {lane}");
        if active {
            let _ = write!(
                tip,
                ": byte {:#x}, word {}, bank {}",
                inst.addrs[lane as usize],
                inst.addrs[lane as usize] / 4,
                inst.addrs[lane as usize] / 4 % 32
            );
            if broadcast {
                tip.push_str(" (broadcast: shares its word with another lane)");
            }
        } else {
            tip.push_str(": inactive");
        }
        doc = doc.add(
            Group::new()
                .set("class", class)
                .set("data-lane", lane)
                .add(Title::new(tip))
                .add(
                    Rectangle::new()
                        .set("x", x)
                        .set("y", LANE_Y)
                        .set("width", CW - 4)
                        .set("height", LANE_H)
                        .set("rx", 3)
                        .set("fill", fill),
                )
                .add(label_mid(
                    x + (CW - 4) / 2,
                    LANE_Y + 15,
                    &lane.to_string(),
                    "lane-no",
                )),
        );
    }
    // Phase brackets for wide accesses.
    if lay.phases.len() > 1 || lay.phases.first().is_some_and(|p| p.end - p.first < 32) {
        for (i, p) in lay.phases.iter().enumerate() {
            let x0 = LEFT + p.first * CW + 2;
            let x1 = LEFT + p.end * CW - 2;
            doc = doc
                .add(
                    Line::new()
                        .set("class", "phase")
                        .set("x1", x0)
                        .set("y1", LANE_Y - 5)
                        .set("x2", x1)
                        .set("y2", LANE_Y - 5),
                )
                .add(label_mid(
                    (x0 + x1) / 2,
                    LANE_Y - 9,
                    &format!("phase {} · {} wf", i + 1, p.wavefronts),
                    "phase-label",
                ));
        }
    }
    doc.to_string()
}

/// A word index short enough for a 26-pixel cell.
fn short_word(w: u64) -> String {
    if w < 10_000 {
        w.to_string()
    } else {
        format!("…{}", w % 1000)
    }
}

pub(super) fn label(x: u32, y: u32, s: &str, class: &str) -> Text {
    Text::new(s).set("x", x).set("y", y).set("class", class)
}

pub(super) fn label_mid(x: u32, y: u32, s: &str, class: &str) -> Text {
    Text::new(s)
        .set("x", x)
        .set("y", y)
        .set("class", class)
        .set("text-anchor", "middle")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::config::H200;
    use crate::mem::shared_banks::shared_wavefronts;

    fn inst(mask: u32, mut addr: impl FnMut(u64) -> u64) -> WarpInstance {
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = addr(l as u64);
        }
        WarpInstance {
            cost: 0,
            executions: 1,
            block: [0; 3],
            warp: 0,
            mask,
            addrs,
        }
    }

    #[test]
    fn column_of_32x32_is_one_bank_and_32x33_is_32_banks() {
        let col = layout(&inst(u32::MAX, |l| 1024 + l * 128), 4, AccessKind::Load);
        assert_eq!(col.wavefronts, 32);
        assert!(col.cells.iter().all(|c| c.bank == col.cells[0].bank));
        let pad = layout(&inst(u32::MAX, |l| 1024 + l * 132), 4, AccessKind::Load);
        assert_eq!(pad.wavefronts, 1);
        let mut banks: Vec<u32> = pad.cells.iter().map(|c| c.bank).collect();
        banks.sort();
        banks.dedup();
        assert_eq!(banks.len(), 32);
    }

    #[test]
    fn broadcast_is_one_cell() {
        let b = layout(&inst(u32::MAX, |_| 64), 4, AccessKind::Load);
        assert_eq!(
            (b.wavefronts, b.cells.len(), b.cells[0].lanes.len()),
            (1, 1, 32)
        );
        // An atomic with a result serializes the same word.
        let a = layout(&inst(u32::MAX, |_| 64), 4, AccessKind::Atomic);
        assert_eq!((a.wavefronts, a.cells.len()), (32, 32));
    }

    /// The wavefronts drawn equal the model's on random and structured patterns.
    #[test]
    fn wavefronts_equal_the_model() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let kinds = [
            AccessKind::Load,
            AccessKind::Store,
            AccessKind::Atomic,
            AccessKind::Reduction,
        ];
        for case in 0..4000 {
            let width = [1u32, 2, 4, 8, 16][case % 5];
            let kind = kinds[(case / 5) % 4];
            let mask = match case % 3 {
                0 => u32::MAX,
                1 => next() as u32,
                _ => 0xffff,
            };
            let stride = next() % 70;
            let span = 1 + next() % 64;
            let shape = case % 4;
            let i = inst(mask, |l| {
                let a = match shape {
                    0 => l * stride * 4,
                    1 => (next() % span) * 4,
                    2 => (l / 2) * stride * 4,
                    _ => (l % 4) * 128 + (l / 4) * 4,
                };
                a / u64::from(width) * u64::from(width)
            });
            let lay = layout(&i, width, kind);
            let model = shared_wavefronts(&request(&i, width, kind, Space::Shared), &H200);
            assert_eq!(
                lay.wavefronts, model.wavefronts,
                "case {case}: width {width} {kind:?} mask {mask:#x} addrs {:?}",
                i.addrs
            );
        }
    }
}
