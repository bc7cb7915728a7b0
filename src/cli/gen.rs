//! `catalogc gen [PATH…] [--out generated/] [--check]`: write each catalog's `NAME.rs`,
//! `NAME.tools.json` and Markdown docs `NAME.md`; `--check` writes nothing and fails naming
//! each stale file.

use super::{CliError, Global, Status};
use crate::build::{BuildError, Inputs, generate_project, write_if_changed};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc gen`.
pub struct GenArgs {
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    /// Where to write the generated files.
    #[arg(long, value_name = "DIR", default_value = "generated")]
    pub out: PathBuf,
    /// Write nothing; exit 1 naming each generated file that is missing or would change.
    #[arg(long)]
    pub check: bool,
    /// Project file (lint levels, thresholds); default `catalogc.kdl` when present.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Folder of `*.j2` templates overriding the built-ins.
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
}

/// Runs `catalogc gen`: generates every catalog's files and writes those that changed, or
/// with `--check` names each missing or stale file ([`Status::Findings`]).
pub fn run(args: &GenArgs, global: &Global) -> Result<Status, CliError> {
    let inputs = Inputs {
        paths: args.paths.clone(),
        config: args.config.clone(),
        templates: args.templates.clone(),
        load: global.load.clone(),
        options: crate::codegen::Options::default(),
        docs: true,
    };
    let generated = match generate_project(&inputs) {
        Ok(g) => g,
        Err(BuildError::Lint(text)) => {
            // Nothing is generated from a catalog with lint errors; show them as `lint` does.
            super::print(&text)?;
            return Ok(Status::Findings);
        }
        Err(BuildError::Io(msg)) => return Err(CliError(msg)),
    };
    let mut out = String::new();
    let mut stale = false;
    for file in &generated.files {
        let path = args.out.join(&file.name);
        if args.check {
            let current = std::fs::read(&path).ok();
            let why = match current {
                None => "missing",
                Some(c) if c != file.contents.as_bytes() => "stale",
                Some(_) => "up to date",
            };
            stale |= why != "up to date";
            let _ = writeln!(out, "{why}: {}", path.display());
            continue;
        }
        let wrote = write_if_changed(&path, file.contents.as_bytes())
            .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
        let what = if wrote { "wrote" } else { "unchanged" };
        let _ = writeln!(out, "{what} {}", path.display());
    }
    if stale {
        let _ = writeln!(out, "run `catalogc gen` to update the generated files");
    }
    super::print(&out)?;
    Ok(if stale { Status::Findings } else { Status::Ok })
}
