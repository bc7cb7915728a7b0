//! Where a new worker first runs: on another core than the thread that starts it.
//!
//! Linux often queues a new thread on the core of the thread that created it, and a thread
//! woken from a wait on a lock the other one held (the address-space lock that a starting
//! thread's `mmap`s and `mprotect`s take while the other faults pages in) may be woken onto
//! the waker's core. Two busy threads on one core then take turns in 4 ms slices while the
//! other core idles, until the load balancer moves one, which on the bench's two-core VM took
//! 8 to 35 ms. `perf sched` over 20 runs of `lint` on 1,000 tools: the threads waited 3.7 ms
//! a run for a core they shared, 0.3 ms with this.
//!
//! So the starting thread narrows the new worker's CPU affinity to every allowed core but its
//! own, which moves the queued worker at once, and the worker widens it back to the full set
//! as soon as it runs (on the other core, where it stays); from then on the scheduler places
//! it freely again. Elsewhere, or with one allowed core, nothing
//! is done.

/// What a worker needs to undo its placement: the affinity it was started with.
pub struct Placement {
    #[cfg(target_os = "linux")]
    linux: linux::Placement,
}

impl Placement {
    /// Read before the worker is spawned, on the thread that spawns it.
    pub fn new() -> Placement {
        Placement {
            #[cfg(target_os = "linux")]
            linux: linux::Placement::new(),
        }
    }

    /// Moves the just-spawned `worker` off the spawning thread's core.
    pub fn apart(&self, worker: &std::thread::JoinHandle<()>) {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::thread::JoinHandleExt;
            self.linux.apart(worker.as_pthread_t());
        }
        #[cfg(not(target_os = "linux"))]
        let _ = worker;
    }

    /// On the worker, once [`Placement::apart`] has run: gives back the full affinity if it
    /// narrowed it.
    pub fn settle(&self) {
        #[cfg(target_os = "linux")]
        self.linux.settle();
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::{c_int, c_ulong};
    use std::sync::atomic::{AtomicBool, Ordering};

    /// glibc's `cpu_set_t`: a bit per CPU, 1,024 CPUs.
    #[repr(C)]
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct CpuSet([u64; 16]);

    const SET_SIZE: usize = std::mem::size_of::<CpuSet>();

    unsafe extern "C" {
        fn sched_getcpu() -> c_int;
        fn sched_getaffinity(pid: c_int, size: usize, set: *mut CpuSet) -> c_int;
        fn sched_setaffinity(pid: c_int, size: usize, set: *const CpuSet) -> c_int;
        fn pthread_setaffinity_np(thread: c_ulong, size: usize, set: *const CpuSet) -> c_int;
    }

    impl CpuSet {
        /// The set without `cpu`, unless that leaves it empty or `cpu` is not in it.
        pub fn without(self, cpu: c_int) -> Option<CpuSet> {
            let cpu = usize::try_from(cpu).ok()?;
            let (word, bit) = (cpu / 64, 1u64 << (cpu % 64));
            let mut rest = self;
            *rest.0.get_mut(word)? &= !bit;
            (rest != self && rest.0.iter().any(|&w| w != 0)).then_some(rest)
        }
    }

    pub struct Placement {
        /// The spawning thread's affinity, which the worker inherits; `None` when unknown.
        full: Option<CpuSet>,
        /// Narrowed by `apart`.
        narrowed: AtomicBool,
    }

    impl Placement {
        pub fn new() -> Placement {
            let mut set = CpuSet([0; 16]);
            // SAFETY: `set` is a writable cpu_set_t of the size passed.
            let read = unsafe { sched_getaffinity(0, SET_SIZE, &mut set) } == 0;
            Placement {
                full: read.then_some(set),
                narrowed: AtomicBool::new(false),
            }
        }

        pub fn apart(&self, thread: c_ulong) {
            // SAFETY: no arguments; -1 when the kernel cannot say.
            let here = unsafe { sched_getcpu() };
            let Some(apart) = self.full.and_then(|full| full.without(here)) else {
                return;
            };
            // SAFETY: `thread` is a live thread of this process (its handle is held by the
            // caller) and `apart` a cpu_set_t of the size passed.
            if unsafe { pthread_setaffinity_np(thread, SET_SIZE, &apart) } == 0 {
                self.narrowed.store(true, Ordering::Release);
            }
        }

        pub fn settle(&self) {
            if !self.narrowed.load(Ordering::Acquire) {
                return;
            }
            if let Some(full) = &self.full {
                // SAFETY: `full` is a cpu_set_t of the size passed; pid 0 is this thread. A
                // failure leaves the worker on the narrowed set, which still holds a core.
                let _ = unsafe { sched_setaffinity(0, SET_SIZE, full) };
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn a_set_without_a_cpu() {
            let mut two = CpuSet([0; 16]);
            two.0[0] = 0b11;
            two.0[1] = 1;
            let mut rest = two;
            rest.0[0] = 0b10;
            assert_eq!(two.without(0), Some(rest));
            // Not in the set, out of range, or the only one: nothing to narrow to.
            assert_eq!(two.without(5), None);
            assert_eq!(two.without(-1), None);
            assert_eq!(two.without(4096), None);
            let mut one = CpuSet([0; 16]);
            one.0[0] = 0b100;
            assert_eq!(one.without(2), None);
        }

        #[test]
        fn a_worker_is_started_apart_and_settles_back_to_the_full_set() {
            let placement = std::sync::Arc::new(Placement::new());
            let Some(full) = placement.full else { return };
            let on_worker = std::sync::Arc::clone(&placement);
            let (go, wait) = std::sync::mpsc::channel::<()>();
            let worker = std::thread::spawn(move || {
                let _ = wait.recv();
                let read = || {
                    let mut set = CpuSet([0; 16]);
                    // SAFETY: as in `Placement::new`.
                    unsafe { sched_getaffinity(0, SET_SIZE, &mut set) };
                    set
                };
                let before = read();
                on_worker.settle();
                (before, read())
            });
            let narrowed = {
                use std::os::unix::thread::JoinHandleExt;
                placement.apart(worker.as_pthread_t());
                placement.narrowed.load(Ordering::Acquire)
            };
            let _ = go.send(());
            let (before, after) = worker.join().unwrap_or((full, full));
            if narrowed {
                // One allowed core fewer while narrowed (the starter's), all of them after.
                assert_ne!(before, full);
                assert_eq!(after, full);
            } else {
                // One allowed core: the worker was left as it was.
                assert_eq!((before, after), (full, full));
            }
        }
    }
}
