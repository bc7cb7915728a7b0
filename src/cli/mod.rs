//! The `catalogc` command line (docs/cli.md). One file per command; each command is one variant of
//! [`Command`] and returns its exit status, or a [`CliError`] when it could not run.

use crate::config::{ConfigError, ProjectConfig};
use crate::contract::{Artifacts, Templates};
use crate::diag::SourceMap;
use crate::diag::emit::{self, Summary};
use clap::{Parser, Subcommand};
use std::io::{self, IsTerminal, Write};

pub mod breaking;
pub mod changelog;
pub mod docs;
#[cfg(feature = "drift")]
pub mod drift;
pub mod explain;
pub mod export;
pub mod fmt;
pub mod r#gen;
pub mod hash;
pub mod import;
pub mod lint;
pub mod lock;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod profile;
pub mod report;
pub mod rules;
pub mod serve;
pub mod today;

#[derive(Debug, Parser)]
#[command(
    name = "catalogc",
    version,
    about = "A compiler for declarative LLM tool catalogs (MCP)",
    propagate_version = true
)]
/// The command line of `catalogc`.
pub struct Cli {
    #[command(subcommand)]
    /// The subcommand to run.
    pub command: Command,
    /// Refuse catalog files larger than this many bytes.
    #[arg(long, global = true, value_name = "BYTES", default_value_t = 8 * 1024 * 1024)]
    pub max_file_bytes: u64,
}

#[derive(Debug, Subcommand)]
/// The subcommands of `catalogc`, each with its arguments.
pub enum Command {
    /// Parse and check catalogs; exit 1 when a finding is at error level.
    Lint(lint::LintArgs),
    /// Compare with the catalogs at a git revision, folder or file; exit 1 when a version is
    /// too low for its changes.
    Breaking(breaking::BreakingArgs),
    /// Every change since a git revision, folder or file, per catalog and tool (Markdown,
    /// JSON or HTML).
    Changelog(changelog::ChangelogArgs),
    /// Write (or `--check`) `NAME.lock` beside each catalog: versions and hashes per tool.
    Lock(lock::LockArgs),
    /// List every lint rule: ID, default level, summary.
    Rules(rules::RulesArgs),
    /// Print the documentation of a lint rule or of a change kind `breaking` reports.
    Explain(explain::ExplainArgs),
    /// Print each tool's input, output, description and contract hashes.
    Hash(hash::HashArgs),
    /// Write each catalog's generated Rust, `tools.json` and Markdown docs (`--check`: fail
    /// when stale).
    Gen(r#gen::GenArgs),
    /// Turn an MCP tools/list JSON into a catalog (stdout or `--out`); what the format cannot
    /// say is kept as comments and listed on stderr.
    Import(import::ImportArgs),
    /// Print a machine-readable view of the catalogs: `tools-json` (the MCP tools/list
    /// payload), `eval` (the examples as a tool-choice evaluation set), `vectors` (contract
    /// test vectors), `openai`, `anthropic`, `gemini` (each provider's tool definitions).
    Export(export::ExportArgs),
    /// Rewrite catalogs in the canonical layout, keeping every comment (`--check`: exit 1
    /// naming each file that would change).
    Fmt(fmt::FmtArgs),
    /// Write each catalog's Markdown documentation, `NAME.md`, into a folder (default
    /// `generated/`), or print it (`--out -`).
    Docs(docs::DocsArgs),
    /// Connect to a running MCP server (`--server CMD [ARGS…]` over stdio, or `--url URL`),
    /// fetch its tools/list and compare it with the catalogs; exit 1 on any drift.
    #[cfg(feature = "drift")]
    Drift(drift::DriftArgs),
    /// Serve the catalogs as a mock MCP server (`--mock`) over stdio or Streamable HTTP:
    /// arguments checked as generated code checks them, minimal valid outputs, declared
    /// errors on request (`--fail TOOL=CODE`).
    Serve(serve::ServeArgs),
    /// Summarise trace files (`serve --trace`) per tool and per effect class: calls,
    /// first-pass argument validity, error rates, retries, duplicates prevented, p50/p95,
    /// budget terminations, approvals.
    Report(report::ReportArgs),
    /// Serve the Language Server Protocol on stdin/stdout for an editor: diagnostics while
    /// typing, hover, completion, definitions, references, rename, outline, fixes, formatting.
    #[cfg(feature = "lsp")]
    Lsp(lsp::LspArgs),
}

/// Exit status of a command that ran (docs/cli.md): 0 success, 1 the check found what it looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exit 0: the command succeeded and found nothing to fail on.
    Ok,
    /// Exit 1: the check found what it looks for (an error finding, a too-low version, a
    /// file that would change, a stale lock).
    Findings,
}

/// A command that could not run: printed as one line on stderr, exit status 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

/// Options every command shares.
#[derive(Debug, Clone)]
pub struct Global {
    /// How catalog files are loaded (size limit).
    pub load: crate::project::LoadOptions,
    /// Human output may use ANSI colors.
    pub color: bool,
}

/// Colors only on a terminal, and never when `NO_COLOR` is set to a non-empty value.
pub fn color_enabled() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    !no_color && std::io::stdout().is_terminal()
}

/// Entry point of the binary: runs the command line and gives the exit status (0 success,
/// 1 findings or a failed check, 2 a command that could not run or a usage error).
pub fn main() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors are status 2.
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let global = Global {
        load: crate::project::LoadOptions {
            max_file_bytes: cli.max_file_bytes,
        },
        color: color_enabled(),
    };
    let result = match cli.command {
        Command::Lint(args) => lint::run(&args, &global),
        Command::Breaking(args) => breaking::run(&args, &global),
        Command::Changelog(args) => changelog::run(&args, &global),
        Command::Lock(args) => lock::run(&args, &global),
        Command::Rules(args) => rules::run(&args),
        Command::Explain(args) => explain::run(&args),
        Command::Hash(args) => hash::run(&args, &global),
        Command::Export(args) => export::run(&args, &global),
        Command::Import(args) => import::run(&args, &global),
        Command::Gen(args) => r#gen::run(&args, &global),
        Command::Fmt(args) => fmt::run(&args, &global),
        Command::Docs(args) => docs::run(&args, &global),
        #[cfg(feature = "drift")]
        Command::Drift(args) => drift::run(&args, &global),
        Command::Serve(args) => serve::run(&args, &global),
        Command::Report(args) => report::run(&args),
        #[cfg(feature = "lsp")]
        Command::Lsp(args) => lsp::run(&args),
    };
    match result {
        Ok(Status::Ok) => 0,
        Ok(Status::Findings) => 1,
        Err(CliError(msg)) => {
            // One line, whatever the cause.
            eprintln!("catalogc: {}", msg.replace('\n', " "));
            2
        }
    }
}

/// Writes a command's output to a buffered stdout as it is produced: the one place output
/// errors are handled. A closed pipe (`catalogc lint | head`) ends the output quietly; any
/// other write error (a full disk) is a failure to run.
pub fn output(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<(), CliError> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError(format!("cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}

/// [`output`] of a finished text.
pub fn print(s: &str) -> Result<(), CliError> {
    output(|out| out.write_all(s.as_bytes()))
}

/// The run's templates: the built-ins, overridden by the `*.j2` files of the project's
/// template folder. Every command builds them here and nowhere else, so `hash`, `export`,
/// `lock`, `breaking` and `lint` all render (and so hash and lock) the same descriptions.
pub fn templates(config: &ProjectConfig) -> Result<Templates, CliError> {
    match &config.templates {
        Some(dir) => Ok(crate::config::load_templates(dir)?),
        None => Ok(Templates::builtin()),
    }
}

/// The project configuration: `explicit` (`lint --config`), else `catalogc.kdl` when present.
/// A broken file stops the run (exit 2): every problem with its location on stderr, then the
/// one-line reason.
pub fn project_config(
    sources: &mut SourceMap,
    explicit: Option<&std::path::Path>,
    global: &Global,
) -> Result<ProjectConfig, CliError> {
    match crate::config::load(sources, explicit, &global.load) {
        Ok(c) => Ok(c),
        Err(ConfigError::Load(e)) => Err(e.into()),
        Err(ConfigError::Invalid(errors)) => {
            let summary = Summary::new(&errors, 0, 0);
            eprint!(
                "{}",
                emit::human::render(&errors, sources, &summary, global.color)
            );
            let first = errors.first().map(|d| {
                let f = sources.get(d.file);
                let (line, col) = f.line_col(d.span.start);
                format!("{}:{line}:{col}: {}", f.path.display(), d.message)
            });
            Err(CliError(format!(
                "the configuration is invalid ({} problem{}): {}",
                errors.len(),
                if errors.len() == 1 { "" } else { "s" },
                first.unwrap_or_default()
            )))
        }
    }
}

/// The templates of the project whose catalogs are in `sources` (its `catalogc.kdl`), for the
/// commands without `--config`.
pub fn project_templates(sources: &mut SourceMap, global: &Global) -> Result<Templates, CliError> {
    templates(&project_config(sources, None, global)?)
}

/// The contracts of every tool of `project`, descriptions rendered from `templates`; a
/// template that fails stops the run with its file and line.
pub fn artifacts(
    project: &crate::model::Project,
    templates: &Templates,
) -> Result<Artifacts, CliError> {
    Ok(Artifacts::build(project, templates)?)
}

/// Loads the project for a command that needs a sound model (hash, export): a syntax or
/// model error stops it, named in one line (`catalogc lint` shows them all).
pub fn load_valid(
    paths: &[std::path::PathBuf],
    global: &Global,
) -> Result<crate::project::Loaded, CliError> {
    let loaded = crate::project::load(paths, &global.load)?;
    let mut errors: Vec<&crate::diag::Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.level == crate::diag::Level::Error)
        .collect();
    errors.sort_by_key(|d| (d.file, d.span.start));
    if let Some(first) = errors.first() {
        let f = loaded.sources.get(first.file);
        let (line, col) = f.line_col(first.span.start);
        return Err(CliError(format!(
            "{} error{} in the catalogs, first at {}:{line}:{col}: {} [{}]; run `catalogc lint` to see all",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" },
            f.path.display(),
            first.message,
            first.rule
        )));
    }
    Ok(loaded)
}
