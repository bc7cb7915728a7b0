//! `catalogc hash [PATH…]`: the input, output, description and contract hashes of every tool.

use super::{CliError, Global, Status};
use crate::contract::{Artifacts, ToolContract};
use crate::model::Catalog;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
/// Output format of `catalogc hash`.
pub enum Format {
    /// One line per tool, grouped by catalog.
    Human,
    /// One JSON document: catalogs by name, each tool with its four hashes.
    Json,
}

#[derive(Debug, clap::Args)]
/// Arguments of `catalogc hash`.
pub struct HashArgs {
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    /// How the hashes are printed.
    pub format: Format,
}

/// Each catalog with its tools and their contracts, catalogs by name (as in `tools/list`),
/// so the output does not depend on file order.
fn sorted<'a>(
    catalogs: &'a [Catalog],
    artifacts: &'a Artifacts,
) -> Vec<(&'a Catalog, Vec<(&'a crate::model::Tool, &'a ToolContract)>)> {
    let mut cats: Vec<_> = catalogs
        .iter()
        .zip(&artifacts.catalogs)
        .map(|(c, a)| (c, c.tools.iter().zip(&a.tools).collect()))
        .collect();
    cats.sort_by(|a: &(&Catalog, _), b| a.0.name.value.cmp(&b.0.name.value));
    cats
}

/// Runs `catalogc hash`: loads the catalogs, builds every contract and prints its hashes.
pub fn run(args: &HashArgs, global: &Global) -> Result<Status, CliError> {
    let mut loaded = super::load_valid(&args.paths, global)?;
    let artifacts = super::artifacts(
        &loaded.project,
        &super::project_templates(&mut loaded.sources, global)?,
    )?;
    let cats = sorted(&loaded.project.catalogs, &artifacts);
    let text = match args.format {
        Format::Human => {
            let mut out = String::new();
            for (c, tools) in cats {
                for (t, contract) in tools {
                    let h = contract.hashes();
                    let _ = writeln!(out, "{}/{} {}", c.name.value, t.name.value, t.version.value);
                    let _ = writeln!(out, "  input        {}", h.input);
                    let _ = writeln!(out, "  output       {}", h.output);
                    let _ = writeln!(out, "  description  {}", h.description);
                    let _ = writeln!(out, "  contract     {}", h.contract);
                }
            }
            out
        }
        Format::Json => {
            let tools: Vec<Value> = cats
                .into_iter()
                .flat_map(|(c, tools)| {
                    tools.into_iter().map(move |(t, contract)| {
                        let h = contract.hashes();
                        json!({
                            "catalog": c.name.value,
                            "tool": t.name.value,
                            "version": t.version.value,
                            "input": h.input,
                            "output": h.output,
                            "description": h.description,
                            "contract": h.contract,
                        })
                    })
                })
                .collect();
            crate::diag::emit::pretty_json(&json!({ "tools": tools }))
        }
    };
    super::print(&text)?;
    Ok(Status::Ok)
}
