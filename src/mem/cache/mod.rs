//! The caches behind the coalescer: one L1 per SM, the L2 in two partitions, and DRAM, as one
//! [`Hierarchy`] that receives each warp-level global or local access (already split into 128-byte
//! lines and 32-byte sectors) from the SM that issued it, in the order
//! [`sched`](crate::sched) models, and counts what each level did under Nsight Compute's names.
//!
//! The models hold tags and state only, never data: what a program computes comes from
//! `mem::space` alone, so no cache decision can change a result.
//!
//! # L1 (per SM)
//! - Capacity: the SM's 256 KB of unified L1/shared SRAM less the shared-memory size the driver
//!   configures for the launch ([`gpu::occupancy::driver_shared_config`]); measured: one block
//!   re-reading 192 KB hits on every sector after the first pass with an 8 KB configuration, and
//!   misses on 89% of them with a 100 KB one (tests/hw/h200/cache2/ncu/k_cache.csv, launches
//!   1-6). 128-byte lines of four 32-byte sectors filled on demand, LRU, 32 sets.
//! - Loads: a sector is a hit when it is valid (the line's tag alone is not enough: a thread
//!   walking its own 4 KB chunk misses once per sector, 32,768 misses for 262,144 loads,
//!   tests/hw/h200/cache/ncu/global_patterns.csv launch 4). Default, `.ca`, `.cs` and `.nc`
//!   (`__ldg`) loads allocate; `.cg`, `.lu` and `.cv` do not (measured: a 64 KB buffer read
//!   twice by one block hits 2,048 of 4,096 sectors with `__ldcs`/`__ldg`, none with
//!   `__ldcg`/`__ldlu`/`__ldcv`; k_cache launches 11-15). In SASS those are `LDG.E.STRONG.GPU`,
//!   `LDG.E.LU` and `LDG.E.STRONG.SYS` (tests/hw/kernels/cache.sass). A local `.lu` load
//!   (`LDL.LU`, ptxas's reload of a spilled register) is looked up and allocates like any local
//!   load: `local_spill`'s 1,104 reload sectors all hit on the lines its `STL`s wrote
//!   (tests/hw/h200/cache2/ncu/k_local.csv launch 4).
//! - Stores (global and local, spill stores included: `local_spill`'s 1,096 `STL` sectors all
//!   reach L2, k_local.csv launch 4): write-through to L2, and they allocate: every store operator (`__stwb`, `__stcg`,
//!   `__stcs`, `__stwt`) leaves fully written sectors valid, so loads of them hit (k_cache launches
//!   16, 18-21: 2,048 of 2,048 load sectors hit after the stores). A store sector is a hit when
//!   the line's tag is present, whatever the sector's state (the chunked walk's stores miss once
//!   per line, 8,195 misses for 262,144 store sectors, against once per sector for its loads;
//!   launch 17 of k_cache: stores after loads of the same lines all hit).
//! - Atomics and reductions are performed at L2 and not looked up in L1.
//! - A sector missed in one step arrives at the end of that step ([`Hierarchy::end_step`]):
//!   another warp of the same SM that asks for it in the same step misses too, and its request
//!   goes to L2 as well (where it hits). The H200 does not merge such misses in L1: a 5-point
//!   stencil, whose warps read the rows their neighbours read at the same time, sends 225,772
//!   sectors to L2 where each L1 miss sent once would be 184,444, and 95,230 of them hit
//!   (tests/hw/h200/cache2/ncu/k_cache.csv launch 23).
//! - L1 is empty at every launch: the driver invalidates it at kernel boundaries (it is not
//!   coherent), so only L2 can stay warm.
//!
//! # L2 (two partitions)
//! The H200 reports 60 MB (`l2CacheSize`, tests/hw/h200/occupancy_props.txt). Like the H100's it
//! is two partitions joined by a fabric: an SM's requests reach the partition near it first
//! (where Nsight Compute's `lts__t_*_srcunit_tex` counters count them); data homed in the other
//! partition is fetched over the fabric and kept as a copy in the near one. Measured: the fabric
//! carries half the sectors of a streaming read (`lts__t_sectors_srcunit_ltcfabric`: 3,183,116
//! of 6,291,456, k_cache launch 10), a buffer of 24 MB re-read by all SMs hits on every L2
//! lookup of the second pass, one of 40 MB on 84% and one of 96 MB on none (launches 8-10). With
//! a home partition and a near copy each partition holds 3/4 of what the whole GPU reads, so 40
//! MB is at the edge of the 2 x 30 MB. Modelled:
//! - each partition 30 MB, 16-way, LRU, a hashed set index; the home partition of a line is a
//!   parity hash of its address bits, the near partition of an SM is `(sm / 2) % 2` (the real
//!   hash and the SM-to-partition wiring use physical facts a program cannot see; both choices
//!   are balanced, which is what the counters depend on);
//! - reads: looked up in the near partition; missing sectors are fetched from the home
//!   partition (from DRAM when the home misses too) in 64-byte pairs: a miss on one sector of an
//!   aligned pair fills both, so the other sector's later lookup hits (a 1-sector-per-request walk
//!   hits on exactly half its L2 lookups with every sector read from DRAM once: 16,384 of 32,768,
//!   global_patterns launch 4; k_cache launch 22), while a request that misses both sectors of a
//!   pair counts two misses (copy_coalesced: no hits);
//! - writes: every written sector counts as a lookup hit (measured on every launch:
//!   `lts__t_sectors_srcunit_tex_op_write_lookup_hit` equals the write sectors), is dirty in the
//!   home partition and written to DRAM when evicted, never at the end of the kernel (Nsight
//!   Compute's `dram__sectors_write` stops at the kernel's end: 64 MB of float4 stores write
//!   1,257,744 sectors, launch 24);
//! - atomics and reductions: performed and counted in the home partition, sector by sector, with
//!   the same 64-byte fills (one address per thread: 32,768 sectors, 28,448 hits, launch 25).
//!
//! # DRAM
//! Sectors read are the L2 fills; sectors written are the dirty sectors L2 evicts. Not modelled:
//! the instruction and constant-bank fetches every kernel makes (88 to 280 sectors read per
//! launch on the H200 whatever the kernel's own traffic: compare `dram__sectors_read` with the
//! L2 read misses in tests/hw/h200/cache*/ncu), which dominate the DRAM counts of tiny kernels.

mod sectored;

pub use sectored::{Evicted, SectoredCache, Slot};

use crate::mem::request::AccessKind;
use crate::mem::texture::request::TexAccess;

/// Bytes in a cache line.
pub const LINE_BYTES: u64 = 128;

/// Whether `name` is one of the counters of this module (or the driver's shared-memory size,
/// which decides L1's capacity): they are compared with their own H200 recordings.
pub fn is_cache_metric(name: &str) -> bool {
    name.contains("_lookup_")
        || name.starts_with("lts__")
        || name.starts_with("dram__")
        || name.starts_with("l1tex__m_")
        || name == "l1tex__t_sector_hit_rate.pct"
        || name == "launch__shared_mem_config_size"
}

/// One line of a warp-level access: which sectors the active lanes touch, and which of them they
/// write completely (stores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineAccess {
    /// Line address (byte address / 128).
    pub line: u64,
    /// Sectors touched (bit i: sector i of the line).
    pub sectors: u8,
    /// Sectors whose 32 bytes are all written (stores only).
    pub full: u8,
}

/// What one warp-level access is, for the caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessInfo {
    /// The instruction, for per-instruction counters.
    pub pc: u32,
    /// Load, store, atomic or reduction.
    pub kind: AccessKind,
    /// Local memory (else global).
    pub local: bool,
    /// Whether a load allocates in L1 (false for `.cg`, `.lu`, `.cv`).
    pub l1_allocate: bool,
}

/// The cache counters of one instruction (or a launch), each an event count.
#[allow(missing_docs)] // each field is documented by its metric name in `metrics()`
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CacheCounters {
    pub l1_global_ld_hit: u64,
    pub l1_global_ld_miss: u64,
    pub l1_global_st_hit: u64,
    pub l1_global_st_miss: u64,
    pub l1_local_ld_hit: u64,
    pub l1_local_ld_miss: u64,
    pub l1_local_st_hit: u64,
    pub l1_local_st_miss: u64,
    pub l1_tex_hit: u64,
    pub l1_tex_miss: u64,
    pub l1_surf_ld_hit: u64,
    pub l1_surf_ld_miss: u64,
    pub l1_surf_st_hit: u64,
    pub l1_surf_st_miss: u64,
    pub l1_xbar_read_sectors: u64,
    pub l1_xbar_write_sectors: u64,
    pub l2_read_requests: u64,
    pub l2_read_sectors: u64,
    pub l2_read_hits: u64,
    pub l2_write_requests: u64,
    pub l2_write_sectors: u64,
    pub l2_write_hits: u64,
    pub l2_atom_requests: u64,
    pub l2_atom_sectors: u64,
    pub l2_atom_hits: u64,
    pub l2_red_requests: u64,
    pub l2_red_sectors: u64,
    pub l2_red_hits: u64,
    pub dram_read_sectors: u64,
    pub dram_write_sectors: u64,
}

impl CacheCounters {
    /// Adds `o` to these counters.
    pub fn merge(&mut self, o: &Self) {
        let a = self.fields_mut();
        let b = o.fields();
        for (x, y) in a.into_iter().zip(b) {
            *x += y;
        }
    }

    fn fields(&self) -> [u64; 30] {
        [
            self.l1_global_ld_hit,
            self.l1_global_ld_miss,
            self.l1_global_st_hit,
            self.l1_global_st_miss,
            self.l1_local_ld_hit,
            self.l1_local_ld_miss,
            self.l1_local_st_hit,
            self.l1_local_st_miss,
            self.l1_tex_hit,
            self.l1_tex_miss,
            self.l1_surf_ld_hit,
            self.l1_surf_ld_miss,
            self.l1_surf_st_hit,
            self.l1_surf_st_miss,
            self.l1_xbar_read_sectors,
            self.l1_xbar_write_sectors,
            self.l2_read_requests,
            self.l2_read_sectors,
            self.l2_read_hits,
            self.l2_write_requests,
            self.l2_write_sectors,
            self.l2_write_hits,
            self.l2_atom_requests,
            self.l2_atom_sectors,
            self.l2_atom_hits,
            self.l2_red_requests,
            self.l2_red_sectors,
            self.l2_red_hits,
            self.dram_read_sectors,
            self.dram_write_sectors,
        ]
    }

    fn fields_mut(&mut self) -> [&mut u64; 30] {
        [
            &mut self.l1_global_ld_hit,
            &mut self.l1_global_ld_miss,
            &mut self.l1_global_st_hit,
            &mut self.l1_global_st_miss,
            &mut self.l1_local_ld_hit,
            &mut self.l1_local_ld_miss,
            &mut self.l1_local_st_hit,
            &mut self.l1_local_st_miss,
            &mut self.l1_tex_hit,
            &mut self.l1_tex_miss,
            &mut self.l1_surf_ld_hit,
            &mut self.l1_surf_ld_miss,
            &mut self.l1_surf_st_hit,
            &mut self.l1_surf_st_miss,
            &mut self.l1_xbar_read_sectors,
            &mut self.l1_xbar_write_sectors,
            &mut self.l2_read_requests,
            &mut self.l2_read_sectors,
            &mut self.l2_read_hits,
            &mut self.l2_write_requests,
            &mut self.l2_write_sectors,
            &mut self.l2_write_hits,
            &mut self.l2_atom_requests,
            &mut self.l2_atom_sectors,
            &mut self.l2_atom_hits,
            &mut self.l2_red_requests,
            &mut self.l2_red_sectors,
            &mut self.l2_red_hits,
            &mut self.dram_read_sectors,
            &mut self.dram_write_sectors,
        ]
    }

    /// L1 sector lookups (global and local, loads and stores, textures and surfaces) and their
    /// hits.
    pub fn l1_lookups(&self) -> (u64, u64) {
        let hits = self.l1_global_ld_hit
            + self.l1_global_st_hit
            + self.l1_local_ld_hit
            + self.l1_local_st_hit
            + self.l1_tex_hit
            + self.l1_surf_ld_hit
            + self.l1_surf_st_hit;
        let misses = self.l1_global_ld_miss
            + self.l1_global_st_miss
            + self.l1_local_ld_miss
            + self.l1_local_st_miss
            + self.l1_tex_miss
            + self.l1_surf_ld_miss
            + self.l1_surf_st_miss;
        (hits + misses, hits)
    }

    /// L2 sector lookups of every kind from L1 and their hits.
    pub fn l2_lookups(&self) -> (u64, u64) {
        (
            self.l2_read_sectors
                + self.l2_write_sectors
                + self.l2_atom_sectors
                + self.l2_red_sectors,
            self.l2_read_hits + self.l2_write_hits + self.l2_atom_hits + self.l2_red_hits,
        )
    }

    /// Every counter under its Nsight Compute name (rates as percentages); the texture and
    /// surface lookups only when there were some.
    pub fn metrics(&self) -> Vec<(&'static str, f64)> {
        let mut m = self.base_metrics();
        let f = |v: u64| v as f64;
        let tex = [
            self.l1_tex_hit,
            self.l1_tex_miss,
            self.l1_surf_ld_hit,
            self.l1_surf_ld_miss,
            self.l1_surf_st_hit,
            self.l1_surf_st_miss,
        ];
        if tex.iter().any(|&v| v != 0) {
            let at = m.len().min(8);
            m.splice(at..at, {
                vec![
                    (
                        "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum",
                        f(self.l1_tex_hit),
                    ),
                    (
                        "l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum",
                        f(self.l1_tex_miss),
                    ),
                    (
                        "l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_hit.sum",
                        f(self.l1_surf_ld_hit),
                    ),
                    (
                        "l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_miss.sum",
                        f(self.l1_surf_ld_miss),
                    ),
                    (
                        "l1tex__t_sectors_pipe_tex_mem_surface_op_st_lookup_hit.sum",
                        f(self.l1_surf_st_hit),
                    ),
                    (
                        "l1tex__t_sectors_pipe_tex_mem_surface_op_st_lookup_miss.sum",
                        f(self.l1_surf_st_miss),
                    ),
                ]
            });
        }
        m
    }

    fn base_metrics(&self) -> Vec<(&'static str, f64)> {
        let pct = |(n, h): (u64, u64)| {
            if n == 0 {
                0.0
            } else {
                h as f64 * 100.0 / n as f64
            }
        };
        let f = |v: u64| v as f64;
        vec![
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                f(self.l1_global_ld_hit),
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
                f(self.l1_global_ld_miss),
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum",
                f(self.l1_global_st_hit),
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum",
                f(self.l1_global_st_miss),
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum",
                f(self.l1_local_ld_hit),
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum",
                f(self.l1_local_ld_miss),
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum",
                f(self.l1_local_st_hit),
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_miss.sum",
                f(self.l1_local_st_miss),
            ),
            ("l1tex__t_sector_hit_rate.pct", pct(self.l1_lookups())),
            (
                "l1tex__m_xbar2l1tex_read_sectors.sum",
                f(self.l1_xbar_read_sectors),
            ),
            (
                "l1tex__m_l1tex2xbar_write_sectors.sum",
                f(self.l1_xbar_write_sectors),
            ),
            // The LSU's share of the crossbar traffic: its loads' L1 misses and its stores'
            // sectors (measured: equal on 101 and 102 of the 113 launches of
            // tests/hw/h200/cache2/ncu, within 2% on the others; atomics and reductions count
            // only in the totals above, k_cache launches 25-28).
            (
                "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
                f(self.l1_global_ld_miss + self.l1_local_ld_miss),
            ),
            (
                "l1tex__m_l1tex2xbar_write_sectors_mem_lg_op_st.sum",
                f(self.l1_global_st_hit
                    + self.l1_global_st_miss
                    + self.l1_local_st_hit
                    + self.l1_local_st_miss),
            ),
            (
                "lts__t_requests_srcunit_tex_op_read.sum",
                f(self.l2_read_requests),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_read.sum",
                f(self.l2_read_sectors),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
                f(self.l2_read_hits),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum",
                f(self.l2_read_sectors - self.l2_read_hits),
            ),
            (
                "lts__t_requests_srcunit_tex_op_write.sum",
                f(self.l2_write_requests),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_write.sum",
                f(self.l2_write_sectors),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum",
                f(self.l2_write_hits),
            ),
            (
                "lts__t_requests_srcunit_tex_op_atom.sum",
                f(self.l2_atom_requests),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_atom.sum",
                f(self.l2_atom_sectors),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum",
                f(self.l2_atom_hits),
            ),
            (
                "lts__t_requests_srcunit_tex_op_red.sum",
                f(self.l2_red_requests),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_red.sum",
                f(self.l2_red_sectors),
            ),
            (
                "lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum",
                f(self.l2_red_hits),
            ),
            // All of L1's sectors at L2 and their hits: the sums of the four operations above
            // (measured: equal on 111 and 110 of the 113 launches of tests/hw/h200/cache2/ncu).
            ("lts__t_sectors_srcunit_tex.sum", f(self.l2_lookups().0)),
            (
                "lts__t_sectors_srcunit_tex_lookup_hit.sum",
                f(self.l2_lookups().1),
            ),
            ("lts__t_sector_hit_rate.pct", pct(self.l2_lookups())),
            ("dram__sectors_read.sum", f(self.dram_read_sectors)),
            ("dram__sectors_write.sum", f(self.dram_write_sectors)),
            ("dram__bytes_read.sum", f(self.dram_read_sectors * 32)),
            ("dram__bytes_write.sum", f(self.dram_write_sectors * 32)),
        ]
    }
}

/// Both sectors of every 64-byte pair that has one sector in `m`.
#[inline]
fn pairs(m: u8) -> u8 {
    (m | ((m & 0b0101) << 1) | ((m & 0b1010) >> 1)) & 0b1111
}

#[inline]
fn count(m: u8) -> u64 {
    u64::from(m.count_ones())
}

/// The L2: two partitions of sectored lines.
#[derive(Clone, Debug)]
pub struct L2 {
    parts: [SectoredCache; 2],
}

/// Ways per L2 set: a modelling choice, not a measured fact (the H200's associativity is not
/// published and the recorded data does not fix it; with a hashed index and 30 MB per partition
/// the counters above depend on capacity, not on the way count).
const L2_WAYS: usize = 16;

impl L2 {
    /// An empty L2 of `bytes` in two equal partitions.
    pub fn new(bytes: u64) -> Self {
        let lines = (bytes / 2 / LINE_BYTES) as usize;
        L2 {
            parts: [
                SectoredCache::new(lines, L2_WAYS),
                SectoredCache::new(lines, L2_WAYS),
            ],
        }
    }

    /// The partition a line's address is homed in.
    #[inline]
    fn home(line: u64) -> usize {
        ((line ^ (line >> 5) ^ (line >> 9) ^ (line >> 14)).count_ones() & 1) as usize
    }

    /// The partition an SM's requests reach first.
    #[inline]
    fn near(sm: usize) -> usize {
        (sm / 2) % 2
    }

    /// Makes `line` present in partition `p`, writing back what it evicts.
    fn allocate(&mut self, p: usize, line: u64, per_pc: &mut [CacheCounters]) -> Slot {
        let (slot, ev) = self.parts[p].allocate(line);
        if let Some(e) = ev {
            if e.dirty != 0 {
                if let Some(c) = per_pc.get_mut(e.writer as usize) {
                    c.dram_write_sectors += count(e.dirty);
                }
            }
        }
        slot
    }

    /// Fetches `sectors` of `line` into its home partition; returns what DRAM supplied.
    fn fill_home(&mut self, line: u64, sectors: u8, per_pc: &mut [CacheCounters]) -> u64 {
        let h = Self::home(line);
        let slot = self.allocate(h, line, per_pc);
        let fetch = pairs(sectors) & !self.parts[h].valid(slot);
        self.parts[h].fill(slot, fetch);
        count(fetch)
    }

    /// A read of `sectors` of `line` from SM `sm`: (lookup hits, DRAM sectors read).
    fn read(
        &mut self,
        sm: usize,
        line: u64,
        sectors: u8,
        per_pc: &mut [CacheCounters],
    ) -> (u64, u64) {
        let n = Self::near(sm);
        let slot = self.allocate(n, line, per_pc);
        let valid = self.parts[n].valid(slot);
        let missing = sectors & !valid;
        let hits = count(sectors & valid);
        if missing == 0 {
            return (hits, 0);
        }
        let dram = if n == Self::home(line) {
            let fetch = pairs(missing) & !valid;
            self.parts[n].fill(slot, fetch);
            count(fetch)
        } else {
            let d = self.fill_home(line, missing, per_pc);
            if let Some(s) = self.parts[n].find(line) {
                self.parts[n].fill(s, pairs(missing));
            }
            d
        };
        (hits, dram)
    }

    /// A write of `sectors` of `line` from SM `sm` by instruction `pc`.
    fn write(&mut self, sm: usize, line: u64, sectors: u8, pc: u32, per_pc: &mut [CacheCounters]) {
        let (n, h) = (Self::near(sm), Self::home(line));
        if n != h {
            let s = self.allocate(n, line, per_pc);
            self.parts[n].fill(s, sectors);
        }
        let s = self.allocate(h, line, per_pc);
        self.parts[h].write(s, sectors, pc);
    }

    /// An atomic or reduction on `sectors` of `line`, sector by sector at the home partition:
    /// (lookup hits, DRAM sectors read).
    fn atomic(
        &mut self,
        sm: usize,
        line: u64,
        sectors: u8,
        pc: u32,
        per_pc: &mut [CacheCounters],
    ) -> (u64, u64) {
        let (n, h) = (Self::near(sm), Self::home(line));
        if n != h {
            self.parts[n].invalidate(line);
        }
        let slot = self.allocate(h, line, per_pc);
        let (mut hits, mut dram) = (0, 0);
        for i in 0..4 {
            let bit = 1u8 << i;
            if sectors & bit == 0 {
                continue;
            }
            let valid = self.parts[h].valid(slot);
            if valid & bit != 0 {
                hits += 1;
            } else {
                let fetch = pairs(bit) & !valid;
                self.parts[h].fill(slot, fetch);
                dram += count(fetch);
            }
        }
        self.parts[h].write(slot, sectors, pc);
        (hits, dram)
    }
}

/// L1's set count, a modelling choice (the H200's L1 organisation is not published): 32 sets make
/// every capacity the carveout leaves (256 KB less 0 to 228 KB, always a multiple of 4 KB) a
/// whole number of ways.
const L1_SETS: usize = 32;

/// The memory hierarchy of a launch: an L1 per SM, the L2 and DRAM, with counters per
/// instruction.
#[derive(Clone, Debug)]
pub struct Hierarchy {
    l1: Vec<SectoredCache>,
    /// Per SM: sectors whose fill from L2 arrives at the end of the current step.
    in_flight: Vec<Vec<(u64, u8)>>,
    l2: L2,
    /// Counters by instruction index.
    pub per_pc: Vec<CacheCounters>,
    /// Scratch: the lines a texture instruction sends to L2.
    tex_out: Vec<LineAccess>,
    /// The L2 group of each `tex_out` entry.
    tex_out_groups: Vec<u32>,
}

impl Hierarchy {
    /// A cold hierarchy for `sms` SMs with `l1_bytes` of L1 each and an L2 of `l2_bytes`, counting
    /// for a kernel of `code_len` instructions.
    pub fn new(sms: usize, l1_bytes: u64, l2_bytes: u64, code_len: usize) -> Self {
        Self::with_l2(sms, l1_bytes, L2::new(l2_bytes), code_len)
    }

    /// A hierarchy with cold L1s and the given L2 (warm from an earlier launch).
    pub fn with_l2(sms: usize, l1_bytes: u64, l2: L2, code_len: usize) -> Self {
        let ways = ((l1_bytes / LINE_BYTES) as usize / L1_SETS).max(1);
        Hierarchy {
            l1: vec![SectoredCache::new(L1_SETS * ways, ways); sms],
            in_flight: vec![Vec::new(); sms],
            l2,
            per_pc: vec![CacheCounters::default(); code_len],
            tex_out: Vec::new(),
            tex_out_groups: Vec::new(),
        }
    }

    /// Gives the L2 back (for the next launch, when caches stay warm).
    pub fn into_l2(self) -> L2 {
        self.l2
    }

    /// The launch totals.
    pub fn totals(&self) -> CacheCounters {
        let mut t = CacheCounters::default();
        for c in &self.per_pc {
            t.merge(c);
        }
        t
    }

    /// The end of SM `sm`'s step: the sectors it fetched this step arrive in its L1.
    pub fn end_step(&mut self, sm: usize) {
        let Some(l1) = self.l1.get_mut(sm) else {
            return;
        };
        for (line, sectors) in self.in_flight[sm].drain(..) {
            if let Some(s) = l1.find(line) {
                l1.fill(s, sectors);
            }
        }
    }

    /// One warp-level access from SM `sm`.
    pub fn access(&mut self, sm: usize, a: &AccessInfo, lines: &[LineAccess]) {
        if a.pc as usize >= self.per_pc.len() || self.l1.is_empty() {
            return;
        }
        let mut c = CacheCounters::default();
        let per_pc = &mut self.per_pc;
        let sms = self.l1.len();
        let l1 = &mut self.l1[sm % sms];
        for la in lines {
            let n = count(la.sectors);
            match a.kind {
                AccessKind::Load => {
                    let (hit, miss) = if a.l1_allocate {
                        let (_, _, valid) = l1.lookup(la.line);
                        let hit = la.sectors & valid;
                        if hit != la.sectors {
                            self.in_flight[sm % sms].push((la.line, la.sectors & !hit));
                        }
                        (hit, la.sectors & !hit)
                    } else {
                        (0, la.sectors)
                    };
                    if a.local {
                        c.l1_local_ld_hit += count(hit);
                        c.l1_local_ld_miss += count(miss);
                    } else {
                        c.l1_global_ld_hit += count(hit);
                        c.l1_global_ld_miss += count(miss);
                    }
                    if miss != 0 {
                        c.l1_xbar_read_sectors += count(miss);
                        c.l2_read_requests += 1;
                        c.l2_read_sectors += count(miss);
                        let (h, d) = self.l2.read(sm, la.line, miss, per_pc);
                        c.l2_read_hits += h;
                        c.dram_read_sectors += d;
                    }
                }
                AccessKind::Store => {
                    let (_, present, _) = l1.lookup(la.line);
                    if la.full & la.sectors != 0 {
                        self.in_flight[sm % sms].push((la.line, la.full & la.sectors));
                    }
                    let (hit, miss) = if present { (n, 0) } else { (0, n) };
                    if a.local {
                        c.l1_local_st_hit += hit;
                        c.l1_local_st_miss += miss;
                    } else {
                        c.l1_global_st_hit += hit;
                        c.l1_global_st_miss += miss;
                    }
                    c.l1_xbar_write_sectors += n;
                    c.l2_write_requests += 1;
                    c.l2_write_sectors += n;
                    c.l2_write_hits += n;
                    self.l2.write(sm, la.line, la.sectors, a.pc, per_pc);
                }
                AccessKind::Atomic | AccessKind::Reduction => {
                    let (h, d) = self.l2.atomic(sm, la.line, la.sectors, a.pc, per_pc);
                    if a.kind == AccessKind::Atomic {
                        c.l2_atom_requests += 1;
                        c.l2_atom_sectors += n;
                        c.l2_atom_hits += h;
                        c.l1_xbar_read_sectors += n;
                    } else {
                        c.l2_red_requests += 1;
                        c.l2_red_sectors += n;
                        c.l2_red_hits += h;
                    }
                    c.l1_xbar_write_sectors += n;
                    c.dram_read_sectors += d;
                }
            }
        }
        // (Write-backs this access caused went to the counters of the lines' writers.)
        per_pc[a.pc as usize].merge(&c);
    }

    /// One texture or surface instruction `pc` from SM `sm`: its requests, each a range of
    /// `lines` ([`crate::mem::texture::request::Splitter`]). The texture pipe's rules, measured
    /// on the H200 (tests/hw/h200/texture_mem/, see that module):
    /// - texture fetches and surface loads hit on a sector that is valid or was asked for by an
    ///   earlier lookup of the same SM, even one still in flight (bilinear taps of one warp
    ///   halfway between texels: 16 lookups, 7 hits, one per sector shared with the request
    ///   before it); a miss is filled at once;
    /// - surface stores hit when the line's tag is present, as LSU stores do (an 8 x 4 tile of
    ///   floats written row by row: 6 of its 8 lookups hit), and leave nothing valid in L1;
    /// - what misses (or is stored) goes to L2 once per line and instruction, the requests'
    ///   sectors merged: a warp reading an 8 x 4 tile of floats misses on the 4 sectors of one
    ///   line in 4 requests and L2 sees 4 sectors and no hit (`f32_point_tile8x4`: 8,192 L2
    ///   sectors, 0 hits, where one request per L1 miss would hit on the 64-byte partner of each
    ///   first miss); the tile's 16 stores to 8 sectors write 8 sectors to L2
    ///   (`surf_write_tile8x4`). More exactly, once per texel-space tag block (32 bytes x 4
    ///   rows) and line: `groups` (parallel to `lines`, missing entries 0) tells lines' parts
    ///   apart that belong to different tag blocks, which happens in pitch-linear memory only
    ///   (a row of 32 floats of a pitch-2D texture is 4 L2 requests of one sector, and the
    ///   64-byte fills make every second one hit: `pitch2d_point_row` 4,096 L2 hits of 8,192,
    ///   `gld_row` on the same memory 0).
    pub fn tex_access(
        &mut self,
        sm: usize,
        pc: u32,
        access: TexAccess,
        lines: &[LineAccess],
        groups: &[u32],
        requests: &[(u32, u32)],
    ) {
        if pc as usize >= self.per_pc.len() || self.l1.is_empty() {
            return;
        }
        let mut c = CacheCounters::default();
        let sms = self.l1.len();
        let l1 = &mut self.l1[sm % sms];
        let out = &mut self.tex_out;
        out.clear();
        let out_groups = &mut self.tex_out_groups;
        out_groups.clear();
        for &(start, n) in requests {
            let Some(req) = lines.get(start as usize..(start + n) as usize) else {
                continue;
            };
            for (k, la) in req.iter().enumerate() {
                let group = groups.get(start as usize + k).copied().unwrap_or(0);
                let send = if access == TexAccess::SurfaceStore {
                    let n = count(la.sectors);
                    let (_, present, _) = l1.lookup(la.line);
                    if present {
                        c.l1_surf_st_hit += n;
                    } else {
                        c.l1_surf_st_miss += n;
                    }
                    la.sectors
                } else {
                    let (slot, _, valid) = l1.lookup(la.line);
                    let hit = la.sectors & valid;
                    let miss = la.sectors & !hit;
                    l1.fill(slot, miss);
                    if access == TexAccess::SurfaceLoad {
                        c.l1_surf_ld_hit += count(hit);
                        c.l1_surf_ld_miss += count(miss);
                    } else {
                        c.l1_tex_hit += count(hit);
                        c.l1_tex_miss += count(miss);
                    }
                    miss
                };
                if send != 0 {
                    match (0..out.len()).find(|&j| out[j].line == la.line && out_groups[j] == group)
                    {
                        Some(j) => out[j].sectors |= send,
                        None => {
                            out.push(LineAccess {
                                line: la.line,
                                sectors: send,
                                full: 0,
                            });
                            out_groups.push(group);
                        }
                    }
                }
            }
        }
        let per_pc = &mut self.per_pc;
        for la in out.iter() {
            let n = count(la.sectors);
            if access == TexAccess::SurfaceStore {
                c.l1_xbar_write_sectors += n;
                c.l2_write_requests += 1;
                c.l2_write_sectors += n;
                c.l2_write_hits += n;
                self.l2.write(sm, la.line, la.sectors, pc, per_pc);
            } else {
                c.l1_xbar_read_sectors += n;
                c.l2_read_requests += 1;
                c.l2_read_sectors += n;
                let (h, d) = self.l2.read(sm, la.line, la.sectors, per_pc);
                c.l2_read_hits += h;
                c.dram_read_sectors += d;
            }
        }
        per_pc[pc as usize].merge(&c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(pc: u32) -> AccessInfo {
        AccessInfo {
            pc,
            kind: AccessKind::Load,
            local: false,
            l1_allocate: true,
        }
    }

    #[test]
    fn pairs_cover_both_halves() {
        assert_eq!(pairs(0b0001), 0b0011);
        assert_eq!(pairs(0b0100), 0b1100);
        assert_eq!(pairs(0b1001), 0b1111);
    }

    #[test]
    fn a_second_read_hits_in_l1_and_l2_is_not_asked() {
        let mut h = Hierarchy::new(2, 64 * 1024, 1 << 20, 1);
        let l = [LineAccess {
            line: 3,
            sectors: 0b1111,
            full: 0,
        }];
        h.access(0, &load(0), &l);
        h.end_step(0);
        h.access(0, &load(0), &l);
        let t = h.totals();
        assert_eq!((t.l1_global_ld_miss, t.l1_global_ld_hit), (4, 4));
        assert_eq!(
            (t.l2_read_sectors, t.l2_read_hits, t.dram_read_sectors),
            (4, 0, 4)
        );
        // Another SM misses in its own L1 and finds the line in L2 (near or home copy).
        h.access(1, &load(0), &l);
        let t = h.totals();
        assert_eq!(t.l1_global_ld_miss, 8);
        assert_eq!(t.dram_read_sectors, 4);
    }

    #[test]
    fn a_sector_in_flight_misses_again() {
        let mut h = Hierarchy::new(1, 64 * 1024, 1 << 20, 1);
        let l = [LineAccess {
            line: 3,
            sectors: 0b0001,
            full: 0,
        }];
        h.access(0, &load(0), &l);
        h.access(0, &load(0), &l);
        let t = h.totals();
        assert_eq!(
            (t.l1_global_ld_miss, t.l2_read_sectors, t.l2_read_hits),
            (2, 2, 1)
        );
        h.end_step(0);
        h.access(0, &load(0), &l);
        assert_eq!(h.totals().l1_global_ld_hit, 1);
    }

    #[test]
    fn one_sector_misses_fill_the_pair() {
        let mut h = Hierarchy::new(1, 64 * 1024, 1 << 20, 1);
        for s in 0..4 {
            h.access(
                0,
                &load(0),
                &[LineAccess {
                    line: 9,
                    sectors: 1 << s,
                    full: 0,
                }],
            );
        }
        let t = h.totals();
        assert_eq!(
            (t.l2_read_sectors, t.l2_read_hits, t.dram_read_sectors),
            (4, 2, 4)
        );
    }
}
