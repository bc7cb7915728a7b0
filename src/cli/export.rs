//! `catalogc export tools-json [PATH…]`: machine-readable views of the catalogs on stdout.

use super::{CliError, Global, Status};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum What {
    /// The MCP `tools/list` payload: `{"tools":[...]}`.
    ToolsJson,
}

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    #[arg(value_enum)]
    pub what: What,
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
}

pub fn run(args: &ExportArgs, global: &Global) -> Result<Status, CliError> {
    let loaded = super::load_valid(&args.paths, global)?;
    let value = match args.what {
        What::ToolsJson => crate::schema::tools_list(&loaded.project),
    };
    super::output(|out| crate::diag::emit::write_json(out, &value))?;
    Ok(Status::Ok)
}
