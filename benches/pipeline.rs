//! `cargo bench --bench pipeline`: time of `lint` (parse, lower, every rule) and `hash` on a
//! generated catalog of 1,000 tools, as a user runs them, in a release build.
//!
//! `CATALOGC_BENCH_TOOLS=N` changes the size; `CATALOGC_BENCH_WRITE=FILE` also writes the
//! generated catalog, to time the binary on it.
//!
//! A plain timing harness (no extra dependency): each phase runs several times and the
//! median is printed.

use catalogc::lint::{self, Config};
use catalogc::project;
use std::time::{Duration, Instant};

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let out = f();
        times.push(start.elapsed());
        last = Some(out);
    }
    match last {
        Some(out) => (median(times), out),
        None => (Duration::ZERO, f()),
    }
}

fn main() {
    let tools = std::env::var("CATALOGC_BENCH_TOOLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let text = catalogc::testing::synthetic_catalog("bench", tools);
    println!("catalog: {tools} tools, {} bytes", text.len());
    // Keep the catalog for timing the binary itself (`time catalogc lint FILE`).
    if let Some(path) = std::env::var_os("CATALOGC_BENCH_WRITE")
        && let Err(e) = std::fs::write(&path, &text)
    {
        eprintln!(
            "cannot write {}: {e}",
            std::path::Path::new(&path).display()
        );
    }

    let (lint, (loaded, diags)) = time(7, || {
        let loaded = project::load_source("bench.kdl", text.clone());
        let artifacts = catalogc::testing::artifacts(&loaded.project);
        let diags = lint::check_project(&loaded, &Config::default(), &artifacts);
        (loaded, diags)
    });
    println!(
        "lint (parse + lower + every rule): {:?} median; {} tools, {} diagnostics",
        lint,
        loaded.tool_count(),
        diags.len()
    );

    let (hash, n) = time(7, || {
        let artifacts = catalogc::testing::artifacts(&loaded.project);
        artifacts
            .catalogs
            .iter()
            .flat_map(|c| &c.tools)
            .map(|t| t.hashes().contract.len())
            .sum::<usize>()
    });
    println!(
        "contracts (description, schemas, definition, 4 hashes per tool): {hash:?} median ({n} hash bytes)"
    );

    let (render, bytes) = time(7, || {
        use catalogc::diag::emit;
        let s = emit::Summary::new(&diags, loaded.tool_count(), 1);
        let mut out = Vec::new();
        let _ = emit::json::write(&mut out, emit::each_record(&diags, &loaded.sources), &s);
        out.len()
    });
    println!("render json: {render:?} median ({bytes} bytes)");
}
