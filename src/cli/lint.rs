//! `catalogc lint [PATH…]`: parse, lower and check catalogs; print every finding.

use super::{CliError, Global, Status};
use crate::diag::Level;
use crate::diag::render::{self, CoreRules, Summary};
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
}

pub fn run(args: &LintArgs, global: &Global) -> Result<Status, CliError> {
    let mut loaded = project::load(&args.paths, &global.load)?;
    let config = project::load_config(&mut loaded, args.config.as_deref(), &global.load)?;
    let diags = project::run_checks(&loaded, &config);
    let summary = Summary::new(&diags, loaded.tool_count(), loaded.project.catalogs.len());
    let text = match args.format {
        Format::Human => render::render_human(&diags, &loaded.sources, &summary, global.color),
        Format::Json => render::render_json(&diags, &loaded.sources, &summary),
        Format::Sarif => render::render_sarif(&diags, &loaded.sources, &CoreRules),
        Format::Github => render::render_github(&diags, &loaded.sources),
    };
    super::print(&text);
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
