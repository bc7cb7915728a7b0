//! `catalogc lock [PATH…]` writes `NAME.lock` beside each catalog; `lock --check` verifies
//! the committed locks and writes nothing (see [`crate::lock`] for what fails).

use super::{CliError, Global, Status};
use crate::diag::Level;
use crate::fsutil;
use crate::lock::{self, Lock};
use crate::project;
use std::fmt::Write;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc lock`.
pub struct LockArgs {
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    /// Write nothing; exit 1 when a lock is missing or stale, above all when a hash changed
    /// without a version change.
    #[arg(long)]
    pub check: bool,
}

/// Runs `catalogc lock`: writes `NAME.lock` beside each catalog, or with `--check` reports
/// each lock file that is missing or stale ([`Status::Findings`]).
pub fn run(args: &LockArgs, global: &Global) -> Result<Status, CliError> {
    let mut loaded = project::load(&args.paths, &global.load)?;
    if let Some(d) = loaded.diagnostics.iter().find(|d| d.level == Level::Error) {
        let f = loaded.sources.get(d.file);
        let (line, col) = f.line_col(d.span.start);
        return Err(CliError(format!(
            "{}:{line}:{col}: {} [{}] (run `catalogc lint`)",
            f.path.display(),
            d.message,
            d.rule
        )));
    }
    let artifacts = super::artifacts(
        &loaded.project,
        &super::project_templates(&mut loaded.sources, global)?,
    )?;
    let mut out = String::new();
    let mut failing = false;
    for (cat, contracts) in loaded.project.catalogs.iter().zip(&artifacts.catalogs) {
        let file = &loaded.sources.get(cat.file).path;
        let path = lock::lock_path(cat, file);
        let current = Lock::of(cat, contracts);
        if !args.check {
            let outcome = fsutil::write_atomic(&path, current.render().as_bytes())
                .map_err(|e| CliError(format!("{}: cannot write: {e}", path.display())))?;
            let verb = if outcome.wrote() {
                "wrote"
            } else {
                "unchanged"
            };
            let _ = writeln!(
                out,
                "{verb} {} ({} tools)",
                path.display(),
                current.tools.len()
            );
            continue;
        }
        let text = match project::read_text(&path, &global.load) {
            Ok(t) => t,
            Err(project::LoadError::NotFound(_)) => {
                failing = true;
                let _ = writeln!(
                    out,
                    "error: {}: no lock file for catalog `{}`: run `catalogc lock`",
                    path.display(),
                    cat.name.value
                );
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let locked =
            Lock::parse(&text).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        let mismatches = lock::check(&current, &locked);
        if mismatches.is_empty() {
            let _ = writeln!(
                out,
                "ok: {} matches catalog `{}`",
                path.display(),
                cat.name.value
            );
        }
        for m in &mismatches {
            failing = true;
            let _ = writeln!(out, "error: {}: {}", path.display(), m.message());
        }
    }
    super::print(&out)?;
    Ok(if failing {
        Status::Findings
    } else {
        Status::Ok
    })
}
