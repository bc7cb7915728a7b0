//! `catalogc lint [PATH…]`: parse, lower and check catalogs; print every finding.

use super::{CliError, Global, Status};
use crate::config::{self, ConfigError};
use crate::diag::Level;
use crate::diag::emit::{self, Summary, sarif};
use crate::diag::{Diagnostic, SourceMap};
use crate::lint::baseline::Baseline;
use crate::lint::docs::LintRules;
use crate::model::codes::CoreRules;
use crate::project;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Sarif,
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Deny {
    /// Warnings fail the run too.
    Warnings,
}

#[derive(Debug, clap::Args)]
pub struct LintArgs {
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
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
}

pub fn run(args: &LintArgs, global: &Global) -> Result<Status, CliError> {
    let mut loaded = project::load(&args.paths, &global.load)?;
    let config = match config::load(&mut loaded.sources, args.config.as_deref(), &global.load) {
        Ok(c) => c.lint,
        Err(ConfigError::Load(e)) => return Err(e.into()),
        Err(ConfigError::Invalid(errors)) => {
            return Err(config_error(&errors, &loaded.sources, global.color));
        }
    };
    let mut diags = crate::lint::check_project(&loaded, &config);
    if let Some(path) = &args.write_baseline {
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
    let summary = Summary::new(&diags, loaded.tool_count(), loaded.project.catalogs.len());
    let sources = &loaded.sources;
    super::output(|out| match args.format {
        Format::Human => emit::human::write(out, &diags, sources, &summary, global.color),
        Format::Json => emit::json::write(out, &emit::records(&diags, sources), &summary),
        Format::Sarif => {
            let records = emit::records(&diags, sources);
            let rules = sarif::used_rules(&records, &[&LintRules, &CoreRules]);
            sarif::write(out, &records, &rules, sarif::Shape::DIAGNOSTICS)
        }
        Format::Github => emit::github::write(out, &emit::records(&diags, sources), true),
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

/// A broken `catalogc.kdl` stops the run (exit 2): every problem with its location on stderr,
/// then the one-line reason.
fn config_error(errors: &[Diagnostic], sources: &SourceMap, color: bool) -> CliError {
    let summary = Summary::new(errors, 0, 0);
    eprint!("{}", emit::human::render(errors, sources, &summary, color));
    let first = errors.first().map(|d| {
        let f = sources.get(d.file);
        let (line, col) = f.line_col(d.span.start);
        format!("{}:{line}:{col}: {}", f.path.display(), d.message)
    });
    CliError(format!(
        "the configuration is invalid ({} problem{}): {}",
        errors.len(),
        if errors.len() == 1 { "" } else { "s" },
        first.unwrap_or_default()
    ))
}
