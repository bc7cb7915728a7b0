//! Byte scans shared by the parser, the diagnostics, the contract writer and the linter:
//! texts are long runs of plain ASCII around the few bytes each of them acts on.

/// The index of the first byte at or after `i` that is below `below`, non-ASCII or one of
/// `equal` (or `bytes.len()`), looking at eight bytes at a time: the lexer's string scanner,
/// the line index, JSON string escaping and the hidden-character test skip the plain text
/// between the few bytes they act on this way.
pub(crate) fn next_special(bytes: &[u8], mut i: usize, below: u8, equal: &[u8]) -> usize {
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
    use super::next_special;

    #[test]
    fn next_special_agrees_with_looking_at_each_byte() {
        let naive = |b: &[u8], i: usize, below: u8, equal: &[u8]| {
            (i..b.len())
                .find(|&k| b[k] < below || b[k] >= 0x80 || equal.contains(&b[k]))
                .unwrap_or(b.len())
        };
        // Every special byte at every offset of a word, after plain bytes that sit just above
        // the thresholds (a borrow must not hide or invent a flag).
        for special in [0x00, 0x0A, 0x0D, 0x1F, b'"', b'\\', 0x7F, 0x80, 0xE2, 0xFF] {
            for pad in 0..20 {
                let mut b: Vec<u8> = (0..pad).map(|k| [b'a', 0x20, 0x0E, b'~'][k % 4]).collect();
                b.push(special);
                b.extend_from_slice(b"tail \"\\ end");
                for start in 0..b.len() {
                    for (below, equal) in [(0x0E, &b""[..]), (0x20, &b"\"\\\x7F"[..])] {
                        assert_eq!(
                            next_special(&b, start, below, equal),
                            naive(&b, start, below, equal),
                            "{special:#x} after {pad} from {start}"
                        );
                    }
                }
            }
        }
    }
}
