#!/usr/bin/env bash
# Side by side with buf (issue 13, "Speed"): `catalogc lint` against `buf lint` and
# `catalogc breaking` against `buf breaking`, release binary, on the same synthetic API
# written as KDL catalogs and as Protobuf (benches/peer.rs writes both, and a copy with 5% of
# the tools changed). Not run by .ci/run: it downloads buf from npm and takes minutes.
#
#   bash benches/peer/buf.sh              # 1,000 and 10,000 tools, 5 runs each
#   COUNTS="1000 2000" RUNS=10 bash benches/peer/buf.sh
#
# `breaking` compares two folders, the form closest to `buf breaking --against DIR`:
#   catalogc breaking --against base/catalogs changed/catalogs
#   buf breaking changed/proto --against base/proto
# Times are hyperfine medians (one warm-up run each); both tools exit non-zero on the
# changed side (a breaking change is there to be found), which hyperfine is told to accept.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUF_VERSION=1.75.0
COUNTS=${COUNTS:-"1000 10000"}
RUNS=${RUNS:-5}
work=$PWD/target/peer
mkdir -p "$work"

buf=$work/buf/node_modules/.bin/buf
if [ "$("$buf" --version 2>/dev/null)" != "$BUF_VERSION" ]; then
    npm install --prefix "$work/buf" --no-save --no-audit --no-fund "@bufbuild/buf@$BUF_VERSION" >&2
fi
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }

cargo build --release --quiet --bin catalogc
catalogc=$PWD/target/release/catalogc
# shellcheck disable=SC2086
cargo bench --quiet --bench peer -- "$work/inputs" $COUNTS >&2

rows=()
for n in $COUNTS; do
    dir=$work/inputs/$n
    # Sanity: the base side is clean for both tools; the changed side fails both checks.
    (cd "$dir" && "$catalogc" lint base/catalogs >/dev/null) || { echo "catalogc lint failed on $dir/base" >&2; exit 1; }
    (cd "$dir" && "$buf" lint base/proto) || { echo "buf lint failed on $dir/base" >&2; exit 1; }
    (cd "$dir" && hyperfine -N -i --warmup 1 --runs "$RUNS" --export-json "$work/times-$n.json" \
        -n catalogc-lint "$catalogc lint base/catalogs" \
        -n buf-lint "$buf lint base/proto" \
        -n catalogc-breaking "$catalogc breaking --against base/catalogs changed/catalogs" \
        -n buf-breaking "$buf breaking changed/proto --against base/proto" >&2)
    rows+=("$n")
done

python3 - "$work" "${rows[@]}" <<'PY'
import json, sys
work, counts = sys.argv[1], sys.argv[2:]
print(f"{'tools':>6} {'catalogc lint':>14} {'buf lint':>9} {'ratio':>6} {'catalogc breaking':>18} {'buf breaking':>13} {'ratio':>6}")
for n in counts:
    t = {r["command"]: r["median"] for r in json.load(open(f"{work}/times-{n}.json"))["results"]}
    cl, bl, cb, bb = t["catalogc-lint"], t["buf-lint"], t["catalogc-breaking"], t["buf-breaking"]
    print(f"{int(n):>6} {cl:>13.3f}s {bl:>8.3f}s {bl/cl:>5.1f}x {cb:>17.3f}s {bb:>12.3f}s {bb/cb:>5.1f}x")
PY
