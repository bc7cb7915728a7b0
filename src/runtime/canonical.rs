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
    let hash = Sha256::digest(bytes);
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for b in hash {
        // Writing to a String cannot fail.
        let _ = write!(out, "{b:02x}");
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
    // code points (they differ for characters above U+FFFF versus U+E000..U+FFFF).
    entries.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
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
}
