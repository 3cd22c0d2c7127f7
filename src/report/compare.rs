//! Compares a simulated report with Nsight Compute's CSV (`ncu --csv --print-units base
//! --metrics ...`), launch by launch (in launch order) and metric by metric.
//!
//! Several recordings of the same launches ([`merge_recordings`]) give each (launch, metric)
//! its set of recorded values: some counters of contended atomics depend on the H200's timing
//! and differ from profile to profile (tests/hw/h200/srange: 20 profiles of cas_probe, whose
//! 8-warp `spin_sh` counts 1,993 to 2,020 shared atomics). A simulated value then agrees
//! ([`RangeComparison::agreement`]) when it equals the value every recording shares, or, only
//! where the recordings differ, when it lies within their [min, max].

use std::collections::BTreeMap;

use super::Report;

/// One profiled launch from an ncu CSV.
#[derive(Clone, Debug, PartialEq)]
pub struct NcuLaunch {
    /// ncu's launch ID (launch order within the process).
    pub id: u32,
    /// The demangled kernel name ncu printed.
    pub kernel: String,
    /// Metric values.
    pub metrics: BTreeMap<String, f64>,
}

/// Splits one CSV line with quoted fields (Nsight Compute's CSV holds no quote inside a field).
pub fn fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// Parses ncu's CSV (long format: one row per launch and metric).
pub fn parse_ncu_csv(text: &str) -> Result<Vec<NcuLaunch>, String> {
    // (1-based line number, line): ncu prints its own messages (`==PROF==` ...) between them.
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| l.starts_with('"'));
    let (_, header) = lines.next().ok_or(
        "no CSV header in the ncu output (a quoted line naming the columns; record it with \
         `ncu --csv --print-units base`)",
    )?;
    let h = fields(header);
    let col = |name: &str| {
        h.iter()
            .position(|x| x == name)
            .ok_or(format!("ncu CSV has no '{name}' column"))
    };
    let (ci, ck, cm, cv) = (
        col("ID")?,
        col("Kernel Name")?,
        col("Metric Name")?,
        col("Metric Value")?,
    );
    let mut out: Vec<NcuLaunch> = Vec::new();
    for (n, line) in lines {
        let f = fields(line);
        if f.len() <= cv.max(cm).max(ck).max(ci) {
            continue;
        }
        let id: u32 = f[ci].parse().map_err(|_| {
            format!(
                "line {n}, column {}: bad launch ID '{}' (a whole number)",
                ci + 1,
                f[ci]
            )
        })?;
        let value: f64 = match f[cv].replace(',', "").parse() {
            Ok(v) => v,
            Err(_) => continue,
        };
        if out.last().map(|l| l.id) != Some(id) {
            out.push(NcuLaunch {
                id,
                kernel: f[ck].clone(),
                metrics: BTreeMap::new(),
            });
        }
        if let Some(l) = out.last_mut() {
            l.metrics.insert(f[cm].clone(), value);
        }
    }
    Ok(out)
}

/// One compared value.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Launch index (0-based).
    pub launch: usize,
    /// The kernel.
    pub kernel: String,
    /// The metric.
    pub metric: String,
    /// gpumemsim's value.
    pub simulated: f64,
    /// The hardware's value.
    pub hardware: f64,
}

impl Comparison {
    /// Equal, allowing for the rounding of ncu's printed percentages.
    pub fn equal(&self) -> bool {
        close(&self.metric, self.simulated, self.hardware)
    }
}

/// `a` equals the recorded `b` of `metric`, allowing for the rounding of ncu's printed
/// percentages.
fn close(metric: &str, a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs().max(1.0) + if metric.ends_with("_pct") { 0.01 } else { 0.0 }
}

/// One simulated value against the values several recordings of the same launch give it.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeComparison {
    /// Launch index (0-based).
    pub launch: usize,
    /// The kernel.
    pub kernel: String,
    /// The metric.
    pub metric: String,
    /// gpumemsim's value.
    pub simulated: f64,
    /// The recorded values, one per recording that has the metric, in the recordings' order.
    pub recorded: Vec<f64>,
}

/// How a simulated value relates to its recorded values ([`RangeComparison::agreement`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// Every recording has the same value and the simulated one equals it.
    Equal,
    /// The recordings differ, and the simulated value lies within their [min, max].
    InRange,
    /// Every recording has the same value and the simulated one differs from it.
    Differs,
    /// The recordings differ, and the simulated value lies outside their [min, max].
    OutOfRange,
}

impl Agreement {
    /// [`Agreement::Equal`] or [`Agreement::InRange`].
    pub fn agrees(self) -> bool {
        matches!(self, Agreement::Equal | Agreement::InRange)
    }
}

impl RangeComparison {
    /// The smallest recorded value.
    pub fn min(&self) -> f64 {
        self.recorded.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// The largest recorded value.
    pub fn max(&self) -> f64 {
        self.recorded
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The recordings differ (beyond the rounding [`Comparison::equal`] allows).
    pub fn varies(&self) -> bool {
        !close(&self.metric, self.max(), self.min())
    }

    /// Equal to the value every recording shares; where they differ, within [min, max].
    pub fn agreement(&self) -> Agreement {
        let (lo, hi, s) = (self.min(), self.max(), self.simulated);
        let at = |v: f64| close(&self.metric, s, v);
        match (self.varies(), (lo..=hi).contains(&s) || at(lo) || at(hi)) {
            (false, true) => Agreement::Equal,
            (false, false) => Agreement::Differs,
            (true, true) => Agreement::InRange,
            (true, false) => Agreement::OutOfRange,
        }
    }

    /// [`Agreement::agrees`] of [`RangeComparison::agreement`].
    pub fn agrees(&self) -> bool {
        self.agreement().agrees()
    }

    /// What the recordings say: `2,264` when they agree (with `(20 profiles)` when there are
    /// several), `range 1,993–2,020 (20 profiles, timing-dependent)` when they differ.
    pub fn recorded_text(&self) -> String {
        let n = self.recorded.len();
        let profiles = if n == 1 {
            "1 profile".to_string()
        } else {
            format!("{n} profiles")
        };
        if self.varies() {
            format!(
                "range {}–{} ({profiles}, timing-dependent)",
                number(self.min()),
                number(self.max())
            )
        } else if n > 1 {
            format!("{} ({profiles})", number(self.recorded[0]))
        } else {
            number(self.recorded[0])
        }
    }
}

/// A count with thousands separators; any other value as Rust prints it.
fn number(v: f64) -> String {
    if v >= 0.0 && v.fract() == 0.0 && v < u64::MAX as f64 {
        super::text::thousands(v as u64)
    } else {
        v.to_string()
    }
}

/// Merges the comparisons of one report with several recordings of the same launches (each as
/// [`compare`] returns it) into one [`RangeComparison`] per (launch, metric), in the order of
/// first appearance. A metric may be missing from some recordings; its values are those of the
/// recordings that have it. Fails when two recordings pair a launch with different kernels, or
/// give different simulated values (they were not compared with the same report).
pub fn merge_recordings(recordings: &[Vec<Comparison>]) -> Result<Vec<RangeComparison>, String> {
    let mut out: Vec<RangeComparison> = Vec::new();
    let mut at: BTreeMap<(usize, &str), usize> = BTreeMap::new();
    for (r, cmp) in recordings.iter().enumerate() {
        for c in cmp {
            match at.get(&(c.launch, c.metric.as_str())) {
                Some(&i) => {
                    let m = &mut out[i];
                    if m.kernel != c.kernel || m.simulated.to_bits() != c.simulated.to_bits() {
                        return Err(format!(
                            "recording {} pairs launch {} {} ({}, simulated {}) where an earlier \
                             one has {} (simulated {}): not the same report and launches",
                            r + 1,
                            c.launch + 1,
                            c.metric,
                            c.kernel,
                            c.simulated,
                            m.kernel,
                            m.simulated
                        ));
                    }
                    m.recorded.push(c.hardware);
                }
                None => {
                    at.insert((c.launch, c.metric.as_str()), out.len());
                    out.push(RangeComparison {
                        launch: c.launch,
                        kernel: c.kernel.clone(),
                        metric: c.metric.clone(),
                        simulated: c.simulated,
                        recorded: vec![c.hardware],
                    });
                }
            }
        }
    }
    Ok(out)
}

/// A table of the range comparisons, disagreements marked (`!=`); values in range are marked
/// `~`: `sim 2,000 in range 1,993–2,020 (20 profiles, timing-dependent)`.
pub fn render_ranges(cmp: &[RangeComparison], only_mismatches: bool) -> String {
    let mut s = String::new();
    let mut last = usize::MAX;
    for c in cmp {
        let a = c.agreement();
        if only_mismatches && a.agrees() {
            continue;
        }
        if c.launch != last {
            s.push_str(&format!("launch {}: {}\n", c.launch + 1, c.kernel));
            last = c.launch;
        }
        let (mark, hw) = match a {
            Agreement::Equal => ("  ", "hw"),
            Agreement::InRange => (" ~", "in"),
            Agreement::Differs => ("!=", "hw"),
            Agreement::OutOfRange => ("!=", "outside"),
        };
        s.push_str(&format!(
            "  {mark} {:<60} sim {:>14} {hw} {}\n",
            c.metric,
            number(c.simulated),
            c.recorded_text()
        ));
    }
    let bad = cmp.iter().filter(|c| !c.agrees()).count();
    let ranged = cmp
        .iter()
        .filter(|c| c.agreement() == Agreement::InRange)
        .count();
    s.push_str(&format!(
        "{} metrics compared, {} differ, {} agree within the recordings' range\n",
        cmp.len(),
        bad,
        ranged
    ));
    s
}

/// Nsight Compute metrics that gpumemsim does not simulate yet, each with the reason. A metric of
/// the hardware data that the simulation lacks is an error in [`compare`] unless it is listed
/// here: nothing is dropped silently.
pub const NOT_SIMULATED: &[(&str, &str)] = &[
    (
        "idc__requests.sum",
        "the SM's immediate-constant cache serves every constant-bank operand of the SASS \
         (kernel parameters and the constants ptxas places in c[]), which the PTX does not show; \
         gpumemsim counts PTX `ld.const` under gpumemsim__const_* instead",
    ),
    (
        "idc__requests_lookup_hit.sum",
        "the immediate-constant cache is not modelled (see idc__requests.sum)",
    ),
    (
        "idc__requests_lookup_miss.sum",
        "the immediate-constant cache is not modelled (see idc__requests.sum)",
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

/// Why `metric` is not simulated, when it is listed in [`NOT_SIMULATED`].
pub fn not_simulated(metric: &str) -> Option<&'static str> {
    NOT_SIMULATED
        .iter()
        .find(|(m, _)| *m == metric)
        .map(|(_, why)| *why)
}

/// Metrics the simulator reports under its own names (`gpumemsim__...`) have no Nsight Compute
/// counterpart; every other metric of a report claims to be the Nsight Compute metric of that
/// name.
fn claimed(metric: &str) -> bool {
    !metric.starts_with("gpumemsim__")
}

/// Pairs launches in order and compares every metric, metric by metric.
///
/// Fails, listing them, when a metric of the hardware data is missing from the simulation (unless
/// [`NOT_SIMULATED`] gives the reason), and when a metric the simulation claims (an Nsight Compute
/// name) is missing from the hardware data: a metric never vanishes from the comparison unnoticed.
pub fn compare(report: &Report, ncu: &[NcuLaunch]) -> Result<Vec<Comparison>, String> {
    if report.launches.len() != ncu.len() {
        return Err(format!(
            "the report has {} launches, the ncu CSV {}",
            report.launches.len(),
            ncu.len()
        ));
    }
    let mut out = Vec::new();
    // metric -> launches (1-based) where it is missing
    let mut not_in_sim: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut not_in_hw: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, (s, h)) in report.launches.iter().zip(ncu).enumerate() {
        for (name, hv) in &h.metrics {
            match s.metrics.get(name) {
                Some(sv) => out.push(Comparison {
                    launch: i,
                    kernel: s.kernel.clone(),
                    metric: name.clone(),
                    simulated: *sv,
                    hardware: *hv,
                }),
                None if not_simulated(name).is_some() => {}
                None => not_in_sim.entry(name).or_default().push(i + 1),
            }
        }
        for name in s.metrics.keys() {
            if claimed(name) && !h.metrics.contains_key(name) {
                not_in_hw.entry(name).or_default().push(i + 1);
            }
        }
    }
    if not_in_sim.is_empty() && not_in_hw.is_empty() {
        return Ok(out);
    }
    let list = |m: &BTreeMap<&str, Vec<usize>>| {
        m.iter()
            .map(|(name, l)| format!("  {name} (launches {})", ranges(l)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let mut msg = Vec::new();
    if !not_in_sim.is_empty() {
        msg.push(format!(
            "{} metric(s) of the Nsight Compute data are missing from the simulation:\n{}",
            not_in_sim.len(),
            list(&not_in_sim)
        ));
    }
    if !not_in_hw.is_empty() {
        msg.push(format!(
            "{} metric(s) of the simulation are missing from the Nsight Compute data (collect \
             them with ncu --metrics):\n{}",
            not_in_hw.len(),
            list(&not_in_hw)
        ));
    }
    Err(msg.join("\n"))
}

/// `1-3, 7` for `[1, 2, 3, 7]` (sorted input).
fn ranges(v: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            v[i].to_string()
        } else {
            format!("{}-{}", v[i], v[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// A table of the comparisons, mismatches marked.
pub fn render(cmp: &[Comparison], only_mismatches: bool) -> String {
    let mut s = String::new();
    let mut last = usize::MAX;
    for c in cmp {
        if only_mismatches && c.equal() {
            continue;
        }
        if c.launch != last {
            s.push_str(&format!("launch {}: {}\n", c.launch + 1, c.kernel));
            last = c.launch;
        }
        s.push_str(&format!(
            "  {} {:<60} sim {:>14} hw {:>14}\n",
            if c.equal() { "  " } else { "!=" },
            c.metric,
            c.simulated,
            c.hardware
        ));
    }
    let bad = cmp.iter().filter(|c| !c.equal()).count();
    s.push_str(&format!("{} metrics compared, {} differ\n", cmp.len(), bad));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::LaunchReport;

    fn report(metrics: &[(&str, f64)]) -> Report {
        Report {
            spec: "t.toml".into(),
            gpu: "H200".into(),
            isa: "ptx".into(),
            isa_reason: "--isa ptx".into(),
            launches: vec![LaunchReport {
                kernel: "k".into(),
                ptx_name: "k".into(),
                isa: "ptx".into(),
                grid: [1, 1, 1],
                block: [32, 1, 1],
                shared: 0,
                metrics: metrics.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
                resources: None,
                occupancy_limiter: None,
                lines: Vec::new(),
                inst_mix: None,
                printf: String::new(),
                printf_dropped: 0,
                caches: None,
                detail: None,
            }],
            checks: Vec::new(),
            outputs: Vec::new(),
        }
    }

    fn ncu(metrics: &[(&str, f64)]) -> Vec<NcuLaunch> {
        vec![NcuLaunch {
            id: 0,
            kernel: "k".into(),
            metrics: metrics.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        }]
    }

    #[test]
    fn every_metric_present_on_both_sides_is_compared() {
        let r = report(&[("a.sum", 1.0), ("b.sum", 2.0), ("gpumemsim__x.sum", 5.0)]);
        let cmp = compare(&r, &ncu(&[("a.sum", 1.0), ("b.sum", 3.0)])).unwrap();
        assert_eq!(cmp.len(), 2);
        assert!(cmp[0].equal() && !cmp[1].equal());
    }

    #[test]
    fn a_hardware_metric_missing_from_the_simulation_is_an_error() {
        let r = report(&[("a.sum", 1.0)]);
        let e = compare(&r, &ncu(&[("a.sum", 1.0), ("lost.sum", 3.0)])).unwrap_err();
        assert!(
            e.contains("missing from the simulation") && e.contains("lost.sum"),
            "{e}"
        );
    }

    #[test]
    fn a_claimed_metric_missing_from_the_hardware_is_an_error() {
        let r = report(&[("a.sum", 1.0), ("claimed.sum", 1.0)]);
        let e = compare(&r, &ncu(&[("a.sum", 1.0)])).unwrap_err();
        assert!(e.contains("missing from the Nsight Compute data") && e.contains("claimed.sum"));
    }

    #[test]
    fn only_the_listed_metrics_may_be_absent_from_the_simulation() {
        let (listed, _) = NOT_SIMULATED[0];
        let r = report(&[("a.sum", 1.0)]);
        let cmp = compare(&r, &ncu(&[("a.sum", 1.0), (listed, 7.0)])).unwrap();
        assert_eq!(cmp.len(), 1);
        assert!(not_simulated("a.sum").is_none());
    }

    fn recorded(metric: &str, simulated: f64, hw: &[f64]) -> RangeComparison {
        let per: Vec<Vec<Comparison>> = hw
            .iter()
            .map(|&hardware| {
                vec![Comparison {
                    launch: 0,
                    kernel: "k".into(),
                    metric: metric.into(),
                    simulated,
                    hardware,
                }]
            })
            .collect();
        let mut m = merge_recordings(&per).unwrap();
        assert_eq!(m.len(), 1);
        m.remove(0)
    }

    #[test]
    fn a_value_all_recordings_share_must_be_equal() {
        let c = recorded("a.sum", 2264.0, &[2264.0; 20]);
        assert_eq!(c.agreement(), Agreement::Equal);
        assert_eq!(c.recorded_text(), "2,264 (20 profiles)");
        let c = recorded("a.sum", 2263.0, &[2264.0; 20]);
        assert_eq!(c.agreement(), Agreement::Differs);
        assert!(!c.agrees());
    }

    #[test]
    fn where_the_recordings_differ_the_range_is_allowed() {
        let c = recorded("a.sum", 2000.0, &[1993.0, 2020.0, 2012.0]);
        assert_eq!(c.agreement(), Agreement::InRange);
        assert_eq!(
            c.recorded_text(),
            "range 1,993–2,020 (3 profiles, timing-dependent)"
        );
        assert!(render_ranges(&[c], false)
            .contains("sim          2,000 in range 1,993–2,020 (3 profiles, timing-dependent)"));
        for edge in [1993.0, 2020.0] {
            assert!(recorded("a.sum", edge, &[1993.0, 2020.0]).agrees());
        }
    }

    #[test]
    fn outside_the_range_disagrees() {
        for s in [1992.0, 2021.0, 2264.0] {
            let c = recorded("a.sum", s, &[1993.0, 2020.0]);
            assert_eq!(c.agreement(), Agreement::OutOfRange, "{s}");
            let table = render_ranges(&[c], true);
            assert!(table.contains("!=") && table.contains("outside range 1,993–2,020"));
        }
    }

    #[test]
    fn percentages_keep_their_rounding() {
        // 50.004 and 50.0 are one printed value: the recordings agree, and 50.009 equals it.
        let c = recorded("x_pct", 50.009, &[50.0, 50.004]);
        assert!(!c.varies());
        assert_eq!(c.agreement(), Agreement::Equal);
    }

    #[test]
    fn merging_requires_the_same_report() {
        let a = vec![Comparison {
            launch: 0,
            kernel: "k".into(),
            metric: "a.sum".into(),
            simulated: 1.0,
            hardware: 1.0,
        }];
        let mut b = a.clone();
        b[0].kernel = "other".into();
        assert!(merge_recordings(&[a.clone(), b]).is_err());
        // A metric only some recordings have takes the values of those.
        let mut c = a.clone();
        c[0].metric = "b.sum".into();
        let m = merge_recordings(&[a.clone(), c, a]).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].recorded.len(), m[1].recorded.len()), (2, 1));
        let table = render_ranges(&m, false);
        assert!(table.contains("2 metrics compared, 0 differ"), "{table}");
    }

    #[test]
    fn launch_lists_are_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1-3, 7, 9-10");
    }
}
