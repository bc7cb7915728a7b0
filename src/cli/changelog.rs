//! `catalogc changelog --against REF [PATH…]`: every change since REF, grouped per catalog
//! and tool, in Markdown, JSON or HTML (docs/breaking.md).

use super::breaking::{CategoryArg, Compared, compare};
use super::{CliError, Global, Status};
use crate::compat::changelog;
use crate::diag::emit;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// Output format of `catalogc changelog`.
pub enum Format {
    /// Markdown, ready for a pull-request comment or a GitHub run summary.
    Markdown,
    /// One JSON document.
    Json,
    /// A standalone HTML page.
    Html,
}

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc changelog`.
pub struct ChangelogArgs {
    /// The old side, as for `breaking`: a git revision, or a catalog folder or file.
    #[arg(long, value_name = "REF")]
    pub against: String,
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    /// How the changelog is printed.
    pub format: Format,
    #[arg(long, value_enum, default_value_t = CategoryArg::Wire)]
    /// The category each change's class is given in, as for `breaking`.
    pub category: CategoryArg,
}

/// Runs `catalogc changelog`: exit 0 whatever changed (it reports; `breaking` checks); an
/// error when a side cannot be loaded.
pub fn run(args: &ChangelogArgs, global: &Global) -> Result<Status, CliError> {
    let Compared { report, .. } = compare(&args.against, &args.paths, args.category, global)?;
    super::output(|out| match args.format {
        Format::Markdown => out.write_all(changelog::markdown(&report).as_bytes()),
        Format::Json => emit::write_json(out, &changelog::json(&report)),
        Format::Html => out.write_all(changelog::html(&report).as_bytes()),
    })?;
    Ok(Status::Ok)
}
