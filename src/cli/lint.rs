//! `catalogc lint [PATH…]`: parse, lower and check catalogs; print every finding.

use super::{CliError, Global, Status};
use crate::contract::{Contracts, Measured};
use crate::diag::emit::{self, Summary, sarif};
use crate::diag::{Diagnostic, Level, SourceMap};
use crate::lint::baseline::Baseline;
use crate::lint::docs::CoreRules;
use crate::lint::docs::LintRules;
use crate::project;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// Output format of `catalogc lint`.
pub enum Format {
    /// Text for a terminal, with source excerpts, colored when allowed.
    Human,
    /// One JSON document: every finding and a summary.
    Json,
    /// SARIF 2.1.0, for code-scanning uploads.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…`), one per finding.
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// `--deny`: finding levels that fail the run besides errors.
pub enum Deny {
    /// Warnings fail the run too.
    Warnings,
}

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc lint`.
pub struct LintArgs {
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`. Or
    /// published MCP tools/list files (`*.json`), imported in memory and linted without the
    /// rules only a catalog can satisfy.
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    /// How the findings are printed.
    pub format: Format,
    /// `--deny warnings`: exit 1 on warnings as well as errors.
    #[arg(long, value_enum)]
    pub deny: Vec<Deny>,
    /// Project file (lint levels, thresholds); default `catalogc.kdl` when present.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Report only findings whose fingerprint is not recorded in FILE.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Record the current findings in FILE (JSON) and exit 0.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline")]
    pub write_baseline: Option<PathBuf>,
    /// Also report what would not survive on these targets (`target/*` rules):
    /// `--target openai,anthropic,gemini,mcp`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "TARGET")]
    pub target: Vec<crate::contract::targets::Target>,
    /// Also check the catalogs against `profile "NAME"` of the project file (`profile/*`
    /// rules: approvals, disabled tools, a required guard).
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
}

/// `--write-baseline FILE` naming a file this run read (a catalog being linted, the project
/// file, a template) would replace it with the baseline: refused, nothing written.
fn refuse_overwriting_an_input(path: &Path, sources: &SourceMap) -> Result<(), CliError> {
    let Ok(target) = std::fs::canonicalize(path) else {
        return Ok(());
    };
    let read = sources
        .files
        .iter()
        .find(|f| std::fs::canonicalize(&f.path).is_ok_and(|p| p == target));
    match read {
        Some(f) => Err(CliError(format!(
            "--write-baseline {}: that is {}, an input of this run; write the baseline to its own file (e.g. lint-baseline.json)",
            path.display(),
            f.path.display()
        ))),
        None => Ok(()),
    }
}

/// Runs `catalogc lint`: loads and lints the catalogs and prints every finding not in the
/// baseline; [`Status::Findings`] when one is at error level (or warning with `--deny warnings`).
pub fn run(args: &LintArgs, global: &Global) -> Result<Status, CliError> {
    // The rules' text patterns compile on another thread while the catalogs load.
    let (loaded, ()) = rayon::join(|| load(&args.paths, global), crate::lint::prepare);
    let (mut loaded, lists) = loaded?;
    let published = !lists.is_empty();
    let project_config =
        super::project_config(&mut loaded.sources, args.config.as_deref(), global)?;
    let templates = super::templates(&project_config)?;
    // A profile's checks read every tool's whole definition; the rules alone read all of a
    // contract only for some tools, and of the others their description and how long their
    // definition is.
    let (artifacts, measured) = if args.profile.is_some() {
        let artifacts = super::artifacts(&loaded.project, &templates)?;
        (Some(artifacts), Measured::default())
    } else {
        let keep = |tool: &crate::model::Tool| crate::lint::reads_contract(&args.target, tool);
        (None, Measured::build(&loaded.project, &templates, keep)?)
    };
    let contracts: &dyn Contracts = match &artifacts {
        Some(artifacts) => artifacts,
        None => &measured,
    };
    let profile = match &args.profile {
        Some(name) => Some(super::profile::find(&project_config, name)?.clone()),
        None => None,
    };
    let guard_declared = project_config.guard.is_some();
    let (mut config, skipped) = if published {
        crate::lint::published::config(&project_config.lint)
    } else {
        (project_config.lint, Vec::new())
    };
    config.today = Some(super::today::today()?);
    config.targets = args.target.clone();
    config.targets.sort();
    config.targets.dedup();
    let mut diags = crate::lint::check_project(&loaded, &config, contracts);
    if let (Some(p), Some(artifacts)) = (&profile, &artifacts) {
        diags.extend(super::profile::diagnostics(
            p,
            &loaded.project,
            artifacts,
            guard_declared,
            false,
        ));
    }
    point_into_lists(&mut diags, &mut loaded.sources, lists);
    crate::config::overrides::apply(&project_config.overrides, &mut diags, &loaded.sources);
    if let Some(path) = &args.write_baseline {
        refuse_overwriting_an_input(path, &loaded.sources)?;
        let baseline = Baseline::from_diagnostics(&diags, &loaded.sources);
        crate::fsutil::write_atomic(path, baseline.to_json().as_bytes())
            .map_err(|e| CliError(format!("{}: cannot write baseline: {e}", path.display())))?;
        eprintln!(
            "recorded {} findings in {}",
            baseline.findings.len(),
            path.display()
        );
        return Ok(Status::Ok);
    }
    if let Some(path) = &args.baseline {
        let text = project::read_text(path, &global.load)?;
        let baseline =
            Baseline::from_json(&text).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        diags = baseline.filter(diags, &loaded.sources);
    }
    let mut summary = Summary::new(&diags, loaded.tool_count(), loaded.project.catalogs.len());
    summary.skipped_rules = skipped;
    let sources = &loaded.sources;
    super::output(|out| match args.format {
        Format::Human => emit::human::write(out, &diags, sources, &summary, global.color),
        Format::Json => emit::json::write(out, emit::each_record(&diags, sources), &summary),
        Format::Sarif => {
            let ids = diags.iter().map(|d| d.rule.as_ref());
            let rules = sarif::used_rules(ids, &[&LintRules, &CoreRules]);
            let records = emit::each_record(&diags, sources);
            sarif::write(out, records, &rules, sarif::Shape::DIAGNOSTICS)
        }
        Format::Github => emit::github::write(out, emit::each_record(&diags, sources), true),
    })?;
    let deny_warnings = args.deny.contains(&Deny::Warnings);
    let failing = diags
        .iter()
        .any(|d| d.level == Level::Error || (deny_warnings && d.level == Level::Warn));
    Ok(if failing {
        Status::Findings
    } else {
        Status::Ok
    })
}

/// A published tools/list linted in this run: its path and text, in source order (file `i`
/// of the loaded sources is list `i`).
type List = (PathBuf, String);

/// Loads the catalogs of `paths`, or imports the tools/list files among them (`*.json`),
/// returned beside the load (none for catalogs). Each list is loaded as a source named
/// `FILE.json.kdl`, holding the imported catalog the rules read; [`point_into_lists`] moves
/// the findings into the JSON afterwards. The two kinds are not mixed in one run: the rules
/// that run differ.
fn load(paths: &[PathBuf], global: &Global) -> Result<(project::Loaded, Vec<List>), CliError> {
    let is_json = |p: &PathBuf| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    };
    let json: Vec<&PathBuf> = paths.iter().filter(|p| is_json(p)).collect();
    if json.is_empty() {
        return Ok((project::load(paths, &global.load)?, Vec::new()));
    }
    if json.len() != paths.len() {
        return Err(CliError(
            "lint either catalogs or tools/list JSON files in one run, not both".into(),
        ));
    }
    let mut sources = Vec::with_capacity(json.len());
    let mut lists = Vec::with_capacity(json.len());
    for path in json {
        let text = super::import::read_input(path, &global.load)?;
        let name = super::import::catalog_name(path);
        // Linted in memory, never written: the list's own size cap is the only one.
        let imported = super::import::import_text(path, &text, &name, u64::MAX)?;
        let mut shown = path.clone().into_os_string();
        shown.push(".kdl");
        sources.push((PathBuf::from(shown), imported.text));
        lists.push((path.clone(), text));
    }
    Ok((project::load_published_sources(sources), lists))
}

/// Points the findings on imported lists into the JSON files they came from: each list's
/// source becomes the JSON text under its own path, and each finding the member its tool and
/// path name there (its line and column, and its JSON pointer), or the whole list when the
/// file does not hold that place.
fn point_into_lists(diags: &mut [Diagnostic], sources: &mut SourceMap, lists: Vec<List>) {
    for (i, (path, text)) in lists.into_iter().enumerate() {
        let list = crate::import::locate::ToolsList::parse(&text);
        for d in diags.iter_mut().filter(|d| d.file.0 == i) {
            match list.locate(d.tool.as_deref(), d.path.as_deref()) {
                Some(place) => {
                    d.span = place.span;
                    d.pointer = Some(place.pointer);
                }
                None => d.span = crate::syntax::Span::new(0, 0),
            }
        }
        drop(list);
        sources.files[i] = crate::diag::SourceFile::new(path, text);
    }
}
