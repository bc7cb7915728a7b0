#!/usr/bin/env bash
# Generated code next to prost-build's, on the same synthetic API: benches/peer.rs writes it
# as KDL catalogs (files of 500 tools) and as one Protobuf package (a request and a response
# message per tool, one service). For each tool count N (COUNTS, default "100 1000") two
# crates are built in one target folder:
#   catalogc-N: build.rs runs `catalogc::Builder` on the catalogs; catalogc is a
#               build-dependency with `default-features = false, features = ["compiler"]`
#               and a dependency with `default-features = false` (the runtime);
#   prost-N:    build.rs runs `prost_build::Config::compile_protos` on the .proto files;
#               `protoc` and the well-known types come from the `protoc-bin-vendored` crate,
#               so no system protobuf-compiler is needed.
# Build scripts run at cargo's default opt-level 0 for build-dependencies, as a consumer
# gets them. Each build script runs its generator RUNS times (default 3) and prints, per run,
# wall time and CPU time (user + system of the build script process and of the children it
# waited for, i.e. protoc, from /proc/self/stat). Then, per crate: the bytes of generated
# Rust (per tool), and `cargo check` of the crate with its dependencies already checked
# (wall and CPU from /usr/bin/time).
#
# Slow (two cold builds of the generators' dependencies, downloads prost-build and
# protoc-bin-vendored on the first run): run by hand, not part of .ci/run.
#   bash benches/codegen_peer.sh [WORKDIR]     # default: target/codegen-peer
#   COUNTS="100" RUNS=5 bash benches/codegen_peer.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=benches/support/manifest.sh
source "$repo/benches/support/manifest.sh"
work=${1:-$repo/target/codegen-peer}
counts=${COUNTS:-"100 1000"}
runs=${RUNS:-3}
mkdir -p "$work"
echo "work folder: $work"
# shellcheck disable=SC2086
(cd "$repo" && cargo bench --quiet --profile dev --bench peer -- "$work/inputs" $counts >&2)

# CPU seconds of this process and its waited-for children (fields 14-17 of /proc/self/stat,
# in clock ticks), for both build scripts.
cpu_fn='
fn cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(")")? + 2..];
    let f: Vec<f64> = rest.split_whitespace().filter_map(|v| v.parse().ok()).collect();
    // After the state field: ppid … utime(11) stime(12) cutime(13) cstime(14), counted from 0
    // at ppid; ticks of 1/100 s.
    Some((f.get(10)? + f.get(11)? + f.get(12)? + f.get(13)?) / 100.0)
}
'

for n in $counts; do
    inputs=$work/inputs/$n/base
    tools=$n
    # --- catalogc ----------------------------------------------------------------------
    c=$work/catalogc-$n
    mkdir -p "$c/src"
    rm -rf "$c/catalogs" && cp -r "$inputs/catalogs" "$c/catalogs"
    # The synthetic tools recover from a timeout through a status tool that takes no key:
    # reported as a warning here, so lint still runs in full and generation goes on.
    printf 'lint {\n    warn "effect/status-by-key"\n}\n' >"$c/catalogc.kdl"
    catalogc_manifest "catalogc-$n" "$repo" >"$c/Cargo.toml"
    cat >"$c/build.rs" <<EOF
$cpu_fn
fn main() {
    for run in 1..=$runs {
        let (start, cpu0) = (std::time::Instant::now(), cpu());
        catalogc::Builder::new()
            .catalogs("catalogs")
            .config("catalogc.kdl")
            .compile()
            .expect("catalogs");
        let cpu = cpu().zip(cpu0).map_or(f64::NAN, |(b, a)| b - a);
        println!(
            "cargo::warning=run {run}: catalogc Builder, $tools tools: {:.2} s wall, {cpu:.2} s CPU",
            start.elapsed().as_secs_f64()
        );
    }
    println!("cargo::rerun-if-changed=catalogs");
    println!("cargo::rerun-if-changed=catalogc.kdl");
}
EOF
    {
        for f in "$c"/catalogs/*.kdl; do
            stem=$(basename "$f" .kdl)
            printf 'pub mod %s {\n    catalogc::include_catalog!("%s");\n}\n' "$stem" "$stem"
        done
    } >"$c/src/lib.rs"
    # --- prost-build -------------------------------------------------------------------
    p=$work/prost-$n
    mkdir -p "$p/src"
    rm -rf "$p/proto" && cp -r "$inputs/proto" "$p/proto"
    cat >"$p/Cargo.toml" <<EOF
[package]
name = "prost-$n"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
prost = "0.14"
prost-types = "0.14"

[build-dependencies]
prost-build = "0.14"
protoc-bin-vendored = "3"

[workspace]
EOF
    cat >"$p/build.rs" <<EOF
$cpu_fn
fn main() {
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");
    let include = protoc_bin_vendored::include_path().expect("vendored include");
    // SAFETY: the build script has one thread here; prost-build reads PROTOC.
    unsafe { std::env::set_var("PROTOC", protoc) };
    let mut files: Vec<_> = std::fs::read_dir("proto/synthetic/v1")
        .expect("proto folder")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for run in 1..=$runs {
        let (start, cpu0) = (std::time::Instant::now(), cpu());
        prost_build::Config::new()
            .compile_protos(&files, &[std::path::PathBuf::from("proto"), include.clone()])
            .expect("protos");
        let cpu = cpu().zip(cpu0).map_or(f64::NAN, |(b, a)| b - a);
        println!(
            "cargo::warning=run {run}: prost-build, $tools tools: {:.2} s wall, {cpu:.2} s CPU",
            start.elapsed().as_secs_f64()
        );
    }
    println!("cargo::rerun-if-changed=proto");
}
EOF
    cat >"$p/src/lib.rs" <<'EOF'
pub mod synthetic {
    pub mod v1 {
        include!(concat!(env!("OUT_DIR"), "/synthetic.v1.rs"));
    }
}
EOF
done

export CARGO_TARGET_DIR=$work/target
for n in $counts; do
    for crate in catalogc-$n prost-$n; do
        dir=$work/$crate
        echo "== $crate (load average $(cut -d' ' -f1-3 /proc/loadavg))"
        touch "$dir/build.rs"
        # Runs the build script (and checks the dependencies and the crate once, untimed).
        (cd "$dir" && cargo check 2>&1 | grep -E "run [0-9]+:" | sed 's/^.*run /run /' || true)
        out=$(ls -td "$CARGO_TARGET_DIR"/debug/build/"$crate"-*/out | head -1)
        bytes=$(cat "$out"/*.rs | wc -c)
        echo "generated Rust: $bytes bytes, $((bytes / n)) per tool"
        # The crate alone: its dependencies are checked and its build script has run.
        touch "$dir/src/lib.rs"
        t=$(cd "$dir" && /usr/bin/time -f '%e s wall, %U + %S s CPU' cargo check --quiet 2>&1 | tail -1)
        echo "cargo check: $t"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
