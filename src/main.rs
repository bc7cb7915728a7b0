// The CLI allocates many small strings and JSON values per tool; mimalloc's small-object
// path costs a fraction of glibc's (see `catalogc::alloc`).
#[global_allocator]
static ALLOC: catalogc::alloc::Mimalloc = catalogc::alloc::Mimalloc;

fn main() -> ! {
    no_huge_pages();
    let status = catalogc::cli::main();
    exit_now(status)
}

/// Ends the process with `status` once stdout is flushed, skipping the C library's exit
/// handlers. The one that costs is mimalloc's: built into the binary, it collects every heap
/// at exit and hands the freed pages back to the kernel one `madvise` at a time (23 MiB after
/// `lint` of the peer bench's 1,000 tools), just before the kernel frees the whole address
/// space anyway. `lint` of those tools, release binaries with and without it, interleaved:
/// median 52.8 → 49.1 ms, mean 53.7 → 51.6 ms (101 rounds each). Nothing else registers a
/// handler that matters: each command has written and closed its files before it returns,
/// and the Rust runtime's own exit work is the stdout flush done here.
fn exit_now(status: u8) -> ! {
    use std::io::Write;
    // A failure to write the output was reported by the command; a flush of what little a
    // `print!` may have left can only fail the same way.
    let _ = std::io::stdout().flush();
    #[cfg(unix)]
    {
        unsafe extern "C" {
            fn _exit(status: std::ffi::c_int) -> !;
        }
        // SAFETY: `_exit` takes any status and ends the process without returning; every
        // thread stops with it, as with `exit`.
        unsafe { _exit(std::ffi::c_int::from(status)) }
    }
    #[cfg(not(unix))]
    std::process::exit(i32::from(status))
}

/// Turns transparent huge pages off for this process, as mimalloc does itself under
/// `MIMALLOC_ALLOW_THP=0`. mimalloc asks for huge pages on its arenas; a run of catalogc
/// lasts tens of milliseconds, zeroes every 2 MiB page it touches, and where THP is
/// `madvise` with `defrag=madvise` (a common default) each huge-page fault may first compact
/// memory, as right after a process with a large heap. `lint` of the peer bench's 1,000
/// tools, in random order with `buf lint` runs: median 64.7 → 58.4 ms and 60.1 → 56.5 ms
/// (41 rounds each), 10,000 tools 570 → 418 ms; alone 59.4 → 57.7 ms; RSS 64 → 38 MB.
/// The kernel checks the flag at each fault, so the arena mimalloc reserved before `main`
/// is covered. Measured again with mimalloc v2: allowed, huge pages cut `lint`'s page faults
/// from 5,158 to 954 and won when only `buf lint` ran between (51.8 against 55.4 ms), but with
/// `buf breaking` in the rounds too, as `benches/peer/buf.sh` runs them, `breaking` of 1,000
/// tools took 89.4 ms against 72.5 (21 rounds), so they stay off.
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        const PR_SET_THP_DISABLE: std::ffi::c_int = 41;
        unsafe extern "C" {
            fn prctl(option: std::ffi::c_int, ...) -> std::ffi::c_int;
        }
        // The kernel refuses the call unless the unused arguments are 0.
        let (on, unused): (std::ffi::c_ulong, std::ffi::c_ulong) = (1, 0);
        // SAFETY: PR_SET_THP_DISABLE reads four integers and touches no memory of ours; a
        // kernel without it returns an error, which changes nothing.
        let _ = unsafe { prctl(PR_SET_THP_DISABLE, on, unused, unused, unused) };
    }
}
