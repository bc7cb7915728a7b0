//! The deterministic minimal value of a JSON Schema: what `serve --mock` answers when the
//! catalog gives no example output.
//!
//! Minimal means: an object has only its required properties, an array its `minItems`
//! items, a string its `minLength` (a pattern's shortest match, a format's fixed sample, an
//! enum's first value), a number 0 or the bound nearest to it; a `default` wins where one is
//! declared. The result is checked against the schema before it is served, so a schema
//! whose constraints this cannot meet (a pattern beyond the sampler, unique items of one
//! possible value) shows up as `INVALID_TOOL_OUTPUT`, never as output that breaks its schema.

use regex_syntax::hir::{Class, Hir, HirKind};
use serde_json::{Map, Value, json};

/// The minimal value of `schema`.
pub fn sample(schema: &Value) -> Value {
    if let Some(default) = schema.get("default") {
        return default.clone();
    }
    if let Some(c) = schema.get("const") {
        return c.clone();
    }
    // A union: its first variant (`{"type": "null"}` of a nullable one comes last).
    if let Some(first) = schema
        .get("oneOf")
        .and_then(Value::as_array)
        .and_then(|b| b.first())
    {
        return sample(first);
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => Value::String(string(schema)),
        Some("integer") => integer(schema),
        Some("number") => number(schema),
        Some("boolean") => Value::Bool(false),
        Some("array") => {
            let n = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let items = schema.get("items").unwrap_or(&Value::Null);
            let unique = schema.get("uniqueItems").and_then(Value::as_bool) == Some(true);
            Value::Array((0..n).map(|i| nth(items, i, unique)).collect())
        }
        Some("object") => {
            let mut out = Map::new();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if let Some(Value::Object(props)) = schema.get("properties") {
                for (name, prop) in props {
                    if required.contains(&name.as_str()) {
                        out.insert(name.clone(), sample(prop));
                    }
                }
            }
            Value::Object(out)
        }
        _ => Value::Null,
    }
}

/// The `i`-th item of an array: distinct items where they must be unique and the item is a
/// number (strings and others repeat; the check before serving catches what that breaks).
fn nth(items: &Value, i: u64, unique: bool) -> Value {
    let first = sample(items);
    match (&first, unique) {
        (Value::Number(n), true) => n
            .as_i64()
            .and_then(|v| v.checked_add(i64::try_from(i).ok()?))
            .map_or(first.clone(), |v| json!(v)),
        _ => first,
    }
}

fn string(schema: &Value) -> String {
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|v| v.first())
        .and_then(Value::as_str)
    {
        return first.to_string();
    }
    let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    let fixed = match schema.get("format").and_then(Value::as_str) {
        Some("date-time") => Some("1970-01-01T00:00:00Z"),
        Some("date") => Some("1970-01-01"),
        Some("email") => Some("user@example.com"),
        Some("uri") => Some("https://example.com/"),
        Some("uuid") => Some("00000000-0000-0000-0000-000000000000"),
        _ => None,
    };
    if let Some(s) = fixed {
        return s.to_string();
    }
    if let Some(p) = schema.get("pattern").and_then(Value::as_str)
        && let Some(s) = matching(p, min)
    {
        return s;
    }
    "x".repeat(usize::try_from(min).unwrap_or(0))
}

/// The shortest match of `pattern` that is at least `min` characters long, when the
/// pattern parses as a regular expression without look-around.
fn matching(pattern: &str, min: u64) -> Option<String> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(pattern)
        .ok()?;
    let mut out = String::new();
    emit(&hir, &mut 0, &mut out);
    let len = out.chars().count() as u64;
    if len < min {
        // Spend the missing length on the first repetitions that may grow.
        let mut extra = min - len;
        out.clear();
        emit(&hir, &mut extra, &mut out);
    }
    Some(out)
}

fn emit(hir: &Hir, extra: &mut u64, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.push_str(&String::from_utf8_lossy(&lit.0)),
        HirKind::Class(class) => out.push(class_char(class)),
        HirKind::Repetition(rep) => {
            let room = rep.max.map_or(u64::MAX, |m| u64::from(m - rep.min));
            let more = (*extra).min(room);
            *extra -= more;
            for _ in 0..u64::from(rep.min) + more {
                emit(&rep.sub, extra, out);
            }
        }
        HirKind::Capture(c) => emit(&c.sub, extra, out),
        HirKind::Concat(parts) => parts.iter().for_each(|p| emit(p, extra, out)),
        HirKind::Alternation(alts) => {
            if let Some(first) = alts.first() {
                emit(first, extra, out);
            }
        }
    }
}

/// A readable member of a class: a letter or digit where the class has one, else its first.
fn class_char(class: &Class) -> char {
    let ranges: Vec<(char, char)> = match class {
        Class::Unicode(u) => u.ranges().iter().map(|r| (r.start(), r.end())).collect(),
        Class::Bytes(b) => b
            .ranges()
            .iter()
            .map(|r| (char::from(r.start()), char::from(r.end())))
            .collect(),
    };
    ['a', 'x', 'A', 'X', '0', '1']
        .into_iter()
        .find(|c| ranges.iter().any(|(lo, hi)| lo <= c && c <= hi))
        .or_else(|| ranges.first().map(|r| r.0))
        .unwrap_or('x')
}

fn integer(schema: &Value) -> Value {
    let lower = bound(schema, "minimum", "exclusiveMinimum", 1.0);
    let upper = bound(schema, "maximum", "exclusiveMaximum", -1.0);
    let step = schema
        .get("multipleOf")
        .and_then(Value::as_f64)
        .filter(|s| *s > 0.0);
    let pick = nearest_to_zero(lower, upper, step.or(Some(1.0)));
    // Integers within ±2^53 convert exactly; catalog bounds are i64 literals.
    json!(pick as i64)
}

fn number(schema: &Value) -> Value {
    // The nearest integer past an exclusive bound reads best; a range narrower than that
    // takes the nearest value past it instead.
    let mut lower = bound(schema, "minimum", "exclusiveMinimum", 1.0);
    let mut upper = bound(schema, "maximum", "exclusiveMaximum", -1.0);
    if let (Some(lo), Some(hi)) = (lower, upper)
        && lo > hi
    {
        lower = bound(schema, "minimum", "exclusiveMinimum", f64::EPSILON);
        upper = bound(schema, "maximum", "exclusiveMaximum", -f64::EPSILON);
    }
    let step = schema
        .get("multipleOf")
        .and_then(Value::as_f64)
        .filter(|s| *s > 0.0);
    let pick = nearest_to_zero(lower, upper, step);
    if pick.fract() == 0.0 && pick.abs() < 9e15 {
        json!(pick as i64)
    } else {
        json!(pick)
    }
}

/// The inclusive bound of `schema`: `inclusive`, or `exclusive` nudged by `nudge`.
fn bound(schema: &Value, inclusive: &str, exclusive: &str, nudge: f64) -> Option<f64> {
    let i = schema.get(inclusive).and_then(Value::as_f64);
    let e = schema.get(exclusive).and_then(Value::as_f64).map(|e| {
        // For integers the next integer; for numbers the next representable-ish value.
        if nudge.abs() >= 1.0 {
            if nudge > 0.0 {
                e.floor() + 1.0
            } else {
                e.ceil() - 1.0
            }
        } else {
            e + nudge * e.abs().max(1.0)
        }
    });
    match (i, e) {
        (Some(a), Some(b)) if nudge > 0.0 => Some(a.max(b)),
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The value nearest 0 within `[lower, upper]`, on a multiple of `step` when given.
fn nearest_to_zero(lower: Option<f64>, upper: Option<f64>, step: Option<f64>) -> f64 {
    let mut v = 0.0_f64;
    if let Some(lo) = lower {
        v = v.max(lo);
    }
    if let Some(hi) = upper {
        v = v.min(hi);
    }
    match step {
        Some(s) if v >= 0.0 => (v / s).ceil() * s,
        Some(s) => (v / s).floor() * s,
        None => v,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_values_meet_their_schema() {
        let s = json!({
            "type": "object",
            "properties": {
                "ref": {"type": "string", "maxLength": 40, "pattern": "^REM-[0-9]+$"},
                "at": {"type": "string", "format": "date-time"},
                "n": {"type": "integer", "minimum": 3, "multipleOf": 2},
                "m": {"type": "number", "exclusiveMaximum": -1},
                "key": {"type": "string", "minLength": 16},
                "grown": {"type": "string", "minLength": 6, "pattern": "^INV-[0-9]+$"},
                "state": {"type": "string", "enum": ["open", "paid"]},
                "items": {"type": "array", "minItems": 2, "uniqueItems": true,
                          "items": {"type": "integer", "minimum": 1}},
                "optional": {"type": "string"}
            },
            "required": ["ref", "at", "n", "m", "key", "grown", "state", "items"],
            "additionalProperties": false
        });
        assert_eq!(
            sample(&s),
            json!({
                "ref": "REM-0", "at": "1970-01-01T00:00:00Z", "n": 4, "m": -2,
                "key": "xxxxxxxxxxxxxxxx", "grown": "INV-00", "state": "open", "items": [1, 2]
            })
        );
    }
}
