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
    // By table: `write!` per byte went through the formatting machinery four times per tool
    // and was a measurable part of hashing a large catalog.
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

fn write_object(out: &mut String, map: &Map<String, Value>) {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    // RFC 8785 §3.2.3: compare keys as sequences of UTF-16 code units, not as UTF-8 bytes or
    // code points (they differ for characters above U+FFFF versus U+E000..U+FFFF). ASCII keys
    // (nearly all of them) order the same either way, and bytes compare far faster.
    entries.sort_by(|a, b| {
        if a.0.is_ascii() && b.0.is_ascii() {
            a.0.as_bytes().cmp(b.0.as_bytes())
        } else {
            a.0.encode_utf16().cmp(b.0.encode_utf16())
        }
    });
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

fn write_string(out: &mut String, s: &str) {
    out.push('"');
    // Copy runs of characters that need no escape in one go; only the quote, the backslash and C0 controls
    // are escaped (all ASCII, so byte indices stay on character boundaries).
    let mut run = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0C => "\\f",
            b'\r' => "\\r",
            b if b < 0x20 => "",
            _ => continue,
        };
        out.push_str(&s[run..i]);
        if esc.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(esc);
        }
        run = i + 1;
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
