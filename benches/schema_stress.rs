//! `cargo bench --bench schema_stress`: loading (parse, lower, measure every named type)
//! and exporting catalogs whose inlined schemas would explode: a binary DAG of named types
//! 20 levels deep (2^20 leaves once inlined) and a chain of 10,000 named types. Both tools
//! are left out with an error, so each stage must stay linear in the text. Prints the fastest
//! and the median of several runs, in milliseconds.

#[path = "support/timing.rs"]
mod timing;

use catalogc::{project, testing};

const RUNS: usize = 9;

fn time<T>(f: impl FnMut() -> T) -> (f64, f64) {
    timing::fastest_and_median_ms(RUNS, f)
}

fn main() {
    for (name, src) in [
        ("dag of 20 levels", testing::dag_catalog(20)),
        ("chain of 10,000 types", testing::chain_catalog(10_000)),
    ] {
        let (fast, median) = time(|| {
            let loaded = project::load_source("stress.kdl", src.clone());
            testing::artifacts(&loaded.project).tools_list(&loaded.project)
        });
        println!(
            "{name:24} {:>8} bytes  load + export {fast:8.2} ms (median {median:8.2} ms)",
            src.len()
        );
    }
}
