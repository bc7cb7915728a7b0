//! `cargo bench --bench codegen`: code generation for a synthetic catalog of 1,000 tools
//! (`CATALOGC_BENCH_TOOLS=N` changes the size), in a release build: the time of
//! `codegen::generate` (name plan, tokens, printing), and the size of the generated Rust per
//! tool.
//!
//! `CATALOGC_BENCH_CRATE=DIR` also writes the generated code as a crate in `DIR` (depending
//! on this catalogc, runtime only) and times `cargo check` of it: once with its
//! dependencies, then again after touching the generated file, which is the time the
//! generated code alone costs a user's build. `CATALOGC_BENCH_WRITE=FILE` keeps the catalog,
//! to time `catalogc gen` (e.g. the debug binary, as a build script runs at opt-level 0).

use catalogc::codegen::{self, Options};
use catalogc::contract::Artifacts;
use catalogc::contract::Templates;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() {
    let tools: usize = std::env::var("CATALOGC_BENCH_TOOLS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let text = catalogc::testing::synthetic_catalog("bench", tools);
    if let Some(path) = std::env::var_os("CATALOGC_BENCH_WRITE")
        && let Err(e) = std::fs::write(&path, &text)
    {
        eprintln!("cannot write {}: {e}", Path::new(&path).display());
    }
    let loaded = catalogc::project::load_source("bench.kdl", text);
    let artifacts = match Artifacts::build(&loaded.project, &Templates::builtin()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("templates: {e}");
            return;
        }
    };
    let opts = Options::default();
    let mut times = Vec::new();
    let mut files = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        files = codegen::generate(&loaded.project, &artifacts, &opts);
        times.push(start.elapsed());
    }
    let rust = files.iter().find(|f| codegen::is_rust(f));
    let Some(rust) = rust else {
        eprintln!("nothing generated");
        return;
    };
    let lines = rust.contents.lines().count();
    println!("catalog: {tools} tools");
    println!("generate: {:?} (median of 5)", median(times));
    println!(
        "generated Rust: {} bytes, {lines} lines; per tool {} bytes, {} lines",
        rust.contents.len(),
        rust.contents.len() / tools.max(1),
        lines / tools.max(1)
    );
    if let Some(dir) = std::env::var_os("CATALOGC_BENCH_CRATE") {
        check_crate(Path::new(&dir), &rust.contents);
    }
}

/// Writes the generated code as a crate and times `cargo check` of it.
fn check_crate(dir: &Path, code: &str) {
    let manifest = format!(
        "[package]\nname = \"catalogc-bench-generated\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\ncatalogc = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
        env!("CARGO_MANIFEST_DIR")
    );
    let write = |path: &Path, text: &str| {
        if let Some(p) = path.parent() {
            let _ = std::fs::create_dir_all(p);
        }
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("cannot write {}: {e}", path.display());
        }
    };
    write(&dir.join("Cargo.toml"), &manifest);
    write(&dir.join("src/lib.rs"), "include!(\"bench.rs\");\n");
    write(&dir.join("src/bench.rs"), code);
    let check = || {
        let start = Instant::now();
        let status = Command::new(env!("CARGO"))
            .args(["check", "--quiet"])
            .current_dir(dir)
            .status();
        (
            start.elapsed(),
            status.map(|s| s.success()).unwrap_or(false),
        )
    };
    let (cold, ok) = check();
    println!("cargo check of the generated crate with its dependencies: {cold:?} (ok: {ok})");
    write(&dir.join("src/bench.rs"), &format!("{code}\n"));
    let (warm, ok) = check();
    println!("cargo check of the generated code alone: {warm:?} (ok: {ok})");
}
