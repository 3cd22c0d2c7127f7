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

/// Splits one CSV line with quoted fields.
fn fields(line: &str) -> Vec<String> {
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

/// Pairs launches in order and compares every metric present on both sides.
pub fn compare(report: &Report, ncu: &[NcuLaunch]) -> Result<Vec<Comparison>, String> {
    if report.launches.len() != ncu.len() {
        return Err(format!(
            "the report has {} launches, the ncu CSV {}",
            report.launches.len(),
            ncu.len()
        ));
    }
    let mut out = Vec::new();
    for (i, (s, h)) in report.launches.iter().zip(ncu).enumerate() {
        for (name, hv) in &h.metrics {
            if let Some(sv) = s.metrics.get(name) {
                out.push(Comparison {
                    launch: i,
                    kernel: s.kernel.clone(),
                    metric: name.clone(),
                    simulated: *sv,
                    hardware: *hv,
                });
            }
        }
    }
    Ok(out)
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
