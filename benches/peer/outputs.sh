#!/usr/bin/env bash
# Every output of one catalogc binary on the repository's catalogs, the fixtures and the
# synthetic peer inputs, written under OUT (one file per command: stdout, stderr, exit
# status). A speed change must leave them byte-identical:
#
#   bash benches/peer/outputs.sh target/before/catalogc /tmp/before
#   bash benches/peer/outputs.sh target/release/catalogc /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
#
# The synthetic inputs are those benches/peer/buf.sh writes (target/peer/inputs/N) and the
# lint benchmark's (target/lint-inputs); sizes missing there are skipped.
set -euo pipefail
bin=$(realpath "$1")
out=$(realpath -m "$2")
cd "$(dirname "$0")/../.."
rm -rf "$out"
mkdir -p "$out"

# run NAME ARGS…: the outputs of `catalogc ARGS…` as NAME.{out,err,status}.
run() {
    local name=$1
    shift
    local status=0
    NO_COLOR=1 "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err" </dev/null || status=$?
    echo "$status" >"$out/$name.status"
}

# lock_of NAME PATH: the lock files `catalogc lock` writes for a copy of PATH (a file or a
# folder), concatenated in name order as NAME.lock.out (its own messages name the temporary
# copy, so only the files and the exit status are kept).
lock_of() {
    local name=$1 src=$2 tmp status=0
    tmp=$(mktemp -d)
    cp -r "$src" "$tmp/"
    find "$tmp" -name '*.lock' -delete
    NO_COLOR=1 "$bin" lock "$tmp/$(basename "$src")" >/dev/null 2>&1 </dev/null || status=$?
    echo "$status" >"$out/$name.lock.status"
    find "$tmp" -name '*.lock' | LC_ALL=C sort | while read -r f; do
        echo "== ${f#"$tmp"/}"
        cat "$f"
    done >"$out/$name.lock.out"
    rm -rf "$tmp"
}

# Everything one catalog set yields: lint in every format, hashes, exports and lock files.
single() {
    local name=$1
    shift
    for format in human json sarif github; do
        run "$name.lint.$format" lint --format "$format" "$@"
    done
    run "$name.hash" hash "$@"
    run "$name.hash.json" hash --format json "$@"
    run "$name.tools-json" export tools-json "$@"
    run "$name.eval" export eval "$@"
    lock_of "$name" "$1"
}

# A comparison in every format.
pair() {
    local name=$1 old=$2
    shift 2
    for format in human json sarif github markdown; do
        run "$name.breaking.$format" breaking --against "$old" --format "$format" "$@"
    done
}

single catalogs catalogs
run catalogs.lock-check lock --check catalogs
pair catalogs-head HEAD catalogs
for f in tests/fixtures/model/*.kdl catalogs/*.kdl; do
    single "$(echo "$f" | tr / _)" "$f"
done
for d in tests/fixtures/lint/*/*/; do
    single "$(echo "$d" | tr / _)" "$d"
done
for d in tests/fixtures/compat/*/; do
    [ -f "$d/old.kdl" ] && [ -f "$d/new.kdl" ] || continue
    pair "$(echo "$d" | tr / _)" "$d/old.kdl" "$d/new.kdl"
done
for n in 1000 10000; do
    d=target/peer/inputs/$n
    [ -d "$d" ] || continue
    single "synthetic-$n-base" "$d/base/catalogs"
    single "synthetic-$n-changed" "$d/changed/catalogs"
    pair "synthetic-$n" "$d/base/catalogs" "$d/changed/catalogs"
done
# The lint benchmark's catalogs, when written there
# (`CATALOGC_BENCH_WRITE=target/lint-inputs cargo bench --bench lint`).
for f in target/lint-inputs/*.kdl; do
    [ -f "$f" ] || continue
    single "$(echo "$f" | tr / _)" "$f"
done
echo "$(find "$out" -name '*.status' | wc -l) runs in $out"
