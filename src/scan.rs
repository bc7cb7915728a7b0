//! Byte scans shared by the parser, the diagnostics, the contract writer and the linter:
//! texts are long runs of plain ASCII around the few bytes each of them acts on.

/// Bytes tested together before looking for the first special one among them.
const BLOCK: usize = 16;

/// The index of the first byte at or after `i` that is below `below`, non-ASCII or one of
/// `equal` (or `bytes.len()`): the lexer's string scanner, the line index, JSON string
/// escaping and the hidden-character test skip the plain text between the few bytes they act
/// on this way.
///
/// Inlined with `equal` a fixed-size array, so each caller's bytes are constants and the block
/// test compiles to a few wide compares instead of a loop over `equal` for every byte.
#[inline]
pub(crate) fn next_special<const N: usize>(
    bytes: &[u8],
    i: usize,
    below: u8,
    equal: &[u8; N],
) -> usize {
    let special = |b: u8| b < below || b >= 0x80 || equal.contains(&b);
    let mut at = i.min(bytes.len());
    // A block is tested whole, without stopping at its first special byte: a loop without an
    // early exit is one the compiler can turn into a few wide compares.
    for block in bytes[at..].chunks_exact(BLOCK) {
        if block.iter().fold(false, |any, &b| any | special(b)) {
            break;
        }
        at += BLOCK;
    }
    let rest = bytes[at..].iter().position(|&b| special(b));
    rest.map_or(bytes.len(), |k| at + k)
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
        // Every special byte at every offset of a block, after plain bytes that sit just above
        // the thresholds, in texts cut at every length: whole blocks and the bytes after them.
        for special in [0x00, 0x0A, 0x0D, 0x1F, b'"', b'\\', 0x7F, 0x80, 0xE2, 0xFF] {
            for pad in 0..40 {
                let mut b: Vec<u8> = (0..pad).map(|k| [b'a', 0x20, 0x0E, b'~'][k % 4]).collect();
                b.push(special);
                b.extend_from_slice(b"tail \"\\ end");
                for end in 0..=b.len() {
                    let b = &b[..end];
                    for start in 0..=b.len() + 1 {
                        assert_eq!(
                            next_special(b, start, 0x0E, &[]),
                            naive(b, start, 0x0E, &[]),
                            "{special:#x} after {pad} from {start} to {end}"
                        );
                        assert_eq!(
                            next_special(b, start, 0x20, b"\"\\\x7F"),
                            naive(b, start, 0x20, b"\"\\\x7F"),
                            "{special:#x} after {pad} from {start} to {end}"
                        );
                    }
                }
            }
        }
    }
}
