//! The HTML report in a real browser: every example's report (`gpumemsim run SPEC --json --html`)
//! is rendered by headless Chromium (Debian's `chromium`, installed by `.ci/run`).
//!
//! For each example: a copy of the page with two test scripts injected (`tests/html/errors.js` at
//! the start of `<head>` records uncaught errors and console errors, `tests/html/check.js` at the
//! end measures what was rendered and writes it as JSON into the DOM) is loaded with
//! `--dump-dom`; Chromium's own console log (`--enable-logging=stderr`) must be empty. The
//! unmodified page is then captured whole with `--screenshot` (at a device scale of 0.5, which
//! keeps the capture fast; `GPUMEMSIM_SCREENSHOT_SCALE` changes it), and each section's rectangle, as measured in the DOM, must show
//! something other than the page's white background. The DOM checks: every number carrying a
//! metric name equals the JSON report's value of that metric, every metric of the JSON report is
//! shown, and the bank diagram of `bank_columns.cu`'s column read puts all 32 lanes' lines into
//! one bank column for `tile[32][32]` and into 32 different bank columns for `tile[32][33]`,
//! measured from the lines' end points on screen.
//!
//! Under `CI=true` a missing Chromium fails (gpumemsim::testing::require). Set
//! `GPUMEMSIM_CHROMIUM` to use another Chromium binary and `GPUMEMSIM_KEEP_SCREENSHOTS=1` to keep
//! each section's screenshot as a PNG next to the report (under the test's target directory).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use gpumemsim::testing::require;
use serde_json::Value;

const INSTALL: &str = "apt-get install -y --no-install-recommends chromium \
    (or set GPUMEMSIM_CHROMIUM to a Chromium binary)";
/// Layout width of the page in CSS pixels.
const WIDTH: u32 = 1100;
/// Device pixels per CSS pixel in the screenshot (`GPUMEMSIM_SCREENSHOT_SCALE` overrides it,
/// e.g. 1 for crops a person reads).
fn scale() -> f64 {
    std::env::var("GPUMEMSIM_SCREENSHOT_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.5)
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn chromium() -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("GPUMEMSIM_CHROMIUM") {
        Some(p) => vec![p.into()],
        None => vec!["chromium".into(), "chromium-browser".into()],
    };
    let probe = candidates
        .iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
        .cloned()
        .ok_or_else(|| format!("none of {candidates:?} runs with --version"));
    require("Chromium", probe, INSTALL)
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("html_report")
        .join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs headless Chromium with `args` (a fresh profile each time, so runs can overlap).
fn browser(chrome: &Path, dir: &Path, args: &[String]) -> std::process::Output {
    let profile = dir.join(format!("profile-{}", args.len()));
    let _ = std::fs::remove_dir_all(&profile);
    let out = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .expect("run chromium");
    let _ = std::fs::remove_dir_all(&profile);
    out
}

fn url(p: &Path) -> String {
    format!("file://{}", p.canonicalize().unwrap().display())
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// What the browser showed of one page.
struct Rendered {
    check: Value,
    /// The screenshot: width, height, RGBA rows.
    png: (u32, u32, Vec<u8>),
    dir: PathBuf,
}

/// Loads `page` in Chromium: the DOM measurements and the screenshot.
fn render(chrome: &Path, page: &Path, dir: &Path) -> Rendered {
    let html = std::fs::read_to_string(page).unwrap();
    let errors = include_str!("../html/errors.js");
    let check = include_str!("../html/check.js");
    let head = html.find("<head>").expect("the page has a <head>") + "<head>".len();
    let body_end = html.rfind("</body>").expect("the page has a </body>");
    let checked = format!(
        "{}\n<script>{errors}</script>{}<script>{check}</script>\n{}",
        &html[..head],
        &html[head..body_end],
        &html[body_end..]
    );
    let copy = dir.join("checked.html");
    std::fs::write(&copy, checked).unwrap();
    let out = browser(
        chrome,
        dir,
        &[
            "--enable-logging=stderr".into(),
            "--v=0".into(),
            format!("--window-size={WIDTH},900"),
            "--virtual-time-budget=5000".into(),
            "--dump-dom".into(),
            url(&copy),
        ],
    );
    assert!(
        out.status.success(),
        "chromium --dump-dom failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let console: Vec<&str> = stderr.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(
        console.is_empty(),
        "{}: console messages:\n{}",
        page.display(),
        console.join("\n")
    );
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom
        .rfind("<pre id=\"gpumemsim-check\">")
        .unwrap_or_else(|| {
            panic!(
                "{}: the check script did not run; stderr:\n{stderr}",
                page.display()
            )
        })
        + "<pre id=\"gpumemsim-check\">".len();
    let end = start + dom[start..].find("</pre>").unwrap();
    let check: Value = serde_json::from_str(&unescape(&dom[start..end])).unwrap();
    let errors = check["errors"].as_array().unwrap();
    assert!(
        errors.is_empty(),
        "{}: page errors: {errors:?}",
        page.display()
    );

    let height = check["height"].as_f64().unwrap().ceil() as u32;
    let shot = dir.join("page.png");
    let _ = std::fs::remove_file(&shot);
    let out = browser(
        chrome,
        dir,
        &[
            format!("--force-device-scale-factor={}", scale()),
            format!("--window-size={WIDTH},{height}"),
            format!("--screenshot={}", shot.display()),
            url(page),
        ],
    );
    assert!(
        out.status.success() && shot.exists(),
        "chromium --screenshot failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf[..info.buffer_size()].to_vec(),
        png::ColorType::Rgb => buf[..info.buffer_size()]
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        c => panic!("unexpected PNG colour type {c:?}"),
    };
    Rendered {
        check,
        png: (info.width, info.height, rgba),
        dir: dir.to_path_buf(),
    }
}

/// Checks that the screenshot shows something in the rectangle of every section (the share of
/// pixels that are not the white background, and the number of distinct colours), keeping the
/// crops when asked.
fn sections_not_blank(r: &Rendered, name: &str) -> usize {
    let (w, h, rgba) = &r.png;
    let keep = std::env::var_os("GPUMEMSIM_KEEP_SCREENSHOTS").is_some();
    let mut n = 0;
    for s in r.check["sections"].as_array().unwrap() {
        let rect = &s["rect"];
        let f = |k: &str| rect[k].as_f64().unwrap() * scale();
        let (x0, y0) = (f("x").max(0.0) as u32, f("y").max(0.0) as u32);
        let (x1, y1) = (
            ((f("x") + f("w")) as u32).min(*w),
            ((f("y") + f("h")) as u32).min(*h),
        );
        let what = format!("{name} launch {} {}", s["launch"], s["section"]);
        assert!(
            x1 > x0 + 10 && y1 > y0 + 10,
            "{what}: empty rectangle {rect}"
        );
        let mut ink = 0u64;
        let mut colours = std::collections::BTreeSet::new();
        for y in y0..y1 {
            for x in x0..x1 {
                let i = ((y * w + x) * 4) as usize;
                let p = [rgba[i], rgba[i + 1], rgba[i + 2]];
                if p != [255, 255, 255] {
                    ink += 1;
                }
                if colours.len() < 64 {
                    colours.insert(p);
                }
            }
        }
        let area = u64::from((x1 - x0) * (y1 - y0));
        assert!(
            ink * 200 > area && colours.len() >= 3,
            "{what}: the screenshot is blank there ({ink} of {area} pixels inked, {} colours)",
            colours.len()
        );
        if keep {
            let path = r.dir.join(format!(
                "{}-{}.png",
                s["launch"],
                s["section"].as_str().unwrap()
            ));
            let file = std::fs::File::create(path).unwrap();
            let mut enc = png::Encoder::new(std::io::BufWriter::new(file), x1 - x0, y1 - y0);
            enc.set_color(png::ColorType::Rgba);
            let mut wr = enc.write_header().unwrap();
            let mut data = Vec::new();
            for y in y0..y1 {
                let a = ((y * w + x0) * 4) as usize;
                data.extend_from_slice(&rgba[a..a + ((x1 - x0) * 4) as usize]);
            }
            wr.write_image_data(&data).unwrap();
        }
        n += 1;
    }
    n
}

/// A number as the report prints it (`1,024`, `87.5%`, `4.00`).
fn shown(text: &str) -> f64 {
    let t: String = text.chars().filter(|c| !matches!(c, ',' | '%')).collect();
    t.parse()
        .unwrap_or_else(|_| panic!("not a number: {text:?}"))
}

/// Every number shown under a metric name equals the JSON's value; every JSON metric is shown.
fn numbers_equal_json(check: &Value, launches: &[Value], name: &str, side: &str) -> usize {
    let mut seen: BTreeMap<(usize, String), usize> = BTreeMap::new();
    let mut n = 0;
    for m in check["metrics"].as_array().unwrap() {
        if m["side"].as_str().unwrap() != side {
            continue;
        }
        let launch = m["launch"].as_u64().unwrap() as usize;
        let metric = m["metric"].as_str().unwrap().to_string();
        let text = m["text"].as_str().unwrap();
        if text.is_empty() && !side.is_empty() {
            // A diff cell of a metric the other report has and this one does not.
            assert!(
                launches[launch - 1]["metrics"].get(&metric).is_none(),
                "{name}: {metric} empty"
            );
            continue;
        }
        let want = launches[launch - 1]["metrics"][&metric]
            .as_f64()
            .unwrap_or_else(|| {
                panic!("{name} launch {launch}: {metric} shown but not in the JSON")
            });
        let got = shown(text);
        if metric.ends_with(".pct") || metric.ends_with("_pct") {
            assert!(
                (got - want).abs() <= 0.05 + 1e-9,
                "{name} launch {launch}: {metric} shows {text}, JSON {want}"
            );
        } else {
            assert_eq!(
                got, want,
                "{name} launch {launch}: {metric} shows {text}, JSON {want}"
            );
        }
        if !m["in_closed_details"].as_bool().unwrap() {
            assert!(
                m["visible"].as_bool().unwrap(),
                "{name} launch {launch}: {metric} is not visible"
            );
        }
        *seen.entry((launch, metric)).or_default() += 1;
        n += 1;
    }
    for (i, l) in launches.iter().enumerate() {
        for k in l["metrics"].as_object().unwrap().keys() {
            assert!(
                seen.contains_key(&(i + 1, k.clone())),
                "{name} launch {}: {k} is not shown",
                i + 1
            );
        }
    }
    n
}

fn run_example(name: &str) -> Option<(Value, Rendered)> {
    let chrome = chromium()?;
    let dir = scratch(name);
    let page = dir.join(format!("{name}.html"));
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .current_dir(repo())
        .args(["run", &format!("examples/{name}.toml"), "--json", "--html"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let size = std::fs::metadata(&page).unwrap().len();
    assert!(size < 3 << 20, "{name}: the report is {size} bytes");
    let html = std::fs::read_to_string(&page).unwrap();
    // (The SVG namespace URI `http://www.w3.org/2000/svg` is a name, not a reference.)
    for banned in [
        "href=\"http",
        "src=",
        "<link",
        "@import",
        "<iframe",
        "<object",
    ] {
        assert!(
            !html.contains(banned),
            "{name}: the page refers to something outside it: {banned}"
        );
    }
    // `url(#id)` names an element of the page itself; any other `url(` would load something.
    for (i, _) in html.match_indices("url(") {
        assert!(
            html[i + 4..].starts_with('#'),
            "{name}: {}",
            &html[i..(i + 40).min(html.len())]
        );
    }
    let r = render(&chrome, &page, &dir);
    let launches = report["launches"].as_array().unwrap();
    // Six sections per launch, seven where a texture or surface instruction ran (texel maps),
    // each drawn.
    let sections = sections_not_blank(&r, name);
    let textured = launches
        .iter()
        .filter(|l| {
            l["detail"]["tex_samples"]
                .as_array()
                .is_some_and(|v| !v.is_empty())
        })
        .count();
    assert_eq!(sections, 6 * launches.len() + textured, "{name}: sections");
    // Every texel map draws every texel it counts, unless its caption says how many it left out.
    for t in r.check["texels"].as_array().unwrap() {
        assert!(t["visible"].as_bool().unwrap(), "{name}: {t}");
        let cut = t["caption"]
            .as_str()
            .unwrap()
            .contains("outside the drawn window");
        if !cut {
            assert_eq!(t["cells"], t["texels"], "{name}: {t}");
        }
    }
    let numbers = numbers_equal_json(&r.check, launches, name, "");
    assert!(
        numbers >= launches.len() * 20,
        "{name}: only {numbers} numbers checked"
    );
    // Every bank diagram's lines all end in a bank column.
    for b in r.check["banks"].as_array().unwrap() {
        assert_eq!(b["columns"], 32, "{name}: {b}");
        assert_eq!(b["unplaced"], 0, "{name}: {b}");
        assert!(b["visible"].as_bool().unwrap(), "{name}: {b}");
    }
    Some((report, r))
}

/// The line of `file` (under examples/) that contains `needle`.
fn line_of(file: &str, needle: &str) -> u64 {
    let text = std::fs::read_to_string(repo().join("examples").join(file)).unwrap();
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{file} has no line with {needle:?}")) as u64
        + 1
}

#[test]
fn bank_columns_32x32_one_bank_32x33_all_banks() {
    let Some((report, r)) = run_example("bank_columns") else {
        return;
    };
    let line = line_of("bank_columns.cu", "acc += tile[lane]");
    let kernels: Vec<&str> = report["launches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["kernel"].as_str().unwrap())
        .collect();
    assert_eq!(kernels, ["bank_columns<0>", "bank_columns<1>"]);
    let diagram = |launch: u64| {
        r.check["banks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| {
                b["launch"] == launch
                    && b["line"] == line
                    && b["op"] == "ld"
                    && b["which"] == "worst"
            })
            .unwrap_or_else(|| panic!("launch {launch}: no bank diagram of line {line}"))
            .clone()
    };
    let banks = |b: &Value| -> Vec<usize> {
        b["lanes_by_bank"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_array().unwrap().len())
            .collect()
    };
    // tile[32][32]: all 32 lanes in one bank.
    assert_eq!(banks(&diagram(1)), vec![32], "{}", diagram(1));
    // tile[32][33]: 32 banks, one lane each.
    assert_eq!(banks(&diagram(2)), vec![1; 32], "{}", diagram(2));
}

/// One value of a launch of the H200's texture probe (tests/hw/h200/texture_mem/ncu/tex_probe.csv,
/// launch names in launches.txt beside it).
fn tex_probe(launch: &str, metric: &str) -> f64 {
    let dir = repo().join("tests/hw/h200/texture_mem");
    let id = std::fs::read_to_string(dir.join("launches.txt"))
        .unwrap()
        .lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.last() == Some(&launch)).then(|| f[0].to_string())
        })
        .unwrap_or_else(|| panic!("no launch {launch}"));
    let text = std::fs::read_to_string(dir.join("ncu/tex_probe.csv")).unwrap();
    let rows = gpumemsim::report::compare::parse_ncu_csv(&text).unwrap();
    let row = rows
        .iter()
        .find(|r| r.id.to_string() == id)
        .unwrap_or_else(|| panic!("no row of launch {id}"));
    row.metrics[metric]
}

/// examples/texture_column.toml walks a float image down its columns as global loads and
/// through tex2D, with tex_probe.cu's index arithmetic and grid: its counters are the H200's
/// (gld_col, f32_point_col), and its sector map and texel map show, per warp, the H200's
/// sectors per warp (32 row-major, 16 block-linear: the 2D locality the seeds give as the
/// reason for texture memory).
#[test]
fn texture_column_shows_the_h200s_sectors() {
    let Some((report, r)) = run_example("texture_column") else {
        return;
    };
    let launches = report["launches"].as_array().unwrap();
    let metric = |l: usize, m: &str| launches[l]["metrics"][m].as_f64().unwrap();
    let gld = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    let tex = "l1tex__t_sectors_pipe_tex_mem_texture.sum";
    let treq = "l1tex__t_requests_pipe_tex_mem_texture.sum";
    assert_eq!(metric(0, gld), tex_probe("gld_col", gld));
    assert_eq!(metric(1, tex), tex_probe("f32_point_col", tex));
    assert_eq!(metric(1, treq), tex_probe("f32_point_col", treq));
    let warps = 256.0 * 256.0 / 32.0;
    let hw_gld_per_warp = tex_probe("gld_col", gld) / warps;
    let hw_tex_per_warp = tex_probe("f32_point_col", tex) / warps;
    assert_eq!((hw_gld_per_warp, hw_tex_per_warp), (32.0, 16.0));
    // The texel map of the tex2D line: 32 texels (one per lane) in 16 sectors, 32 row-major.
    let line = line_of("texture_column.cu", "tex2D<float>");
    let maps: Vec<&Value> = r.check["texels"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["launch"] == 2 && t["line"] == line)
        .collect();
    assert!(!maps.is_empty(), "no texel map of line {line}");
    for t in maps {
        assert_eq!(t["sectors"].as_f64().unwrap(), hw_tex_per_warp, "{t}");
        assert_eq!(
            (&t["texels"], &t["cells"]),
            (&Value::from(32), &Value::from(32))
        );
        let caption = t["caption"].as_str().unwrap();
        assert!(
            caption.contains(&format!("the same texels lie in {hw_gld_per_warp} sectors")),
            "{caption}"
        );
    }
    // Both kernels read the same image: out[gid] = texel (gid / 256, gid % 256) either way.
    let out = |f: &str| std::fs::read(repo().join("examples/out").join(f)).unwrap();
    let (g, t) = (
        out("texture_column_global.bin"),
        out("texture_column_texture.bin"),
    );
    assert_eq!(g.len(), 256 * 256 * 4);
    let word = |b: &[u8], i: usize| f32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
    for i in 0..256 * 256 {
        let (x, y) = (i / 256, i % 256);
        assert_eq!(word(&g, i), (y * 256 + x) as f32, "global, thread {i}");
        assert_eq!(word(&t, i), word(&g, i), "texture, thread {i}");
    }
    // The sector map of the global load: 32 sectors.
    let line = line_of("texture_column.cu", "img[y * W + x]");
    let page = std::fs::read_to_string(r.dir.join("texture_column.html")).unwrap();
    let caption = format!("{hw_gld_per_warp} sectors in 32 lines of 128 bytes");
    assert!(
        page.contains(&caption),
        "the sector map of line {line} does not say {caption:?}"
    );
}

macro_rules! examples {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                run_example(stringify!($name));
            }
        )*

        /// Every example has its test above.
        #[test]
        fn every_example_is_rendered() {
            let listed = [$(stringify!($name)),*, "bank_columns", "texture_column"];
            let mut missing = Vec::new();
            for e in std::fs::read_dir(repo().join("examples")).unwrap() {
                let p = e.unwrap().path();
                if p.extension().is_some_and(|x| x == "toml") {
                    let stem = p.file_stem().unwrap().to_string_lossy().to_string();
                    if !listed.contains(&stem.as_str()) {
                        missing.push(stem);
                    }
                }
            }
            assert!(missing.is_empty(), "examples without an HTML test: {missing:?}");
        }
    };
}

examples!(
    broadcast,
    constant,
    copy_16m,
    global_patterns,
    histogram,
    matmul,
    matmul_1024,
    rotate,
    shared_stride,
    transpose,
    warp_reduce,
);

/// `gpumemsim diff` of the tiled and the padded transpose (launches 2 and 3 of transpose.toml):
/// the page renders without errors and shows each side's numbers as its JSON has them.
#[test]
fn diff_of_tiled_and_padded_transpose() {
    let Some(chrome) = chromium() else {
        return;
    };
    let dir = scratch("diff");
    let json = dir.join("transpose.json");
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .current_dir(repo())
        .args(["run", "examples/transpose.toml", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    std::fs::write(&json, &out.stdout).unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let page = dir.join("diff.html");
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .args(["diff"])
        .arg(&json)
        .arg(&json)
        .args(["--launch-a", "2", "--launch-b", "3", "--html"])
        .arg(&page)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("transpose_tile<0>") && text.contains("transpose_tile<1>"),
        "{text}"
    );
    let r = render(&chrome, &page, &dir);
    assert_eq!(sections_not_blank(&r, "diff"), 2);
    let l = report["launches"].as_array().unwrap();
    // The "launch" of a diff row is the pair (1); side a is launch 2, side b launch 3.
    let a = numbers_equal_json(&r.check, std::slice::from_ref(&l[1]), "diff A", "a");
    let b = numbers_equal_json(&r.check, std::slice::from_ref(&l[2]), "diff B", "b");
    assert!(a >= 20 && b >= 20, "{a} {b}");
}

/// `diff` of a file that is not a report: a located error and exit status 2; `--html` onto an
/// input of the spec is refused before anything runs.
#[test]
fn bad_input_is_refused_with_a_location() {
    let dir = scratch("bad");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\n  \"spec\": \"x\",\n  \"launches\": [ 1 ]\n}\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .arg("diff")
        .arg(&bad)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}:3:", bad.display()))
            && err.contains("not a gpumemsim JSON report"),
        "{err}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_gpumemsim"))
        .current_dir(repo())
        .args([
            "run",
            "examples/bank_columns.toml",
            "--html",
            "examples/bank_columns.cu",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--html") && err.contains("refusing to overwrite"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing ran");
}
