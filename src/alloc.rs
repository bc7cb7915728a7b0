//! The allocator of the `catalogc` binary (and of the benchmarks that time what it runs):
//! mimalloc, called the way its own `realloc` calls itself.
//!
//! A run of `catalogc lint` allocates a few hundred thousand small strings, vectors and JSON
//! values; glibc's malloc took a fifth of its instructions. The `mimalloc` crate's wrapper
//! sends every allocation through `mi_malloc_aligned`, whose checks cost 2.4% of the
//! instructions of `lint` on 1,000 tools (369.0M against 378.0M, callgrind), although almost
//! every Rust layout asks for no more than the word alignment that every mimalloc block has.
//! This one calls `mi_malloc` for those, as mimalloc's `mi_realloc_aligned` does itself.
//!
//! mimalloc v2, not v3: on the same run v3 executed 413.8M instructions against v2's 378.0M
//! (its option lookups and bitmaps are on the allocation path) and faulted in 13% more pages;
//! in random order, `lint` of 1,000 tools took 57.8 ms with v3 and 53.1 ms with v2 (medians
//! of 60 runs each).

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// Every mimalloc block is aligned to a word (its size classes are whole words).
const WORD: usize = std::mem::size_of::<usize>();

/// mimalloc as the global allocator: `#[global_allocator] static A: Mimalloc = Mimalloc;`.
pub struct Mimalloc;

// SAFETY: each method forwards to the mimalloc function with the same contract (a block of at
// least the size, aligned as asked, null on failure; `mi_free` and `mi_realloc*` take any
// block mimalloc returned). A layout aligned to at most a word goes to the unaligned
// functions, whose blocks are word-aligned.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe { new_block(layout, mi_malloc, mi_malloc_aligned) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe { new_block(layout, mi_zalloc, mi_zalloc_aligned) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: see the impl.
        unsafe { mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe {
            if layout.align() <= WORD {
                mi_realloc(ptr.cast::<c_void>(), new_size).cast()
            } else {
                mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
            }
        }
    }
}

/// A block for `layout` from `word` (word-aligned blocks) or, for a larger alignment, from
/// `aligned`.
///
/// # Safety
/// `word` and `aligned` are a mimalloc allocation function and its aligned form.
#[inline]
unsafe fn new_block(
    layout: Layout,
    word: unsafe extern "C" fn(usize) -> *mut c_void,
    aligned: unsafe extern "C" fn(usize, usize) -> *mut c_void,
) -> *mut u8 {
    // SAFETY: the caller passes mimalloc functions, which take any size and alignment.
    unsafe {
        if layout.align() <= WORD {
            word(layout.size()).cast()
        } else {
            aligned(layout.size(), layout.align()).cast()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_have_the_alignment_asked_for() {
        let a = Mimalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 7, 8, 24, 40, 100, 1000, 70_000] {
                let Ok(layout) = Layout::from_size_align(size, align) else {
                    continue;
                };
                // SAFETY: a non-zero size; each block is freed once, with its layout.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(
                        !p.is_null() && (p as usize).is_multiple_of(align),
                        "{size} {align}"
                    );
                    p.write_bytes(0xA5, size);
                    let z = a.alloc_zeroed(layout);
                    assert!((z as usize).is_multiple_of(align));
                    assert!(std::slice::from_raw_parts(z, size).iter().all(|&b| b == 0));
                    let q = a.realloc(p, layout, size * 3);
                    assert!(
                        !q.is_null() && (q as usize).is_multiple_of(align),
                        "{size} {align}"
                    );
                    assert!(
                        std::slice::from_raw_parts(q, size)
                            .iter()
                            .all(|&b| b == 0xA5)
                    );
                    a.dealloc(q, Layout::from_size_align_unchecked(size * 3, align));
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
