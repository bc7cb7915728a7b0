#!/usr/bin/env bash
# The build.rs route's second build: run by .ci/run right after `cargo test --workspace`, it
# builds the workspace's tests again with nothing changed and checks that cargo does not run
# the consumer's build script (so no generation runs) and that no generated file in its
# OUT_DIR is rewritten (mtimes). `cargo test --workspace --no-run` has the first build's
# features, so nothing recompiles and the check costs a few seconds.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${CARGO_TARGET_DIR:-target}
generated() {
    find "$target"/debug/build/catalogc-consumer-*/out -name '*.rs' -printf '%p %T@\n' | sort
}
before=$(generated)
if [ -z "$before" ]; then
    echo "no generated files under $target/debug/build/catalogc-consumer-*/out: run cargo test --workspace first" >&2
    exit 1
fi
log=$(cargo test --workspace --no-run -v 2>&1)
if grep -E 'Running `[^`]*catalogc-consumer-[0-9a-f]+/build-script-build' <<<"$log"; then
    echo "the second build ran the consumer's build script again" >&2
    exit 1
fi
if ! grep -q 'Fresh catalogc-consumer' <<<"$log"; then
    echo "the second build did not find the consumer fresh:" >&2
    echo "$log" >&2
    exit 1
fi
after=$(generated)
if [ "$before" != "$after" ]; then
    echo "the second build rewrote generated files:" >&2
    diff <(echo "$before") <(echo "$after") >&2 || true
    exit 1
fi
echo "second build: build script not rerun, $(wc -l <<<"$after") generated files untouched"
