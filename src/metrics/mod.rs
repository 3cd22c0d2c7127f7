//! Every metric gpumemsim reports, defined once ([`table`]), and the counters as arrays indexed
//! by metric ([`Counts`]).
//!
//! A metric is one row of the table: its identifier ([`Metric`]), its name in the reports
//! (Nsight Compute's where one exists, `gpumemsim__...` otherwise), its [`Unit`], how its values
//! combine ([`Aggregation`]), which model or stage produces it ([`Source`]), whether it is
//! reported per CUDA source line, and a one-line description. The models add to a [`Counts`]
//! (one `u64` slot per metric); the reports iterate over the table, so no metric name is written
//! anywhere else, and every metric of a report's sources is reported for every launch, 0 where
//! nothing happened.
//!
//! Metrics computed from others (hit rates, misses, bytes, the SASS path's `idc__requests`) are
//! derived in [`Counts::value`], next to the table.
//!
//! [`NOT_MODELLED`] lists the Nsight Compute metrics that the hardware recordings hold and the
//! simulator does not produce, each with its reason: a comparison with the hardware fails on a
//! recorded metric that is neither in the table nor in that list.

use std::ops::{Index, IndexMut};

/// What a metric counts.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Instruction,
    ThreadInstruction,
    Request,
    Sector,
    Wavefront,
    Conflict,
    Texel,
    Lane,
    Byte,
    Block,
    Thread,
    Register,
    Percent,
    Count,
}

impl Unit {
    /// The unit's name as Nsight Compute prints it (`--print-units base`).
    pub fn name(self) -> &'static str {
        match self {
            Unit::Instruction => "inst",
            Unit::ThreadInstruction => "inst",
            Unit::Request => "request",
            Unit::Sector => "sector",
            Unit::Wavefront => "wavefront",
            Unit::Conflict => "conflict",
            Unit::Texel => "texel",
            Unit::Lane => "lane",
            Unit::Byte => "byte",
            Unit::Block => "block",
            Unit::Thread => "thread",
            Unit::Register => "register/thread",
            Unit::Percent => "%",
            Unit::Count => "",
        }
    }
}

/// How a metric's values combine over lanes, instructions, lines and launches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aggregation {
    /// Event counts: added.
    Sum,
    /// A worst case: the maximum.
    Max,
    /// A percentage of two sums, recomputed from them (never added).
    Ratio,
    /// A property of one launch (its configuration or occupancy), neither added over lines nor
    /// over launches.
    Launch,
}

/// Which model or stage produces a metric, and so when a report has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The load/store unit's models (banks, coalescing, constant cache): every launch.
    Lsu,
    /// The texture pipe: every launch.
    Texture,
    /// L1, L2 and DRAM: every launch where the caches are modelled (not under `--no-caches`).
    Cache,
    /// The executor's counts of SASS: launches that ran as SASS.
    SassOnly,
    /// The executor's counts of PTX: launches that ran as PTX.
    PtxOnly,
    /// The launch's configuration: every launch.
    LaunchConfig,
    /// The driver's occupancy calculation: launches whose kernel resources are known.
    Occupancy,
    /// Kept by the counters for other metrics or the report's own fields, never reported.
    Internal,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct MetricDef {
    /// The identifier.
    pub id: Metric,
    /// The name in the reports.
    pub name: &'static str,
    /// What it counts.
    pub unit: Unit,
    /// How values combine.
    pub aggregation: Aggregation,
    /// Which model or stage produces it.
    pub source: Source,
    /// Whether the per-line report has it (where it is not zero).
    pub per_line: bool,
    /// One line for people.
    pub description: &'static str,
}

impl MetricDef {
    /// Whether the name claims to be Nsight Compute's metric of that name (else it is
    /// gpumemsim's own, with no hardware counterpart).
    pub fn is_nsight(&self) -> bool {
        !self.name.starts_with("gpumemsim__")
    }
}

/// Generates [`Metric`] and [`METRICS`] from the rows of [`table`].
macro_rules! metric_table {
    ($($id:ident = $name:literal, $unit:ident, $agg:ident, $src:ident, $line:literal,
       $desc:literal;)*) => {
        /// A metric: an index into [`METRICS`] and into the slots of [`Counts`].
        #[allow(missing_docs)] // each variant is documented by its row in `table.rs`
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Metric { $($id,)* }

        /// The table, in [`Metric`] order.
        pub const METRICS: &[MetricDef] = &[$(MetricDef {
            id: Metric::$id,
            name: $name,
            unit: $unit,
            aggregation: $agg,
            source: $src,
            per_line: $line,
            description: $desc,
        },)*];
    };
}
use metric_table;

mod table;
pub use table::{Metric, METRICS};

/// The number of metrics.
pub const COUNT: usize = METRICS.len();

impl Metric {
    /// The metric's row.
    #[inline]
    pub fn def(self) -> &'static MetricDef {
        &METRICS[self as usize]
    }

    /// The name in the reports.
    #[inline]
    pub fn name(self) -> &'static str {
        self.def().name
    }

    /// The metric of a report name.
    pub fn by_name(name: &str) -> Option<Metric> {
        METRICS.iter().find(|d| d.name == name).map(|d| d.id)
    }

    /// Every metric, in table order.
    pub fn all() -> impl Iterator<Item = Metric> {
        METRICS.iter().map(|d| d.id)
    }
}

/// One slot per metric: what the models counted for one instruction, one line or one launch.
/// Derived and launch metrics keep 0 in their slots; [`Counts::value`] computes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts(pub [u64; COUNT]);

impl Default for Counts {
    fn default() -> Self {
        Counts([0; COUNT])
    }
}

impl Index<Metric> for Counts {
    type Output = u64;
    #[inline(always)]
    fn index(&self, m: Metric) -> &u64 {
        &self.0[m as usize]
    }
}

impl IndexMut<Metric> for Counts {
    #[inline(always)]
    fn index_mut(&mut self, m: Metric) -> &mut u64 {
        &mut self.0[m as usize]
    }
}

impl Counts {
    /// Adds every counter of `other` (maxima combine as maxima), as the table says.
    pub fn merge(&mut self, other: &Counts) {
        for (i, d) in METRICS.iter().enumerate() {
            match d.aggregation {
                Aggregation::Max => self.0[i] = self.0[i].max(other.0[i]),
                _ => self.0[i] += other.0[i],
            }
        }
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&v| v == 0)
    }

    /// The sum of several slots.
    #[inline]
    pub fn sum(&self, ms: &[Metric]) -> u64 {
        ms.iter().map(|&m| self[m]).sum()
    }

    /// The metric's value: the slot, or for a derived metric its formula. Launch metrics are
    /// not counted here (0).
    pub fn value(&self, m: Metric) -> f64 {
        use Metric::*;
        let pct = |n: u64, h: u64| {
            if n == 0 {
                0.0
            } else {
                h as f64 * 100.0 / n as f64
            }
        };
        match m {
            L1HitRate => {
                let (n, h) = self.l1_lookups();
                pct(n, h)
            }
            L2HitRate => {
                let (n, h) = self.l2_lookups();
                pct(n, h)
            }
            L1XbarReadSectorsLd => (self[L1GlobalLdMiss] + self[L1LocalLdMiss]) as f64,
            L1XbarWriteSectorsSt => {
                self.sum(&[L1GlobalStHit, L1GlobalStMiss, L1LocalStHit, L1LocalStMiss]) as f64
            }
            L2Sectors => self.l2_lookups().0 as f64,
            L2SectorHits => self.l2_lookups().1 as f64,
            L2ReadMisses => (self[L2ReadSectors] - self[L2ReadHits]) as f64,
            DramBytesRead => (self[DramReadSectors] * 32) as f64,
            DramBytesWrite => (self[DramWriteSectors] * 32) as f64,
            // The SASS's constant loads: the user's constants (bank 3, counted as constant
            // requests) and the other banks' LDCs (mem::constant's module docs).
            IdcRequests => (self[LdcBankRequests] + self[ConstRequests]) as f64,
            _ => self[m] as f64,
        }
    }

    /// L1 sector lookups (global and local, loads and stores, textures and surfaces) and their
    /// hits.
    pub fn l1_lookups(&self) -> (u64, u64) {
        use Metric::*;
        let hits = self.sum(&[
            L1GlobalLdHit,
            L1GlobalStHit,
            L1LocalLdHit,
            L1LocalStHit,
            L1TexHit,
            L1SurfLdHit,
            L1SurfStHit,
        ]);
        let misses = self.sum(&[
            L1GlobalLdMiss,
            L1GlobalStMiss,
            L1LocalLdMiss,
            L1LocalStMiss,
            L1TexMiss,
            L1SurfLdMiss,
            L1SurfStMiss,
        ]);
        (hits + misses, hits)
    }

    /// L2 sector lookups of every kind from L1, and their hits.
    pub fn l2_lookups(&self) -> (u64, u64) {
        use Metric::*;
        (
            self.sum(&[L2ReadSectors, L2WriteSectors, L2AtomSectors, L2RedSectors]),
            self.sum(&[L2ReadHits, L2WriteHits, L2AtomHits, L2RedHits]),
        )
    }

    /// Every metric of `sources` under its report name, in table order.
    pub fn metrics(&self, sources: &[Source]) -> Vec<(&'static str, f64)> {
        METRICS
            .iter()
            .filter(|d| sources.contains(&d.source))
            .map(|d| (d.name, self.value(d.id)))
            .collect()
    }
}

/// Nsight Compute metrics that hardware recordings hold and gpumemsim does not produce, or
/// produces as another quantity under the same name (the reason says which), each with the
/// reason. A comparison with the hardware fails on a recorded metric that is neither
/// in [`METRICS`] nor here: nothing is dropped silently.
pub const NOT_MODELLED: &[(&str, &str)] = &[
    (
        "idc__requests_lookup_hit.sum",
        "the indexed constant cache's tags are not modelled (its requests are: idc__requests.sum)",
    ),
    (
        "idc__requests_lookup_miss.sum",
        "the indexed constant cache's tags are not modelled (its requests are: idc__requests.sum)",
    ),
    (
        "smsp__thread_inst_executed.sum",
        "it adds the threads of the warp-instructions the H200 counts on no Source-page \
         instruction (gpumemsim__sass_inst_unattributed.sum), whose thread counts are not \
         known; of the 383 recorded SASS launches (tests/hw/h200/sass2, corpus3) it equals \
         smsp__sass_thread_inst_executed.sum on 373 and exceeds it on 10, all of kernels whose \
         warps split and regroup (k_warp_masks, k_isa, c_shfl_scan, c_binaryPartitionCG, \
         c_warpAggregatedAtomicsCG)",
    ),
    (
        "smsp__thread_inst_executed_pred_on.sum",
        "as smsp__thread_inst_executed.sum, beside smsp__sass_thread_inst_executed_pred_on.sum",
    ),
    (
        "gpu__time_duration.sum",
        "gpumemsim has no clock: it counts what the memory system does, not how long it takes",
    ),
    (
        "sm__cycles_elapsed.max",
        "gpumemsim has no clock (see gpu__time_duration.sum)",
    ),
    (
        "lts__t_sectors_op_read.sum",
        "every L2 read sector, the fabric's copies between the two partitions and the SM's \
         instruction and constant fetches included (copy_16m: 3,149,047 where L1 reads \
         2,097,152, tests/hw/h200/cache/ncu/copy_16m.csv); gpumemsim counts L1's reads \
         (lts__t_sectors_srcunit_tex_op_read), not the fabric's",
    ),
    (
        "lts__t_sectors_op_write.sum",
        "every L2 write sector, the fabric's included (copy_16m: 3,150,596 where L1 writes \
         2,097,152); gpumemsim counts L1's writes (lts__t_sectors_srcunit_tex_op_write)",
    ),
    (
        "lts__t_sectors_srcunit_ltcfabric.sum",
        "the sectors the fabric carries between the L2 partitions: the model keeps a near copy \
         of lines homed in the other partition but does not count the transfers",
    ),
    (
        "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum",
        "Nsight Compute counts the misses of the lookups in both partitions (a 1-sector walk: \
         262,144 sectors, 131,072 hits and 262,144 misses, tests/hw/h200/cache2/ncu/k_cache.csv \
         launch 22); the simulator's value is its near partition's misses, another quantity",
    ),
    (
        "lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum",
        "lookups in both partitions (see lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum)",
    ),
    (
        "lts__t_sector_hit_rate.pct",
        "Nsight Compute's rate covers every L2 lookup (the fabric's, the instruction and \
         constant fetches; 186% on broadcast launch 1, tests/hw/h200/cache/ncu/broadcast.csv); \
         the simulator's is L1's sectors at L2 only, another quantity",
    ),
];

/// The table as text: one metric a line (name, unit, aggregation, source, per line, what it
/// counts), then the metrics not modelled with their reasons (`gpumemsim metrics`).
pub fn render_table() -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let w = METRICS.iter().map(|d| d.name.len()).max().unwrap_or(0);
    for d in METRICS.iter().filter(|d| d.source != Source::Internal) {
        let _ = writeln!(
            s,
            "{:<w$}  {:<15} {:<6} {:<12} {:<4} {}",
            d.name,
            d.unit.name(),
            format!("{:?}", d.aggregation).to_lowercase(),
            format!("{:?}", d.source),
            if d.per_line { "line" } else { "" },
            d.description,
        );
    }
    let _ = writeln!(s, "\nrecorded by Nsight Compute, not modelled:");
    for (name, why) in NOT_MODELLED {
        let _ = writeln!(s, "{name:<w$}  {why}");
    }
    s
}

/// Why `name` is not modelled, when [`NOT_MODELLED`] lists it.
pub fn not_modelled(name: &str) -> Option<&'static str> {
    NOT_MODELLED
        .iter()
        .find(|(m, _)| *m == name)
        .map(|(_, why)| *why)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_enum_order_and_names_are_unique() {
        for (i, d) in METRICS.iter().enumerate() {
            assert_eq!(d.id as usize, i, "{}", d.name);
            assert_eq!(Metric::by_name(d.name), Some(d.id));
            assert!(!d.description.is_empty(), "{} has no description", d.name);
            assert!(
                METRICS[i + 1..].iter().all(|e| e.name != d.name),
                "{} twice",
                d.name
            );
            assert!(
                not_modelled(d.name).is_none(),
                "{} is both modelled and not",
                d.name
            );
        }
    }

    #[test]
    fn merge_follows_the_aggregation() {
        let mut a = Counts::default();
        a[Metric::SharedLdInst] = 2;
        a[Metric::SharedMaxWay] = 4;
        let mut b = a.clone();
        b[Metric::SharedMaxWay] = 3;
        a.merge(&b);
        assert_eq!(a[Metric::SharedLdInst], 4);
        assert_eq!(a[Metric::SharedMaxWay], 4);
    }

    #[test]
    fn derived_values() {
        let mut c = Counts::default();
        c[Metric::L2ReadSectors] = 10;
        c[Metric::L2ReadHits] = 4;
        c[Metric::DramReadSectors] = 3;
        c[Metric::L1GlobalLdHit] = 1;
        c[Metric::L1GlobalLdMiss] = 3;
        assert_eq!(c.value(Metric::L2ReadMisses), 6.0);
        assert_eq!(c.value(Metric::DramBytesRead), 96.0);
        assert_eq!(c.value(Metric::L1HitRate), 25.0);
        assert_eq!(c.value(Metric::L2HitRate), 40.0);
        assert_eq!(Counts::default().value(Metric::L1HitRate), 0.0);
    }

    /// No metric name is written outside this module (tests apart): the reports, the models and
    /// `compare` name metrics by [`Metric`].
    #[test]
    fn no_metric_name_is_written_elsewhere() {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).expect("src").flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        walk(&src, &mut files);
        let mut found = Vec::new();
        for f in files {
            if f.starts_with(src.join("metrics")) {
                continue;
            }
            let text = std::fs::read_to_string(&f).expect("readable source");
            // Unit tests may name the metrics they check.
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for d in METRICS {
                if code.contains(&format!("\"{}\"", d.name)) {
                    found.push(format!("{}: {}", f.display(), d.name));
                }
            }
        }
        assert!(
            found.is_empty(),
            "metric names outside src/metrics:\n{}",
            found.join("\n")
        );
    }
}
