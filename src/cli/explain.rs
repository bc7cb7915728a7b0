//! `catalogc explain RULE`: the rule's documentation, with failing and passing examples.

use super::{CliError, Status};

#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// A rule ID as `catalogc rules` lists it, e.g. `naming/tool-name`.
    pub rule: String,
}

pub fn run(args: &ExplainArgs) -> Result<Status, CliError> {
    let text = crate::lint::docs::explain(&args.rule).map_err(CliError)?;
    super::print(&text);
    Ok(Status::Ok)
}
