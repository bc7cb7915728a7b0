#!/usr/bin/env bash
# Side by side with buf: `catalogc lint` against `buf lint` and
# `catalogc breaking` against `buf breaking`, bench-profile binary, on the same synthetic API
# written as KDL catalogs and as Protobuf (benches/peer.rs writes both, and a copy with 5% of
# the tools changed). Not run by .ci/run: it downloads buf from npm and takes minutes.
#
#   bash benches/peer/buf.sh              # 1,000 and 10,000 tools, 11 rounds each
#   COUNTS="1000 2000" RUNS=41 bash benches/peer/buf.sh
#   PROFILE=release bash benches/peer/buf.sh   # the binary `cargo install` builds
#
# `breaking` compares two folders, the form closest to `buf breaking --against DIR`:
#   catalogc breaking --against base/catalogs changed/catalogs
#   buf breaking changed/proto --against base/proto
# Each round runs the four commands once, in an order shuffled per round (seeded): run in a
# fixed order, whichever command follows buf's large heap is the one slowed by the memory
# it left (on this bench's machine, catalogc by 10-20%). Times are medians over the rounds,
# after one warm-up run each; both tools exit non-zero on the changed side (a breaking change
# is there to be found), which is expected.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUF_VERSION=1.75.0
COUNTS=${COUNTS:-"1000 10000"}
RUNS=${RUNS:-11}
PROFILE=${PROFILE:-bench}
work=$PWD/target/peer
mkdir -p "$work"

buf=$work/buf/node_modules/.bin/buf
if [ "$("$buf" --version 2>/dev/null)" != "$BUF_VERSION" ]; then
    npm install --prefix "$work/buf" --no-save --no-audit --no-fund "@bufbuild/buf@$BUF_VERSION" >&2
fi

# shellcheck disable=SC2086
cargo bench --quiet --bench peer -- "$work/inputs" $COUNTS >&2
# The bench profile's binary (the release profile with ThinLTO across catalogc's codegen
# units and every dependency fully optimised); PROFILE=release times the binary `cargo
# install` builds. Copied out of the target folder so that a later build does not replace it
# mid-run (both profiles write target/release).
cargo build --profile "$PROFILE" --quiet --bin catalogc
catalogc=$work/catalogc
cp target/release/catalogc "$catalogc"

for n in $COUNTS; do
    dir=$work/inputs/$n
    # Sanity: the base side is clean for both tools; the changed side fails both checks.
    (cd "$dir" && "$catalogc" lint base/catalogs >/dev/null) || { echo "catalogc lint failed on $dir/base" >&2; exit 1; }
    (cd "$dir" && "$buf" lint base/proto) || { echo "buf lint failed on $dir/base" >&2; exit 1; }
done
# shellcheck disable=SC2086
python3 - "$work" "$catalogc" "$buf" "$RUNS" $COUNTS <<'PY'
import random, statistics, subprocess, sys, time
work, catalogc, buf, runs, counts = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
commands = {
    "catalogc lint": [catalogc, "lint", "base/catalogs"],
    "buf lint": [buf, "lint", "base/proto"],
    "catalogc breaking": [catalogc, "breaking", "--against", "base/catalogs", "changed/catalogs"],
    "buf breaking": [buf, "breaking", "changed/proto", "--against", "base/proto"],
}
def run(argv, cwd):
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start
print(f"{'tools':>6} {'catalogc lint':>14} {'buf lint':>9} {'ratio':>6} {'catalogc breaking':>18} {'buf breaking':>13} {'ratio':>6}")
shuffle = random.Random(13)
for n in counts:
    cwd = f"{work}/inputs/{n}"
    times = {name: [] for name in commands}
    for argv in commands.values():
        run(argv, cwd)
    for _ in range(runs):
        order = list(commands.items())
        shuffle.shuffle(order)
        for name, argv in order:
            times[name].append(run(argv, cwd))
    m = {name: statistics.median(t) for name, t in times.items()}
    cl, bl, cb, bb = m["catalogc lint"], m["buf lint"], m["catalogc breaking"], m["buf breaking"]
    print(f"{int(n):>6} {cl:>13.3f}s {bl:>8.3f}s {bl/cl:>5.1f}x {cb:>17.3f}s {bb:>12.3f}s {bb/cb:>5.1f}x", flush=True)
PY
