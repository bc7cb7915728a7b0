//! `catalogc drift --server CMD [ARGS…] | --url URL [PATH…]`: connect to a running MCP server
//! as a client, fetch its `tools/list` (every page) and compare it with the catalogs
//! ([`crate::drift`]). Exit 1 on any drift.

use super::{CliError, Global, Status};
use crate::diag::emit::{self, Summary};
use crate::project;
use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// Output format of `catalogc drift`.
pub enum Format {
    /// Text for a terminal, colored when allowed.
    Human,
    /// One JSON document: every drift with its rule, level, tool and path.
    Json,
    /// GitHub Actions workflow commands (`::error file=…`), one per drift.
    Github,
}

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc drift`.
pub struct DriftArgs {
    /// Start the server and speak MCP over its stdin/stdout: the command, then its arguments
    /// (end them with `--` to give PATHs after them).
    #[arg(
        long,
        value_name = "CMD",
        num_args = 1..,
        allow_hyphen_values = true,
        value_terminator = "--",
        required_unless_present = "url",
        conflicts_with = "url"
    )]
    pub server: Vec<String>,
    /// The server's Streamable HTTP endpoint (`http://127.0.0.1:8080/mcp`).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    /// How the report is printed.
    pub format: Format,
    /// Give up when the server has not answered `tools/list` after this many seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub timeout: u64,
}

/// Where the server is.
enum Endpoint<'a> {
    Stdio(&'a str, &'a [String]),
    Http(&'a str),
}

/// Runs `catalogc drift`. [`Status::Findings`] on any drift; an error when the catalogs do not
/// load cleanly or the server cannot be reached.
pub fn run(args: &DriftArgs, global: &Global) -> Result<Status, CliError> {
    let mut loaded = project::load(&args.paths, &global.load)?;
    super::breaking::require_clean(&loaded, "catalog")?;
    let templates = super::project_templates(&mut loaded.sources, global)?;
    let artifacts = super::artifacts(&loaded.project, &templates)?;
    let endpoint = match (&args.url, args.server.split_first()) {
        (Some(url), _) => Endpoint::Http(url),
        (None, Some((cmd, rest))) => Endpoint::Stdio(cmd, rest),
        (None, None) => return Err(CliError("give --server CMD or --url URL".into())),
    };
    let served = list_tools(&endpoint, Duration::from_secs(args.timeout))?;
    let diags = crate::drift::compare(&loaded.project, &artifacts, &served);
    let summary = Summary::new(&diags, loaded.tool_count(), loaded.project.catalogs.len());
    let sources = &loaded.sources;
    super::output(|out| match args.format {
        Format::Human => emit::human::write(out, &diags, sources, &summary, global.color),
        Format::Json => emit::json::write(out, emit::each_record(&diags, sources), &summary),
        Format::Github => emit::github::write(out, emit::each_record(&diags, sources), true),
    })?;
    Ok(if diags.is_empty() {
        Status::Ok
    } else {
        Status::Findings
    })
}

/// The server's `tools/list`, every page, each tool as the JSON it sent.
fn list_tools(endpoint: &Endpoint<'_>, timeout: Duration) -> Result<Vec<Value>, CliError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError(format!("cannot start the MCP client: {e}")))?;
    let what = match endpoint {
        Endpoint::Stdio(cmd, _) => format!("server `{cmd}`"),
        Endpoint::Http(url) => format!("server at {url}"),
    };
    rt.block_on(async {
        match tokio::time::timeout(timeout, fetch(endpoint)).await {
            Ok(r) => r.map_err(|e| CliError(format!("{what}: {e}"))),
            Err(_) => Err(CliError(format!(
                "{what}: no tools/list answer within {} s",
                timeout.as_secs()
            ))),
        }
    })
}

async fn fetch(endpoint: &Endpoint<'_>) -> Result<Vec<Value>, String> {
    // The child of `--server`, killed when this function returns (`kill_on_drop`) however it
    // returns: MCP over stdio is newline-delimited JSON on its stdin and stdout, which the
    // SDK reads from any async reader/writer pair.
    let mut child = None;
    let client = match endpoint {
        Endpoint::Stdio(cmd, args) => {
            let mut spawned = tokio::process::Command::new(cmd)
                .args(*args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                // The server's log goes where ours goes; an unread pipe could block it.
                .stderr(Stdio::inherit())
                .kill_on_drop(true)
                .spawn()
                .map_err(|e| format!("cannot start: {e}"))?;
            let (Some(stdout), Some(stdin)) = (spawned.stdout.take(), spawned.stdin.take()) else {
                return Err("cannot start: no pipe to the server".to_owned());
            };
            child = Some(spawned);
            ().serve((stdout, stdin)).await.map_err(|e| e.to_string())?
        }
        Endpoint::Http(url) => {
            ().serve(StreamableHttpClientTransport::from_uri(*url))
                .await
                .map_err(|e| e.to_string())?
        }
    };
    let tools = client.list_all_tools().await.map_err(|e| e.to_string());
    // Closing is best effort: the list is what was asked for.
    let _ = client.cancel().await;
    drop(child);
    tools?
        .iter()
        .map(|t| serde_json::to_value(t).map_err(|e| e.to_string()))
        .collect()
}
