//! Work split across the machine's cores, with results in the order a single thread gives.
//!
//! catalogc runs inside `cargo build` and editors, where a large catalog's contracts and lint
//! rules are the wait. Both are independent per tool or per rule, so they are split into
//! contiguous parts, one scoped thread each, and joined in order: the output is byte-identical
//! to a sequential run whatever the number of cores.

use std::cell::Cell;
use std::num::NonZeroUsize;
use std::sync::OnceLock;

thread_local! {
    /// Set while this thread runs a part: a split inside a part (a file's tools, inside the
    /// split of a project's files) stays on that thread, so threads never multiply.
    static IN_PART: Cell<bool> = const { Cell::new(false) };
}

/// `f` run as a part (see [`IN_PART`]).
fn as_part<R>(f: impl FnOnce() -> R) -> R {
    let outer = IN_PART.replace(true);
    let r = f();
    IN_PART.set(outer);
    r
}

/// Below this much work a thread costs more than it saves (a spawn is tens of microseconds;
/// a small catalog lints in a few hundred).
pub const MIN_ITEMS: usize = 64;

/// How many threads a split may use: `CATALOGC_THREADS` when set to a positive number (`1`
/// makes every run sequential, for profiling), else the cores available to the process.
pub fn threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| {
        let set = std::env::var("CATALOGC_THREADS").ok();
        set.and_then(|v| v.trim().parse::<NonZeroUsize>().ok())
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, NonZeroUsize::get)
    })
}

/// `f` applied to `parts` contiguous parts of `items` at once, results in part order. `weight`
/// is the amount of work `items` stand for (tools, rules × tools): below [`MIN_ITEMS`], or with
/// one core, `f` runs once on the whole slice on this thread.
pub fn map_parts<T, R, F>(items: &[T], weight: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&[T]) -> R + Sync,
{
    let parts = threads().min(items.len());
    if parts <= 1 || weight < MIN_ITEMS || IN_PART.get() {
        return vec![f(items)];
    }
    let size = items.len().div_ceil(parts);
    std::thread::scope(|s| {
        let f = &f;
        let mut chunks = items.chunks(size);
        // This thread takes the first part itself instead of idling in `join`.
        let first = chunks.next().unwrap_or_default();
        let handles: Vec<_> = chunks.map(|c| s.spawn(move || as_part(|| f(c)))).collect();
        let mut out = Vec::with_capacity(parts);
        out.push(as_part(|| f(first)));
        out.extend(handles.into_iter().map(joined));
        out
    })
}

/// `f` applied to each of `items`, results in item order, the items taken one at a time by
/// whichever thread is free: for a few tasks of uneven, unknown cost (lint rule groups), where
/// [`map_parts`]' equal shares would leave one core waiting on the other. Put the largest
/// tasks first. Sequential under the same conditions as [`map_parts`].
pub fn map_queue<T, R, F>(items: &[T], weight: usize, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let workers = threads().min(items.len());
    if workers <= 1 || weight < MIN_ITEMS || IN_PART.get() {
        return items.iter().map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        as_part(|| {
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else {
                    return done;
                };
                done.push((i, f(item)));
            }
        })
    };
    let mut all: Vec<(usize, R)> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..workers).map(|_| s.spawn(work)).collect();
        let mut all = work();
        all.extend(handles.into_iter().flat_map(joined));
        all
    });
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

/// `main()` on this thread and `side()` on another at once, when there are cores to spare:
/// for work the run will need later and that nothing before it needs (the lint rules'
/// automata, compiled while the catalogs load). `main` splits its own work as usual; `side`
/// runs as a part.
pub fn beside<A, B, M, S>(main: M, side: S) -> (A, B)
where
    B: Send,
    M: FnOnce() -> A,
    S: FnOnce() -> B + Send,
{
    if threads() <= 1 || IN_PART.get() {
        let a = main();
        return (a, side());
    }
    std::thread::scope(|s| {
        let handle = s.spawn(|| as_part(side));
        let a = main();
        (a, joined(handle))
    })
}

/// The result of a scoped thread. A panic in it is a bug of catalogc: raised here as it would
/// have been raised without the thread.
fn joined<R>(handle: std::thread::ScopedJoinHandle<'_, R>) -> R {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_join_in_order() {
        let items: Vec<usize> = (0..1000).collect();
        let parts = map_parts(&items, items.len(), |c| c.to_vec());
        assert_eq!(parts.concat(), items);
        assert!(parts.len() <= threads().max(1));
    }

    #[test]
    fn small_work_stays_on_one_thread() {
        let here = std::thread::current().id();
        let items = [1, 2, 3];
        let out = map_parts(&items, items.len(), |c| {
            (std::thread::current().id(), c.len())
        });
        assert_eq!(out, vec![(here, 3)]);
    }

    #[test]
    fn a_split_inside_a_part_stays_on_its_thread() {
        let items: Vec<usize> = (0..1000).collect();
        let nested = map_parts(&items, items.len(), |outer| {
            let here = std::thread::current().id();
            let inner = map_parts(outer, outer.len(), |_| std::thread::current().id());
            inner == vec![here]
        });
        assert!(nested.into_iter().all(|stayed| stayed));
    }

    #[test]
    fn queue_results_keep_item_order() {
        let items: Vec<usize> = (0..100).collect();
        let out = map_queue(&items, 1000, |&i| i * 2);
        assert_eq!(out, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        let nested = map_queue(&items, 1000, |_| {
            map_parts(&items, 1000, <[usize]>::len).len()
        });
        assert!(
            nested.iter().all(|&parts| parts == 1),
            "a task does not split further"
        );
    }

    #[test]
    fn beside_gives_both_results() {
        let (a, b) = beside(|| map_parts(&[1, 2, 3], 3, <[i32]>::len), || "side");
        assert_eq!((a, b), (vec![3], "side"));
    }

    #[test]
    fn empty_input_is_one_empty_part() {
        let items: [u8; 0] = [];
        assert_eq!(map_parts(&items, 1000, <[u8]>::len), vec![0]);
    }
}
