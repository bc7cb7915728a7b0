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
//! For tests only, `BILLING_SERVER_FAULTS=1` injects faults the runtime must contain:
//! `invoice_get` of `INV-500` panics, and of `INV-504` never finishes by itself (the tool's
//! `timeout-ms` of 3000 cancels it). Operator logs go to stderr.

use catalogc::rmcp::Transport;
use catalogc_consumer::mcp::{TENANTS, server_over};
use catalogc_consumer::memory::Memory;
use std::net::SocketAddr;
use std::process::ExitCode;

const USAGE: &str = "usage: billing_server [--http 127.0.0.1:PORT] [--tenant acme|other]";

fn main() -> ExitCode {
    let (transport, tenant) = match parse(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("billing_server: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
    let memory = Memory {
        faults: std::env::var("BILLING_SERVER_FAULTS").is_ok_and(|v| v == "1"),
        ..Memory::sample()
    };
    let ttl = match std::env::var("BILLING_SERVER_APPROVAL_TTL_MS") {
        Err(_) => None,
        Ok(ms) => match ms.parse::<u64>() {
            Ok(ms) => Some(std::time::Duration::from_millis(ms)),
            Err(_) => {
                eprintln!("billing_server: BILLING_SERVER_APPROVAL_TTL_MS={ms:?} is not a number");
                return ExitCode::from(2);
            }
        },
    };
    let served = server_over(memory, &tenant)
        .map(|s| match ttl {
            Some(ttl) => s.with_approval_ttl(ttl),
            None => s,
        })
        .map_err(|e| e.to_string())
        .and_then(|s| s.run(transport).map_err(|e| e.to_string()));
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("billing_server: {e}");
            ExitCode::FAILURE
        }
    }
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<(Transport, String), String> {
    let mut transport = Transport::Stdio;
    let mut tenant = TENANTS[0].to_string();
    while let Some(arg) = args.next() {
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--http" => {
                let addr: SocketAddr = value.parse().map_err(|e| format!("--http {value}: {e}"))?;
                transport = Transport::Http(addr);
            }
            "--tenant" if TENANTS.contains(&value.as_str()) => tenant = value,
            "--tenant" => return Err(format!("unknown tenant {value:?}")),
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    Ok((transport, tenant))
}
