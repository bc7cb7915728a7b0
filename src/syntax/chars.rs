//! Character classes of the KDL v2 grammar.

pub(crate) use crate::scan::next_special;

/// `unicode-space`: white space that is not a newline.
pub(crate) fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
    )
}

/// The first character of a `newline` (CRLF is handled by the callers).
pub(crate) fn is_newline(c: char) -> bool {
    matches!(
        c,
        '\r' | '\n' | '\u{85}' | '\u{0B}' | '\u{0C}' | '\u{2028}' | '\u{2029}'
    )
}

/// Code points that may not appear literally anywhere (the BOM is allowed only at offset 0,
/// which the lexer checks before calling this).
pub(crate) fn is_disallowed(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{8}'
            | '\u{E}'..='\u{1F}'
            | '\u{7F}'
            | '\u{200E}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// Bit `b` is set when the ASCII byte `b` is an `identifier-char`: one shift and mask per
/// byte of every name and bare word, in place of a chain of comparisons.
const ASCII_IDENT: u128 = {
    let mut bits = 0u128;
    let mut b = b'!';
    while b < 0x7F {
        if !matches!(
            b,
            b'\\' | b'/' | b'(' | b')' | b'{' | b'}' | b';' | b'[' | b']' | b'"' | b'#' | b'='
        ) {
            bits |= 1 << b;
        }
        b += 1;
    }
    bits
};

/// `identifier-char`.
#[inline]
pub(crate) fn is_ident_char(c: char) -> bool {
    if c.is_ascii() {
        return ASCII_IDENT >> (c as u32) & 1 == 1;
    }
    !is_space(c) && !is_newline(c) && !is_disallowed(c)
}

/// Length in bytes of the newline starting at `i`, or 0.
#[inline]
pub(crate) fn newline_len(src: &str, i: usize) -> usize {
    let b = src.as_bytes();
    match b.get(i) {
        Some(b'\n') | Some(0x0B) | Some(0x0C) => 1,
        Some(b'\r') => {
            if b.get(i + 1) == Some(&b'\n') {
                2
            } else {
                1
            }
        }
        Some(&x) if x >= 0x80 => match src[i..].chars().next() {
            Some(c @ ('\u{85}' | '\u{2028}' | '\u{2029}')) => c.len_utf8(),
            _ => 0,
        },
        _ => 0,
    }
}

/// Whether `s` needs quoting to be read back as the same string.
pub fn is_plain_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !s.chars().all(is_ident_char) {
        return false;
    }
    if matches!(s, "true" | "false" | "null" | "inf" | "-inf" | "nan") {
        return false;
    }
    let second = chars.next();
    let third = chars.next();
    let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
    match first {
        '0'..='9' => false,
        '+' | '-' => !(digit(second) || second == Some('.') && digit(third)),
        '.' => !digit(second),
        _ => true,
    }
}

/// `s` as a KDL quoted string that reads back as `s`: `"`, `\\`, control characters, newlines
/// and code points KDL disallows are escaped (`\n`, `\t`, `\b`, … or `\u{…}`); everything
/// else is written as is.
pub fn quote(s: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{C}' => out.push_str("\\f"),
            // Newlines other than `\n` (U+2028 …) and code points KDL forbids in a document
            // cannot stand literally inside a quoted string either.
            c if c.is_control() || is_newline(c) || is_disallowed(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::is_ident_char;

    #[test]
    fn the_ascii_identifier_table_is_the_grammar() {
        for b in 0u8..0x80 {
            let c = b as char;
            let grammar = c > ' '
                && c != '\u{7F}'
                && !matches!(
                    c,
                    '\\' | '/' | '(' | ')' | '{' | '}' | ';' | '[' | ']' | '"' | '#' | '='
                );
            assert_eq!(is_ident_char(c), grammar, "{b:#x}");
        }
    }
}
