//! The sector map: one warp instance of a global or local instruction drawn as the seed draws
//! coalescing: the 32 lanes on top, the 128-byte lines they touch below, each cut into four
//! 32-byte sectors ([`GpuConfig::sector_bytes`](crate::gpu::config::GpuConfig::sector_bytes),
//! [`GpuConfig::l1_line_bytes`](crate::gpu::config::GpuConfig::l1_line_bytes)), the bytes the
//! lanes use filled dark inside the sectors fetched, and a line from every lane to its bytes.
//!
//! Local addresses are per-thread offsets; they are drawn where the hardware puts them, the
//! warp's windows interleaved 4 bytes at a time (byte `b` of lane `l` at
//! `(b / 4) * 128 + l * 4 + b % 4`, see [`crate::mem::coalesce`]). The sector count drawn is
//! the number of distinct sectors touched; for atomics the model charges same-address lanes
//! separately, which the caption states next to the model's count.

use std::collections::BTreeSet;

use svg::node::element::{Group, Line, Rectangle, Title};
use svg::Document;

use super::bank::{label, label_mid, wavefront_colour};
use crate::report::sample::WarpInstance;

const LINE: u64 = 128;
const SECTOR: u64 = 32;
/// Most lines drawn; the rest are summarized in the caption.
pub const MAX_ROWS: usize = 40;

/// The lines and sectors one warp instance touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectorMap {
    /// Distinct 128-byte lines touched (line index = byte address / 128), ascending.
    pub lines: Vec<u64>,
    /// Distinct 32-byte sectors touched (sector index = byte address / 32), ascending.
    pub sectors: Vec<u64>,
    /// Distinct bytes the active lanes access.
    pub bytes_used: u64,
    /// Per lane, its byte ranges `[start, end)` in the drawn address space.
    pub lane_bytes: Vec<Vec<(u64, u64)>>,
}

impl SectorMap {
    /// Bytes moved: 32 per sector.
    pub fn bytes_fetched(&self) -> u64 {
        self.sectors.len() as u64 * SECTOR
    }
}

/// The map of `inst`, accesses of `width` bytes per lane; `local` for `.local` offsets.
pub fn map(inst: &WarpInstance, width: u32, local: bool) -> SectorMap {
    let width = u64::from(width.max(1)).min(128);
    let mut lane_bytes = vec![Vec::new(); 32];
    let mut bytes = BTreeSet::new();
    for lane in 0..32u64 {
        if inst.mask >> lane & 1 == 0 {
            continue;
        }
        let a = inst.addrs[lane as usize];
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        for b in a..a.saturating_add(width) {
            let p = if local {
                (b / 4).saturating_mul(4 * 32) + lane * 4 + b % 4
            } else {
                b
            };
            bytes.insert(p);
            match ranges.last_mut() {
                Some(r) if r.1 == p => r.1 = p + 1,
                _ => ranges.push((p, p + 1)),
            }
        }
        lane_bytes[lane as usize] = ranges;
    }
    let sectors: BTreeSet<u64> = bytes.iter().map(|b| b / SECTOR).collect();
    let lines: BTreeSet<u64> = bytes.iter().map(|b| b / LINE).collect();
    SectorMap {
        lines: lines.into_iter().collect(),
        sectors: sectors.into_iter().collect(),
        bytes_used: bytes.len() as u64,
        lane_bytes,
    }
}

const CW: u64 = 28; // lane column width
const LEFT: u64 = 104;
const LANE_Y: u64 = 8;
const LANE_H: u64 = 22;
const ROWS_Y: u64 = 110;
const ROW_H: u64 = 22;
const PX: u64 = 6; // pixels per byte: a 128-byte line is 768 px

/// Draws the map as SVG.
pub fn draw(inst: &WarpInstance, m: &SectorMap, title: &str) -> String {
    let rows: Vec<u64> = m.lines.iter().copied().take(MAX_ROWS).collect();
    let height = ROWS_Y + rows.len() as u64 * ROW_H + 16;
    let width = (LEFT + 32 * CW).max(LEFT + LINE * PX) + 12;
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width, height))
        .set("width", width)
        .set("height", height)
        .set("class", "sector-svg")
        .set("role", "img")
        .add(Title::new(title))
        .add(label(4, (LANE_Y + 15) as u32, "lane", "axis"));
    let sectors: BTreeSet<u64> = m.sectors.iter().copied().collect();
    let row_of = |line: u64| rows.iter().position(|&l| l == line);
    for (r, &line) in rows.iter().enumerate() {
        let y = ROWS_Y + r as u64 * ROW_H;
        let gap = r > 0 && rows[r - 1] + 1 != line;
        let name = format!("{:#x}", line * LINE);
        doc = doc.add(label(
            4,
            (y + 15) as u32,
            &if gap { format!("⋮ {name}") } else { name },
            "addr",
        ));
        for s in 0..4u64 {
            let sector = line * 4 + s;
            let fetched = sectors.contains(&sector);
            doc = doc.add(
                Rectangle::new()
                    .set("class", if fetched { "sector fetched" } else { "sector" })
                    .set("data-sector", sector)
                    .set("x", LEFT + s * SECTOR * PX)
                    .set("y", y)
                    .set("width", SECTOR * PX - 2)
                    .set("height", ROW_H - 4)
                    .add(Title::new(format!(
                        "sector {:#x}–{:#x}{}",
                        sector * SECTOR,
                        sector * SECTOR + SECTOR - 1,
                        if fetched {
                            ": fetched"
                        } else {
                            ": not fetched"
                        }
                    ))),
            );
        }
    }
    // Bytes used, and the links from the lanes.
    let mut links = Group::new().set("class", "links");
    let mut used = Group::new().set("class", "used");
    for (lane, ranges) in m.lane_bytes.iter().enumerate() {
        let colour = wavefront_colour(lane as u32 % 8);
        for (i, &(a, b)) in ranges.iter().enumerate() {
            let Some(r) = row_of(a / LINE) else { continue };
            let y = ROWS_Y + r as u64 * ROW_H;
            let x0 = LEFT + (a % LINE) * PX;
            let len = (b - a).min(LINE - a % LINE);
            used = used.add(
                Rectangle::new()
                    .set("class", "byte-used")
                    .set("x", x0)
                    .set("y", y + 3)
                    .set("width", (len * PX).max(2) - 1)
                    .set("height", ROW_H - 10)
                    .set("fill", colour.clone()),
            );
            if i == 0 {
                links = links.add(
                    Line::new()
                        .set("class", "link")
                        .set("data-lane", lane)
                        .set("x1", LEFT + lane as u64 * CW + CW / 2)
                        .set("y1", LANE_Y + LANE_H)
                        .set("x2", x0 + len * PX / 2)
                        .set("y2", y + 3)
                        .set("stroke", colour.clone()),
                );
            }
        }
    }
    doc = doc.add(links).add(used);
    for lane in 0..32u64 {
        let active = inst.mask >> lane & 1 == 1;
        let x = LEFT + lane * CW + 2;
        let tip = if active {
            format!("lane {lane}: address {:#x}", inst.addrs[lane as usize])
        } else {
            format!("lane {lane}: inactive")
        };
        doc = doc.add(
            Group::new()
                .set("class", if active { "lane" } else { "lane inactive" })
                .set("data-lane", lane)
                .add(Title::new(tip))
                .add(
                    Rectangle::new()
                        .set("x", x)
                        .set("y", LANE_Y)
                        .set("width", CW - 4)
                        .set("height", LANE_H)
                        .set("rx", 3)
                        .set(
                            "fill",
                            if active {
                                wavefront_colour(lane as u32 % 8)
                            } else {
                                "#eee".into()
                            },
                        ),
                )
                .add(label_mid(
                    (x + (CW - 4) / 2) as u32,
                    (LANE_Y + 15) as u32,
                    &lane.to_string(),
                    "lane-no",
                )),
        );
    }
    for s in 0..4u64 {
        doc = doc.add(label_mid(
            (LEFT + s * SECTOR * PX + SECTOR * PX / 2) as u32,
            (ROWS_Y - 6) as u32,
            &format!(
                "sector {s} (bytes {}–{})",
                s * SECTOR,
                s * SECTOR + SECTOR - 1
            ),
            "axis",
        ));
    }
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::config::H200;
    use crate::mem::coalesce::{global_sectors, local_sectors};
    use crate::mem::request::{AccessKind, Space};
    use crate::report::html::bank::request;

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
    fn seed_patterns() {
        let base = 0x7f00_0000_0000u64;
        // Stride 1: 4 sectors in one line, 128 bytes used of 128 fetched.
        let m = map(&inst(u32::MAX, |l| base + 4 * l), 4, false);
        assert_eq!((m.lines.len(), m.sectors.len(), m.bytes_used), (1, 4, 128));
        // One element off: 5 sectors over 2 lines.
        let m = map(&inst(u32::MAX, |l| base + 4 + 4 * l), 4, false);
        assert_eq!((m.lines.len(), m.sectors.len()), (2, 5));
        // Stride 32 elements: 32 lines of one sector each, 128 of 1024 bytes used.
        let m = map(&inst(u32::MAX, |l| base + 128 * l), 4, false);
        assert_eq!(
            (m.lines.len(), m.sectors.len(), m.bytes_fetched()),
            (32, 32, 1024)
        );
    }

    /// The sectors drawn equal the model's count (loads and stores; local too).
    #[test]
    fn sectors_equal_the_model() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..3000 {
            let width = [1u32, 2, 4, 8, 16][case % 5];
            let mask = if case % 2 == 0 {
                u32::MAX
            } else {
                next() as u32
            };
            let stride = next() % 300;
            let random = case % 3 == 0;
            let i = inst(mask, |l| {
                let a = if random { next() % 4096 } else { l * stride };
                a / u64::from(width) * u64::from(width)
            });
            let g = map(&i, width, false);
            let r = request(&i, width, AccessKind::Load, Space::Global);
            assert_eq!(
                g.sectors.len() as u32,
                global_sectors(&r, &H200).sectors,
                "{case}"
            );
            let l = map(&i, width, true);
            let r = request(&i, width, AccessKind::Store, Space::Local);
            assert_eq!(
                l.sectors.len() as u32,
                local_sectors(&r, &H200).sectors,
                "{case}"
            );
        }
    }
}
