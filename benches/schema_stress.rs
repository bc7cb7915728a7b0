//! `cargo bench --bench schema_stress`: loading (parse, lower, measure every named type)
//! and exporting catalogs whose inlined schemas would explode: a binary DAG of named types
//! 20 levels deep (2^20 leaves once inlined) and a chain of 10,000 named types. Both tools
//! are left out with an error, so each stage must stay linear in the text. Prints the fastest
//! and the median of several runs, in milliseconds.

use catalogc::{project, testing};
use std::hint::black_box;
use std::time::{Duration, Instant};

const RUNS: usize = 9;

fn time<T>(mut f: impl FnMut() -> T) -> (f64, f64) {
    black_box(f());
    let mut d: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .collect();
    d.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (ms(d[0]), ms(d[d.len() / 2]))
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
