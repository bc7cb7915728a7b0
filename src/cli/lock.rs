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

/// Two catalogs whose lock files are one file (compared ignoring case, as a checkout on a
/// case-insensitive file system would store them): the second lock would overwrite the
/// first, and `lock --check` would then fail for one of them forever. Nothing is written.
fn refuse_shared_locks(loaded: &project::Loaded, paths: &[PathBuf]) -> Result<(), CliError> {
    let mut seen: crate::FastMap<String, usize> = crate::FastMap::default();
    for (i, path) in paths.iter().enumerate() {
        let key = path.to_string_lossy().to_lowercase();
        if let Some(&first) = seen.get(&key) {
            let cats = &loaded.project.catalogs;
            let file = |i: usize| loaded.sources.get(cats[i].file).path.display().to_string();
            return Err(CliError(format!(
                "catalogs `{}` ({}) and `{}` ({}) would both write {}: rename one catalog or move its file to another folder",
                cats[first].name.value,
                file(first),
                cats[i].name.value,
                file(i),
                path.display()
            )));
        }
        seen.insert(key, i);
    }
    Ok(())
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
    let paths: Vec<PathBuf> = (loaded.project.catalogs.iter())
        .map(|cat| lock::lock_path(cat, &loaded.sources.get(cat.file).path))
        .collect();
    refuse_shared_locks(&loaded, &paths)?;
    let mut out = String::new();
    let mut failing = false;
    let catalogs = loaded.project.catalogs.iter().zip(&artifacts.catalogs);
    for ((cat, contracts), path) in catalogs.zip(paths) {
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
