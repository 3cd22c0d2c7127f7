//! Compares a simulated report with Nsight Compute's CSV (`ncu --csv --print-units base
//! --metrics ...`), launch by launch (in launch order) and metric by metric.

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
    let mut lines = text.lines().filter(|l| l.starts_with('"'));
    let header = lines.next().ok_or("no CSV header in the ncu output")?;
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
    for line in lines {
        let f = fields(line);
        if f.len() <= cv.max(cm).max(ck).max(ci) {
            continue;
        }
        let id: u32 = f[ci]
            .parse()
            .map_err(|_| format!("bad launch ID '{}'", f[ci]))?;
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
        (self.simulated - self.hardware).abs()
            <= 1e-6 * self.hardware.abs().max(1.0)
                + if self.metric.ends_with("_pct") {
                    0.01
                } else {
                    0.0
                }
    }
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

    #[test]
    fn launch_lists_are_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1-3, 7, 9-10");
    }
}
