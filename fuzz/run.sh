#!/usr/bin/env bash
# Runs fuzz targets and prints the executions of each. Needs the nightly toolchain and
# `cargo install cargo-fuzz`.
#
#   fuzz/run.sh [SECONDS] [TARGET[=SECONDS]...]
#
# SECONDS (default 60) is the time of every target not given its own; no TARGET runs them
# all. The corpora grow in fuzz/corpus/TARGET (not committed); crashes land in
# fuzz/artifacts/TARGET: turn each into a regression test in the normal test suite with its fix.
#
# The targets are built once (`cargo fuzz build -O`) and the binaries run directly, as
# `cargo fuzz run` would run them; FUZZ_NO_BUILD=1 runs the binaries already built.
# FUZZ_KEEP_GOING=1 runs each target in libFuzzer's fork mode with one job, which records a
# crash, timeout or out-of-memory and goes on fuzzing instead of stopping at the first.
set -euo pipefail
cd "$(dirname "$0")"
seconds=60
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    seconds="$1"
    shift
fi
all=(pipeline breaking lock config codegen parse differential lsp_framing mcp_stdio mcp_http)
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=("${all[@]}")
root=..

seed() {
    local target="$1"
    shift
    mkdir -p "corpus/$target"
    for f in "$@"; do
        [ -f "$f" ] && cp "$f" "corpus/$target/seed-$(echo "$f" | tr '/' '_')"
    done
    return 0
}

seed parse "$root"/tests/kdl-test-suite/test_cases/input/*.kdl
seed differential "$root"/tests/kdl-test-suite/test_cases/input/*.kdl
# Whole catalogs: the shipped ones, the lint fixtures (one rule each), the model fixtures (one
# loading error each) and both sides of every compatibility fixture (one change kind each).
compat=("$root"/tests/fixtures/compat/*/*.kdl)
seed pipeline "$root"/catalogs/*.kdl "$root"/tests/fixtures/lint/*/*/*.kdl \
    "$root"/tests/fixtures/model/*.kdl "${compat[@]}"
seed codegen "$root"/catalogs/*.kdl "$root"/tests/fixtures/lint/*/*/good.kdl "${compat[@]}"
seed lock "$root"/catalogs/*.lock
seed config seeds/config/*.kdl
seed lsp_framing seeds/lsp_framing/*
seed mcp_stdio seeds/mcp/*
seed mcp_http seeds/mcp/*
mkdir -p corpus/breaking
for dir in "$root"/tests/fixtures/compat/*/; do
    if [ -f "$dir/old.kdl" ] && [ -f "$dir/new.kdl" ]; then
        { cat "$dir/old.kdl"; printf '\0'; cat "$dir/new.kdl"; } >"corpus/breaking/seed-$(basename "$dir")"
    fi
done

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    cargo +nightly fuzz build -O
fi
bin=target/x86_64-unknown-linux-gnu/release
extra=()
if [ "${FUZZ_KEEP_GOING:-0}" = 1 ]; then
    extra=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
mkdir -p logs
printf '| target | seconds | executions | exec/s | corpus | result |\n|---|---|---|---|---|---|\n' >logs/summary.md
# Crashes, timeouts, out-of-memory and leaks; libFuzzer's slow-unit-* files (inputs slower than
# -report_slow_units, often only a loaded machine) are no finding.
findings() {
    find "artifacts/$1" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l
}
status=0
for run in "${runs[@]}"; do
    t="${run%%=*}"
    s="$seconds"
    [ "$t" = "$run" ] || s="${run#*=}"
    if [ ! -x "$bin/$t" ]; then
        echo "no fuzz target $t (targets: ${all[*]})" >&2
        exit 2
    fi
    mkdir -p "artifacts/$t"
    before=$(findings "$t")
    result=ok
    # -max_len: catalogs beyond a few KB only slow the search; the budgets of benches/hostile
    # cover large inputs.
    if ! "$bin/$t" -artifact_prefix="artifacts/$t/" "corpus/$t" \
        -max_total_time="$s" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 ${extra[@]+"${extra[@]}"} >"logs/$t.log" 2>&1; then
        result="CRASH (see fuzz/logs/$t.log, fuzz/artifacts/$t)"
        status=1
    fi
    found=$(($(findings "$t") - before))
    if [ "$found" -gt 0 ]; then
        result="$found new finding(s) in fuzz/artifacts/$t (see fuzz/logs/$t.log)"
        status=1
    fi
    # The final statistics, or in fork mode (which prints none) the last progress line.
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' | tail -1 || true)
    [ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "logs/$t.log" | tr -d '#' | tail -1 || true)
    execs=${execs:-0}
    files=$(find "corpus/$t" -type f | wc -l)
    printf '| %s | %s | %s | %s | %s | %s |\n' "$t" "$s" "$execs" "$((execs / (s > 0 ? s : 1)))" "$files" "$result" >>logs/summary.md
done
cat logs/summary.md
exit "$status"
