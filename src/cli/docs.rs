//! `catalogc docs [PATH…] [--out DIR]`: each catalog's Markdown documentation, `NAME.md`,
//! written into DIR (default `generated/`) only when it changed, or printed with `--out -`.

use super::{CliError, Global, Status};
use crate::docs;
use crate::fsutil;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `catalogc docs`.
#[derive(Debug, clap::Args)]
pub struct DocsArgs {
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    /// The folder to write `NAME.md` into (created when missing); `-` prints every
    /// catalog's docs to stdout instead, catalogs by name.
    #[arg(long, value_name = "DIR", default_value = "generated")]
    pub out: PathBuf,
}

/// Renders every catalog's docs, then writes them all (or prints them): a template error
/// stops the run before any file is written.
pub fn run(args: &DocsArgs, global: &Global) -> Result<Status, CliError> {
    let mut loaded = super::load_valid(&args.paths, global)?;
    let templates = super::project_templates(&mut loaded.sources, global)?;
    let project = &loaded.project;
    let artifacts = super::artifacts(project, &templates)?;
    let rendered = docs::render_project(project, &artifacts, &templates)?;
    if args.out.as_os_str() == "-" {
        let all: Vec<&str> = rendered.iter().map(|(_, text)| text.as_str()).collect();
        super::print(&all.join("\n"))?;
        return Ok(Status::Ok);
    }
    std::fs::create_dir_all(&args.out).map_err(|e| {
        CliError(format!(
            "{}: cannot create the folder: {e}",
            args.out.display()
        ))
    })?;
    let mut report = String::new();
    for (file, text) in &rendered {
        let path = args.out.join(file);
        let outcome = fsutil::write_atomic(&path, text.as_bytes())
            .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
        let verb = if outcome.wrote() {
            "wrote"
        } else {
            "unchanged"
        };
        let _ = writeln!(report, "{verb} {}", path.display());
    }
    super::print(&report)?;
    Ok(Status::Ok)
}
