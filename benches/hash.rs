//! `cargo bench --bench hash`: time to take a synthetic 1,000-tool catalog from KDL text to
//! MCP tool definitions and hashes in a release build: parse, lower, then each tool's
//! input/output schemas, rendered description, tool definition and four hashes.
//! Prints the fastest and the median of several runs per stage, in milliseconds.

#[path = "support/timing.rs"]
mod timing;

use catalogc::contract::{Templates, ToolContract};
use catalogc::diag::FileId;
use catalogc::model::{Catalog, lower};
use catalogc::{syntax, testing};

const TOOLS: usize = 1000;
const RUNS: usize = 15;

/// (fastest, median) in milliseconds. On a shared machine the fastest run is the better
/// estimate of the work itself; the median shows the noise.
struct Timing(f64, f64);

impl std::fmt::Display for Timing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:8.2} ms (median {:8.2} ms)", self.0, self.1)
    }
}

fn time<T>(f: impl FnMut() -> T) -> Timing {
    let (fastest, median) = timing::fastest_and_median_ms(RUNS, f);
    Timing(fastest, median)
}

fn lowered(doc: &syntax::Document) -> Catalog {
    let (cat, diags) = lower::lower(doc, FileId(0));
    match cat {
        Some(c) if diags.is_empty() => c,
        _ => panic!("the synthetic catalog must lower cleanly: {diags:?}"),
    }
}

/// Every tool's definition (schemas + description) and hashes; returns a size so the work
/// cannot be optimised away.
fn schema_and_hash(cat: &Catalog, templates: &Templates) -> usize {
    cat.tools
        .iter()
        .map(|t| {
            let c = ToolContract::build(cat, t, templates).expect("the built-in template renders");
            c.definition().len() + c.hashes().contract.len()
        })
        .sum()
}

fn main() {
    let text = testing::synthetic_catalog("bench", TOOLS);
    let doc = syntax::parse(&text).document;
    let cat = lowered(&doc);
    assert_eq!(cat.tools.len(), TOOLS);

    let parse_ms = time(|| syntax::parse(&text).document.nodes().len());
    let lower_ms = time(|| lowered(&doc).tools.len());
    let templates = Templates::builtin();
    let schema_hash_ms = time(|| schema_and_hash(&cat, &templates));
    let total_ms = time(|| schema_and_hash(&lowered(&syntax::parse(&text).document), &templates));

    println!(
        "catalog of {TOOLS} tools ({} KiB of KDL), fastest of {RUNS} runs:",
        text.len() / 1024
    );
    println!("  parse                                        {parse_ms}");
    println!("  lower                                        {lower_ms}");
    println!("  schemas + description + definition + hashes  {schema_hash_ms}");
    println!("  end to end (parse + lower + schema + hash)   {total_ms}");
}
