//! `catalogc rules`: every lint rule with its ID, default level and one-line summary.

use super::{CliError, Status};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

pub fn run(args: &RulesArgs) -> Result<Status, CliError> {
    let text = match args.format {
        Format::Human => crate::lint::docs::rules_table(),
        Format::Json => crate::diag::emit::pretty_json(&crate::lint::docs::rules_json()),
    };
    super::print(&text)?;
    Ok(Status::Ok)
}
