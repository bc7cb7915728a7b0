//! `cargo bench --bench lint`: lint a synthetic 1,000-tool catalog (and 100 and 5,000 for the
//! trend) and print the time per run. Loading (parse + lowering) is measured apart from the
//! rules, so the figure for the rules is the linter's own cost. The `nested` shape chains named
//! types below each record, so a rule that resolves named types walks them once per use.

use catalogc::lint::{self, Config};
use catalogc::project;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Median of `runs` timings of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Named types chained below each record in the nested shape.
const NESTED_LEVELS: usize = 3;

fn main() {
    let config = Config::default();
    println!(
        "{:>7} {:>6} {:>10} {:>12} {:>12} {:>10}",
        "shape", "tools", "bytes", "load ms", "lint ms", "findings"
    );
    let mut per_rule = Vec::new();
    let cases = [
        ("plain", 100, 0),
        ("plain", 1_000, 0),
        ("plain", 5_000, 0),
        ("nested", 1_000, NESTED_LEVELS),
    ];
    for (shape, tools, levels) in cases {
        let text = catalogc::testing::synthetic_catalog_nested("synthetic", tools, levels);
        // Keep each catalog for timing or profiling the binary itself across versions
        // (`valgrind --tool=callgrind catalogc lint DIR/nested-1000.kdl`).
        if let Some(dir) = std::env::var_os("CATALOGC_BENCH_WRITE") {
            let path = std::path::Path::new(&dir).join(format!("{shape}-{tools}.kdl"));
            if let Err(e) = std::fs::write(&path, &text) {
                eprintln!("cannot write {}: {e}", path.display());
            }
        }
        let loaded = project::load_source("synthetic.kdl", text.clone());
        let runs = if tools > 1_000 { 5 } else { 15 };
        let load = median(runs, || {
            black_box(project::load_source(
                "synthetic.kdl",
                black_box(text.clone()),
            ));
        });
        let mut findings = 0;
        // The contracts are built once per run by the CLI and shared by every rule; lint
        // time includes building them, as a `catalogc lint` run does.
        let artifacts = catalogc::testing::artifacts(&loaded.project);
        let lint = median(runs, || {
            let artifacts = catalogc::testing::artifacts(black_box(&loaded.project));
            let diags = lint::run(&loaded.project, &loaded.sources, &config, &artifacts);
            findings = diags.len();
            black_box(diags);
        });
        if tools >= 1_000 && levels == 0 {
            per_rule.extend(lint::registry().map(|rule| {
                let t = median(runs, || {
                    let cx =
                        lint::Context::new(&loaded.project, &loaded.sources, &config, &artifacts);
                    black_box(lint::findings(&cx, &[rule]));
                });
                (t, tools, rule.id)
            }));
        }
        println!(
            "{:>7} {:>6} {:>10} {:>12.2} {:>12.2} {:>10}",
            shape,
            loaded.tool_count(),
            text.len(),
            load.as_secs_f64() * 1e3,
            lint.as_secs_f64() * 1e3,
            findings
        );
    }
    per_rule.sort_by(|a, b| b.cmp(a));
    for size in [1_000, 5_000] {
        println!("\nslowest rules on {size} tools:");
        for (t, _, id) in per_rule.iter().filter(|r| r.1 == size).take(6) {
            println!("{:>10.2} ms  {id}", t.as_secs_f64() * 1e3);
        }
    }
}
