#!/usr/bin/env bash
# Proves a change to the contract layer byte-identical: runs two catalogc binaries (before
# and after) on every catalog it can find and compares stdout and exit status of `hash`,
# `export tools-json`, `export openai`, `export vectors`, `lint --format json`, `lock` (the
# written lock file) and `gen` (every generated file), and `breaking --format json` of each
# catalog against the one before it in name order (a fixture's `bad.kdl` against its
# `good.kdl`, say).
#
# Catalogs: catalogs/*.kdl, every *.kdl under tests/, the catalogs imported from
# tests/corpus/*/tools.json, and any *.kdl in EXTRA_DIR (e.g. the synthetic catalogs the
# lint benchmark writes with CATALOGC_BENCH_WRITE=DIR).
#
#   bash benches/contract_identity.sh OLD_BINARY NEW_BINARY [EXTRA_DIR]
# Prints each difference and a summary; exits 1 when anything differs.
set -uo pipefail
# Each command runs from a work folder: the binaries are named by absolute path (a relative
# one would fail every command there, and every comparison would count as a difference).
resolve() {
    local path=$1
    [ -f "$path" ] || path=$(command -v "$path") || path=
    if [ -z "$path" ] || [ ! -x "$path" ]; then
        echo "contract_identity: no executable $1" >&2
        exit 2
    fi
    realpath "$path"
}
old=$(resolve "$1") || exit 2
new=$(resolve "$2") || exit 2
extra=${3:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d -t catalogc-identity.XXXXXX)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/corpus"
for f in "$repo"/tests/corpus/*/tools.json; do
    name=$(basename "$(dirname "$f")" | tr -c 'a-z0-9\n' '_')
    "$old" import "$f" --name "$name" >"$work/corpus/$name.kdl" 2>/dev/null || rm -f "$work/corpus/$name.kdl"
done
mapfile -t files < <(
    {
        ls "$repo"/catalogs/*.kdl
        find "$repo/tests" -name '*.kdl'
        ls "$work"/corpus/*.kdl 2>/dev/null
        [ -n "$extra" ] && ls "$extra"/*.kdl
    } | sort -u
)

# Runs one command with both binaries; `$f` is the catalog, the output goes to OUT.
same() {
    local label=$1
    shift
    local a b
    a=$(cd "$work" && "$old" "$@" 2>/dev/null; echo "exit $?")
    b=$(cd "$work" && "$new" "$@" 2>/dev/null; echo "exit $?")
    runs=$((runs + 1))
    if [ "$a" != "$b" ]; then
        diffs=$((diffs + 1))
        echo "DIFFERS: $label $*"
    fi
}

# Output of a command that writes files: the files' contents, in name order.
written() {
    local bin=$1 dir=$2
    shift 2
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$work" && "$bin" "$@" >/dev/null 2>&1)
    echo "exit $?"
    find "$dir" -type f | sort | while read -r g; do echo "== ${g#"$dir"}"; cat "$g"; done
}

runs=0
diffs=0
prev=
for f in "${files[@]}"; do
    [ -n "$prev" ] && same breaking breaking --against "$prev" "$f" --format json
    prev=$f
    same hash hash "$f"
    same export export tools-json "$f"
    same openai export openai "$f"
    same lint lint --format json "$f"
    same vectors export vectors "$f"
    for bin in old new; do
        mkdir -p "$work/lock-$bin"
        cp "$f" "$work/lock-$bin/c.kdl"
    done
    a=$(written "$old" "$work/gen-old" gen "$f" --out "$work/gen-old"; cd "$work/lock-old" && "$old" lock c.kdl >/dev/null 2>&1; echo "exit $?"; cat ./*.lock 2>/dev/null)
    b=$(written "$new" "$work/gen-new" gen "$f" --out "$work/gen-new"; cd "$work/lock-new" && "$new" lock c.kdl >/dev/null 2>&1; echo "exit $?"; cat ./*.lock 2>/dev/null)
    rm -rf "$work/lock-old" "$work/lock-new"
    runs=$((runs + 2))
    if [ "${a//gen-old/gen}" != "${b//gen-new/gen}" ]; then
        diffs=$((diffs + 1))
        echo "DIFFERS: gen/lock $f"
    fi
done
echo "${#files[@]} catalogs, $runs comparisons, $diffs differences"
[ "$diffs" -eq 0 ]
