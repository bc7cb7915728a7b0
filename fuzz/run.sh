#!/usr/bin/env bash
# Runs every fuzz target for SECONDS seconds each (default 60) and prints the executions of
# each. Needs the nightly toolchain and `cargo install cargo-fuzz`. The corpora grow in
# fuzz/corpus/TARGET (not committed); crashes land in fuzz/artifacts/TARGET: turn each into a
# regression test in the normal test suite with its fix.
#
# The targets are built once (`cargo fuzz build -O`) and the binaries run directly, as
# `cargo fuzz run` would run them; FUZZ_NO_BUILD=1 runs the binaries already built.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
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
catalogs=("$root"/catalogs/*.kdl "$root"/tests/fixtures/lint/*/*/*.kdl)
seed pipeline "${catalogs[@]}"
seed codegen "$root"/catalogs/*.kdl "$root"/tests/fixtures/lint/*/*/good.kdl
seed lock "$root"/catalogs/*.lock
seed config seeds/config/*.kdl
mkdir -p corpus/breaking
for dir in "$root"/tests/fixtures/compat/*/; do
    if [ -f "$dir/old.kdl" ] && [ -f "$dir/new.kdl" ]; then
        { cat "$dir/old.kdl"; printf '\0'; cat "$dir/new.kdl"; } >"corpus/breaking/seed-$(basename "$dir")"
    fi
done

targets=(pipeline breaking lock config codegen parse differential)
if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    cargo +nightly fuzz build -O
fi
bin=target/x86_64-unknown-linux-gnu/release
mkdir -p logs
printf '| target | seconds | executions | exec/s | corpus | result |\n|---|---|---|---|---|---|\n' >logs/summary.md
status=0
for t in "${targets[@]}"; do
    result=ok
    # -max_len: catalogs beyond a few KB only slow the search; the budgets of benches/hostile
    # cover large inputs.
    mkdir -p "artifacts/$t"
    if ! "$bin/$t" -artifact_prefix="artifacts/$t/" "corpus/$t" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
        -print_final_stats=1 >"logs/$t.log" 2>&1; then
        result="CRASH (see fuzz/logs/$t.log, fuzz/artifacts/$t)"
        status=1
    fi
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "logs/$t.log" | grep -o '[0-9]*$' | tail -1)
    runs=${runs:-0}
    files=$(find "corpus/$t" -type f | wc -l)
    printf '| %s | %s | %s | %s | %s | %s |\n' "$t" "$seconds" "$runs" "$((runs / (seconds > 0 ? seconds : 1)))" "$files" "$result" >>logs/summary.md
done
cat logs/summary.md
exit "$status"
