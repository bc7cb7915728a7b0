//! `catalogc export tools-json|eval [PATH…]`: machine-readable views of the catalogs on stdout.

use super::{CliError, Global, Status};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// What `catalogc export` prints.
pub enum What {
    /// The MCP `tools/list` payload: `{"tools":[...]}`.
    ToolsJson,
    /// The tool-choice evaluation set as JSON Lines: one line per `call`, `no-call` and
    /// `confusable` example (docs/eval-line.schema.json).
    Eval,
}

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc export`.
pub struct ExportArgs {
    #[arg(value_enum)]
    /// The view to print.
    pub what: What,
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
}

/// Runs `catalogc export`: loads the catalogs and prints the chosen view on stdout.
pub fn run(args: &ExportArgs, global: &Global) -> Result<Status, CliError> {
    let mut loaded = super::load_valid(&args.paths, global)?;
    match args.what {
        What::ToolsJson => {
            let artifacts = super::artifacts(
                &loaded.project,
                &super::project_templates(&mut loaded.sources, global)?,
            )?;
            let value = artifacts.tools_list(&loaded.project);
            super::output(|out| crate::diag::emit::write_json(out, &value))?;
        }
        What::Eval => super::print(&crate::eval::eval_jsonl(&loaded.project))?,
    }
    Ok(Status::Ok)
}
