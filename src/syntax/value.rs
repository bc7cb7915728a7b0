//! Decoding token text into values: string escapes and dedent, numbers of any size.

use super::chars::{is_newline, is_space, newline_len};
use super::lexer::Errors;
use super::tree::TokenKind;
use super::{Number, Span};

/// The characters a string token writes, each with the byte range of the token text that
/// wrote it: the character itself, or the escape (`\u{200B}`, `\b`) that stands for it.
/// Delimiters (`"`, `#`) come out as themselves; escapes are resolved only in quoted and
/// multi-line strings (the token starts with `"`), and white-space escapes write nothing.
/// Literal newlines are left out: a multi-line string's value holds each as `\n`, whatever the
/// source wrote, and no other string may hold one. An iterator over the text, so scanning a
/// huge literal allocates nothing.
pub(crate) fn written_chars(
    token: &str,
) -> impl Iterator<Item = (std::ops::Range<usize>, char)> + '_ {
    let escapes = token.starts_with('"');
    let mut i = 0;
    std::iter::from_fn(move || {
        loop {
            let c = token.get(i..)?.chars().next()?;
            let start = i;
            i += c.len_utf8();
            if is_newline(c) {
                i = start + newline_len(token, start).max(c.len_utf8());
                continue;
            }
            if c != '\\' || !escapes {
                return Some((start..i, c));
            }
            let e = token.get(i..)?.chars().next()?;
            i += e.len_utf8();
            let decoded = match e {
                'n' => '\n',
                'r' => '\r',
                't' => '\t',
                'b' => '\u{8}',
                'f' => '\u{C}',
                's' => ' ',
                'u' => {
                    // Malformed escapes were reported by the parser and write nothing.
                    let Some(rest) = token.get(i..).and_then(|r| r.strip_prefix('{')) else {
                        continue;
                    };
                    let digits = rest
                        .bytes()
                        .take(7)
                        .take_while(u8::is_ascii_hexdigit)
                        .count();
                    if digits > 6 || rest.as_bytes().get(digits) != Some(&b'}') {
                        continue;
                    }
                    i += digits + 2;
                    let code = rest
                        .get(..digits)
                        .and_then(|d| u32::from_str_radix(d, 16).ok());
                    match code.and_then(char::from_u32) {
                        Some(d) => d,
                        None => continue,
                    }
                }
                e if is_space(e) || newline_len(token, start + 1) > 0 => {
                    while let Some(c) = token.get(i..).and_then(|r| r.chars().next()) {
                        let n = newline_len(token, i);
                        if is_space(c) {
                            i += c.len_utf8();
                        } else if n > 0 {
                            i += n;
                        } else {
                            break;
                        }
                    }
                    continue;
                }
                '\\' | '"' => e,
                // Invalid escapes were reported by the parser and write nothing.
                _ => continue,
            };
            return Some((start..i, decoded));
        }
    })
}

/// Non-decimal integers longer than this many significant digits are rejected: converting
/// them to decimal is quadratic, and no catalog needs a number this large.
pub(crate) const MAX_RADIX_DIGITS: usize = 1024;

/// Decodes a string token, appending its value to `out`. `text` is the whole token text, `at`
/// its offset in the source.
pub(crate) fn decode_string(
    kind: TokenKind,
    text: &str,
    at: usize,
    errors: &mut Errors,
    out: &mut String,
) {
    match kind {
        TokenKind::Ident => out.push_str(text),
        TokenKind::QuotedString => {
            let body = strip(text, 1, 1);
            if !body.contains('\\') {
                // Fast path; literal newlines were already reported by the lexer.
                out.push_str(body);
                return;
            }
            unescape(body, at + 1, errors, out);
        }
        TokenKind::RawString | TokenKind::V1RawString => {
            let lead = if kind == TokenKind::V1RawString { 1 } else { 0 };
            let hashes = text[lead..].bytes().take_while(|&b| b == b'#').count();
            let open = lead + hashes + 1;
            let closer = format!("\"{}", "#".repeat(hashes));
            let end = if text.len() >= open + closer.len() && text.ends_with(&closer) {
                text.len() - closer.len()
            } else {
                text.len()
            };
            out.push_str(text.get(open..end).unwrap_or(""));
        }
        TokenKind::MultiLineString | TokenKind::RawMultiLineString => {
            let raw = kind == TokenKind::RawMultiLineString;
            let hashes = text.bytes().take_while(|&b| b == b'#').count();
            let open = hashes + 3;
            let closed = text.len() >= open + 3 + hashes
                && text.ends_with(&format!("\"\"\"{}", "#".repeat(hashes)));
            if !closed {
                // Reported by the lexer; dedenting a string cut off at the end of the file
                // would only add noise.
                return;
            }
            let body = text.get(open..text.len() - 3 - hashes).unwrap_or("");
            out.push_str(&multiline(
                body,
                raw,
                at + open,
                Span::new(at, at + text.len()),
                errors,
            ));
        }
        _ => {}
    }
}

fn strip(text: &str, lead: usize, trail: usize) -> &str {
    if text.len() >= lead + trail && text.ends_with('"') && text.len() > lead {
        &text[lead..text.len() - trail]
    } else {
        text.get(lead..).unwrap_or("")
    }
}

/// Resolves escapes of a single-line body (or of a dedented multi-line body) into `out`.
fn unescape(body: &str, at: usize, errors: &mut Errors, out: &mut String) {
    let b = body.as_bytes();
    let mut i = 0;
    let mut run = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        out.push_str(&body[run..i]);
        let esc = i;
        i += 1;
        let Some(c) = body[i..].chars().next() else {
            // A trailing lone `\` (unclosed string): already reported.
            run = i;
            break;
        };
        i += c.len_utf8();
        match c {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '\\' => out.push('\\'),
            '"' => out.push('"'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{C}'),
            's' => out.push(' '),
            'u' => i = unicode_escape(body, esc, i, at, errors, out),
            c if is_space(c) || newline_len(body, i - c.len_utf8()) > 0 => {
                while i < b.len() {
                    if let Some(c) = body[i..].chars().next()
                        && is_space(c)
                    {
                        i += c.len_utf8();
                        continue;
                    }
                    let n = newline_len(body, i);
                    if n == 0 {
                        break;
                    }
                    i += n;
                }
            }
            other => {
                let help = if other == '/' {
                    "`/` needs no escape: write `/`".to_string()
                } else {
                    "the escapes are `\\n \\r \\t \\\\ \\\" \\b \\f \\s \\u{...}` and `\\` before white space; write `\\\\` for a backslash, or use a raw string `#\"...\"#`".to_string()
                };
                errors.push(
                    "syntax/invalid-escape",
                    Span::new(at + esc, at + i),
                    format!("`\\{other}` is not a valid escape"),
                    Some(help),
                );
            }
        }
        run = i;
    }
    if run < body.len() {
        out.push_str(&body[run..]);
    }
}

/// `\u{...}`: `i` is just after the `u`; returns the index after the escape.
fn unicode_escape(
    body: &str,
    esc: usize,
    mut i: usize,
    at: usize,
    errors: &mut Errors,
    out: &mut String,
) -> usize {
    let b = body.as_bytes();
    let bad = |errors: &mut Errors, end: usize, msg: String| {
        errors.push(
            "syntax/invalid-escape",
            Span::new(at + esc, at + end),
            msg,
            Some(
                "write `\\u{` + 1 to 6 hex digits of a Unicode scalar value + `}`, e.g. `\\u{e9}`"
                    .into(),
            ),
        );
    };
    if b.get(i) != Some(&b'{') {
        bad(errors, i, "`\\u` must be followed by `{hex digits}`".into());
        return i;
    }
    i += 1;
    let digits_start = i;
    while i < b.len() && b[i].is_ascii_hexdigit() {
        i += 1;
    }
    let digits = &body[digits_start..i];
    if b.get(i) != Some(&b'}') || digits.is_empty() || digits.len() > 6 {
        if b.get(i) == Some(&b'}') {
            i += 1;
        }
        bad(errors, i, "malformed `\\u{...}` escape".into());
        return i;
    }
    i += 1;
    let code = u32::from_str_radix(digits, 16).unwrap_or(u32::MAX);
    match char::from_u32(code) {
        Some(c) => out.push(c),
        None => bad(
            errors,
            i,
            format!(
                "U+{code:X} is not a Unicode scalar value (surrogates and values above 10FFFF cannot be written)"
            ),
        ),
    }
    i
}

/// Multi-line string: resolve whitespace escapes, dedent by the last line, then resolve the
/// remaining escapes. `body` is between `"""` and the closing `"""`, starting with the newline.
fn multiline(body: &str, raw: bool, body_at: usize, whole: Span, errors: &mut Errors) -> String {
    let first_nl = newline_len(body, 0);
    if first_nl == 0 {
        // Reported by the lexer.
        return String::new();
    }
    let content = &body[first_nl..];
    // Pass 1: drop whitespace escapes (keeping other escapes verbatim for pass 3) and
    // normalize newlines to `\n`.
    let mut text = String::with_capacity(content.len());
    let b = content.as_bytes();
    let mut i = 0;
    let mut run = 0;
    while i < b.len() {
        let byte = b[i];
        if byte == b'\\' && !raw {
            let after = i + 1;
            let ws = content[after..]
                .chars()
                .next()
                .is_some_and(|c| is_space(c) || newline_len(content, after) > 0);
            if ws {
                text.push_str(&content[run..i]);
                i = after;
                loop {
                    if let Some(c) = content[i..].chars().next()
                        && is_space(c)
                    {
                        i += c.len_utf8();
                        continue;
                    }
                    let n = newline_len(content, i);
                    if n == 0 {
                        break;
                    }
                    i += n;
                }
                run = i;
            } else {
                // Keep `\x` together so an escaped backslash never starts a whitespace escape.
                i = after + content[after..].chars().next().map_or(0, char::len_utf8);
            }
            continue;
        }
        let n = newline_len(content, i);
        if n > 0 && !(n == 1 && byte == b'\n') {
            text.push_str(&content[run..i]);
            text.push('\n');
            i += n;
            run = i;
            continue;
        }
        i += if byte < 0x80 {
            1
        } else {
            content[i..].chars().next().map_or(1, char::len_utf8)
        };
    }
    text.push_str(&content[run..]);

    // Pass 2: dedent.
    let (lines_part, last) = match text.rfind('\n') {
        Some(p) => (Some(&text[..p]), &text[p + 1..]),
        None => (None, text.as_str()),
    };
    if !last.chars().all(is_space) {
        errors.push(
            "syntax/multiline-string-end",
            whole,
            "the closing `\"\"\"` of a multi-line string must be on its own line, after only white space".into(),
            Some("put the closing `\"\"\"` on a new line; for a one-line string write `\"...\"`".into()),
        );
        return String::new();
    }
    let prefix = last;
    let mut dedented = String::with_capacity(text.len());
    if let Some(lines) = lines_part {
        let mut bad_prefix = None;
        for (n, line) in lines.split('\n').enumerate() {
            if n > 0 {
                dedented.push('\n');
            }
            if line.chars().all(is_space) {
                continue;
            }
            match line.strip_prefix(prefix) {
                Some(rest) => dedented.push_str(rest),
                None => {
                    bad_prefix.get_or_insert(n);
                }
            }
        }
        if let Some(line) = bad_prefix {
            // Without whitespace escapes, line `n` of the value is line `n` of the source.
            let span = if raw || !content.contains('\\') {
                source_line(content, line).map_or(whole, |(s, e)| {
                    Span::new(body_at + first_nl + s, body_at + first_nl + e)
                })
            } else {
                whole
            };
            errors.push(
                "syntax/multiline-string-indent",
                span,
                "every line of a multi-line string must start with the same white space as its closing `\"\"\"` line".into(),
                Some("indent each line at least as far as the closing `\"\"\"`, using the same characters (do not mix tabs and spaces)".into()),
            );
            return String::new();
        }
    }
    if raw || !dedented.contains('\\') {
        return dedented;
    }
    // Pass 3: the other escapes.
    let mut scratch = Errors {
        list: Vec::new(),
        dropped: 0,
    };
    let mut out = String::with_capacity(dedented.len());
    unescape(&dedented, 0, &mut scratch, &mut out);
    for e in scratch.list {
        // Dedenting moved the text, so point at the string as a whole.
        errors.push(e.code, whole, e.message, e.help);
    }
    out
}

/// Byte range of line `n` (newline excluded) in `text`.
fn source_line(text: &str, n: usize) -> Option<(usize, usize)> {
    let mut start = 0;
    let mut line = 0;
    let mut i = 0;
    while i < text.len() {
        let nl = newline_len(text, i);
        if nl > 0 {
            if line == n {
                return Some((start, i));
            }
            line += 1;
            i += nl;
            start = i;
        } else {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    (line == n).then_some((start, text.len()))
}

/// Whether the digits before the exponent of a decimal literal hold anything but zeros.
fn nonzero_mantissa(text: &str) -> bool {
    text.split(['e', 'E'])
        .next()
        .is_some_and(|m| m.bytes().any(|c| matches!(c, b'1'..=b'9')))
}

/// Whether the non-zero subnormal `f`, read from `text`, prints back as the number written
/// (`5e-324`, `1e-308`): then it loses nothing a normal double would not, and is a value like
/// any other. A subnormal that keeps only part of the digits written does not.
fn prints_back(text: &str, f: f64) -> bool {
    f != 0.0
        && decimal_digits(text)
            .is_some_and(|d| Some(d) == decimal_digits(&format!("{:e}", f.abs())))
}

/// A decimal number (`_` removed) as its significant digits and the power of ten of the
/// last one, sign aside: `-1.50e-308` → `("15", -309)`. `None` when the exponent does not
/// fit an `i64`.
fn decimal_digits(text: &str) -> Option<(String, i64)> {
    let t = text.trim_start_matches(['+', '-']);
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{int}{frac}");
    let kept = all.trim_end_matches('0');
    let exp = exp
        .checked_sub(i64::try_from(frac.len()).ok()?)?
        .checked_add(i64::try_from(all.len() - kept.len()).ok()?)?;
    Some((kept.trim_start_matches('0').to_string(), exp))
}

/// Reads a number token (already checked by the lexer to be well-formed).
pub(crate) fn decode_number(text: &str, span: Span, errors: &mut Errors) -> Option<Number> {
    let (neg, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let radix = match rest.get(..2) {
        Some("0x") => 16,
        Some("0o") => 8,
        Some("0b") => 2,
        _ => 10,
    };
    if radix != 10 {
        let digits: Vec<u8> = rest[2..]
            .bytes()
            .filter(|&c| c != b'_')
            .map(|c| (c as char).to_digit(16).unwrap_or(0) as u8)
            .skip_while(|&d| d == 0)
            .collect();
        if digits.len() > MAX_RADIX_DIGITS {
            errors.push(
                "syntax/number-too-large",
                span,
                format!(
                    "this number has {} significant digits; at most {MAX_RADIX_DIGITS} are read",
                    digits.len()
                ),
                Some("write a smaller number, or a string if it is an identifier".into()),
            );
            return None;
        }
        return Some(radix_int(&digits, radix, neg));
    }
    let is_float = rest.bytes().any(|c| matches!(c, b'.' | b'e' | b'E'));
    let clean: std::borrow::Cow<str> = if text.contains('_') {
        text.chars()
            .filter(|&c| c != '_')
            .collect::<String>()
            .into()
    } else {
        text.into()
    };
    if is_float {
        return Some(match clean.parse::<f64>() {
            Ok(f)
                if f.is_finite()
                    && f.abs() < f64::MIN_POSITIVE
                    && nonzero_mantissa(&clean)
                    && !prints_back(&clean, f) =>
            {
                Number::FloatUnderflow(f)
            }
            Ok(f) if f.is_finite() => Number::Float(f),
            Ok(_) => Number::FloatOverflow,
            Err(_) => return None,
        });
    }
    match clean.parse::<i128>() {
        Ok(v) => Some(Number::Int(v)),
        Err(_) => {
            let digits = clean.trim_start_matches(['+', '-']).trim_start_matches('0');
            Some(Number::BigInt(if neg {
                format!("-{digits}")
            } else {
                digits.to_owned()
            }))
        }
    }
}

fn radix_int(digits: &[u8], radix: u32, neg: bool) -> Number {
    let mut acc: i128 = 0;
    let mut fits = true;
    for &d in digits {
        match acc.checked_mul(radix as i128).and_then(|a| {
            if neg {
                a.checked_sub(d as i128)
            } else {
                a.checked_add(d as i128)
            }
        }) {
            Some(a) => acc = a,
            None => {
                fits = false;
                break;
            }
        }
    }
    if fits {
        return Number::Int(acc);
    }
    // Base 10^9 limbs, least significant first.
    const BASE: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![0];
    for &d in digits {
        let mut carry = d as u64;
        for limb in limbs.iter_mut() {
            let v = *limb * radix as u64 + carry;
            *limb = v % BASE;
            carry = v / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    let mut iter = limbs.iter().rev();
    if let Some(top) = iter.next() {
        s.push_str(&top.to_string());
    }
    for limb in iter {
        s.push_str(&format!("{limb:09}"));
    }
    Number::BigInt(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> Option<Number> {
        let mut e = Errors {
            list: Vec::new(),
            dropped: 0,
        };
        decode_number(s, Span::default(), &mut e)
    }

    #[test]
    fn big_hex_is_converted_to_decimal() {
        assert_eq!(
            num("0xffffffffffffffffffffffffffffffffff"),
            Some(Number::BigInt(
                "87112285931760246646623899502532662132735".into()
            ))
        );
        assert_eq!(
            num("-0x80000000000000000000000000000000"),
            Some(Number::Int(i128::MIN))
        );
        assert_eq!(
            num("0x80000000000000000000000000000000"),
            Some(Number::BigInt(
                "170141183460469231731687303715884105728".into()
            ))
        );
    }

    #[test]
    fn decimal_forms() {
        assert_eq!(num("1_000"), Some(Number::Int(1000)));
        assert_eq!(num("-0o17"), Some(Number::Int(-15)));
        assert_eq!(num("0b1_01"), Some(Number::Int(5)));
        assert_eq!(num("1e400"), Some(Number::FloatOverflow));
        // A non-zero literal that would read as 0, or as a subnormal that keeps only part of
        // its digits, is kept apart so lowering can refuse it; a written zero stays a zero.
        assert_eq!(num("1e-400"), Some(Number::FloatUnderflow(0.0)));
        assert_eq!(num("-2.5e-400"), Some(Number::FloatUnderflow(-0.0)));
        assert!(
            matches!(num("1.2345678901234567e-310"), Some(Number::FloatUnderflow(f)) if f > 0.0)
        );
        // A subnormal that prints back as written is a value: `5e-324` is the smallest double.
        assert_eq!(num("5e-324"), Some(Number::Float(f64::from_bits(1))));
        assert_eq!(num("-5e-324"), Some(Number::Float(-f64::from_bits(1))));
        assert_eq!(num("1e-308"), Some(Number::Float(1e-308)));
        assert_eq!(num("0.00010e-304"), Some(Number::Float(1e-308)));
        assert_eq!(num("0.000e-400"), Some(Number::Float(0.0)));
        assert_eq!(
            num("2.2250738585072014e-308"),
            Some(Number::Float(f64::MIN_POSITIVE))
        );
        assert_eq!(num("+1.5e1"), Some(Number::Float(15.0)));
        assert_eq!(
            num("-000123456789012345678901234567890123456789012"),
            Some(Number::BigInt(
                "-123456789012345678901234567890123456789012".into()
            ))
        );
    }
}
