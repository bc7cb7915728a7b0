//! The threads that [`super`]'s splits run on, kept for the whole process, and a scope like
//! [`std::thread::scope`] that hands its work to them.
//!
//! A run of `catalogc lint` splits its work four times (automata beside the load, the load,
//! the contracts, the rules). A thread spawned for each split starts with an empty allocator
//! heap: everything it allocates lands on pages the kernel has to fault in and zero (2.4 µs
//! a page on the bench's machine), while the pages that the previous split's thread freed sit
//! unused, and its exit first walks its heap to abandon it (up to a millisecond, while the
//! splitting thread waits in `join`). A worker kept from split to split reuses its own freed
//! memory and never exits: on 1,000 tools a thread per split faulted in 1,300 more pages than
//! a sequential run.

use super::place::Placement;
use std::collections::VecDeque;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};

/// Work handed to a worker; it never unwinds (see [`Scope::spawn`]).
type Job = Box<dyn FnOnce() + Send + 'static>;

struct Pool {
    state: Mutex<Queue>,
    /// Signalled when a job is queued.
    queued: Condvar,
    /// The most workers the pool starts.
    max_workers: usize,
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    workers: usize,
    /// Workers waiting for a job.
    idle: usize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Nothing runs user code while holding these locks: a poisoned one holds consistent data.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool {
        state: Mutex::new(Queue::default()),
        queued: Condvar::new(),
        // The splitting thread works too: one worker fewer than the threads a split may use.
        max_workers: super::threads().saturating_sub(1).max(1),
    })
}

impl Pool {
    /// Queues `job`, starting a worker when none is idle and fewer than the most run; runs
    /// it here when no worker can be started.
    fn submit(&'static self, job: Job) {
        let mut state = lock(&self.state);
        if state.idle == 0 && state.workers < self.max_workers {
            let placement = Arc::new(Placement::new());
            let on_worker = Arc::clone(&placement);
            let spawned = std::thread::Builder::new()
                .name("catalogc-worker".into())
                .spawn(move || self.work(&on_worker));
            if let Ok(worker) = &spawned {
                placement.apart(worker);
                state.workers += 1;
            } else if state.workers == 0 {
                // No thread to be had (a process limit): the job runs now, sequentially.
                drop(state);
                job();
                return;
            }
        }
        state.jobs.push_back(job);
        drop(state);
        self.queued.notify_one();
    }

    fn work(&self, placement: &Placement) {
        let mut state = lock(&self.state);
        // `submit` placed this worker while holding the lock just taken.
        placement.settle();
        loop {
            if let Some(job) = state.jobs.pop_front() {
                drop(state);
                job();
                state = lock(&self.state);
                continue;
            }
            state.idle += 1;
            state = self
                .queued
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
            state.idle -= 1;
        }
    }
}

/// How many of a scope's jobs have not finished.
#[derive(Default)]
struct Pending {
    count: Mutex<usize>,
    finished: Condvar,
}

impl Pending {
    fn wait_for_all(&self) {
        let mut count = lock(&self.count);
        while *count > 0 {
            count = self
                .finished
                .wait(count)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// A job's result, put by the worker and taken by [`JoinHandle::join`].
struct Slot<T> {
    value: Mutex<Option<std::thread::Result<T>>>,
    put: Condvar,
}

/// A scope whose jobs all finish before [`scope`] returns, as with [`std::thread::Scope`].
pub struct Scope<'scope, 'env: 'scope> {
    pending: Arc<Pending>,
    scope: PhantomData<&'scope mut &'scope ()>,
    env: PhantomData<&'env mut &'env ()>,
}

/// The result of one job of a [`Scope`].
pub struct JoinHandle<'scope, T> {
    slot: Arc<Slot<T>>,
    scope: PhantomData<&'scope ()>,
}

/// Runs `f` with a scope whose jobs run on the pool's workers; returns when `f` has returned
/// and every job has finished, re-raising a panic of `f`.
pub fn scope<'env, F, T>(f: F) -> T
where
    F: for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T,
{
    let scope = Scope {
        pending: Arc::new(Pending::default()),
        scope: PhantomData,
        env: PhantomData,
    };
    let result = catch_unwind(AssertUnwindSafe(|| f(&scope)));
    // Also when `f` unwound: the jobs borrow what `f`'s caller holds.
    scope.pending.wait_for_all();
    result.unwrap_or_else(|panic| resume_unwind(panic))
}

impl<'scope> Scope<'scope, '_> {
    /// Runs `f` on a worker; a panic in it is returned by [`JoinHandle::join`].
    pub fn spawn<F, T>(&'scope self, f: F) -> JoinHandle<'scope, T>
    where
        F: FnOnce() -> T + Send + 'scope,
        T: Send + 'scope,
    {
        let slot = Arc::new(Slot {
            value: Mutex::new(None),
            put: Condvar::new(),
        });
        *lock(&self.pending.count) += 1;
        let pending = Arc::clone(&self.pending);
        let put = Arc::clone(&slot);
        let job: Box<dyn FnOnce() + Send + 'scope> = Box::new(move || {
            let result = catch_unwind(AssertUnwindSafe(f));
            *lock(&put.value) = Some(result);
            put.put.notify_all();
            // The result is dropped here when its handle is gone: it may borrow from 'scope.
            drop(put);
            let mut count = lock(&pending.count);
            *count -= 1;
            // Nothing of 'scope may be touched after this: `scope` may return now.
            pending.finished.notify_all();
        });
        // SAFETY: the job only outlives 'scope in type: `scope` does not return or unwind
        // before `pending` counts it finished, which it does as its last use of anything
        // borrowed (`f` has run and its result is in the slot or dropped); what it touches
        // after that (`pending`, behind an `Arc`) is owned, not borrowed.
        let job: Job =
            unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + 'scope>, Job>(job) };
        pool().submit(job);
        JoinHandle {
            slot,
            scope: PhantomData,
        }
    }
}

impl<T> JoinHandle<'_, T> {
    /// Waits for the job; `Err` holds its panic.
    pub fn join(self) -> std::thread::Result<T> {
        let mut value = lock(&self.slot.value);
        loop {
            if let Some(result) = value.take() {
                return result;
            }
            value = self
                .slot
                .put
                .wait(value)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_borrow_the_callers_data_and_return_in_order() {
        let words = ["a", "bb", "ccc"];
        let lengths = scope(|s| {
            let handles: Vec<_> = words.iter().map(|w| s.spawn(move || w.len())).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(0))
                .collect::<Vec<_>>()
        });
        assert_eq!(lengths, [1, 2, 3]);
    }

    #[test]
    fn a_panicking_job_is_reported_by_its_handle_and_the_pool_goes_on() {
        let joined = scope(|s| s.spawn(|| -> usize { panic!("job failed") }).join());
        let panic = joined.err().and_then(|p| p.downcast_ref::<&str>().copied());
        assert_eq!(panic, Some("job failed"));
        assert_eq!(scope(|s| s.spawn(|| 7).join().ok()), Some(7));
    }

    #[test]
    fn scope_waits_for_jobs_whose_handles_were_dropped() {
        let done = std::sync::atomic::AtomicUsize::new(0);
        scope(|s| {
            for _ in 0..4 {
                drop(s.spawn(|| {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }));
            }
        });
        assert_eq!(done.load(std::sync::atomic::Ordering::SeqCst), 4);
    }

    #[test]
    fn workers_are_kept_from_scope_to_scope() {
        let mut ids = std::collections::HashSet::new();
        for _ in 0..20 {
            ids.extend(scope(|s| {
                s.spawn(|| std::thread::current().id()).join().ok()
            }));
        }
        // A thread per scope would have given 20 (other tests share the pool, never more).
        assert!(
            !ids.is_empty() && ids.len() <= pool().max_workers,
            "{ids:?}"
        );
    }
}
