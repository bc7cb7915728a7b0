//! The billing catalog served over MCP: the generated `Billing` trait implemented over
//! in-memory data (`tests/consumer`: tenants `acme` and `other`), through
//! `catalogc::rmcp::Server`.
//!
//! ```sh
//! cargo run --example billing_server                          # stdio
//! cargo run --example billing_server -- --http 127.0.0.1:8080 # Streamable HTTP at /mcp
//! ```
//!
//! The tenant is never a tool argument: over HTTP it comes from `Authorization: Bearer
//! TENANT` (`acme` or `other`), else from `--tenant` (default `acme`). `invoice_get` with an
//! unknown number fails with the declared `INVOICE_NOT_FOUND`; `invoice_send_reminder` asks
//! the user to approve the exact call (`needs-input "approval"`) before it sends; the
//! approval is bound to the tenant and expires after `BILLING_SERVER_APPROVAL_TTL_MS`
//! milliseconds (default: the runtime's 5 minutes).
//!
//! `invoice_list` reports its progress (`notifications/progress`, one per invoice read) when
//! the client sends a `progressToken`.
//!
//! For tests only, `BILLING_SERVER_FAULTS=1` injects faults the runtime must contain:
//! `invoice_get` of `INV-500` panics, and of `INV-504` waits for its cancellation: the
//! client's `notifications/cancelled` ends it with the declared `BILLING_UNAVAILABLE`, else
//! the tool's `timeout-ms` of 3000 with `TOOL_TIMEOUT`. Operator logs go to stderr. `CATALOGC_TRACE_FILE=PATH`
//! appends one JSON trace line per call to PATH; built with `--features otlp`,
//! `OTEL_EXPORTER_OTLP_ENDPOINT=http://HOST:PORT` exports the call spans over OTLP/HTTP.
//!
//! `--profile NAME` (or `BILLING_SERVER_PROFILE=NAME`) serves under a profile of
//! the repository's `catalogc.kdl` (`production`, `read-only`): the server refuses to
//! start, naming each violation, when the catalog breaks it, and never lists or calls a tool
//! it disables. Every session is held to that file's `guard` budgets.
//!
//! `invoice_send_reminder` runs once per idempotency key: a repeated call returns the first
//! call's result. The keys are kept in `--store`: `sqlite:PATH` (the default, a file in the
//! temporary directory, kept across restarts), `postgres:CONFIG` (shared by several server
//! processes, e.g. `postgres:postgres://user@127.0.0.1:5432/db`) or `memory`. How many
//! reminders were really sent is `reminder_count` of `invoice_get`.

use catalogc::rmcp::idempotency::{MemoryStore, PostgresStore, SqliteStore};
use catalogc::rmcp::{Telemetry, Transport};
use catalogc::runtime::Catalog;
use catalogc_consumer::billing;
use catalogc_consumer::mcp::{TENANTS, server_over};
use catalogc_consumer::memory::Memory;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage: billing_server [--http 127.0.0.1:PORT] [--tenant acme|other] \
                     [--store sqlite:PATH|postgres:CONFIG|memory] [--profile NAME]";

/// Where the idempotency keys are kept.
enum Store {
    Memory,
    Sqlite(PathBuf),
    Postgres(String),
}

struct Args {
    transport: Transport,
    tenant: String,
    store: Store,
    profile: Option<String>,
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("billing_server: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // `CATALOGC_TRACE_FILE`: one JSON trace line per call; `OTEL_EXPORTER_OTLP_ENDPOINT`
    // (built with `--features otlp`): the call spans to that collector.
    let _telemetry = match Telemetry::from_env("billing_server").install() {
        Ok(guard) => guard,
        Err(e) => {
            eprintln!("billing_server: telemetry: {e}");
            return ExitCode::from(2);
        }
    };
    let memory = Memory {
        faults: std::env::var("BILLING_SERVER_FAULTS").is_ok_and(|v| v == "1"),
        ..Memory::sample()
    };
    let ttl = match std::env::var("BILLING_SERVER_APPROVAL_TTL_MS") {
        Err(_) => None,
        Ok(ms) => match ms.parse::<u64>() {
            Ok(ms) => Some(Duration::from_millis(ms)),
            Err(_) => {
                eprintln!("billing_server: BILLING_SERVER_APPROVAL_TTL_MS={ms:?} is not a number");
                return ExitCode::from(2);
            }
        },
    };
    match serve(args, memory, ttl) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("billing_server: {e}");
            ExitCode::FAILURE
        }
    }
}

fn serve(args: Args, memory: Memory, ttl: Option<Duration>) -> Result<(), String> {
    let server = server_over(memory, &args.tenant).map_err(|e| e.to_string())?;
    let server = match ttl {
        Some(ttl) => server.with_approval_ttl(ttl),
        None => server,
    };
    let server = match args.store {
        Store::Memory => server.with_idempotency_store(MemoryStore::new()),
        Store::Sqlite(path) => {
            server.with_idempotency_store(SqliteStore::open(&path).map_err(|e| e.to_string())?)
        }
        Store::Postgres(config) => {
            server.with_idempotency_store(PostgresStore::new(&config).map_err(|e| e.to_string())?)
        }
    };
    let server = match &args.profile {
        None => server,
        Some(name) => {
            let profiles = <billing::Catalog as Catalog<Memory>>::PROFILES;
            let Some(profile) = profiles.iter().find(|p| p.name == name) else {
                let known: Vec<&str> = profiles.iter().map(|p| p.name).collect();
                return Err(format!("no profile {name:?}; declared: {known:?}"));
            };
            server.with_profile(profile).map_err(|e| e.to_string())?
        }
    };
    server.run(args.transport).map_err(|e| e.to_string())
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args {
        transport: Transport::Stdio,
        tenant: TENANTS[0].to_string(),
        store: Store::Sqlite(std::env::temp_dir().join("catalogc-billing-idempotency.sqlite3")),
        profile: std::env::var("BILLING_SERVER_PROFILE").ok(),
    };
    while let Some(arg) = args.next() {
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--http" => {
                let addr: SocketAddr = value.parse().map_err(|e| format!("--http {value}: {e}"))?;
                parsed.transport = Transport::Http(addr);
            }
            "--tenant" if TENANTS.contains(&value.as_str()) => parsed.tenant = value,
            "--tenant" => return Err(format!("unknown tenant {value:?}")),
            "--store" => parsed.store = store(&value)?,
            "--profile" => parsed.profile = Some(value),
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    Ok(parsed)
}

fn store(value: &str) -> Result<Store, String> {
    if value == "memory" {
        Ok(Store::Memory)
    } else if let Some(path) = value.strip_prefix("sqlite:") {
        Ok(Store::Sqlite(PathBuf::from(path)))
    } else if let Some(config) = value.strip_prefix("postgres:") {
        Ok(Store::Postgres(config.to_string()))
    } else {
        Err(format!(
            "--store {value:?}: expected sqlite:PATH, postgres:CONFIG or memory"
        ))
    }
}
