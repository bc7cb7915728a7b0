#!/usr/bin/env bash
# Clean-build time of a small server crate with catalogc as a build dependency, next to the
# same crate built with prost-build, measured the same way in the same run: `cargo build`
# (dev profile) from an empty target directory each, with the registry already downloaded
# (`cargo fetch` first, untimed), so the figures are compile time, not download time.
#
# Both crates generate code for the billing example at build time and compile it:
#   catalogc: build.rs runs `catalogc::Builder` on catalogs/billing.kdl; catalogc is a
#             build-dependency with `default-features = false, features = ["compiler"]`
#             and a dependency with `default-features = false` (the runtime).
#   prost:    build.rs runs `prost_build::compile_protos` on an equivalent billing.proto
#             (the same tools as messages and a service); `protoc` comes from the
#             `protoc-bin-vendored` crate, so no system protobuf-compiler is needed.
#
# Slow (two cold builds of every dependency): run by hand, not part of .ci/run.
#   bash benches/clean_build.sh [WORKDIR]     # default: a new temporary folder, kept
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=benches/support/manifest.sh
source "$repo/benches/support/manifest.sh"
work=${1:-$(mktemp -d -t catalogc-clean-build.XXXXXX)}
mkdir -p "$work"
echo "work folder: $work"

# --- the catalogc crate -------------------------------------------------------------------
c="$work/with-catalogc"
mkdir -p "$c/src" "$c/catalogs"
cp "$repo/catalogs/billing.kdl" "$c/catalogs/"
catalogc_manifest "with-catalogc" "$repo" >"$c/Cargo.toml"
cat >"$c/build.rs" <<'EOF'
fn main() {
    catalogc::Builder::new().catalogs("catalogs").compile().expect("catalogs");
}
EOF
cat >"$c/src/lib.rs" <<'EOF'
pub mod billing {
    catalogc::include_catalog!("billing");
}
EOF

# --- the prost-build crate ----------------------------------------------------------------
p="$work/with-prost"
mkdir -p "$p/src" "$p/proto"
cat >"$p/Cargo.toml" <<'EOF'
[package]
name = "with-prost"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
prost = "0.14"

[build-dependencies]
prost-build = "0.14"
protoc-bin-vendored = "3"

[workspace]
EOF
cat >"$p/build.rs" <<'EOF'
fn main() {
    let protoc = protoc_bin_vendored::protoc_bin_path().expect("vendored protoc");
    // SAFETY: a build script is single-threaded here; prost-build reads PROTOC.
    unsafe { std::env::set_var("PROTOC", protoc) };
    prost_build::compile_protos(&["proto/billing.proto"], &["proto"]).expect("protos");
}
EOF
cat >"$p/src/lib.rs" <<'EOF'
pub mod billing {
    include!(concat!(env!("OUT_DIR"), "/billing.rs"));
}
EOF
# The billing catalog (catalogs/billing.kdl) as protobuf: its named type, each tool's input
# and output as messages, enums as enums, the three tools as one service (prost-build
# generates the messages; no gRPC service code, which would need tonic).
cat >"$p/proto/billing.proto" <<'EOF'
syntax = "proto3";
package billing;

enum InvoiceStatus {
  INVOICE_STATUS_DRAFT = 0;
  INVOICE_STATUS_OPEN = 1;
  INVOICE_STATUS_OVERDUE = 2;
  INVOICE_STATUS_PAID = 3;
  INVOICE_STATUS_VOID = 4;
}

enum Currency {
  CURRENCY_USD = 0;
  CURRENCY_EUR = 1;
  CURRENCY_CNY = 2;
}

message Invoice {
  string invoice_reference = 1;
  string customer_display_name = 2;
  InvoiceStatus status = 3;
  Currency currency = 4;
  int64 amount_due_minor = 5;
  string due_date = 6;
  string issued_at = 7;
}

message InvoiceListInput {
  enum Status {
    STATUS_OPEN = 0;
    STATUS_OVERDUE = 1;
  }
  Status status = 1;
  optional int64 page_size = 2;
  optional string cursor = 3;
}
message InvoiceListOutput {
  repeated Invoice items = 1;
  optional string next_cursor = 2;
}

message InvoiceGetInput { string invoice_reference = 1; }
message InvoiceGetOutput {
  Invoice invoice = 1;
  int64 reminder_count = 2;
  optional string last_reminder_at = 3;
}

message InvoiceSendReminderInput {
  string invoice_reference = 1;
  optional string note = 2;
  string idempotency_key = 3;
}
message InvoiceSendReminderOutput {
  string reminder_reference = 1;
  string sent_at = 2;
}

service Billing {
  rpc InvoiceList(InvoiceListInput) returns (InvoiceListOutput);
  rpc InvoiceGet(InvoiceGetInput) returns (InvoiceGetOutput);
  rpc InvoiceSendReminder(InvoiceSendReminderInput) returns (InvoiceSendReminderOutput);
}
EOF

# Download first (untimed), then build each from an empty target directory.
(cd "$c" && cargo fetch --quiet)
(cd "$p" && cargo fetch --quiet)
# Each crate builds into its own target folder, whatever CARGO_TARGET_DIR says. Prints wall
# seconds and the CPU seconds (user + system of cargo and every compiler it ran, from
# /usr/bin/time): on a shared machine the CPU figure is the steadier one.
build() {
    local dir=$1
    rm -rf "$dir/target"
    local start end cpu
    start=$(date +%s.%N)
    cpu=$(cd "$dir" && CARGO_TARGET_DIR="$dir/target" /usr/bin/time -f '%U + %S' \
        cargo build --quiet --offline 2>&1 >/dev/null | tail -1)
    end=$(date +%s.%N)
    printf '%.1f s wall, %.1f s CPU' "$(echo "$end - $start" | bc)" "$(echo "$cpu" | bc)"
}
load=$(cut -d' ' -f1-3 /proc/loadavg)
t_catalogc=$(build "$c")
t_prost=$(build "$p")
units() { (cd "$1" && cargo tree --edges normal,build --prefix none --offline | sort -u | wc -l); }
echo "load average before: $load; after: $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'clean build, catalogc (compiler as build-dependency): %s, %s crates\n' "$t_catalogc" "$(units "$c")"
printf 'clean build, prost-build (+ protoc-bin-vendored):      %s, %s crates\n' "$t_prost" "$(units "$p")"
