//! `catalogc lsp`: the language server ([`crate::lsp`]) on stdin/stdout.

use super::{CliError, Status};

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc lsp`.
pub struct LspArgs {
    /// Accepted for clients that pass it; stdio is the only transport.
    #[arg(long)]
    pub stdio: bool,
}

/// Runs the server until the client sends `exit`.
pub fn run(_args: &LspArgs) -> Result<Status, CliError> {
    crate::lsp::run_stdio().map_err(|e| CliError(format!("language server: {e}")))?;
    Ok(Status::Ok)
}
