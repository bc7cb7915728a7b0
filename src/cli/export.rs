//! `catalogc export tools-json|eval|vectors|openai|anthropic|gemini [PATH…]`: machine-readable
//! views of the catalogs on stdout.

use super::{CliError, Global, Status};
use crate::contract::targets::{self, Refusal, Target};
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// What `catalogc export` prints.
pub enum What {
    /// The MCP `tools/list` payload: `{"tools":[...]}`.
    ToolsJson,
    /// The tool-choice evaluation set as JSON Lines: one line per `call`, `no-call` and
    /// `confusable` example (docs/eval-line.schema.json).
    Eval,
    /// Contract test vectors as JSON Lines: instances of every input and output at and
    /// around every bound, each with the verdict a validator must reach
    /// (docs/vector-line.schema.json).
    Vectors,
    /// OpenAI function tools in strict mode: `{"tools":[{"type":"function",...}]}`.
    Openai,
    /// Anthropic tools: `{"tools":[{"name","description","input_schema"}]}`.
    Anthropic,
    /// Gemini function declarations: `{"tools":[{"functionDeclarations":[...]}]}`.
    Gemini,
}

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc export`.
pub struct ExportArgs {
    #[arg(value_enum)]
    /// The view to print.
    pub what: What,
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    /// With `vectors`: add a refusal vector (`"expect": "unknown-tool"`) for each tool that
    /// `profile "NAME"` of the project file disables.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Project file (templates, profiles); default `catalogc.kdl` when present.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// Runs `catalogc export`: loads the catalogs and prints the chosen view on stdout. A
/// provider export reports on stderr each constraint the provider cannot carry, and each tool
/// it cannot take at all (left out; exit 1).
pub fn run(args: &ExportArgs, global: &Global) -> Result<Status, CliError> {
    let mut loaded = super::load_valid(&args.paths, global)?;
    if args.what == What::Eval {
        super::print(&crate::eval::eval_jsonl(&loaded.project))?;
        return Ok(Status::Ok);
    }
    let config = super::project_config(&mut loaded.sources, args.config.as_deref(), global)?;
    let artifacts = super::artifacts(&loaded.project, &super::templates(&config)?)?;
    let project = &loaded.project;
    let target = match args.what {
        What::Eval => return Ok(Status::Ok),
        What::ToolsJson => {
            let value = artifacts.tools_list_view(project);
            super::output(|out| {
                value.write_pretty(out)?;
                out.write_all(b"\n")
            })?;
            return Ok(Status::Ok);
        }
        What::Vectors => {
            let refusals = match &args.profile {
                Some(name) => {
                    let p = super::profile::find(&config, name)?;
                    let disabled: Vec<&str> = p.disable.iter().map(|(s, _)| s.as_str()).collect();
                    crate::contract::vectors::refusals(project, &artifacts, name, &disabled)
                }
                None => Vec::new(),
            };
            // Streamed as made: the export can be far larger than the catalogs.
            let mut failed = None;
            super::output(|out| {
                match crate::contract::vectors::write_records(project, &artifacts, out) {
                    Ok(()) => out.write_all(crate::diag::emit::jsonl(&refusals).as_bytes()),
                    Err(crate::contract::vectors::WriteError::Io(e)) => Err(e),
                    Err(crate::contract::vectors::WriteError::Schema(e)) => {
                        failed = Some(e);
                        Ok(())
                    }
                }
            })?;
            return match failed {
                Some(e) => Err(CliError(e)),
                None => Ok(Status::Ok),
            };
        }
        What::Openai => Target::Openai,
        What::Anthropic => Target::Anthropic,
        What::Gemini => Target::Gemini,
    };
    let (value, report) = targets::export(target, project, &artifacts);
    super::output(|out| crate::diag::emit::write_json(out, &value))?;
    let rules = target.rules();
    for (tool, loss) in &report.lost {
        eprintln!(
            "catalogc: {}: {tool}: {}: dropped `{}: {}` (an {} cannot carry it; the server still enforces it)",
            rules.id,
            loss.dotted("input"),
            loss.keyword,
            loss.value,
            rules.what
        );
    }
    for (tool, refusal) in &report.refused {
        let why = match refusal {
            Refusal::Name => format!("the name does not match {}", rules.name.pattern),
            Refusal::FieldName(field) => format!(
                "input field `{field}` does not match {}",
                rules.field_name.as_ref().map_or("", |r| r.pattern)
            ),
            Refusal::Description(len) => format!(
                "the description has {len} characters, over the limit of {}",
                rules.description_max.unwrap_or_default()
            ),
        };
        eprintln!(
            "catalogc: {}: {tool}: left out: {why} (`catalogc lint --target {}` lists every such problem)",
            rules.id, rules.id
        );
    }
    Ok(if report.refused.is_empty() {
        Status::Ok
    } else {
        Status::Findings
    })
}
