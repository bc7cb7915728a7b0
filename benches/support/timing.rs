//! Timing shared by the `harness = false` benches that report the fastest and the median run.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs `f` once to warm up, then `runs` times; returns the fastest and the median run in ms.
pub fn fastest_and_median_ms<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, f64) {
    black_box(f());
    let mut d: Vec<Duration> = (0..runs.max(1))
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
