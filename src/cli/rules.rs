//! `catalogc rules`: every lint rule with its ID, default level and one-line summary.

use super::{CliError, Status};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// Output format of `catalogc rules`.
pub enum Format {
    /// An aligned table: ID, default level, summary.
    Human,
    /// A JSON array of `{id, level, summary}` objects.
    Json,
}

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc rules`.
pub struct RulesArgs {
    #[arg(long, value_enum, default_value_t = Format::Human)]
    /// How the list is printed.
    pub format: Format,
}

/// Runs `catalogc rules`: lists every lint rule and version check; always [`Status::Ok`].
pub fn run(args: &RulesArgs) -> Result<Status, CliError> {
    let text = match args.format {
        Format::Human => crate::lint::docs::rules_table(),
        Format::Json => crate::diag::emit::pretty_json(&crate::lint::docs::rules_json()),
    };
    super::print(&text)?;
    Ok(Status::Ok)
}
