//! `catalogc hash [PATH…]`: the input, output, description and contract hashes of every tool.

use super::{CliError, Global, Status};
use crate::hash::tool_hashes;
use crate::model::Catalog;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(Debug, clap::Args)]
pub struct HashArgs {
    /// Catalog files or folders (every *.kdl below a folder); default `catalogs/`.
    pub paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

/// Catalogs by name (as in `tools/list`), so the output does not depend on file order.
fn sorted(catalogs: &[Catalog]) -> Vec<&Catalog> {
    let mut cats: Vec<&Catalog> = catalogs.iter().collect();
    cats.sort_by(|a, b| a.name.value.cmp(&b.name.value));
    cats
}

pub fn run(args: &HashArgs, global: &Global) -> Result<Status, CliError> {
    let loaded = super::load_valid(&args.paths, global)?;
    let cats = sorted(&loaded.project.catalogs);
    let text = match args.format {
        Format::Human => {
            let mut out = String::new();
            for c in cats {
                for t in &c.tools {
                    let h = tool_hashes(c, t);
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
                .flat_map(|c| {
                    c.tools.iter().map(move |t| {
                        let h = tool_hashes(c, t);
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
