//! Time to compare two 1,000-tool catalogs: `cargo bench --bench compat`.
//!
//! The old side is `testing::synthetic_catalog`; the new side is the same text with edits that
//! touch every tool (a bound tightened and an enum value added in the shared types, used on
//! both sides, and one more optional input field on every `list` tool). Parsing is not
//! timed; the classification alone and the whole comparison `catalogc breaking` runs
//! (classification plus order-insensitive contract hashes of both sides) are.

use catalogc::compat;
use catalogc::model::Catalog;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn load(text: &str) -> Catalog {
    let mut loaded = catalogc::project::load_source("bench.kdl", text.to_string());
    assert!(
        loaded
            .diagnostics
            .iter()
            .all(|d| d.level != catalogc::diag::Level::Error),
        "synthetic catalog has errors"
    );
    loaded.project.catalogs.remove(0)
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn time(runs: usize, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut n = f();
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        n = black_box(f());
        times.push(t.elapsed());
    }
    (median(times), n)
}

fn main() {
    let old_text = catalogc::testing::synthetic_catalog("bench", 1000);
    let new_text = old_text
        .replace("max-length=120", "max-length=100")
        .replace(r#"enum "active" "paused" "closed""#, r#"enum "active" "paused" "closed" "archived""#)
        .replace(
            "    input {\n",
            "    input {\n        field \"locale\" \"string\" max-length=16 { doc \"Language of the answer.\"; }\n",
        );
    let (old, new) = (load(&old_text), load(&new_text));
    assert_eq!((old.tools.len(), new.tools.len()), (1000, 1000));
    let (olds, news) = (std::slice::from_ref(&old), std::slice::from_ref(&new));
    let templates = catalogc::contract::Templates::builtin();

    let (classify, changes) = time(15, || {
        compat::compare(olds, news, |_, _| ()).changes().count()
    });
    let (full, _) = time(5, || {
        compat::compare(olds, news, |c, t| {
            compat::order_insensitive_hashes(c, t, &templates)
        })
        .changes()
        .count()
    });
    let (same, none) = time(15, || {
        compat::compare(olds, olds, |_, _| ()).changes().count()
    });
    assert_eq!(none, 0);
    println!("compat: 1,000 vs 1,000 tools, {changes} changes");
    println!("  classification only:            {classify:>10.2?} (median)");
    println!("  with contract hashes (breaking): {full:>10.2?} (median)");
    println!("  identical catalogs:             {same:>10.2?} (median)");
}
