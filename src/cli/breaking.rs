//! `catalogc breaking --against REF [PATH…]`: compare the catalogs with those of a git
//! revision, a folder or a file, and check the declared versions (docs/compatibility.md).

use super::{CliError, Global, Status};
use crate::FastMap;
use crate::compat::report::{self, Sources};
use crate::compat::{self, Comparable, Policy};
use crate::contract::TemplateError;
use crate::diag::{Level, emit};
use crate::git::Repo;
use crate::model::{Catalog, Tool};
use crate::project::{self, DEFAULT_CATALOG_DIR, Loaded, PROJECT_FILE};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// Output format of `catalogc breaking`.
pub enum Format {
    /// Text for a terminal, colored when allowed.
    Human,
    /// One JSON document: every catalog, tool, change and verdict.
    Json,
    /// SARIF 2.1.0, for code-scanning uploads.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…`), one per problem.
    Github,
    /// A Markdown summary, e.g. for a pull-request comment.
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// `--policy`: a stricter rule than "the version is high enough".
pub enum PolicyArg {
    /// Any major change fails, whatever the versions say.
    NoMajor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
/// `--category`: which compatibility is checked (docs/compatibility.md).
pub enum CategoryArg {
    /// What MCP clients and models see: the wire verdict of each change kind.
    #[default]
    Wire,
    /// What breaks Rust generated from the catalog as well: the source verdict.
    Source,
}

impl From<CategoryArg> for compat::Category {
    fn from(c: CategoryArg) -> Self {
        match c {
            CategoryArg::Wire => compat::Category::Wire,
            CategoryArg::Source => compat::Category::Source,
        }
    }
}

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc breaking`.
pub struct BreakingArgs {
    /// The old side: a git revision (`main`, `origin/main`, `HEAD~1`, a commit), or a catalog
    /// folder or file. A name that is both is refused: write `REV^{commit}` for the revision
    /// or `./PATH` for the path.
    #[arg(long, value_name = "REF")]
    pub against: String,
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    /// How the report is printed.
    pub format: Format,
    #[arg(long, value_enum)]
    /// A stricter check than "every declared version is high enough".
    pub policy: Option<PolicyArg>,
    #[arg(long, value_enum, default_value_t = CategoryArg::Wire)]
    /// Which compatibility is checked: `wire` (MCP clients and models) or `source` (Rust
    /// generated from the catalog as well).
    pub category: CategoryArg,
}

/// A side whose catalogs do not parse or lower cannot be compared: the first error, one line.
pub(super) fn require_clean(loaded: &Loaded, side: &str) -> Result<(), CliError> {
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.level == Level::Error)
        .collect();
    let Some(d) = errors.first() else {
        return Ok(());
    };
    let f = loaded.sources.get(d.file);
    let (line, col) = f.line_col(d.span.start);
    Err(CliError(format!(
        "{side} side: {}:{line}:{col}: {} [{}] ({} error(s); run `catalogc lint`)",
        f.path.display(),
        d.message,
        d.rule,
        errors.len()
    )))
}

/// What `--against` names: a revision, or a catalog folder or file.
#[derive(Debug, PartialEq)]
enum Against<'a> {
    Revision(&'a str),
    Path(&'a Path),
}

/// Reads `--against`. A value that exists as a path and also resolves as a revision is
/// refused as ambiguous: a folder named like the base commit would otherwise stand in for it
/// (a pull request that adds one compares its catalogs with themselves). `REV^{commit}`
/// always names a revision and `./PATH`, `../PATH` or an absolute path always a path.
fn against<'a>(value: &'a str, repo: Option<&Repo>) -> Result<Against<'a>, CliError> {
    let path = Path::new(value);
    if value.ends_with("^{commit}") {
        return Ok(Against::Revision(value));
    }
    let explicit_path = path.is_absolute()
        || matches!(
            path.components().next(),
            Some(std::path::Component::CurDir | std::path::Component::ParentDir)
        );
    if explicit_path || !path.exists() {
        return Ok(if explicit_path {
            Against::Path(path)
        } else {
            Against::Revision(value)
        });
    }
    match repo {
        Some(repo) if repo.resolve(value).is_ok() => Err(CliError(format!(
            "--against `{value}` names both a git revision and a file or folder; write `{value}^{{commit}}` for the revision or `./{value}` for the path"
        ))),
        _ => Ok(Against::Path(path)),
    }
}

fn load_old(against_arg: &str, paths: &[PathBuf], global: &Global) -> Result<Loaded, CliError> {
    let repo = Repo::open(".");
    let against = match against(against_arg, repo.as_ref().ok())? {
        Against::Path(p) => return Ok(project::load(&[p.to_path_buf()], &global.load)?),
        Against::Revision(rev) => rev,
    };
    let repo = repo?;
    let default = [PathBuf::from(DEFAULT_CATALOG_DIR)];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    let files = repo.catalog_files(against, paths, PROJECT_FILE)?;
    for (path, text) in &files {
        if text.len() as u64 > global.load.max_file_bytes {
            return Err(CliError(format!(
                "{against}:{}: {} bytes is over the {}-byte limit for one catalog file",
                path.display(),
                text.len(),
                global.load.max_file_bytes
            )));
        }
    }
    // Old files are shown as `REV:path`, so both sides' locations read unambiguously.
    let shown = against.strip_suffix("^{commit}").unwrap_or(against);
    Ok(project::load_sources(files.into_iter().map(|(p, t)| {
        (PathBuf::from(format!("{shown}:{}", p.display())), t)
    })))
}

/// Both sides of a comparison and the report: what `breaking` and `changelog` print.
pub(super) struct Compared {
    /// The old side (`--against`).
    pub old: Loaded,
    /// The new side (the paths).
    pub new: Loaded,
    /// Every change, counted as `catalogc.kdl` and `category` decide.
    pub report: compat::Report,
}

/// The change kinds `override` blocks turn off, per file of each side. An old file read at a
/// revision is shown as `REV:path`; its path is matched without the `REV:`.
fn turned_off(
    overrides: &[crate::config::overrides::Override],
    old: &Loaded,
    new: &Loaded,
) -> std::collections::HashSet<(bool, usize, compat::Kind)> {
    let mut off = std::collections::HashSet::new();
    if overrides.is_empty() {
        return off;
    }
    for (is_old, side) in [(true, old), (false, new)] {
        for (i, file) in side.sources.files.iter().enumerate() {
            let shown = file.path.to_string_lossy();
            let path = match shown.split_once(':') {
                Some((_, rest)) if is_old && !rest.starts_with(['/', '\\']) => Path::new(rest),
                _ => file.path.as_path(),
            };
            for &kind in compat::Kind::ALL {
                let level = crate::config::overrides::level_for(overrides, path, kind.id());
                if level == Some(None) {
                    off.insert((is_old, i, kind));
                }
            }
        }
    }
    off
}

/// Loads both sides, checks that they are clean and compares them.
pub(super) fn compare(
    against_arg: &str,
    paths: &[PathBuf],
    category: CategoryArg,
    global: &Global,
) -> Result<Compared, CliError> {
    // The two sides are independent: each loads on its own thread.
    let (old, new) = rayon::join(
        || load_old(against_arg, paths, global),
        || Ok::<_, CliError>(project::load(paths, &global.load)?),
    );
    let mut new = new?;
    let old = old?;
    require_clean(&new, "new")?;
    require_clean(&old, "old")?;
    // Both sides render with this run's templates: the comparison is of the catalogs, and
    // a template changed since REF is not a change of any tool's contract.
    let config = super::project_config(&mut new.sources, None, global)?;
    let templates = super::templates(&config)?;
    let settings = compat::Settings {
        category: category.into(),
        accepts: config.accepts,
        today: Some(super::today::today()?),
        off: turned_off(&config.overrides, &old, &new),
    };
    // A tool's comparable contract is written when the comparison asks for it, for the two
    // sides of one tool at a time, and dropped once compared: the contracts of every tool are
    // never held at once, and a tool whose changes already decide its status is not written.
    let tools: Vec<(&Catalog, &Tool)> = (old.project.catalogs.iter())
        .chain(&new.project.catalogs)
        .flat_map(|c| c.tools.iter().map(move |t| (c, t)))
        .collect();
    // Each tool's place in that order, by address: the comparison hands back these tools.
    let place: FastMap<usize, usize> = (tools.iter().enumerate())
        .map(|(i, (_, t))| (std::ptr::from_ref(*t).addr(), i))
        .collect();
    let written: Vec<AtomicBool> = tools.iter().map(|_| AtomicBool::new(false)).collect();
    let failed: Mutex<Vec<(usize, TemplateError)>> = Mutex::new(Vec::new());
    let report = compat::compare_with(
        &old.project.catalogs,
        &new.project.catalogs,
        |c, t| {
            let i = place.get(&std::ptr::from_ref(t).addr()).copied();
            if let Some(i) = i {
                written[i].store(true, Ordering::Relaxed);
            }
            Comparable::of(c, t, &templates)
                .map_err(|e| {
                    let mut failed = failed.lock().unwrap_or_else(PoisonError::into_inner);
                    failed.push((i.unwrap_or(usize::MAX), e));
                })
                .ok()
        },
        &settings,
    );
    let mut failed = failed.into_inner().unwrap_or_else(PoisonError::into_inner);
    failed.sort_by_key(|(i, _)| *i);
    first_failure(&tools, &written, failed, &templates)?;
    drop(tools);
    Ok(Compared { old, new, report })
}

/// The first template failure in tool order (old side, then new), whatever the number of
/// threads: `failed` holds those of the tools the comparison wrote, sorted by place; the
/// tools before the first of them that it did not write are written here to find out.
fn first_failure(
    tools: &[(&Catalog, &Tool)],
    written: &[AtomicBool],
    failed: Vec<(usize, TemplateError)>,
    templates: &crate::contract::Templates,
) -> Result<(), TemplateError> {
    use rayon::prelude::*;
    let first = failed.first().map_or(tools.len(), |(i, _)| *i);
    let unwritten: Vec<Option<TemplateError>> = (tools.par_iter().zip(written))
        .take(first)
        .map(|((c, t), w)| {
            if w.load(Ordering::Relaxed) {
                return None;
            }
            Comparable::of(c, t, templates).err()
        })
        .collect();
    match unwritten.into_iter().flatten().next() {
        Some(e) => Err(e),
        None => failed.into_iter().next().map_or(Ok(()), |(_, e)| Err(e)),
    }
}

/// Runs `catalogc breaking`: loads both sides, compares them and prints the report.
///
/// [`Status::Findings`] when a version is too low (or the policy is broken); an error when
/// a side cannot be loaded (unknown revision, unreadable file, catalog that does not parse).
pub fn run(args: &BreakingArgs, global: &Global) -> Result<Status, CliError> {
    let policy = match args.policy {
        Some(PolicyArg::NoMajor) => Policy::NoMajor,
        None => Policy::Semver,
    };
    let Compared {
        old,
        new,
        report: result,
    } = compare(&args.against, &args.paths, args.category, global)?;
    let sources = Sources {
        old: &old.sources,
        new: &new.sources,
    };
    super::output(|out| match args.format {
        Format::Human => report::write_human(out, &result, sources, policy),
        Format::Json => report::write_json(out, &result, sources),
        Format::Sarif => emit::write_json(out, &report::to_sarif(&result, sources, policy)),
        Format::Github => report::write_github(out, &result, sources, policy),
        Format::Markdown => report::write_markdown(out, &result, sources, policy),
    })?;
    let status = if result.exit_code(policy) == 0 {
        Status::Ok
    } else {
        Status::Findings
    };
    Ok(status)
}
