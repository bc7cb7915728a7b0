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
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&crate::lint::docs::rules_json())?;
            s.push('\n');
            s
        }
    };
    super::print(&text);
    Ok(Status::Ok)
}
