#!/usr/bin/env bash
# The build-script run on a synthetic catalog of 1,000 tools (N=… changes the size) at the
# default build-script profile: catalogc as a build-dependency, compiled the way a consumer
# gets it (cargo builds build scripts and their dependencies at opt-level 0 unless the
# consumer sets `[profile.dev.build-override]`). The crate's build.rs writes the catalog
# into OUT_DIR, then runs `catalogc::Builder` on it three times (load, lint, contracts,
# generation, write) and reports each run as a `cargo::warning` line: wall time, and the CPU
# time of the build script's thread (from /proc, Linux only), the steadier figure on a
# shared machine. The generated code is not compiled (benches/codegen.rs times that with
# CATALOGC_BENCH_CRATE).
#
# OPT=3 sets `[profile.dev.build-override] opt-level = 3`: the same run optimised, which is
# the release figure of load, lint, contracts and generation together.
#
# Slow the first time (catalogc and its dependencies at opt-level 0): run by hand, not part
# of .ci/run. CARGO_TARGET_DIR is honoured, so the dependencies can be kept between runs.
#   bash benches/build_script.sh [WORKDIR]         # default: a new temporary folder, kept
#   OPT=3 bash benches/build_script.sh [WORKDIR]   # optimised build script
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d -t catalogc-build-script.XXXXXX)}
tools=${N:-1000}
opt=${OPT:-0}
mkdir -p "$work/src"
echo "work folder: $work"
cat >"$work/Cargo.toml" <<TOML
[package]
name = "build-script-bench"
version = "0.0.0"
edition = "2024"
publish = false

[build-dependencies]
catalogc = { path = "$repo", default-features = false, features = ["test-support"] }

[workspace]

[profile.dev.build-override]
opt-level = $opt
TOML
cat >"$work/build.rs" <<RS
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// CPU time of this thread so far (the build script is single-threaded).
fn cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let catalogs = out.join("catalogs");
    std::fs::create_dir_all(&catalogs).expect("catalogs folder");
    let text = catalogc::testing::synthetic_catalog("bench", $tools);
    std::fs::write(catalogs.join("bench.kdl"), text).expect("catalog");
    for run in 1..=3 {
        let (start, cpu0) = (Instant::now(), cpu());
        let mut lines = Vec::new();
        catalogc::Builder::new()
            .catalogs(&catalogs)
            .run(&mut lines)
            .expect("catalog");
        let cpu = match (cpu0, cpu()) {
            (Some(a), Some(b)) => format!("{:.2?}", b - a),
            _ => "unknown".into(),
        };
        println!(
            "cargo::warning=run {run}: Builder on $tools tools at opt-level $opt: {:.2?} wall, {cpu} CPU",
            start.elapsed()
        );
    }
    println!("cargo::rerun-if-changed=build.rs");
}
RS
echo "// The build script is the benchmark." >"$work/src/lib.rs"
touch "$work/build.rs"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$work" && cargo build 2>&1 | grep -E "Builder on" || true)
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
