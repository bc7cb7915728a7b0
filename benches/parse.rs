//! Parser throughput and peak memory on synthetic catalogs of 100, 1,000 and 10,000 tools:
//! catalogc's parser next to the `kdl` crate and `serde_json` on the same content as JSON.
//! Not a timed test: it prints a table.
//!
//! Release:            cargo bench --bench parse
//! Unoptimized (opt-level 0, what a build script gets):
//!                     cargo bench --bench parse --profile dev
//!
//! `kdl` is slow (≈1 MB/s optimized, ≈50 KB/s unoptimized), so it is only run on inputs up to
//! `KDL_MAX_BYTES` (default 6 MB optimized, 400 KB unoptimized); set the variable to change it.

use catalogc::syntax::{self, Nodes, Number, Value};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                    - layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// CPU time of this thread: unlike wall time it does not count time spent waiting while
/// other processes use the cores, so figures stay comparable on a loaded machine. `None`
/// where `clock_gettime(CLOCK_THREAD_CPUTIME_ID)` is not available.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu() -> Option<Duration> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec with the C layout of 64-bit Linux.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu() -> Option<Duration> {
    None
}

/// Runs `f` until about `budget` has passed (at least once, at most 10 times); returns the
/// fastest run (CPU time where available, else wall time) and the peak heap growth over the
/// live bytes before the run (the result is kept alive until measured, so the peak
/// includes it).
fn measure<R>(budget: Duration, mut f: impl FnMut() -> R) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut peak = 0;
    let started = Instant::now();
    for _ in 0..10 {
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let (t, c) = (Instant::now(), thread_cpu());
        let r = f();
        let dt = match (c, thread_cpu()) {
            (Some(a), Some(b)) => b.saturating_sub(a),
            _ => t.elapsed(),
        };
        peak = peak.max(PEAK.load(Ordering::Relaxed).saturating_sub(base));
        drop(r);
        best = best.min(dt);
        if started.elapsed() > budget {
            break;
        }
    }
    (best, peak)
}

fn to_json(nodes: Nodes<'_>) -> serde_json::Value {
    serde_json::Value::Array(
        nodes
            .map(|n| {
                let mut o = serde_json::Map::new();
                o.insert("name".into(), n.name.value.into());
                if let Some(t) = &n.ty {
                    o.insert("type".into(), t.value.into());
                }
                let mut args = Vec::new();
                let mut props = serde_json::Map::new();
                for e in n.entries() {
                    let v = match e.value.value {
                        Value::String(s) => s.into(),
                        Value::Bool(b) => b.into(),
                        Value::Null => serde_json::Value::Null,
                        Value::Number(Number::Int(i)) => serde_json::Value::from(*i as i64),
                        Value::Number(Number::Float(f)) => serde_json::Value::from(*f),
                        Value::Number(_) => serde_json::Value::Null,
                    };
                    match &e.name {
                        Some(k) => {
                            props.insert(k.value.to_string(), v);
                        }
                        None => args.push(v),
                    }
                }
                if !args.is_empty() {
                    o.insert("args".into(), args.into());
                }
                if !props.is_empty() {
                    o.insert("props".into(), props.into());
                }
                if let Some(c) = n.children() {
                    o.insert("children".into(), to_json(c.nodes()));
                }
                serde_json::Value::Object(o)
            })
            .collect(),
    )
}

fn mbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64().max(1e-9)
}

fn main() {
    // `cargo bench` passes `--bench`; ignore arguments.
    let optimized = !cfg!(debug_assertions);
    let kdl_max: usize = std::env::var("KDL_MAX_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if optimized { 6_000_000 } else { 400_000 });
    let budget = Duration::from_secs(if optimized { 2 } else { 4 });
    println!(
        "profile: {}",
        if optimized {
            "optimized (release/bench)"
        } else {
            "unoptimized (opt-level 0, debug assertions)"
        }
    );
    println!(
        "{:>6} {:>11} | {:>10} {:>9} {:>7} | {:>10} {:>9} {:>7} | {:>10} {:>9} {:>7}",
        "tools",
        "KDL bytes",
        "ours MB/s",
        "ms",
        "mem×",
        "kdl MB/s",
        "ms",
        "mem×",
        "json MB/s",
        "ms",
        "mem×"
    );
    let mut tree_notes = Vec::new();
    for tools in [100usize, 1_000, 10_000] {
        let src = catalogc::testing::synthetic_catalog("bench", tools);
        let parsed = syntax::parse(&src);
        assert!(
            parsed.errors.is_empty(),
            "synthetic catalog must parse: {:?}",
            parsed.errors.first()
        );
        let json = serde_json::to_string(&to_json(parsed.document.nodes())).unwrap_or_default();
        let tree = syntax::parse_tree(&src).tree;
        tree_notes.push(format!(
            "{tools} tools: {} tokens ({:.1} bytes/token), lossless tree {:.2}× input, typed view {:.2}× input",
            tree.len(),
            src.len() as f64 / tree.len() as f64,
            tree.heap_size() as f64 / src.len() as f64,
            parsed.document.heap_size() as f64 / src.len() as f64
        ));
        drop((parsed, tree));

        let (t_ours, m_ours) = measure(budget, || syntax::parse(&src));
        let (t_tree, m_tree) = measure(budget, || syntax::parse_tree(&src));
        tree_notes.push(format!(
            "{tools} tools, tree only (syntax::parse_tree): {:.1} MB/s, mem× {:.2}",
            mbps(src.len(), t_tree),
            m_tree as f64 / src.len() as f64
        ));
        let kdl_cell = if src.len() <= kdl_max {
            let (t, m) = measure(budget, || kdl::KdlDocument::parse_v2(&src));
            format!(
                "{:>10.2} {:>9.1} {:>7.1}",
                mbps(src.len(), t),
                t.as_secs_f64() * 1e3,
                m as f64 / src.len() as f64
            )
        } else {
            format!("{:>10} {:>9} {:>7}", "skipped", "-", "-")
        };
        let (t_json, m_json) = measure(budget, || {
            serde_json::from_str::<serde_json::Value>(&json).ok()
        });
        println!(
            "{:>6} {:>11} | {:>10.1} {:>9.2} {:>7.2} | {} | {:>10.1} {:>9.2} {:>7.2}",
            tools,
            src.len(),
            mbps(src.len(), t_ours),
            t_ours.as_secs_f64() * 1e3,
            m_ours as f64 / src.len() as f64,
            kdl_cell,
            mbps(json.len(), t_json),
            t_json.as_secs_f64() * 1e3,
            m_json as f64 / json.len() as f64,
        );
    }
    println!(
        "mem× = peak heap growth during the parse (result included) / input bytes; the JSON column is on the same content as JSON."
    );
    for n in tree_notes {
        println!("{n}");
    }
    println!("typed view records: {}", syntax::Document::record_sizes());
}
