//! RFC 8785 (JCS) canonical JSON and the `sha256:` digests built on it.
//!
//! Lives in the runtime because generated servers compute the approval digest over
//! canonical arguments with exactly the code the compiler uses for contract hashes.
//!
//! Numbers follow I-JSON: every number is an IEEE 754 double, so an integer beyond 2^53 is
//! serialised as the double it rounds to (what any JavaScript peer would compute), never
//! with more precision than the other side can reproduce.

use serde_json::{Map, Number, Value};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::fmt::Write as _;

/// The RFC 8785 canonical form of `value`: no whitespace, object keys sorted by UTF-16 code
/// units, ECMAScript number serialisation, minimal string escaping.
pub fn to_canonical_string(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

/// `sha256:` followed by the 64 lowercase hex digits of the SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = Sha256::digest(bytes);
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    // By table rather than `write!` per byte: every tool has four hashes, and the formatting
    // machinery costs more than the table lookups.
    for b in hash {
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    out
}

/// `sha256:<hex>` over the canonical form of `value`.
pub fn digest(value: &Value) -> String {
    sha256_hex(to_canonical_string(value).as_bytes())
}

fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => write_object(out, map),
    }
}

/// RFC 8785 §3.2.3: compare keys as sequences of UTF-16 code units, not as UTF-8 bytes or
/// code points (they differ for characters above U+FFFF versus U+E000..U+FFFF). ASCII keys
/// (nearly all of them) order the same either way, and bytes compare far faster.
fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    if a.is_ascii() && b.is_ascii() {
        a.as_bytes().cmp(b.as_bytes())
    } else {
        a.encode_utf16().cmp(b.encode_utf16())
    }
}

/// `sha256:<hex>` over the canonical form of the object `map` without the members whose name
/// `keep` refuses: the digest of that smaller object, without building it.
pub fn digest_members(map: &Map<String, Value>, keep: impl Fn(&str) -> bool) -> String {
    let mut out = String::new();
    write_members(&mut out, map, keep);
    sha256_hex(out.as_bytes())
}

fn write_object(out: &mut String, map: &Map<String, Value>) {
    write_members(out, map, |_| true);
}

fn write_members(out: &mut String, map: &Map<String, Value>, keep: impl Fn(&str) -> bool) {
    let mut entries: Vec<(&String, &Value)> = map.iter().filter(|(k, _)| keep(k)).collect();
    entries.sort_by(|a, b| key_order(a.0, b.0));
    out.push('{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(out, k);
        out.push(':');
        write_value(out, v);
    }
    out.push('}');
}

/// `s` as a JSON string literal. RFC 8785 escapes exactly what serde_json's compact and
/// pretty writers escape (the quote, the backslash, C0 controls with the short forms where
/// JSON has one, lowercase `\u00xx` otherwise), so this one function writes strings for
/// the canonical form and for the contract's compact schema text alike.
pub fn write_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    // Copy runs of characters that need no escape in one go; only the quote, the backslash and C0 controls
    // are escaped (all ASCII, so byte indices stay on character boundaries).
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    loop {
        i = crate::scan::next_special(bytes, i, 0x20, b"\"\\");
        let Some(&b) = bytes.get(i) else { break };
        if b >= 0x80 {
            // The scan stops at non-ASCII bytes too; they are written as they are.
            while bytes.get(i).is_some_and(|&b| b >= 0x80) {
                i += 1;
            }
            continue;
        }
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0C => "\\f",
            b'\r' => "\\r",
            _ => "",
        };
        out.push_str(&s[run..i]);
        if esc.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(esc);
        }
        i += 1;
        run = i;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

fn write_number(out: &mut String, n: &Number) {
    // An integer a double holds exactly prints as its digits (ECMAScript prints every integer
    // below 10^21 without an exponent), without the shortest-digits search below.
    const EXACT: u64 = 1 << 53;
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= EXACT) {
        let _ = write!(out, "{i}");
        return;
    }
    if let Some(u) = n.as_u64().filter(|&u| u <= EXACT) {
        let _ = write!(out, "{u}");
        return;
    }
    // serde_json without arbitrary_precision always yields a finite f64 here.
    let f = n.as_f64().unwrap_or(0.0);
    write_f64(out, f);
}

/// The RFC 8785 form of the JSON `text` (any valid JSON; the contract's schemas are kept as
/// compact text, see `crate::contract`), or `None` when `text` is not JSON. Equal to
/// [`to_canonical_string`] of the parsed value, without building it: objects are sorted in
/// place in the output, strings without escapes are copied as they are, and each number
/// is written as an ECMAScript number from the value its digits denote.
pub fn canonicalize(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut r = TextReader {
        text,
        at: 0,
        depth: 0,
    };
    r.value(&mut out)?;
    r.space();
    (r.at == text.len()).then_some(out)
}

/// `sha256:<hex>` over the canonical form of the JSON `text` (see [`canonicalize`]), the
/// same digest as [`digest`] of the parsed value. Text that is not JSON hashes as `null`.
pub fn digest_text(text: &str) -> String {
    sha256_hex(canonicalize(text).as_deref().unwrap_or("null").as_bytes())
}

/// Nesting beyond which [`canonicalize`] gives up rather than recurse further: far above
/// anything a catalog's schema reaches (its inlined depth is capped), far below the stack's
/// end.
const MAX_TEXT_DEPTH: usize = 2048;

/// A cursor over JSON text for [`canonicalize`].
struct TextReader<'a> {
    text: &'a str,
    at: usize,
    depth: usize,
}

impl<'a> TextReader<'a> {
    fn space(&mut self) {
        let b = self.text.as_bytes();
        while b
            .get(self.at)
            .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
        {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        self.space();
        (self.text.as_bytes().get(self.at) == Some(&c)).then(|| self.at += 1)
    }

    fn peek(&mut self) -> Option<u8> {
        self.space();
        self.text.as_bytes().get(self.at).copied()
    }

    /// The raw string token at the cursor (quotes included) and whether it has escapes.
    fn string_token(&mut self) -> Option<(&'a str, bool)> {
        self.eat(b'"')?;
        let start = self.at - 1;
        let text: &'a str = self.text;
        let b = text.as_bytes();
        let mut escaped = false;
        loop {
            match b.get(self.at)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.at += 2;
                }
                _ => self.at += 1,
            }
        }
        self.at += 1;
        Some((text.get(start..self.at)?, escaped))
    }

    /// A string token's value: borrowed when it has no escapes.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let (raw, escaped) = self.string_token()?;
        if escaped {
            serde_json::from_str::<String>(raw).ok().map(Into::into)
        } else {
            raw.get(1..raw.len() - 1).map(Into::into)
        }
    }

    fn value(&mut self, out: &mut String) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_TEXT_DEPTH {
            return None;
        }
        match self.peek()? {
            b'{' => self.object(out)?,
            b'[' => {
                self.at += 1;
                out.push('[');
                if self.peek()? == b']' {
                    self.at += 1;
                } else {
                    loop {
                        self.value(out)?;
                        if self.eat(b',').is_some() {
                            out.push(',');
                            continue;
                        }
                        self.eat(b']')?;
                        break;
                    }
                }
                out.push(']');
            }
            b'"' => match self.string()? {
                Cow::Borrowed(s) => {
                    out.push('"');
                    out.push_str(s);
                    out.push('"');
                }
                Cow::Owned(s) => write_string(out, &s),
            },
            _ => {
                let start = self.at;
                let b = self.text.as_bytes();
                while b
                    .get(self.at)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
                {
                    self.at += 1;
                }
                let token = self.text.get(start..self.at)?;
                match token {
                    "null" | "true" | "false" => out.push_str(token),
                    _ => write_number(out, &number_of(token)?),
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// An object, its members sorted by [`key_order`]: each is written as it comes, then
    /// the members are put in order when they are not already.
    fn object(&mut self, out: &mut String) -> Option<()> {
        self.at += 1;
        let open = out.len();
        out.push('{');
        // (key, where the member starts and ends in `out`)
        let mut members: Vec<(Cow<'a, str>, usize, usize)> = Vec::new();
        if self.peek()? == b'}' {
            self.at += 1;
        } else {
            loop {
                if !members.is_empty() {
                    out.push(',');
                }
                let start = out.len();
                let key = self.string()?;
                write_string(out, &key);
                self.eat(b':')?;
                out.push(':');
                self.value(out)?;
                members.push((key, start, out.len()));
                if self.eat(b',').is_none() {
                    self.eat(b'}')?;
                    break;
                }
            }
        }
        let sorted = members
            .windows(2)
            .all(|w| key_order(&w[0].0, &w[1].0).is_le());
        if !sorted {
            members.sort_by(|a, b| key_order(&a.0, &b.0));
            let body = out.split_off(open + 1);
            for (i, (_, start, end)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(body.get(start - open - 1..end - open - 1)?);
            }
        }
        out.push('}');
        Some(())
    }
}

/// The number a JSON number token denotes, as serde_json would read it: an integer that
/// fits 64 bits as such, anything else as the nearest double.
fn number_of(token: &str) -> Option<Number> {
    if !token.contains(['.', 'e', 'E']) {
        if let Ok(i) = token.parse::<i64>() {
            return Some(Number::from(i));
        }
        if let Ok(u) = token.parse::<u64>() {
            return Some(Number::from(u));
        }
    }
    token.parse::<f64>().ok().and_then(Number::from_f64)
}

/// ECMAScript `Number.prototype.toString` (ECMA-262 Number::toString) for a finite double.
fn write_f64(out: &mut String, f: f64) {
    if f == 0.0 || !f.is_finite() {
        // -0 serialises as 0; non-finite values cannot come out of a serde_json Value.
        out.push('0');
        return;
    }
    if f < 0.0 {
        out.push('-');
    }
    let (digits, exp) = shortest_digits(f.abs());
    let k = digits.len() as i32;
    // ECMAScript's n: the value is 0.d1d2...dk × 10^n.
    let n = exp + 1;
    if k <= n && n <= 21 {
        out.push_str(&digits);
        for _ in 0..(n - k) {
            out.push('0');
        }
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        for _ in 0..(-n) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        let e = n - 1;
        out.push(if e < 0 { '-' } else { '+' });
        let _ = write!(out, "{}", e.abs());
    }
}

/// ECMAScript's digits `s` (k of them, k minimal) and the exponent of the first digit.
fn shortest_digits(f: f64) -> (String, i32) {
    // Rust's `{:e}` gives the shortest round-tripping digit count k. Between two equally
    // close k-digit candidates it may pick either, while ECMAScript wants the even one
    // (RFC 8785 Appendix B: 1424953923781206.2, not .3). Formatting again with exactly k
    // digits rounds the exact binary value half-to-even, which is that choice; it is kept
    // only if it still reads back as `f` (at a power of two the interval below is narrower).
    let split = |sci: &str| -> (String, i32) {
        let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
        let digits = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
        (digits, exp.parse().unwrap_or(0))
    };
    let shortest = format!("{f:e}");
    let (digits, exp) = split(&shortest);
    if digits.len() > 1 {
        let exact = format!("{:.*e}", digits.len() - 1, f);
        if exact != shortest && exact.parse::<f64>() == Ok(f) {
            return split(&exact);
        }
    }
    (digits, exp)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(f: f64) -> String {
        let mut s = String::new();
        write_f64(&mut s, f);
        s
    }

    #[test]
    fn a_digest_of_some_members_is_the_digest_of_the_smaller_object() {
        let full = serde_json::json!({"b": [1, {"z": 2, "a": null}], "secret": "x", "a": "é"});
        let map = full.as_object().cloned().unwrap_or_default();
        let smaller = serde_json::json!({"a": "é", "b": [1, {"a": null, "z": 2}]});
        assert_eq!(digest_members(&map, |k| k != "secret"), digest(&smaller));
        assert_eq!(digest_members(&map, |_| true), digest(&full));
        assert_eq!(
            digest_members(&map, |_| false),
            digest(&serde_json::json!({}))
        );
    }

    #[test]
    fn strings_escape_exactly_what_json_escapes_at_every_offset() {
        // Every escaped byte at every position of an eight-byte chunk, next to multi-byte
        // characters, against serde_json's writer (which escapes the same set alike).
        for special in (0u8..0x20).chain([b'"', b'\\']).map(char::from) {
            for at in 0..20 {
                let mut text: String = "abcé€😀xyzABCDEFGHIJ".chars().take(at).collect();
                text.push(special);
                text.push_str("tail of the text, long enough for chunks");
                let mut ours = String::new();
                write_string(&mut ours, &text);
                assert_eq!(
                    ours,
                    serde_json::to_string(&text).unwrap_or_default(),
                    "{text:?}"
                );
            }
        }
        let mut plain = String::new();
        write_string(&mut plain, "no escapes at all in this one, café");
        assert_eq!(plain, "\"no escapes at all in this one, café\"");
    }

    #[test]
    fn integers_and_simple_fractions() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(-1.5), "-1.5");
        assert_eq!(num(100.0), "100");
        assert_eq!(num(0.5), "0.5");
    }

    /// The integer shortcut prints what the double formatting prints, up to 2^53 and past it.
    #[test]
    fn integers_print_as_their_double() {
        let exact = 1i64 << 53;
        let mut cases = vec![
            0,
            1,
            -1,
            7,
            10,
            100_000,
            -123_456_789,
            1 << 40,
            i64::MAX,
            i64::MIN,
        ];
        cases.extend([
            exact - 1,
            exact,
            exact + 1,
            -exact,
            -exact - 1,
            exact * 4 + 3,
        ]);
        for i in cases {
            let mut shortcut = String::new();
            write_number(&mut shortcut, &Number::from(i));
            assert_eq!(shortcut, num(i as f64), "{i}");
        }
        for u in [u64::MAX, (1u64 << 53) + 1, 1u64 << 53] {
            let mut shortcut = String::new();
            write_number(&mut shortcut, &Number::from(u));
            assert_eq!(shortcut, num(u as f64), "{u}");
        }
    }

    /// Canonicalising text gives the canonical form of the value it denotes, whatever its
    /// layout and key order, and refuses what is not JSON.
    #[test]
    fn text_canonicalises_as_its_value() {
        let values = [
            serde_json::json!({"b": [1, 2.5, -0.0, 1e300, 1e-7, 9007199254740993u64, -3],
                "a": {"z": null, "\u{ff61}": true, "\u{1f600}": false, "": "x\"\\\u{1}\n"},
                "B": [], "c": {}, "d": "é\u{7f}", "e": [{"y": 1, "x": 2}]}),
            serde_json::json!([
                0.30000000000000004,
                123456789012345680000.0,
                u64::MAX,
                i64::MIN
            ]),
            serde_json::json!("just a string"),
        ];
        for v in values {
            let want = to_canonical_string(&v);
            assert_eq!(canonicalize(&v.to_string()).as_deref(), Some(&*want));
            let pretty = serde_json::to_string_pretty(&v).unwrap_or_default();
            assert_eq!(canonicalize(&pretty).as_deref(), Some(&*want));
            assert_eq!(digest_text(&v.to_string()), digest(&v));
        }
        assert_eq!(
            canonicalize(r#"{"a\u0062":"\u00e9\/"}"#).as_deref(),
            Some(r#"{"ab":"é/"}"#)
        );
        for bad in ["", "{", "[1,]", "{\"a\" 1}", "nul", "1 2", "\"open"] {
            assert_eq!(canonicalize(bad), None, "{bad}");
        }
    }

    /// Keys sort by UTF-16 code units: ASCII by bytes, and U+FF61 after U+1F600 (a surrogate
    /// pair starts with 0xD83D), which byte order would reverse.
    #[test]
    fn keys_sort_by_utf16_units() {
        let value = serde_json::json!({"b": 1, "a": 2, "\u{ff61}": 3, "\u{1f600}": 4, "B": 5});
        assert_eq!(
            to_canonical_string(&value),
            "{\"B\":5,\"a\":2,\"b\":1,\"\u{1f600}\":4,\"\u{ff61}\":3}"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
