//! Where a texel of a CUDA array lives in device memory: NVIDIA's block-linear layout, as the
//! H200's driver lays out an array.
//!
//! # The layout (measured)
//! A GOB ("group of bytes") is 64 bytes wide and 8 rows high, 512 bytes. Inside it, byte `x` of
//! row `y` is at
//!
//! ```text
//! bit: 8     7     6     5 4       3 2 1 0
//!      x[5]  y[2]  x[4]  y[1] y[0]  x[3:0]
//! ```
//!
//! so a 32-byte sector holds 16 bytes of 2 rows, a 128-byte line 32 bytes of 4 rows, and the two
//! lines of a 256-byte half-GOB are stacked vertically (rows 0-3 and 4-7). GOBs form blocks one GOB
//! wide, `2^bh` GOBs high and `2^bd` deep (GOBs of a block in y-then-z order); blocks are laid out
//! x fastest, then y, then z, with no padding beyond whole blocks (`ceil(row bytes / 64)` blocks
//! per row of blocks). The block height and depth the driver chooses:
//!
//! - 1D and 2D arrays: the largest `bh` (at most 4, 16 GOBs) whose block is at most 1.5 times
//!   the array's height, `16 * 2^bh <= 3 * height`; `bd = 0`;
//! - 3D arrays: `bh = 0`, and the largest `bd` (at most 4) with `2 * 2^bd <= 3 * depth`.
//!
//! Source: `tests/hw/texture_mem/layout.cu` on the H200 (tests/hw/h200/texture_mem/,
//! `layout/layout.txt` and `run2/layout/layout.txt`, 2026-12-01): an allocation imported with
//! `cudaImportExternalMemory` is mapped both as a buffer and as a CUDA array (a 1D, 2D or 3D
//! mipmapped array, level 0); each byte of the buffer is set to its own offset (four passes, one
//! byte of the offset each), the array is copied to the host with `cuMemCopy3D`, and so every
//! texel's byte gets the raw offset it lives at. 1,009 arrays (element sizes 1 to 16 bytes, widths
//! 1 to 1,000 texels, heights 0 to 4,096, depths 0 to 129; tests/memory/texture_layout.rs) match this
//! layout byte for byte. The
//! depth rule is seen at every depth of 1 to 40 (steps at 2, 3, 6 and 11); the height rule at the
//! heights 9, 33, 100, 129 and 1,024 of arrays more than one GOB wide (for arrays one GOB wide the
//! block height does not change any offset). Not measured: arrays from `cudaMallocArray` itself
//! (the runtime gives no way to see their bytes; the imported arrays are assumed to be laid out
//! alike), layered, cube and mipmapped arrays beyond level 0. The GOB matches the "Fermi" GOB of
//! Mesa's nouveau and NVK drivers and the Tegra TRM's block-linear description; the block-size
//! rule is the H200 driver's own.

/// Bytes in a GOB row.
pub const GOB_WIDTH: u64 = 64;
/// Rows in a GOB.
pub const GOB_HEIGHT: u32 = 8;
/// Bytes in a GOB.
pub const GOB_BYTES: u64 = 512;
/// The largest block, in GOBs per dimension (log2).
const MAX_LOG2: u32 = 4;

/// Offset of byte `x` (0..64) of row `y` (0..8) inside its GOB.
#[inline]
pub fn gob_offset(x: u64, y: u32) -> u64 {
    let y = u64::from(y);
    ((x & 63) >> 5) << 8 | ((y & 7) >> 2) << 7 | ((x & 31) >> 4) << 6 | (y & 3) << 4 | (x & 15)
}

/// The driver's block height (log2 GOBs) for a 1D or 2D array of `height` rows.
pub fn block_height_log2(height: u32) -> u32 {
    let three_h = 3 * u64::from(height.max(1));
    (0..=MAX_LOG2)
        .rev()
        .find(|k| 16u64 << k <= three_h)
        .unwrap_or(0)
}

/// The driver's block depth (log2 GOBs) for a 3D array of `depth` slices.
pub fn block_depth_log2(depth: u32) -> u32 {
    let three_d = 3 * u64::from(depth.max(1));
    (0..=MAX_LOG2)
        .rev()
        .find(|k| 2u64 << k <= three_d)
        .unwrap_or(0)
}

/// The block-linear placement of one CUDA array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockLinear {
    /// Blocks (GOBs) per row of blocks.
    gobs_x: u64,
    /// Rows of blocks per slice of blocks.
    block_rows: u64,
    /// Block height, log2 GOBs.
    bh: u32,
    /// Block depth, log2 GOBs.
    bd: u32,
    /// Slices of blocks.
    block_slices: u64,
}

impl BlockLinear {
    /// The layout the driver gives an array of `width` x `height` x `depth` texels of
    /// `texel_bytes` each, with `dims` 1, 2 or 3 (unused extents 1).
    pub fn for_array(texel_bytes: u32, extent: [u32; 3], dims: u32) -> Self {
        let [_, h, d] = extent;
        let (bh, bd) = if dims >= 3 {
            (0, block_depth_log2(d))
        } else {
            (block_height_log2(h), 0)
        };
        Self::with_blocks(texel_bytes, extent, bh, bd)
    }

    /// A layout with the given block height and depth (log2 GOBs).
    pub fn with_blocks(texel_bytes: u32, extent: [u32; 3], bh: u32, bd: u32) -> Self {
        let [w, h, d] = extent.map(|e| u64::from(e.max(1)));
        let row_bytes = w * u64::from(texel_bytes);
        BlockLinear {
            gobs_x: row_bytes.div_ceil(GOB_WIDTH),
            block_rows: h.div_ceil(u64::from(GOB_HEIGHT) << bh),
            bh,
            bd,
            block_slices: d.div_ceil(1 << bd),
        }
    }

    /// Block height and depth, log2 GOBs.
    pub fn blocks_log2(&self) -> (u32, u32) {
        (self.bh, self.bd)
    }

    /// Bytes of one block.
    #[inline]
    pub fn block_bytes(&self) -> u64 {
        GOB_BYTES << (self.bh + self.bd)
    }

    /// The index of the GOB at array byte `offset` within its block (0 to 2^(bh + bd) - 1): GOBs
    /// are stacked in rows, then slices, inside a block.
    #[inline]
    pub fn gob_in_block(&self, offset: u64) -> u32 {
        (offset % self.block_bytes() / GOB_BYTES) as u32
    }

    /// Bytes the array occupies (whole blocks).
    pub fn size_bytes(&self) -> u64 {
        self.gobs_x * self.block_rows * self.block_slices * self.block_bytes()
    }

    /// Offset of byte `x` of row `y` of slice `z`.
    #[inline]
    pub fn offset(&self, x: u64, y: u32, z: u32) -> u64 {
        let (y64, z64) = (u64::from(y), u64::from(z));
        let block =
            ((z64 >> self.bd) * self.block_rows + (y64 >> (3 + self.bh))) * self.gobs_x + (x >> 6);
        let gy = (y64 >> 3) & ((1 << self.bh) - 1);
        let gz = z64 & ((1 << self.bd) - 1);
        block * self.block_bytes() + ((gz << self.bh) | gy) * GOB_BYTES + gob_offset(x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gob_holds_sectors_of_16_bytes_by_2_rows() {
        assert_eq!(gob_offset(0, 0), 0);
        assert_eq!(gob_offset(15, 1), 31);
        assert_eq!(gob_offset(16, 0), 64);
        assert_eq!(gob_offset(0, 2), 32);
        assert_eq!(gob_offset(0, 4), 128);
        assert_eq!(gob_offset(32, 0), 256);
        assert_eq!(gob_offset(63, 7), 511);
        let mut seen = [false; 512];
        for y in 0..8 {
            for x in 0..64 {
                let o = gob_offset(x, y) as usize;
                assert!(!seen[o]);
                seen[o] = true;
            }
        }
    }

    #[test]
    fn block_sizes_follow_the_measured_steps() {
        let bh: Vec<u32> = [1, 8, 9, 10, 11, 21, 33, 42, 43, 85, 86, 100, 129, 1024]
            .iter()
            .map(|&h| block_height_log2(h))
            .collect();
        assert_eq!(bh, [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 4]);
        let bd: Vec<u32> = (1..=12).map(block_depth_log2).collect();
        assert_eq!(bd, [0, 1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4]);
    }

    #[test]
    fn blocks_are_row_major_and_whole() {
        // 1024 x 1024 floats: 64 GOBs per row of blocks, blocks of 16 GOBs (128 rows).
        let l = BlockLinear::for_array(4, [1024, 1024, 1], 2);
        assert_eq!(l.blocks_log2(), (4, 0));
        assert_eq!(l.offset(64, 0, 0), 8192);
        assert_eq!(l.offset(0, 8, 0), 512);
        assert_eq!(l.offset(0, 128, 0), 64 * 8192);
        assert_eq!(l.size_bytes(), 4 << 20);
        // A 3D array: slices of a block are GOBs 512 bytes apart.
        let l = BlockLinear::for_array(4, [64, 64, 64], 3);
        assert_eq!(l.blocks_log2(), (0, 4));
        assert_eq!(l.offset(0, 0, 1), 512);
        assert_eq!(l.offset(0, 8, 0), 4 * 8192);
    }
}
