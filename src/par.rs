//! Work split across the machine's cores, with results in the order a single thread gives.
//!
//! catalogc runs inside `cargo build` and editors, where a large catalog's contracts and lint
//! rules are the wait. Both are independent per tool or per rule, so they are split into
//! contiguous parts, each run on a thread of the process's pool (`pool`), and joined in order:
//! the output is byte-identical to a sequential run whatever the number of cores.

use std::cell::Cell;
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::OnceLock;

mod place;
mod pool;

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

/// Below this much work a handoff costs more than it saves (waking a pooled worker and
/// joining it is several microseconds, its first touches of cold memory more; a small catalog
/// lints in a few hundred).
pub const MIN_ITEMS: usize = 64;

/// The fewest items a chunk of [`map_split`] holds: taking a chunk costs a lock and a
/// lowering context, a few microseconds; sixteen tools take a few hundred.
pub const MIN_CHUNK: usize = 16;

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
    pool::scope(|s| {
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
    let mut all: Vec<(usize, R)> = pool::scope(|s| {
        let handles: Vec<_> = (1..workers).map(|_| s.spawn(work)).collect();
        let mut all = work();
        all.extend(handles.into_iter().flat_map(joined));
        all
    });
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

/// Jobs done in two stages, the second split into chunks (a file: parsed once, then its
/// tools lowered in runs): `open(i)` prepares job `i`, giving what its chunks share, what
/// only its close needs, and how many items its second stage has; `chunk(&shared, range)`
/// does the items in `range`; `close(i, &shared, owned, chunks)` combines the chunks'
/// results, in item order. The results are in job order.
///
/// Whichever thread is free takes the next chunk of any open job, else opens the next job:
/// a thread done with its own job helps with another's as soon as that one is open, so one
/// slow job (a larger file, a core shared with other work) does not leave a core idle while
/// the last thread lowers its file alone. Finishing open jobs before opening more also
/// bounds how many are open at once. A job splits into at most four chunks per thread, of
/// at least [`MIN_CHUNK`] items. Sequential, one chunk a job, under the same conditions as
/// [`map_parts`].
pub fn map_split<S, O, B, C>(
    jobs: usize,
    weight: usize,
    open: impl Fn(usize) -> (S, O, usize) + Sync,
    chunk: impl Fn(&S, Range<usize>) -> B + Sync,
    close: impl Fn(usize, &S, O, Vec<B>) -> C + Sync,
) -> Vec<C>
where
    S: Send + Sync,
    O: Send,
    B: Send,
    C: Send,
{
    let workers = threads();
    if workers <= 1 || weight < MIN_ITEMS || IN_PART.get() {
        return (0..jobs)
            .map(|i| {
                let (shared, owned, items) = open(i);
                let done = (items > 0).then(|| chunk(&shared, 0..items));
                close(i, &shared, owned, done.into_iter().collect())
            })
            .collect();
    }
    let board = Board {
        workers,
        state: std::sync::Mutex::new(BoardState {
            next_job: 0,
            opening: 0,
            failed: false,
            open: (0..jobs).map(|_| None).collect(),
            results: (0..jobs).map(|_| None).collect(),
        }),
        published: std::sync::Condvar::new(),
    };
    let work = || {
        as_part(|| {
            // A panicking worker would leave the others waiting for a job it never opens.
            let _guard = FailOnPanic(&board);
            board.work(&open, &chunk, &close);
        })
    };
    pool::scope(|s| {
        // A thread per core even for one job: its chunks are what the threads share.
        let helpers = if jobs == 0 { 0 } else { workers - 1 };
        let handles: Vec<_> = (0..helpers).map(|_| s.spawn(work)).collect();
        work();
        handles.into_iter().for_each(joined);
    });
    let state = board.state.into_inner().unwrap_or_else(|p| p.into_inner());
    // Every job was closed: a worker that failed raised its panic in `joined` above.
    state.results.into_iter().flatten().collect()
}

/// The jobs of one [`map_split`] and the condition its idle workers wait on.
struct Board<S, O, B, C> {
    workers: usize,
    state: std::sync::Mutex<BoardState<S, O, B, C>>,
    /// Signalled when a job opens (its chunks can be taken) or a worker fails.
    published: std::sync::Condvar,
}

struct BoardState<S, O, B, C> {
    /// The next job to open.
    next_job: usize,
    /// Jobs being opened right now: an idle worker waits for them rather than leave.
    opening: usize,
    /// A worker panicked: the others stop.
    failed: bool,
    /// Jobs open and not yet closed.
    open: Vec<Option<OpenJob<S, O, B>>>,
    results: Vec<Option<C>>,
}

struct OpenJob<S, O, B> {
    shared: std::sync::Arc<S>,
    owned: O,
    /// Items of the job, and items a chunk.
    items: usize,
    size: usize,
    /// Chunks handed out so far, and chunks done.
    taken: usize,
    finished: usize,
    done: Vec<Option<B>>,
}

/// What a worker does next.
enum Step<S> {
    Chunk(usize, std::sync::Arc<S>, usize, Range<usize>),
    Open(usize),
    Stop,
}

impl<S, O, B, C> Board<S, O, B, C> {
    fn lock(&self) -> std::sync::MutexGuard<'_, BoardState<S, O, B, C>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn work(
        &self,
        open: &impl Fn(usize) -> (S, O, usize),
        chunk: &impl Fn(&S, Range<usize>) -> B,
        close: &impl Fn(usize, &S, O, Vec<B>) -> C,
    ) {
        loop {
            match self.next_step() {
                Step::Stop => return,
                Step::Open(i) => {
                    let (shared, owned, items) = open(i);
                    let size = items.div_ceil(4 * self.workers).max(MIN_CHUNK);
                    let chunks = items.div_ceil(size);
                    let mut state = self.lock();
                    state.opening -= 1;
                    state.open[i] = Some(OpenJob {
                        shared: std::sync::Arc::new(shared),
                        owned,
                        items,
                        size,
                        taken: 0,
                        finished: 0,
                        done: (0..chunks).map(|_| None).collect(),
                    });
                    drop(state);
                    self.published.notify_all();
                    if chunks == 0 {
                        self.close_if_done(i, close);
                    }
                }
                Step::Chunk(i, shared, k, range) => {
                    let result = chunk(&shared, range);
                    drop(shared);
                    {
                        let mut state = self.lock();
                        if let Some(job) = state.open[i].as_mut() {
                            job.done[k] = Some(result);
                            job.finished += 1;
                        }
                    }
                    self.close_if_done(i, close);
                }
            }
        }
    }

    /// A chunk of the first open job that has one left, else the next job to open, else a
    /// wait for a job being opened elsewhere; [`Step::Stop`] when nothing is left to take.
    fn next_step(&self) -> Step<S> {
        let mut state = self.lock();
        loop {
            if state.failed {
                return Step::Stop;
            }
            let open = state.open.iter_mut().enumerate().find_map(|(i, job)| {
                let job = job.as_mut().filter(|j| j.taken < j.done.len())?;
                let k = job.taken;
                job.taken += 1;
                let range = k * job.size..((k + 1) * job.size).min(job.items);
                Some(Step::Chunk(i, std::sync::Arc::clone(&job.shared), k, range))
            });
            if let Some(step) = open {
                return step;
            }
            if state.next_job < state.results.len() {
                state.next_job += 1;
                state.opening += 1;
                return Step::Open(state.next_job - 1);
            }
            if state.opening == 0 {
                return Step::Stop;
            }
            state = self
                .published
                .wait(state)
                .unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Closes job `i` when its last chunk is done, on the thread that did it.
    fn close_if_done(&self, i: usize, close: &impl Fn(usize, &S, O, Vec<B>) -> C) {
        let job = {
            let mut state = self.lock();
            match &state.open[i] {
                Some(job) if job.finished == job.done.len() => state.open[i].take(),
                _ => None,
            }
        };
        let Some(OpenJob {
            shared,
            owned,
            done,
            ..
        }) = job
        else {
            return;
        };
        let result = close(i, &shared, owned, done.into_iter().flatten().collect());
        // The shared part (a file's syntax tree) is freed here, before the next job opens.
        drop(shared);
        self.lock().results[i] = Some(result);
    }
}

/// Marks the board failed when its worker unwinds, waking the workers that wait.
struct FailOnPanic<'a, S, O, B, C>(&'a Board<S, O, B, C>);

impl<S, O, B, C> Drop for FailOnPanic<'_, S, O, B, C> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().failed = true;
            self.0.published.notify_all();
        }
    }
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
    pool::scope(|s| {
        let handle = s.spawn(|| as_part(side));
        let a = main();
        (a, joined(handle))
    })
}

/// The result of a job handed to the pool. A panic in it is a bug of catalogc: raised here as
/// it would have been raised had the job run on this thread.
fn joined<R>(handle: pool::JoinHandle<'_, R>) -> R {
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
    fn split_jobs_close_in_order_with_their_chunks() {
        // Job `i` has `i * 40` items: none, one chunk, several.
        let out = map_split(
            7,
            1000,
            |i| (i * 1000, format!("job {i}"), i * 40),
            |&base, range| range.map(|k| base + k).collect::<Vec<_>>(),
            |i, &base, owned, chunks| {
                assert_eq!(base, i * 1000);
                (owned, chunks.concat())
            },
        );
        let want: Vec<_> = (0..7)
            .map(|i| {
                (
                    format!("job {i}"),
                    (0..i * 40).map(|k| i * 1000 + k).collect(),
                )
            })
            .collect();
        assert_eq!(out, want);
        let nested = map_split(
            3,
            1000,
            |_| ((), (), 100),
            |_, _| map_parts(&[1, 2, 3], 1000, <[i32]>::len).len(),
            |_, _, _, chunks| chunks,
        );
        assert!(nested.concat().iter().all(|&parts| parts == 1));
    }

    #[test]
    fn one_split_job_shares_its_chunks_among_threads() {
        let ids = map_split(
            1,
            1000,
            |_| ((), (), 1000),
            |_, range| {
                // Long enough that a second thread, when there is one, takes a chunk.
                std::thread::sleep(std::time::Duration::from_millis(20));
                (range.len(), std::thread::current().id())
            },
            |_, _, _, chunks| chunks,
        );
        let chunks = &ids[0];
        assert_eq!(chunks.iter().map(|(n, _)| n).sum::<usize>(), 1000);
        let mut seen: Vec<_> = chunks.iter().map(|(_, id)| *id).collect();
        seen.dedup();
        seen.sort_by_key(|id| format!("{id:?}"));
        seen.dedup();
        assert_eq!(seen.len(), threads().min(2), "{} chunks", chunks.len());
    }

    #[test]
    fn a_panicking_split_chunk_raises_without_hanging() {
        let result = std::panic::catch_unwind(|| {
            map_split(
                4,
                1000,
                |i| (i, (), 100),
                |&i, range| assert!(!(i == 1 && range.end == 100), "chunk failed"),
                |_, _, _, _| (),
            )
        });
        assert!(result.is_err());
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
