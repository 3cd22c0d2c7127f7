//! The text report: per launch, the headline numbers and the source lines that waste the memory
//! system most, worst first, with the classic fix where there is one.

use crate::metrics::Metric;
use std::fmt::Write;

use super::{LaunchReport, LineReport, Report};

/// How many SASS instructions of a worst line the text report lists.
const SASS_LINES: usize = 12;

/// How early the text report lists a SASS instruction (`count  [@P] OPCODE ...`) of a line:
/// local accesses (spills and per-thread arrays) first, then other memory accesses, then the rest.
fn mem_rank(i: &crate::report::inst_mix::SassInst) -> u8 {
    let op = crate::report::inst_mix::opcode(&i.text);
    if op == "LDL" || op == "STL" {
        0
    } else if crate::report::inst_mix::class(op) == "load/store" && op != "LDC" {
        1
    } else {
        2
    }
}

/// A number with thousands separators.
pub fn thousands(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

fn m(l: &LaunchReport, k: Metric) -> u64 {
    l.metrics.get(k.name()).copied().unwrap_or(0.0) as u64
}

/// One finding on one line: how much it wastes (for ranking) and what to say.
struct Finding<'a> {
    waste: u64,
    text: String,
    /// The line it is about.
    line: Option<&'a LineReport>,
}

/// The findings of one line for the HTML report: (waste, what is wrong, the fix), worst first
/// within the line, in the words of the text report.
pub(crate) fn line_findings(line: &LineReport, shared_wavefronts_total: u64) -> Vec<(u64, String)> {
    findings(line, shared_wavefronts_total)
        .into_iter()
        .map(|f| {
            let body: Vec<&str> = f.text.lines().skip(1).map(str::trim).collect();
            (f.waste, body.join("\n"))
        })
        .collect()
}

/// What a line's texture and surface instructions did (texels per lane, requests, sectors, L1
/// hits), and whether its 2D global loads would touch fewer sectors through a texture
/// ([`crate::mem::texture::advice`]: suggested when a block-linear array needs at most three
/// quarters of the sectors).
fn texture_findings<'a>(line: &'a LineReport, where_: &str, code: &str) -> Vec<Finding<'a>> {
    let t = &line.counters;
    let mut out = Vec::new();
    let requests = t[Metric::TexRequests] + t[Metric::SurfLdRequests] + t[Metric::SurfStRequests];
    if requests > 0 {
        let sectors = t[Metric::TexSectors] + t[Metric::SurfLdSectors] + t[Metric::SurfStSectors];
        let inst = t[Metric::TexInst] + t[Metric::SurfLdInst] + t[Metric::SurfStInst];
        let per_lane = t[Metric::TexTexels] as f64 / t[Metric::TexLaneFetches].max(1) as f64;
        let footprint = match per_lane.round() as u64 {
            0 | 1 => "one texel: point sampling or a surface access",
            2 => "2 texels: linear filtering in 1D",
            3..=5 => "a 2x2 footprint: bilinear filtering or a gather",
            _ => "a 2x2x2 footprint: trilinear filtering",
        };
        let (hits, misses) = match &line.cache {
            Some(cc) if cc.tex_l1_sectors > 0 => (
                format!(
                    "; L1 hit on {} of the {} load lookups ({:.0}%), {} sectors went on to L2",
                    thousands(cc.tex_l1_hits),
                    thousands(cc.tex_l1_sectors),
                    pct(cc.tex_l1_hits, cc.tex_l1_sectors),
                    thousands(cc.l2_read_sectors)
                ),
                cc.tex_l1_sectors - cc.tex_l1_hits,
            ),
            _ => (String::new(), sectors),
        };
        out.push(Finding {
            line: Some(line),
            waste: misses,
            text: format!(
                "{where_}{code}\n    texture/surface: {} instructions, {:.1} texels per lane ({footprint}), {} requests (a request per quad of lanes, per 8 lanes for tex1Dfetch and surfaces), {} sector lookups ({:.1} per request){hits}",
                thousands(inst),
                per_lane,
                thousands(requests),
                thousands(sectors),
                sectors as f64 / requests as f64
            ),
        });
    }
    let (rm, bl) = (t[Metric::Gld2dSectors], t[Metric::Gld2dSectorsBlockLinear]);
    // As for uncoalesced loads: when L1 already holds the reuse (a thread walking its own row),
    // the traffic past L1 is the ideal and no layout would reduce it.
    let ideal = (line.thread_loads * u64::from(line.width)).div_ceil(32);
    let l1_absorbs = line
        .cache
        .as_ref()
        .is_some_and(|cc| cc.l2_read_sectors <= ideal + ideal / 8);
    if t[Metric::Gld2dRequests] > 0 && bl * 4 <= rm * 3 && !l1_absorbs {
        out.push(Finding {
            line: Some(line),
            waste: rm - bl,
            text: format!(
                "{where_}{code}\n    2D global loads: {} of these requests step down rows (a column or a tall tile) and touch {} sectors row-major; read from a CUDA array through tex2D (block-linear: a sector holds 16 bytes of 2 rows) the same footprints would touch {} ({:.0}% fewer; measured on the H200 for a column of floats: 65,536 sectors as global loads, 32,768 through tex2D)\n    fix: put the image in a CUDA array (cudaMallocArray + cudaMemcpy2DToArray) and read it with tex2D, or stage the tile through shared memory",
                thousands(t[Metric::Gld2dRequests]),
                thousands(rm),
                thousands(bl),
                100.0 - pct(bl, rm)
            ),
        });
    }
    out
}

fn findings(line: &LineReport, shared_wavefronts_total: u64) -> Vec<Finding<'_>> {
    let c = &line.counters;
    let mut out = Vec::new();
    let where_ = format!("{}:{}", line.file, line.line);
    let code = if line.text.is_empty() {
        String::new()
    } else {
        format!("  {}", line.text)
    };
    for (what, conflicts, wavefronts) in [
        (
            "shared load",
            c[Metric::SharedLdConflicts],
            c[Metric::SharedLdWavefronts],
        ),
        (
            "shared store",
            c[Metric::SharedStConflicts],
            c[Metric::SharedStWavefronts],
        ),
        (
            "shared atomic",
            c[Metric::SharedAtomConflicts],
            c[Metric::SharedAtomWavefronts],
        ),
    ] {
        if conflicts == 0 {
            continue;
        }
        let pct = (100 * conflicts)
            .checked_div(shared_wavefronts_total)
            .unwrap_or(0);
        let way = line.max_way;
        let fix = if line.width <= 4 {
            format!(
                "fix: {way} lanes hit one bank with different words, so the word stride between lanes is a multiple of {way}; pad the row by one word (e.g. [32][33] instead of [32][32]) or make the stride odd"
            )
        } else {
            format!("fix: {}-byte accesses conflict when lanes of one phase share a bank; make consecutive lanes read consecutive {}-byte elements", line.width, line.width)
        };
        out.push(Finding {
            line: Some(line),
            waste: conflicts,
            text: format!(
                "{where_}{code}\n    {what}, {way}-way bank conflict: {} extra wavefronts of {} ({pct}% of all shared wavefronts)\n    {fix}",
                thousands(conflicts),
                thousands(wavefronts)
            ),
        });
    }
    for (what, requests, sectors, threads) in [
        (
            "global load",
            c[Metric::GlobalLdRequests],
            c[Metric::GlobalLdSectors],
            line.thread_loads,
        ),
        (
            "global store",
            c[Metric::GlobalStRequests],
            c[Metric::GlobalStSectors],
            line.thread_stores,
        ),
    ] {
        if requests == 0 {
            continue;
        }
        // Ideal: the bytes the active threads asked for, in 32-byte sectors.
        let ideal = (threads * line.width as u64).div_ceil(32).max(requests);
        if sectors <= ideal + ideal / 8 {
            continue;
        }
        let per = sectors as f64 / requests as f64;
        let head = format!(
            "{where_}{code}\n    {what}, uncoalesced: {} sectors for {} requests ({per:.1} sectors per request; the {}-byte accesses need {} sectors)",
            thousands(sectors),
            thousands(requests),
            line.width,
            thousands(ideal)
        );
        let fix = "fix: make consecutive threads (threadIdx.x) touch consecutive addresses: swap the index order, or stage the data through shared memory";
        // With the caches modelled, what costs is the traffic past L1: a pattern whose extra
        // sectors L1 catches (a thread walking its own row) needs no fix.
        let Some(cache) = &line.cache else {
            out.push(Finding {
                line: Some(line),
                waste: sectors - ideal,
                text: format!("{head}\n    {fix}"),
            });
            continue;
        };
        let caches = if what == "global load" {
            format!(
                "L1 caught {} of these {} sector lookups ({:.0}%); {} sectors went on to L2 ({:.0}% hit there); the line read {} sectors from DRAM",
                thousands(cache.l1_load_hits),
                thousands(cache.l1_load_sectors),
                pct(cache.l1_load_hits, cache.l1_load_sectors),
                thousands(cache.l2_read_sectors),
                pct(cache.l2_read_hits, cache.l2_read_sectors),
                thousands(cache.dram_read_sectors)
            )
        } else {
            format!(
                "stores write through L1: all {} sectors go to L2",
                thousands(cache.l1_store_sectors)
            )
        };
        let past_l1 = if what == "global load" {
            cache.l2_read_sectors
        } else {
            cache.l1_store_sectors
        };
        if past_l1 <= ideal + ideal / 8 {
            out.push(Finding {
                line: Some(line),
                waste: past_l1.saturating_sub(ideal),
                text: format!(
                    "{head}\n    {caches}: the traffic past L1 is within 12% of the ideal, so reordering would not reduce it (L1 holds the reused lines)"
                ),
            });
        } else {
            out.push(Finding {
                line: Some(line),
                waste: past_l1 - ideal,
                text: format!("{head}\n    {caches}\n    {fix}"),
            });
        }
    }
    out.extend(texture_findings(line, &where_, &code));
    if c[Metric::ConstSerialization] > 0 {
        out.push(Finding {
            line: Some(line),
            waste: c[Metric::ConstSerialization],
            text: format!(
                "{where_}{code}\n    constant load, serialized: {} extra requests ({} requests for {} instructions); constant memory broadcasts one address per warp\n    fix: let the whole warp read the same element, or keep an indexed table in global memory (const __restrict__ / __ldg)",
                thousands(c[Metric::ConstSerialization]),
                thousands(c[Metric::ConstRequests]),
                thousands(c[Metric::ConstInst])
            ),
        });
    }
    let local = c[Metric::LocalLdSectors] + c[Metric::LocalStSectors];
    if local > 0 {
        out.push(Finding {
            line: Some(line),
            waste: local,
            text: format!(
                "{where_}{code}\n    local memory: {} sectors ({} loads, {} stores); local memory lives in device memory\n    fix: avoid dynamically indexed per-thread arrays and register spills (check `Used N registers, N bytes spill` in the report)",
                thousands(local),
                thousands(c[Metric::LocalLdInst]),
                thousands(c[Metric::LocalStInst])
            ),
        });
    }
    out
}

/// `SASS (examples/x.sass)` or `PTX (why)`: which instruction set ran and why.
pub fn isa_line(r: &Report) -> String {
    format!("{} ({})", r.isa.to_uppercase(), r.isa_reason)
}

/// Renders the whole report as text.
pub fn render(r: &Report, top: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "gpumemsim report: {} on {}",
        r.spec,
        r.gpu.to_uppercase()
    );
    let _ = writeln!(s, "isa: {}", isa_line(r));
    if !r.checks.is_empty() {
        let _ = writeln!(s);
        let _ = writeln!(s, "checks: {} finding(s)", r.checks.len());
        for f in &r.checks {
            let _ = writeln!(s, "  {}", f.render());
        }
    }
    for (i, l) in r.launches.iter().enumerate() {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "launch {}: {}<<<({},{},{}), ({},{},{}), {}>>>",
            i + 1,
            l.kernel,
            l.grid[0],
            l.grid[1],
            l.grid[2],
            l.block[0],
            l.block[1],
            l.block[2],
            l.shared
        );
        if l.isa == "sass" {
            let _ = writeln!(
                s,
                "  ran as sm_90 SASS: {} warp-instructions ({} thread-instructions)",
                thousands(m(l, Metric::InstExecuted)),
                thousands(m(l, Metric::SassThreadInstExecuted))
            );
            if let Some(mix) = &l.inst_mix {
                let _ = writeln!(s, "  instruction mix: {}", mix.render_classes());
                let _ = writeln!(s, "  top opcodes: {}", mix.render_top_opcodes(8));
            }
        }
        if !l.printf.is_empty() || l.printf_dropped > 0 {
            let _ = writeln!(s, "  printf output:");
            for line in l.printf.lines() {
                let _ = writeln!(s, "  | {line}");
            }
            if l.printf_dropped > 0 {
                let _ = writeln!(
                    s,
                    "  ({} printf calls dropped: the output reached the 1 MiB printf buffer)",
                    thousands(l.printf_dropped)
                );
            }
        }
        if let Some(res) = &l.resources {
            let _ = writeln!(
                s,
                "  registers: {} per thread, {} bytes spill stores, {} bytes spill loads, {} bytes stack; static shared {} bytes",
                res.registers, res.spill_stores, res.spill_loads, res.stack_frame, res.static_shared
            );
        }
        if l.resources.is_none() {
            let _ = writeln!(
                s,
                "  registers: not known (this PTX has no ptxas figures; `gpumemsim compile SPEC` records them from the .cu)"
            );
        }
        if let Some(lim) = &l.occupancy_limiter {
            let _ = writeln!(
                s,
                "  occupancy: {:.1}% theoretical, limited by {lim}",
                l.metrics
                    .get(Metric::MaximumWarpsPct.name())
                    .copied()
                    .unwrap_or(0.0)
            );
        }
        let sh_wf = m(l, Metric::SharedLdWavefronts) + m(l, Metric::SharedStWavefronts);
        let _ = writeln!(
            s,
            "  shared:   {} loads, {} stores, {} wavefronts, {} bank conflicts",
            thousands(m(l, Metric::SharedLdInst)),
            thousands(m(l, Metric::SharedStInst)),
            thousands(sh_wf),
            thousands(m(l, Metric::SharedLdConflicts) + m(l, Metric::SharedStConflicts))
        );
        use Metric::*;
        for (name, [ldr, lds, str_, sts]) in [
            (
                "global",
                [
                    GlobalLdRequests,
                    GlobalLdSectors,
                    GlobalStRequests,
                    GlobalStSectors,
                ],
            ),
            (
                "local",
                [
                    LocalLdRequests,
                    LocalLdSectors,
                    LocalStRequests,
                    LocalStSectors,
                ],
            ),
        ] {
            let (lr, ls) = (m(l, ldr), m(l, lds));
            let (sr, ss) = (m(l, str_), m(l, sts));
            if lr + sr == 0 && name == "local" {
                continue;
            }
            let _ = writeln!(
                s,
                "  {name:<8}  loads: {} requests, {} sectors ({:.1}/request); stores: {} requests, {} sectors ({:.1}/request)",
                thousands(lr),
                thousands(ls),
                if lr > 0 { ls as f64 / lr as f64 } else { 0.0 },
                thousands(sr),
                thousands(ss),
                if sr > 0 { ss as f64 / sr as f64 } else { 0.0 }
            );
        }
        let tex_kinds = [
            ("texture", [TexInst, TexRequests, TexSectors, L1TexHit]),
            (
                "surface loads",
                [SurfLdInst, SurfLdRequests, SurfLdSectors, L1SurfLdHit],
            ),
            (
                "surface stores",
                [SurfStInst, SurfStRequests, SurfStSectors, L1SurfStHit],
            ),
        ];
        for (name, [inst, requests, sectors, hits]) in tex_kinds {
            let n = m(l, inst);
            if n == 0 {
                continue;
            }
            let (req, sec, hit) = (m(l, requests), m(l, sectors), m(l, hits));
            let hits = if l.caches.is_some() {
                format!(", L1 {:.1}% hit", pct(hit, sec))
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "  {name}: {} instructions, {} requests, {} sectors ({:.1}/request){hits}",
                thousands(n),
                thousands(req),
                thousands(sec),
                if req > 0 {
                    sec as f64 / req as f64
                } else {
                    0.0
                }
            );
        }
        if let Some(state) = &l.caches {
            let (mut hit, mut all) = (0, 0);
            for [h, miss] in [
                [L1GlobalLdHit, L1GlobalLdMiss],
                [L1GlobalStHit, L1GlobalStMiss],
                [L1LocalLdHit, L1LocalLdMiss],
                [L1LocalStHit, L1LocalStMiss],
                [L1TexHit, L1TexMiss],
                [L1SurfLdHit, L1SurfLdMiss],
                [L1SurfStHit, L1SurfStMiss],
            ] {
                hit += m(l, h);
                all += m(l, h) + m(l, miss);
            }
            let sum = |ms: [Metric; 4]| ms.iter().map(|&k| m(l, k)).sum::<u64>();
            let l2 = sum([L2ReadSectors, L2WriteSectors, L2AtomSectors, L2RedSectors]);
            let l2_hit = sum([L2ReadHits, L2WriteHits, L2AtomHits, L2RedHits]);
            let mb = |v: u64| v as f64 / 1e6;
            let _ = writeln!(
                s,
                "  caches ({state}; L1 {} KB per SM): L1 {:.1}% of {} sectors hit; L2 {:.1}% of {} sectors hit; DRAM {:.2} MB read, {:.2} MB written",
                (256 * 1024 - m(l, SharedMemConfigSize)) / 1024,
                pct(hit, all),
                thousands(all),
                pct(l2_hit, l2),
                thousands(l2),
                mb(m(l, DramBytesRead)),
                mb(m(l, DramBytesWrite))
            );
        }
        let ci = m(l, ConstInst);
        if ci > 0 {
            let _ = writeln!(
                s,
                "  constant: {} loads, {} requests ({} serialized)",
                thousands(ci),
                thousands(m(l, ConstRequests)),
                thousands(m(l, ConstSerialization))
            );
        }
        let mut all: Vec<Finding> = l.lines.iter().flat_map(|ln| findings(ln, sh_wf)).collect();
        all.sort_by_key(|f| std::cmp::Reverse(f.waste));
        if all.is_empty() {
            let _ = writeln!(s, "  no bank conflicts, uncoalesced accesses, constant serialization or local traffic found");
        } else {
            let _ = writeln!(s, "  worst lines:");
            let mut shown: Vec<(&str, u32)> = Vec::new();
            for f in all.iter().take(top) {
                for line in f.text.lines() {
                    let _ = writeln!(s, "  {line}");
                }
                // The line's SASS once, under its first finding (as Nsight Compute's Source
                // page shows it: executions per instruction).
                if let Some(lr) = f.line {
                    let key = (lr.file.as_str(), lr.line);
                    if !lr.sass.is_empty() && !shown.contains(&key) {
                        shown.push(key);
                        let _ = writeln!(
                            s,
                            "      SASS (address, instruction, instructions executed, thread instructions executed):"
                        );
                        let mut listed: Vec<&crate::report::inst_mix::SassInst> =
                            lr.sass.iter().collect();
                        // Which instructions to show: local, then other memory ones first;
                        // shown in address order.
                        listed.sort_by_key(|i| (mem_rank(i), i.address));
                        listed.truncate(SASS_LINES);
                        listed.sort_by_key(|i| i.address);
                        let wide = listed
                            .iter()
                            .take(SASS_LINES)
                            .map(|i| i.text.len())
                            .max()
                            .unwrap_or(0);
                        for i in listed.iter().take(SASS_LINES) {
                            let _ = writeln!(
                                s,
                                "        /*{:04x}*/  {:<wide$}  {:>12}  {:>14}",
                                i.address,
                                i.text,
                                thousands(i.executed),
                                thousands(i.threads)
                            );
                        }
                        if lr.sass.len() > SASS_LINES {
                            let _ = writeln!(
                                s,
                                "      ... {} more instructions (all in the JSON report)",
                                lr.sass.len() - SASS_LINES
                            );
                        }
                    }
                }
            }
        }
    }
    s
}

#[cfg(test)]
mod texture_tests {
    use super::*;
    use crate::mem::counters::MemCounters;
    use crate::report::LineCaches;

    #[test]
    fn a_texture_line_says_what_its_fetches_did() {
        // One warp of bilinear fetches halfway between texels, as the H200 counted it
        // (tests/hw/h200/texture_mem, f32_linear_half_row_1warp): 8 requests, 16 sector
        // lookups, 7 hits, 9 sectors to L2.
        let line = LineReport {
            file: "k.cu".into(),
            line: 7,
            text: "out[i] = tex2D<float>(t, u, v);".into(),
            metrics: Default::default(),
            max_way: 1,
            width: 16,
            sass: Vec::new(),
            inst_mix: None,
            thread_accesses: 0,
            thread_loads: 0,
            thread_stores: 0,
            cache: Some(LineCaches {
                tex_l1_sectors: 16,
                tex_l1_hits: 7,
                l2_read_sectors: 9,
                ..LineCaches::default()
            }),
            pcs: Vec::new(),
            counters: {
                let mut c = MemCounters::default();
                c[Metric::TexInst] = 1;
                c[Metric::TexRequests] = 8;
                c[Metric::TexSectors] = 16;
                c[Metric::TexTexels] = 128;
                c[Metric::TexLaneFetches] = 32;
                c
            },
        };
        let f = texture_findings(&line, "k.cu:7", "");
        assert_eq!(f.len(), 1);
        let t = &f[0].text;
        for want in [
            "1 instructions",
            "4.0 texels per lane (a 2x2 footprint",
            "8 requests",
            "16 sector lookups (2.0 per request)",
            "L1 hit on 7 of the 16 load lookups (44%), 9 sectors went on to L2",
        ] {
            assert!(t.contains(want), "{want:?} not in {t}");
        }
        assert_eq!(f[0].waste, 9);
    }
}
