//! Byte scans shared by the parser, the diagnostics, the contract writer and the linter:
//! texts are long runs of plain ASCII around the few bytes each of them acts on.

/// The index of the first byte at or after `i` that is below `below`, non-ASCII or one of
/// `equal` (or `bytes.len()`): the lexer's string scanner, the line index, JSON string
/// escaping and the hidden-character test skip the plain text between the few bytes they act
/// on this way. `below` is ASCII (below 0x80).
pub(crate) fn next_special(bytes: &[u8], i: usize, below: u8, equal: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: the function only needs SSE2, which every x86-64 processor has.
        unsafe { sse2::next_special(bytes, i, below, equal) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        swar_next_special(bytes, i, below, equal)
    }
}

/// SSE2 is part of x86-64 itself, so no feature test is needed. Sixteen bytes are tested at a
/// time, and the last few bytes of a text as one more (overlapping or padded) block: most of
/// the texts scanned are short (JSON keys and docs, KDL strings of a few dozen bytes), where
/// a byte-at-a-time tail cost as much as the rest of the scan.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x,
        _mm_set1_epi8,
    };

    /// Flag bit `k` of the result is set when byte `k` of `block` is special.
    #[target_feature(enable = "sse2")]
    fn flags(block: &[u8; 16], below: __m128i, equal: &[__m128i]) -> u32 {
        let half = |k: usize| {
            let mut word = [0u8; 8];
            word.copy_from_slice(&block[k..k + 8]);
            i64::from_le_bytes(word)
        };
        // Compiles to one unaligned load.
        let x = _mm_set_epi64x(half(8), half(0));
        // A signed compare: a byte of 0x80 or more is negative, so it is below `below` too.
        let mut m = _mm_cmplt_epi8(x, below);
        for &e in equal {
            m = _mm_or_si128(m, _mm_cmpeq_epi8(x, e));
        }
        (_mm_movemask_epi8(m) as u32) & 0xFFFF
    }

    #[target_feature(enable = "sse2")]
    pub(super) fn next_special(bytes: &[u8], mut i: usize, below: u8, equal: &[u8]) -> usize {
        let len = bytes.len();
        if i >= len {
            return len;
        }
        let mut splats = [_mm_set1_epi8(0); 4];
        if below >= 0x80 || equal.len() > splats.len() {
            // Not what the callers ask; the portable scan answers it.
            return super::swar_next_special(bytes, i, below, equal);
        }
        for (splat, &e) in splats.iter_mut().zip(equal) {
            *splat = _mm_set1_epi8(e as i8);
        }
        let equal = &splats[..equal.len()];
        let below = _mm_set1_epi8(below as i8);
        while let Some(block) = bytes.get(i..i + 16) {
            let mut b = [0u8; 16];
            b.copy_from_slice(block);
            let m = flags(&b, below, equal);
            if m != 0 {
                return i + m.trailing_zeros() as usize;
            }
            i += 16;
        }
        if i == len {
            return len;
        }
        let rest = len - i;
        let m = if len >= 16 {
            // The last sixteen bytes, of which the first `16 - rest` were already tested.
            let mut b = [0u8; 16];
            b.copy_from_slice(&bytes[len - 16..]);
            flags(&b, below, equal) >> (16 - rest)
        } else {
            let mut b = [0u8; 16];
            b[..rest].copy_from_slice(&bytes[i..]);
            flags(&b, below, equal) & ((1u32 << rest) - 1)
        };
        if m != 0 {
            i + m.trailing_zeros() as usize
        } else {
            len
        }
    }
}

/// [`next_special`] eight bytes at a time in a `u64`: for targets without SSE2, and for a
/// `below` or a set of `equal` bytes the SSE2 scan does not take.
fn swar_next_special(bytes: &[u8], mut i: usize, below: u8, equal: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let splat = |b: u8| ONES * u64::from(b);
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word);
        // A byte below `below` borrows into its high bit, a non-ASCII byte has it set, and a
        // byte equal to `e` is a zero byte of `x ^ splat(e)`. A borrow only carries upwards
        // from a flagged byte, so the lowest flag is a true one.
        let mut flags = (x.wrapping_sub(splat(below)) | x) & HIGH;
        for &e in equal {
            let v = x ^ splat(e);
            flags |= v.wrapping_sub(ONES) & !v & HIGH;
        }
        if flags != 0 {
            return i + (flags.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b < below || b >= 0x80 || equal.contains(&b) {
            return i;
        }
        i += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::{next_special, swar_next_special};

    #[test]
    fn next_special_agrees_with_looking_at_each_byte() {
        let naive = |b: &[u8], i: usize, below: u8, equal: &[u8]| {
            (i..b.len())
                .find(|&k| b[k] < below || b[k] >= 0x80 || equal.contains(&b[k]))
                .unwrap_or(b.len())
        };
        // Every special byte at every offset of a block, after plain bytes that sit just above
        // the thresholds (a borrow must not hide or invent a flag), in texts cut at every
        // length: whole blocks, the overlapping last block and the padded short text.
        for special in [0x00, 0x0A, 0x0D, 0x1F, b'"', b'\\', 0x7F, 0x80, 0xE2, 0xFF] {
            for pad in 0..40 {
                let mut b: Vec<u8> = (0..pad).map(|k| [b'a', 0x20, 0x0E, b'~'][k % 4]).collect();
                b.push(special);
                b.extend_from_slice(b"tail \"\\ end");
                for end in 0..=b.len() {
                    let b = &b[..end];
                    for start in 0..=b.len() + 1 {
                        for (below, equal) in [(0x0E, &b""[..]), (0x20, &b"\"\\\x7F"[..])] {
                            let want = naive(b, start, below, equal);
                            assert_eq!(
                                next_special(b, start, below, equal),
                                want,
                                "{special:#x} after {pad} from {start} to {end}"
                            );
                            assert_eq!(swar_next_special(b, start, below, equal), want);
                        }
                    }
                }
            }
        }
    }
}
