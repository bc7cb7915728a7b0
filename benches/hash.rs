//! `cargo bench --bench hash`: time to turn a 1,000-tool catalog into schemas, tool
//! definitions and hashes (and, separately, to parse its KDL text), in a release build.
//! Prints the median of several runs in milliseconds.

#[path = "../tests/schema_fixture/mod.rs"]
mod schema_fixture;

use catalogc::model::Catalog;
use catalogc::{hash, schema, syntax, synth};
use std::hint::black_box;
use std::time::{Duration, Instant};

const TOOLS: usize = 1000;
const RUNS: usize = 15;

fn median(mut d: Vec<Duration>) -> f64 {
    d.sort();
    d[d.len() / 2].as_secs_f64() * 1000.0
}

fn time<T>(mut f: impl FnMut() -> T) -> f64 {
    black_box(f());
    median(
        (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                black_box(f());
                start.elapsed()
            })
            .collect(),
    )
}

/// A catalog of `n` tools built in code: the fixture's four tools, renamed, round robin.
fn model(n: usize) -> Catalog {
    let fx = schema_fixture::Fx::new(0);
    let mut cat = fx.billing();
    let base = std::mem::take(&mut cat.tools);
    cat.tools = (0..n)
        .map(|i| {
            let mut t = base[i % base.len()].clone();
            t.name = fx.s(&format!("{}_{i}", t.name.value));
            t
        })
        .collect();
    cat
}

fn schema_and_hash(cat: &Catalog) -> usize {
    cat.tools
        .iter()
        .map(|t| {
            let def = schema::tool_definition(cat, t);
            let h = hash::tool_hashes(cat, t);
            def.as_object().map_or(0, |o| o.len()) + h.contract.len()
        })
        .sum()
}

fn main() {
    let text = synth::synthetic_catalog("bench", TOOLS);
    let parse_ms = time(|| syntax::parse(&text).document.nodes.len());
    let cat = model(TOOLS);
    let schema_hash_ms = time(|| schema_and_hash(&cat));
    println!(
        "catalog of {TOOLS} tools ({} KiB of KDL), median of {RUNS} runs:",
        text.len() / 1024
    );
    println!("  parse                            {parse_ms:8.2} ms");
    println!("  schema + tool definition + hash  {schema_hash_ms:8.2} ms");
    println!(
        "  total                            {:8.2} ms",
        parse_ms + schema_hash_ms
    );
}
