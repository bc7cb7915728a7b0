//! `catalogc serve --mock [PATH…] [--http ADDR] [--fail TOOL=CODE]… [--delay TOOL=MS]…`: the
//! catalogs as a mock MCP server (docs/cli.md), for client developers and tool-choice
//! evaluations before the server exists. Operator logs (refused approvals, withheld
//! outputs, timeouts) go to stderr; `--trace FILE` appends one JSON line per call.

use super::{CliError, Global, Status};
use crate::mock::Mock;
use crate::rmcp::{CacheScope, HttpConfig, Server, Telemetry};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc serve`.
pub struct ServeArgs {
    /// Serve a mock: checked arguments, minimal valid outputs, no code needed (required:
    /// serving generated code is `catalogc::rmcp::Server` in the server's own crate).
    #[arg(long)]
    pub mock: bool,
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    /// Serve Streamable HTTP on this address (e.g. 127.0.0.1:8080) instead of stdio.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<SocketAddr>,
    /// Answer every call of TOOL with its declared error CODE (after the argument check).
    /// Repeatable, one per tool.
    #[arg(long, value_name = "TOOL=CODE", value_parser = tool_code)]
    pub fail: Vec<(String, String)>,
    /// Make every call of TOOL take MS milliseconds (before its answer), so a client can
    /// meet the tool's `timeout-ms`. Repeatable, one per tool.
    #[arg(long, value_name = "TOOL=MS", value_parser = tool_ms)]
    pub delay: Vec<(String, u64)>,
    /// How long a user has to answer an input request (approval), in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 300_000)]
    pub approval_ttl_ms: u64,
    /// How long clients may cache `tools/list`, in milliseconds (`ttlMs`).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub ttl_ms: u64,
    /// Mark `tools/list` cacheable by the requesting user only (`cacheScope: private`).
    #[arg(long)]
    pub private_cache: bool,
    /// Over HTTP: how many sessions may be open at once (a new one past it closes the one
    /// idle the longest).
    #[arg(long, value_name = "N", default_value_t = HttpConfig::default().max_sessions)]
    pub max_sessions: usize,
    /// Over HTTP: close a session after this many seconds without a message.
    #[arg(long, value_name = "SECONDS", default_value_t = HttpConfig::default().session_idle.as_secs())]
    pub session_idle: u64,
    /// Project file (`guard`, `profile`); default `catalogc.kdl` when present. Its `guard`
    /// caps every session of the mock.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Serve under `profile "NAME"` of the project file: refuse to start when the catalogs
    /// break it (`forbid-mock` included), never list or call its disabled tools.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Append one JSON line per `tools/call` to FILE (docs/runtime.md, "Traces"; read by
    /// `catalogc report`). Default: `CATALOGC_TRACE_FILE`, else none.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

fn tool_code(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((tool, code)) if !tool.is_empty() && !code.is_empty() => {
            Ok((tool.to_string(), code.to_string()))
        }
        _ => Err(format!("expected TOOL=CODE, found {s:?}")),
    }
}

fn tool_ms(s: &str) -> Result<(String, u64), String> {
    let (tool, ms) = tool_code(s).map_err(|_| format!("expected TOOL=MS, found {s:?}"))?;
    let ms = ms
        .parse()
        .map_err(|_| format!("expected TOOL=MS with MS a whole number, found {s:?}"))?;
    Ok((tool, ms))
}

/// Runs `catalogc serve`: until stdin closes (stdio) or the process is stopped (HTTP).
pub fn run(args: &ServeArgs, global: &Global) -> Result<Status, CliError> {
    if !args.mock {
        return Err(CliError(
            "serve needs --mock: a generated catalog is served by catalogc::rmcp::Server in its own crate"
                .into(),
        ));
    }
    let mut loaded = super::load_valid(&args.paths, global)?;
    let config = super::project_config(&mut loaded.sources, args.config.as_deref(), global)?;
    let artifacts = super::artifacts(&loaded.project, &super::templates(&config)?)?;
    let profile = match &args.profile {
        Some(name) => Some(super::profile::find(&config, name)?),
        None => None,
    };
    if let Some(p) = profile {
        let refused = super::profile::diagnostics(
            p,
            &loaded.project,
            &artifacts,
            config.guard.is_some(),
            true,
        );
        if !refused.is_empty() {
            let summary = crate::diag::emit::Summary::new(&refused, loaded.tool_count(), 0);
            let text = crate::diag::emit::human::render(&refused, &loaded.sources, &summary, false);
            eprint!("{text}");
            return Err(CliError(format!(
                "the catalogs break profile `{}`: not serving",
                p.name.0
            )));
        }
    }
    let mock = Mock::new(&loaded.project, &artifacts, &args.fail, &args.delay)?;
    let scope = if args.private_cache {
        CacheScope::Private
    } else {
        CacheScope::Public
    };
    let server = Server::new(mock, |r| Ok(r.answers.clone()))?
        .with_ttl_ms(args.ttl_ms)
        .with_cache_scope(scope)
        .with_approval_ttl(Duration::from_millis(args.approval_ttl_ms));
    let server = match config.guard {
        Some(guard) => server.with_guard(guard),
        None => server,
    };
    let server = match profile {
        Some(p) => p
            .with_profile(|p| server.with_profile(p))
            .map_err(|e| CliError(e.to_string()))?,
        None => server,
    };
    // The operator's log: stderr, never stdout (the stdio transport); the call traces to
    // their file and, when built with `otlp` and OTEL_EXPORTER_OTLP_ENDPOINT is set, to
    // the collector.
    let mut telemetry = Telemetry::from_env("catalogc-serve-mock");
    if args.trace.is_some() {
        telemetry.trace_file.clone_from(&args.trace);
    }
    let _telemetry = telemetry
        .install()
        .map_err(|e| CliError(format!("telemetry: {e}")))?;
    let Some(addr) = args.http else {
        server.run(crate::rmcp::Transport::Stdio)?;
        return Ok(Status::Ok);
    };
    let config = HttpConfig {
        max_sessions: args.max_sessions,
        session_idle: Duration::from_secs(args.session_idle),
    };
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(crate::rmcp::listen(server, addr, config))?;
    Ok(Status::Ok)
}
