//! The `gpumemsim` command line: a thin layer over the library.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use gpumemsim::run::{self, RunError, RunOptions};
use gpumemsim::spec::Spec;

#[derive(Parser)]
#[command(
    name = "gpumemsim",
    version,
    about = "Runs CUDA kernels on a simulated GPU memory system and reports what it does"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// List every metric gpumemsim reports (name, unit, how it combines, which model produces
    /// it, whether it is per source line, what it counts), and the recorded Nsight Compute
    /// metrics it does not model, with the reason.
    Metrics,
    /// Run a launch spec and print its report.
    Run {
        /// The launch spec (TOML).
        spec: PathBuf,
        /// Print the machine-readable JSON report on standard output.
        #[arg(long)]
        json: bool,
        /// Compile the spec's .cu with NVRTC even when it names a committed .ptx.
        #[arg(long)]
        recompile: bool,
        #[command(flatten)]
        limits: Limits,
        /// How many worst lines to show per launch.
        #[arg(long, default_value_t = 5)]
        top: usize,
        /// Sanitizers to run, like compute-sanitizer's tools: memcheck (always on: invalid
        /// accesses stop the run), racecheck (shared-memory hazards), initcheck (reads of
        /// unwritten global and shared memory), synccheck (always on). Comma-separated or
        /// repeated.
        #[arg(long, value_enum, value_delimiter = ',')]
        check: Vec<Tool>,
        /// With `--check memcheck`: count every invalid access per line instead of stopping
        /// at the first (the access is skipped; a skipped load leaves its register unchanged).
        #[arg(long = "continue", requires = "check")]
        keep_going: bool,
        /// Also write a self-contained HTML report (diagrams, annotated source, charts) here.
        #[arg(long, value_name = "PATH")]
        html: Option<PathBuf>,
    },
    /// Compare two JSON reports (`run --json`): counters and per-line costs side by side.
    Diff {
        /// The first report (A).
        a: PathBuf,
        /// The second report (B).
        b: PathBuf,
        /// Also write the comparison as a self-contained HTML page here.
        #[arg(long, value_name = "PATH")]
        html: Option<PathBuf>,
        /// Compare only this launch of A (1-based) with the one of `--launch-b`.
        #[arg(long, value_name = "N")]
        launch_a: Option<usize>,
        /// Compare only this launch of B (1-based) with the one of `--launch-a`.
        #[arg(long, value_name = "N")]
        launch_b: Option<usize>,
    },
    /// Compile a spec's .cu with NVRTC and write its .ptx (with kernel names and ptxas resources).
    Compile {
        /// The launch spec (TOML).
        spec: PathBuf,
        /// Where to write the PTX (default: the spec's `ptx`, or the source with .ptx).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Run a spec and compare its counters with an Nsight Compute CSV of the same spec on a GPU.
    Compare {
        /// The launch spec (TOML).
        spec: PathBuf,
        /// `ncu --csv --print-units base --metrics ...` output for the spec's host program. Give
        /// several recordings of it to compare each value with all of them: equal to the value
        /// they share or, where they differ (timing-dependent counters), within their range.
        #[arg(required = true, num_args = 1..)]
        ncu_csv: Vec<PathBuf>,
        /// Show every metric, not only the ones that differ.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        limits: Limits,
    },
    /// Compile a spec's PTX to sm_90 SASS (ptxas and nvdisasm from pip) and write the `.sass`
    /// next to the `.ptx`, so `run --isa sass` needs nothing installed.
    Sass {
        /// The launch spec (TOML).
        spec: PathBuf,
        /// Where to write the SASS (default: the spec's `ptx` with `.sass`).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Also write the cubin ptxas made (what a GPU would load).
        #[arg(long)]
        cubin: Option<PathBuf>,
    },
    /// Write a standalone CUDA host program that runs the spec on a real GPU.
    ExportCuda {
        /// The launch spec (TOML).
        spec: PathBuf,
        /// Where to write the .cu (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

/// A sanitizer of `--check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Tool {
    Memcheck,
    Racecheck,
    Initcheck,
    Synccheck,
}

/// The limits that keep a run finite; a user may raise each.
#[derive(clap::Args)]
struct Limits {
    /// Warp-instructions a block may execute before the kernel is declared endless.
    #[arg(long, default_value_t = gpumemsim::runtime::DEFAULT_BUDGET_PER_BLOCK)]
    max_instructions: u64,
    /// Warp-instructions a whole launch (all blocks together) may execute.
    #[arg(long, default_value_t = gpumemsim::runtime::DEFAULT_BUDGET_PER_LAUNCH)]
    max_launch_instructions: u64,
    /// Host memory the simulated device may hold (buffers, module variables, a block's shared
    /// and local memory), e.g. 64G [default: half of this host's memory, at most the GPU's].
    #[arg(long, value_parser = gpumemsim::runtime::parse_byte_size)]
    memory_budget: Option<u64>,
    /// Run every instruction through the executor's general path (for testing; same results).
    #[arg(long, hide = true)]
    no_fast_paths: bool,
    /// Do not model L1, L2 and DRAM (faster; their counters are left out of the report).
    #[arg(long)]
    no_caches: bool,
    /// The instruction set to run: the sm_90 SASS ptxas makes of the PTX (the committed
    /// `.sass` next to the `.ptx`, or made with ptxas and nvdisasm), or the PTX [default: SASS
    /// where it can be had and decoded, else the PTX; the report says which ran and why].
    #[arg(long, value_enum)]
    isa: Option<IsaArg>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum IsaArg {
    Ptx,
    Sass,
}

impl Limits {
    fn apply(&self, opts: &mut RunOptions) {
        opts.launch.budget_per_block = self.max_instructions;
        opts.launch.budget_per_launch = self.max_launch_instructions;
        opts.launch.fast_paths = !self.no_fast_paths;
        opts.memory_budget = self.memory_budget;
        opts.caches = !self.no_caches;
        opts.isa = match self.isa {
            None => run::Isa::Auto,
            Some(IsaArg::Ptx) => run::Isa::Ptx,
            Some(IsaArg::Sass) => run::Isa::Sass,
        };
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match real_main(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let msg = e.to_string();
            // Located errors (file:line:col: error: ...) already say what they are.
            if msg.lines().next().is_some_and(|l| l.contains(": error: ")) {
                eprintln!("{msg}");
            } else {
                eprintln!("error: {msg}");
            }
            ExitCode::from(e.exit_code() as u8)
        }
    }
}

/// Whether two paths name the same file (after resolving what exists of them).
fn same_path(a: &std::path::Path, b: &std::path::Path) -> bool {
    let canon = |p: &std::path::Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| std::path::absolute(p).unwrap_or(p.into()))
    };
    canon(a) == canon(b)
}

fn real_main(cli: Cli) -> Result<(), RunError> {
    match cli.cmd {
        Cmd::Metrics => {
            print!("{}", gpumemsim::metrics::render_table());
            Ok(())
        }
        Cmd::Run {
            spec,
            json,
            recompile,
            limits,
            top,
            html,
            check,
            keep_going,
        } => {
            let spec = Spec::load(&spec)?;
            if let Some(p) = &html {
                run::check_not_input(&spec, "--html", p, &run::spec_inputs(&spec, true))?;
                if let Some(o) = spec.outputs.iter().find(|o| same_path(&o.path, p)) {
                    return Err(RunError::Launch {
                        file: spec.path.display().to_string(),
                        key: "--html".into(),
                        message: format!(
                            "{} is also the [outputs] file of '{}'; choose another path",
                            p.display(),
                            o.buffer
                        ),
                    });
                }
            }
            let mut opts = RunOptions {
                recompile,
                samples: html.is_some(),
                ..RunOptions::default()
            };
            opts.checks.racecheck = check.contains(&Tool::Racecheck);
            opts.checks.initcheck = check.contains(&Tool::Initcheck);
            opts.checks.memcheck_continue = keep_going && check.contains(&Tool::Memcheck);
            limits.apply(&mut opts);
            let tty = std::io::stderr().is_terminal();
            let mut last = std::time::Instant::now();
            let report = run::run_spec(&spec, &opts, &mut |i, done, total| {
                if tty && (done == total || last.elapsed().as_millis() > 200) {
                    last = std::time::Instant::now();
                    eprint!("\r  launch {}: block {done}/{total}   ", i + 1);
                    if done == total {
                        eprint!("\r{}\r", " ".repeat(40));
                    }
                }
            })?;
            if json {
                let text = serde_json::to_string_pretty(&report).map_err(|e| RunError::Io {
                    path: "<stdout>".into(),
                    message: e.to_string(),
                })?;
                println!("{text}");
            } else {
                print!("{}", gpumemsim::report::text::render(&report, top));
            }
            if let Some(p) = html {
                let page = gpumemsim::report::html::render(&report, spec.gpu)?;
                run::write_file(&p, page.as_bytes())?;
                eprintln!("wrote {}", p.display());
            }
            let errors = report
                .checks
                .iter()
                .filter(|f| f.severity == gpumemsim::check::Severity::Error)
                .count();
            if errors > 0 {
                return Err(RunError::Checks { errors });
            }
            Ok(())
        }
        Cmd::Diff {
            a,
            b,
            html,
            launch_a,
            launch_b,
        } => {
            use gpumemsim::report::diff;
            let (ra, rb) = (diff::load(&a)?, diff::load(&b)?);
            let d = diff::diff(
                &a.display().to_string(),
                &ra,
                &b.display().to_string(),
                &rb,
                launch_a,
                launch_b,
            )?;
            print!("{}", diff::render_text(&d));
            if let Some(p) = html {
                if same_path(&p, &a) || same_path(&p, &b) {
                    return Err(RunError::Io {
                        path: p.display().to_string(),
                        message:
                            "--html is one of the reports being compared; refusing to overwrite it"
                                .into(),
                    });
                }
                let page = diff::render_html(&d)?;
                run::write_file(&p, page.as_bytes())?;
                eprintln!("wrote {}", p.display());
            }
            Ok(())
        }
        Cmd::Compile { spec, output } => {
            let spec = Spec::load(&spec)?;
            let src = spec.source.clone().ok_or_else(|| RunError::Launch {
                file: spec.path.display().to_string(),
                key: "source".into(),
                message: "compile needs a `source` .cu file".into(),
            })?;
            let ptx = run::compile_spec(&spec, &src)?;
            let out =
                output
                    .or_else(|| run::ptx_path_for(&spec))
                    .ok_or_else(|| RunError::Launch {
                        file: spec.path.display().to_string(),
                        key: "ptx".into(),
                        message: "no output path".into(),
                    })?;
            run::check_not_input(&spec, "--output", &out, &run::spec_inputs(&spec, false))?;
            run::write_file(&out, ptx.text.as_bytes())?;
            eprintln!("wrote {}", out.display());
            Ok(())
        }
        Cmd::Compare {
            spec,
            ncu_csv,
            all,
            limits,
        } => {
            let spec = Spec::load(&spec)?;
            let mut recordings = Vec::new();
            for path in &ncu_csv {
                let bad = |message: String| RunError::Io {
                    path: path.display().to_string(),
                    message,
                };
                let csv = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
                let ncu = gpumemsim::report::compare::parse_ncu_csv(&csv).map_err(bad)?;
                recordings.push((path, ncu));
            }
            let mut opts = RunOptions {
                write_outputs: false,
                ..RunOptions::default()
            };
            limits.apply(&mut opts);
            let report = run::run_spec(&spec, &opts, &mut |_, _, _| {})?;
            let mut per = Vec::new();
            for (path, ncu) in &recordings {
                let cmp = gpumemsim::report::compare::compare(&report, ncu).map_err(|message| {
                    RunError::Io {
                        path: path.display().to_string(),
                        message,
                    }
                })?;
                per.push(cmp);
            }
            let agree = if let [cmp] = per.as_slice() {
                print!("{}", gpumemsim::report::compare::render(cmp, !all));
                cmp.iter().all(|c| c.equal())
            } else {
                let cmp =
                    gpumemsim::report::compare::merge_recordings(&per).map_err(|message| {
                        RunError::Io {
                            path: ncu_csv[0].display().to_string(),
                            message,
                        }
                    })?;
                print!("{}", gpumemsim::report::compare::render_ranges(&cmp, !all));
                cmp.iter().all(|c| c.agrees())
            };
            if !agree {
                return Err(RunError::Mismatch);
            }
            Ok(())
        }
        Cmd::Sass {
            spec,
            output,
            cubin,
        } => {
            let spec = Spec::load(&spec)?;
            let ptx = run::spec_ptx(&spec, false)?;
            let c = gpumemsim::sass::tools::compile(&ptx.text).map_err(|e| RunError::Io {
                path: ptx.path.display().to_string(),
                message: e.to_string(),
            })?;
            let out = output.unwrap_or_else(|| ptx.path.with_extension("sass"));
            let inputs = run::spec_inputs(&spec, true);
            run::check_not_input(&spec, "--output", &out, &inputs)?;
            run::write_file(&out, c.sass.as_bytes())?;
            eprintln!("wrote {}", out.display());
            if let Some(p) = cubin {
                run::check_not_input(&spec, "--cubin", &p, &inputs)?;
                run::write_file(&p, &c.cubin)?;
                eprintln!("wrote {}", p.display());
            }
            Ok(())
        }
        Cmd::ExportCuda { spec, output } => {
            let spec = Spec::load(&spec)?;
            let program = run::export_cuda(&spec, output.as_deref())?;
            match output {
                Some(p) => {
                    run::check_not_input(&spec, "--output", &p, &run::spec_inputs(&spec, true))?;
                    run::write_file(&p, program.as_bytes())?
                }
                None => print!("{program}"),
            }
            Ok(())
        }
    }
}
