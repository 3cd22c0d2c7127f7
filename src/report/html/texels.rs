//! The texel map: one warp instance of a texture or surface instruction drawn in texel space,
//! the seed's picture of why texture memory exists (2D locality): the texels the lanes read (one
//! cell per texel, coloured by the request, a quad of lanes, that read it), the 32-byte sectors
//! they lie in outlined, and for a CUDA array the GOBs (64 bytes by 8 rows) of its block-linear
//! layout.
//!
//! Sectors are those of the texels' device addresses as the texture path places them
//! ([`TexturePath::texel_address`]: block-linear for arrays, [`crate::mem::texture::layout`],
//! row-major for linear and pitch-2D memory), so a sector of an array is 16 bytes by 2 rows and
//! one of linear memory 32 bytes of one row. For an array the map also counts the sectors the
//! same texels would occupy in a row-major buffer of `width x texel bytes` per row: what global
//! loads of the same image would touch.

use std::collections::{BTreeMap, BTreeSet};

use svg::node::element::{Group, Path, Rectangle, Title};
use svg::Document;

use super::bank::{label, label_mid, wavefront_colour};
use crate::mem::texture::path::TexturePath;
use crate::report::sample::{TexInstance, TexResource};

const SECTOR: u64 = 32;
const LINE: u64 = 128;
/// Most texel columns drawn.
pub const MAX_W: u32 = 64;
/// Most texel rows drawn.
pub const MAX_H: u32 = 32;

/// The texels and sectors of one warp instance, and the window of texel space drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexelMap {
    /// The slice drawn (the one with the most texels).
    pub z: u32,
    /// The window's first texel column and row.
    pub origin: [u32; 2],
    /// The window's columns and rows.
    pub size: [u32; 2],
    /// Lanes per request (4 for `tex`/`tld4`, 8 otherwise): a cell's colour is its request's.
    pub lanes_per_request: u32,
    /// Each texel drawn (x, y) and the lanes that read or wrote it, lowest first.
    pub cells: BTreeMap<(u32, u32), Vec<u8>>,
    /// The sector of every cell of the window, row by row.
    pub window_sectors: Vec<u64>,
    /// Distinct texels of the instance (every slice).
    pub texels: usize,
    /// Of those, texels outside the window or in other slices.
    pub not_drawn: usize,
    /// The most texels one lane read (1 point, 4 bilinear or gather, 8 trilinear).
    pub per_lane: usize,
    /// Distinct 32-byte sectors of the texels.
    pub sectors: BTreeSet<u64>,
    /// Distinct 128-byte lines of the texels.
    pub lines: usize,
    /// For a CUDA array: distinct sectors of the same texels in a row-major buffer.
    pub row_major_sectors: Option<usize>,
}

/// The map of `inst`, a warp's execution of an instruction on `res`; `lanes_per_request` as
/// [`crate::mem::texture::request::TexAccess::lanes_per_request`].
pub fn map(res: &TexResource, inst: &TexInstance, lanes_per_request: u32) -> TexelMap {
    let g = res.geometry();
    let mut path = TexturePath::default();
    let tb = u64::from(res.texel_bytes.max(1));
    let mut lanes_of: BTreeMap<[u32; 3], Vec<u8>> = BTreeMap::new();
    let mut per_lane = 0;
    for l in &inst.lanes {
        per_lane = per_lane.max(l.texels.len());
        for &t in &l.texels {
            let v = lanes_of.entry(t).or_default();
            if !v.contains(&l.lane) {
                v.push(l.lane);
            }
        }
    }
    let mut sectors = BTreeSet::new();
    let mut lines = BTreeSet::new();
    let mut row_major = BTreeSet::new();
    let mut per_slice: BTreeMap<u32, usize> = BTreeMap::new();
    for &t in lanes_of.keys() {
        let a = path.texel_address(&g, t);
        sectors.insert(a / SECTOR);
        lines.insert(a / LINE);
        let [x, y, z] = t.map(u64::from);
        let [w, h, _] = res.extent.map(u64::from);
        row_major.insert(((z * h + y) * w * tb + x * tb) / SECTOR);
        *per_slice.entry(t[2]).or_default() += 1;
    }
    let z = per_slice
        .iter()
        .max_by_key(|(z, n)| (**n, std::cmp::Reverse(**z)))
        .map(|(z, _)| *z)
        .unwrap_or(0);
    let in_slice = || lanes_of.keys().filter(|t| t[2] == z);
    let min_x = in_slice().map(|t| t[0]).min().unwrap_or(0);
    let min_y = in_slice().map(|t| t[1]).min().unwrap_or(0);
    let max_x = in_slice().map(|t| t[0]).max().unwrap_or(0);
    let max_y = in_slice().map(|t| t[1]).max().unwrap_or(0);
    // Start the window on a sector boundary, so that no sector is cut on the left or top.
    let array = res.kind == "array";
    let sector_w = ((if array { 16 } else { 32 }) / tb).max(1) as u32;
    let sector_h = if array { 2 } else { 1 };
    let x0 = min_x - min_x % sector_w;
    let y0 = min_y - min_y % sector_h;
    let w = (max_x - x0 + 1)
        .div_ceil(sector_w)
        .saturating_mul(sector_w)
        .min(MAX_W)
        .min(res.extent[0].saturating_sub(x0).max(1));
    let h = (max_y - y0 + 1)
        .div_ceil(sector_h)
        .saturating_mul(sector_h)
        .min(MAX_H)
        .min(res.extent[1].saturating_sub(y0).max(1));
    let mut cells = BTreeMap::new();
    for (t, v) in &lanes_of {
        if t[2] == z && (x0..x0 + w).contains(&t[0]) && (y0..y0 + h).contains(&t[1]) {
            let mut v = v.clone();
            v.sort_unstable();
            cells.insert((t[0], t[1]), v);
        }
    }
    let mut window_sectors = Vec::with_capacity((w * h) as usize);
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            window_sectors.push(path.texel_address(&g, [x, y, z]) / SECTOR);
        }
    }
    TexelMap {
        z,
        origin: [x0, y0],
        size: [w, h],
        lanes_per_request: lanes_per_request.max(1),
        not_drawn: lanes_of.len() - cells.len(),
        texels: lanes_of.len(),
        cells,
        window_sectors,
        per_lane,
        lines: lines.len(),
        row_major_sectors: array.then_some(row_major.len()),
        sectors,
    }
}

const CELL: u32 = 18;
const LEFT: u32 = 48;
const TOP: u32 = 26;

/// Draws the map as SVG; `gob` draws a CUDA array's GOB boundaries.
pub fn draw(m: &TexelMap, res: &TexResource, title: &str) -> String {
    let [x0, y0] = m.origin;
    let [w, h] = m.size;
    let width = LEFT + w * CELL + 12;
    let height = TOP + h * CELL + 12;
    let mut doc = Document::new()
        .set("viewBox", (0, 0, width, height))
        .set("width", width)
        .set("height", height)
        .set("class", "texel-svg")
        .set("role", "img")
        .set("data-sectors", m.sectors.len())
        .set("data-texels", m.texels)
        .add(Title::new(title));
    let cx = |x: u32| LEFT + (x - x0) * CELL;
    let cy = |y: u32| TOP + (y - y0) * CELL;
    let sector_at = |x: u32, y: u32| m.window_sectors[((y - y0) * w + (x - x0)) as usize];
    // Cells of fetched sectors that no lane read, then the texels read.
    let mut fetched = Group::new().set("class", "fetched");
    let mut read = Group::new().set("class", "texels");
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            let s = sector_at(x, y);
            let tip_at = format!(
                "texel ({x}, {y}{}), sector {:#x}",
                if res.extent[2] > 1 {
                    format!(", {}", m.z)
                } else {
                    String::new()
                },
                s * SECTOR
            );
            match m.cells.get(&(x, y)) {
                Some(lanes) => {
                    let first = lanes[0];
                    let colour = wavefront_colour(u32::from(first) / m.lanes_per_request % 8);
                    let names: Vec<String> = lanes.iter().map(|l| l.to_string()).collect();
                    read = read.add(
                        Group::new()
                            .set("class", "texel-read")
                            .set("data-x", x)
                            .set("data-y", y)
                            .set("data-lanes", names.join(" "))
                            .add(Title::new(format!(
                                "{tip_at}: read by lane{} {}",
                                if lanes.len() == 1 { "" } else { "s" },
                                names.join(", ")
                            )))
                            .add(
                                Rectangle::new()
                                    .set("x", cx(x) + 1)
                                    .set("y", cy(y) + 1)
                                    .set("width", CELL - 2)
                                    .set("height", CELL - 2)
                                    .set("fill", colour),
                            )
                            .add(label_mid(
                                cx(x) + CELL / 2,
                                cy(y) + CELL / 2 + 4,
                                &first.to_string(),
                                "texel-lane",
                            )),
                    );
                }
                None if m.sectors.contains(&s) => {
                    fetched = fetched.add(
                        Rectangle::new()
                            .set("class", "texel-fetched")
                            .set("x", cx(x) + 1)
                            .set("y", cy(y) + 1)
                            .set("width", CELL - 2)
                            .set("height", CELL - 2)
                            .add(Title::new(format!(
                                "{tip_at}: fetched with the sector, read by no lane"
                            ))),
                    );
                }
                None => {}
            }
        }
    }
    // The cell grid.
    let mut grid = String::new();
    for i in 0..=w {
        grid += &format!("M{} {}v{} ", LEFT + i * CELL, TOP, h * CELL);
    }
    for j in 0..=h {
        grid += &format!("M{} {}h{} ", LEFT, TOP + j * CELL, w * CELL);
    }
    doc = doc
        .add(Path::new().set("class", "texel-grid").set("d", grid))
        .add(fetched)
        .add(read);
    // Outlines of the fetched sectors: every cell edge between two sectors, one of them fetched.
    let mut edges = String::new();
    for y in y0..y0 + h {
        for x in x0..x0 + w {
            let s = sector_at(x, y);
            let here = m.sectors.contains(&s);
            let right = (x + 1 < x0 + w).then(|| sector_at(x + 1, y));
            let below = (y + 1 < y0 + h).then(|| sector_at(x, y + 1));
            if x == x0 && here {
                edges += &format!("M{} {}v{} ", cx(x), cy(y), CELL);
            }
            if y == y0 && here {
                edges += &format!("M{} {}h{} ", cx(x), cy(y), CELL);
            }
            let differs = |o: Option<u64>| match o {
                Some(o) => o != s && (here || m.sectors.contains(&o)),
                None => here,
            };
            if differs(right) {
                edges += &format!("M{} {}v{} ", cx(x) + CELL, cy(y), CELL);
            }
            if differs(below) {
                edges += &format!("M{} {}h{} ", cx(x), cy(y) + CELL, CELL);
            }
        }
    }
    doc = doc.add(Path::new().set("class", "sector-outline").set("d", edges));
    // GOB boundaries of a CUDA array: every 64 bytes of a row and every 8 rows.
    if res.kind == "array" {
        let gob_w = (64 / res.texel_bytes.max(1)).max(1);
        let mut gob = String::new();
        for x in x0..=x0 + w {
            if x % gob_w == 0 {
                gob += &format!("M{} {}v{} ", LEFT + (x - x0) * CELL, TOP, h * CELL);
            }
        }
        for y in y0..=y0 + h {
            if y % 8 == 0 && res.extent[1] > 1 {
                gob += &format!("M{} {}h{} ", LEFT, TOP + (y - y0) * CELL, w * CELL);
            }
        }
        doc = doc.add(Path::new().set("class", "gob-outline").set("d", gob));
    }
    // Axes: texel x on top, y on the left.
    let step_x = if w > 32 { 8 } else { 4 };
    for x in x0..x0 + w {
        if x % step_x == 0 || x == x0 {
            doc = doc.add(label_mid(cx(x) + CELL / 2, TOP - 8, &x.to_string(), "axis"));
        }
    }
    for y in y0..y0 + h {
        if y % 2 == 0 || y == y0 {
            doc = doc.add(label(4, cy(y) + CELL / 2 + 4, &format!("y {y}"), "axis"));
        }
    }
    doc.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sample::TexLaneSample;

    fn array(w: u32, h: u32, tb: u32) -> TexResource {
        TexResource {
            kind: "array",
            array: 0,
            base: 0,
            pitch: u64::from(w * tb),
            extent: [w, h, 1],
            texel_bytes: tb,
        }
    }

    fn inst(texels: impl Fn(u8) -> Vec<[u32; 3]>) -> TexInstance {
        TexInstance {
            cost: 0,
            requests: 8,
            executions: 1,
            block: [0; 3],
            warp: 0,
            lanes: (0..32u8)
                .map(|lane| TexLaneSample {
                    lane,
                    texels: texels(lane),
                })
                .collect(),
        }
    }

    /// The layout's sector shapes (docs/texture-memory.md, measured on the H200: a sector is 16
    /// bytes of 2 rows): a column of 32 floats lies in 16 sectors of the array and would lie in
    /// 32 of a row-major buffer; a row of 32 floats in 8 of the array and 4 of the buffer.
    #[test]
    fn column_and_row_of_floats() {
        let res = array(256, 256, 4);
        let col = map(&res, &inst(|l| vec![[5, u32::from(l), 0]]), 4);
        assert_eq!(
            (col.texels, col.sectors.len(), col.row_major_sectors),
            (32, 16, Some(32))
        );
        assert_eq!((col.origin, col.size, col.not_drawn), ([4, 0], [4, 32], 0));
        let row = map(&res, &inst(|l| vec![[u32::from(l), 7, 0]]), 4);
        assert_eq!((row.sectors.len(), row.row_major_sectors), (8, Some(4)));
        assert_eq!((row.origin, row.size), ([0, 6], [32, 2]));
        // Every drawn cell in a fetched sector is read or drawn as fetched; the SVG names it.
        let svg = draw(&row, &res, "row");
        assert_eq!(svg.matches("class=\"texel-read\"").count(), 32);
        assert_eq!(svg.matches("class=\"texel-fetched\"").count(), 32);
    }

    /// A window larger than the limits is cut, and the texels outside are counted.
    #[test]
    fn wide_footprints_are_cut() {
        let res = array(1024, 1024, 4);
        let m = map(&res, &inst(|l| vec![[u32::from(l) * 8, 0, 0]]), 4);
        assert_eq!(m.size[0], MAX_W);
        assert_eq!(m.texels, 32);
        assert_eq!(m.not_drawn, 32 - 8);
    }
}
