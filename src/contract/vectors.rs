//! Contract test vectors: instances of every tool's input and output schema at and around
//! every bound, each with the verdict a validator of the contract must reach
//! (`catalogc export vectors`, one JSON line each; the line format is
//! `docs/vector-line.schema.json`).
//!
//! The generator works on the emitted JSON Schema, not on the model, so the same code serves
//! the export (over [`super::Artifacts`]) and the consumer crate's agreement test (over the
//! schemas generated code carries), and both see exactly what a client sees.
//!
//! Per side of a tool: a minimal valid instance (required fields only), a typical one (every
//! field), a maximal one (strings, arrays and numbers at their upper bounds); then one edit at
//! a time of the typical instance: each property removed, set to each value at and around
//! each of its bounds (±1, or ±¼ for numbers), to each enum value and a wrong one, to values
//! of every other JSON type, to over-long strings of non-BMP characters; and an unknown
//! property added to each object.
//!
//! The expected verdict is the runtime checker's (the one generated code runs), over the
//! [`Shape`] of the emitted schema ([`shape_of`], built once per schema; it refuses any keyword
//! it does not understand, so no part of a schema is silently skipped). The
//! `jsonschema` crate, an independent implementation of 2020-12, confirms every verdict in
//! `tests/export_vectors.rs` and the consumer crate's agreement test, which also holds
//! generated validation and schemars' schema to it.

use super::shape::{shape_of, shape_of_parsed};
use super::{Artifacts, catalogs_by_name};
use crate::model::{Catalog, Project, Tool};
use crate::runtime::Shape;
use crate::runtime::validate::{compile_pattern, conforms};
use serde_json::{Number, Value, json};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// An array the maximal instance fills up to `maxItems` is cut at this many items, so one
/// vector stays readable (and a catalog allowing 10,000 items does not make a 10,000-item line).
pub const MAX_ARRAY_ITEMS: usize = 64;

/// No generated string is longer than this many characters: a probe at a length bound above
/// it (`maxLength - 1`, `maxLength`, `maxLength + 1` of `max-length=100000000`) is left out,
/// and a valid string is cut here (its vector then says `reject` if `minLength` is higher),
/// so a lint-clean bound cannot make the export take gigabytes or hours.
pub const MAX_VECTOR_CHARS: usize = 1 << 16;

/// No generated array or map holds more than this many items, however high `minItems` or
/// `minProperties` is (the instance is then cut, and its vector says `reject`).
pub const MAX_VECTOR_ITEMS: usize = 1024;

/// What a vector probes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Required properties only, each valid.
    Minimal,
    /// Every property, each valid.
    Typical,
    /// Every property at its upper bounds.
    Maximal,
    /// A value at or next to a numeric, length or item-count bound.
    Bound,
    /// One of the enum's values.
    EnumValue,
    /// A string that is not one of the enum's values.
    WrongEnum,
    /// A required property removed.
    MissingRequired,
    /// An optional property removed.
    OptionalAbsent,
    /// A property the schema does not declare.
    UnknownField,
    /// A value of another JSON type than the schema's.
    WrongType,
    /// A string of characters outside the Basic Multilingual Plane (one code point, two
    /// UTF-16 units: a validator counting UTF-16 units gets lengths wrong).
    NonBmp,
    /// Another value of the right type (a format or pattern probe, a duplicate item).
    Value,
}

impl Kind {
    /// The spelling in the vector line.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Minimal => "minimal",
            Kind::Typical => "typical",
            Kind::Maximal => "maximal",
            Kind::Bound => "bound",
            Kind::EnumValue => "enum-value",
            Kind::WrongEnum => "wrong-enum",
            Kind::MissingRequired => "missing-required",
            Kind::OptionalAbsent => "optional-absent",
            Kind::UnknownField => "unknown-field",
            Kind::WrongType => "wrong-type",
            Kind::NonBmp => "non-bmp",
            Kind::Value => "value",
        }
    }
}

/// One value to put at one place, with what it probes.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// What the value probes.
    pub kind: Kind,
    /// A short human note, e.g. `maximum + 1`.
    pub note: String,
    /// The value.
    pub value: Value,
}

fn probe(kind: Kind, note: impl Into<String>, value: Value) -> Probe {
    Probe {
        kind,
        note: note.into(),
        value,
    }
}

/// One change to an instance: set the property at `path` (names from the root), remove it,
/// or add the unknown property `zz_unknown` to the object at `path`.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Set the property at the path.
    Set(Vec<String>, Probe),
    /// Remove the property at the path; `true` when it is required.
    Remove(Vec<String>, bool),
    /// Add an undeclared property to the object at the path.
    Unknown(Vec<String>),
}

impl Edit {
    /// The property names from the root to the edited place.
    pub fn path(&self) -> &[String] {
        match self {
            Edit::Set(p, _) | Edit::Remove(p, _) | Edit::Unknown(p) => p,
        }
    }

    /// What the edit probes.
    pub fn kind(&self) -> Kind {
        match self {
            Edit::Set(_, p) => p.kind,
            Edit::Remove(_, true) => Kind::MissingRequired,
            Edit::Remove(_, false) => Kind::OptionalAbsent,
            Edit::Unknown(_) => Kind::UnknownField,
        }
    }

    /// A short human note.
    pub fn note(&self) -> String {
        match self {
            Edit::Set(_, p) => p.note.clone(),
            Edit::Remove(..) => "removed".into(),
            Edit::Unknown(_) => "undeclared property `zz_unknown`".into(),
        }
    }
}

/// One contract test vector of one schema.
#[derive(Debug, Clone, PartialEq)]
pub struct Vector {
    /// What it probes.
    pub kind: Kind,
    /// JSON Pointer of the edited place (`""` for a whole-instance vector).
    pub pointer: String,
    /// A short human note.
    pub note: String,
    /// The instance.
    pub instance: Value,
    /// Whether a validator of the schema must accept it.
    pub accept: bool,
}

/// One vector as it is made: the instance is borrowed from the generator, which edits one
/// instance in place rather than copying it for each vector.
struct Made<'a> {
    kind: Kind,
    pointer: String,
    note: String,
    instance: &'a Value,
    accept: bool,
}

impl Made<'_> {
    fn to_vector(&self) -> Vector {
        Vector {
            kind: self.kind,
            pointer: self.pointer.clone(),
            note: self.note.clone(),
            instance: self.instance.clone(),
            accept: self.accept,
        }
    }
}

/// Every vector of `schema` (an object schema as the contract layer emits it), in a fixed
/// order: minimal, typical, maximal, then one per edit of [`edits`]; an edit that gives an
/// instance already listed for the same place is left out. Fails when the runtime checker
/// cannot take `schema` ([`shape_of`]), which no schema the contract layer emits does.
pub fn vectors(schema: &Value) -> Result<Vec<Vector>, String> {
    let mut out = Vec::new();
    each_vector(schema, |v| {
        out.push(v);
        Ok::<(), String>(())
    })?;
    Ok(out)
}

/// [`vectors`], handed to `each` one at a time as they are made (none is kept), so a side
/// with many vectors takes the memory of one. Stops at the first error of `each`, or fails
/// before the first vector when the runtime checker cannot take `schema`.
pub fn each_vector<E: From<String>>(
    schema: &Value,
    mut each: impl FnMut(Vector) -> Result<(), E>,
) -> Result<(), E> {
    each_vector_of(shape_of(schema)?, schema, |v| each(v.to_vector()))
}

/// [`each_vector`] with the verdicts from `shape`, the shape of `schema`, each vector lent to
/// `each`.
fn each_vector_of<E>(
    shape: &Shape,
    schema: &Value,
    mut each: impl FnMut(Made<'_>) -> Result<(), E>,
) -> Result<(), E> {
    let accepts = |instance: &Value| conforms(shape, instance);
    let cut = if over_caps(schema) {
        format!(
            " (cut: strings at {MAX_VECTOR_CHARS} characters, arrays and maps at {MAX_VECTOR_ITEMS} items, enums probed at {MAX_VECTOR_ITEMS} values; probes past them left out)"
        )
    } else {
        String::new()
    };
    let mut base = valid(schema, 0);
    let whole = [
        (
            Kind::Minimal,
            "required properties only",
            Some(minimal(schema)),
        ),
        (Kind::Typical, "every property", None),
        (
            Kind::Maximal,
            "every property at its upper bounds",
            Some(maximal(schema)),
        ),
    ];
    for (kind, note, instance) in whole {
        let instance = instance.as_ref().unwrap_or(&base);
        each(Made {
            kind,
            pointer: String::new(),
            note: format!("{note}{cut}"),
            instance,
            accept: accepts(instance),
        })?;
    }
    // An edit changes the typical instance at its place only, so two edits at one place
    // give equal instances exactly when they leave equal values there (or none). The values
    // already listed at the current place, by a hash of their canonical text (equal values
    // have equal text); a hash shared by unequal values is told apart by comparing them.
    // Edits come grouped by place, so the list is cleared when the place changes.
    let mut place = None;
    let mut seen: HashMap<u64, Vec<Option<Value>>> = HashMap::new();
    let mut edited = Value::Null;
    for mut edit in edits(schema) {
        if place.as_deref() != Some(edit.path()) {
            place = Some(edit.path().to_vec());
            seen.clear();
        }
        // A value set where the typical instance already has one is swapped in, and back
        // out after (the edit holds the typical value meanwhile); any other edit is made on
        // a copy.
        let swapped = match &mut edit {
            Edit::Set(path, p) => swap_at(&mut base, path, &mut p.value),
            _ => false,
        };
        let instance = if swapped {
            &base
        } else {
            edited.clone_from(&base);
            apply(&mut edited, &edit);
            &edited
        };
        let left = at(instance, edit.path());
        let listed = seen.entry(left.map_or(0, text_hash)).or_default();
        let fresh = !listed.iter().any(|l| l.as_ref() == left);
        let done = if fresh {
            listed.push(left.cloned());
            each(Made {
                kind: edit.kind(),
                pointer: pointer(edit.path()),
                note: edit.note(),
                instance,
                accept: accepts(instance),
            })
        } else {
            Ok(())
        };
        if swapped && let Edit::Set(path, p) = &mut edit {
            swap_at(&mut base, path, &mut p.value);
        }
        done?;
    }
    Ok(())
}

/// Swaps `value` with the value at `path` of `v`, when there is one there (else changes
/// nothing and says so).
fn swap_at(v: &mut Value, path: &[String], value: &mut Value) -> bool {
    let Some((last, parent)) = path.split_last() else {
        return false;
    };
    let slot = parent
        .iter()
        .try_fold(v, |cur, k| cur.get_mut(k))
        .and_then(Value::as_object_mut)
        .and_then(|obj| obj.get_mut(last));
    match slot {
        Some(slot) => {
            std::mem::swap(slot, value);
            true
        }
        None => false,
    }
}

/// The value at `path` (property names from the root) of `v`, if there is one.
fn at<'v>(v: &'v Value, path: &[String]) -> Option<&'v Value> {
    path.iter().try_fold(v, |cur, k| cur.get(k))
}

/// A hash of `value`'s canonical JSON text: equal values (objects in any key order) hash
/// alike.
fn text_hash(value: &Value) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    crate::runtime::canonical::to_canonical_string(value).hash(&mut h);
    h.finish()
}

/// Whether a length or count bound anywhere in `schema` is past [`MAX_VECTOR_CHARS`] or
/// [`MAX_VECTOR_ITEMS`], or an enum lists more than [`MAX_VECTOR_ITEMS`] values, so some
/// instance is cut or some probe left out.
fn over_caps(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(k, v)| {
            let past = |cap: usize| {
                v.as_u64()
                    .is_some_and(|n| usize::try_from(n).map_or(true, |n| n >= cap))
            };
            match k.as_str() {
                "minLength" | "maxLength" => past(MAX_VECTOR_CHARS),
                "minItems" | "minProperties" => past(MAX_VECTOR_ITEMS),
                // Values, not schemas: only their count matters.
                "enum" => v.as_array().is_some_and(|a| a.len() > MAX_VECTOR_ITEMS),
                _ => over_caps(v),
            }
        }),
        Value::Array(items) => items.iter().any(over_caps),
        _ => false,
    }
}

/// The JSON Pointer of a property path (RFC 6901 escapes).
fn pointer(path: &[String]) -> String {
    path.iter()
        .map(|k| format!("/{}", k.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// The member `name` of `schema`. A schema object has a handful of members, so they are
/// compared in turn rather than hashed; a large object is looked up by hash.
fn member<'v>(schema: &'v Value, name: &str) -> Option<&'v Value> {
    let map = schema.as_object()?;
    if map.len() > 16 {
        return map.get(name);
    }
    map.iter().find_map(|(k, v)| (k == name).then_some(v))
}

fn num(schema: &Value, key: &str) -> Option<f64> {
    member(schema, key).and_then(Value::as_f64)
}

fn count(schema: &Value, key: &str) -> Option<usize> {
    member(schema, key)
        .and_then(Value::as_u64)
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// The schema's type; of a nullable one (`[T, "null"]`), `T`.
fn ty(schema: &Value) -> Option<&str> {
    match member(schema, "type")? {
        Value::Array(types) => types.first().and_then(Value::as_str),
        t => t.as_str(),
    }
}

fn is_nullable(schema: &Value) -> bool {
    member(schema, "type")
        .and_then(Value::as_array)
        .is_some_and(|t| t.iter().any(|t| t == "null"))
}

/// A `union`'s variant for the `i`-th instance: the object branches of `oneOf` in turn (a
/// nullable union's `{"type": "null"}` branch aside).
fn variant(schema: &Value, i: usize) -> Option<&Value> {
    let branches: Vec<&Value> = member(schema, "oneOf")?
        .as_array()?
        .iter()
        .filter(|b| ty(b) == Some("object"))
        .collect();
    (!branches.is_empty()).then(|| branches[i % branches.len()])
}

/// A `map`: an object schema whose `additionalProperties` is a schema and that names no
/// property (an open object with fields is built and edited as an object: its extras are
/// optional).
fn map_values(schema: &Value) -> Option<&Value> {
    let named = properties(schema).next().is_some();
    member(schema, "additionalProperties").filter(|v| v.is_object() && !named)
}

/// `n` entries `k0`, `k1`, … of a map, each value from `value(j)`.
fn map_of(n: usize, value: impl Fn(usize) -> Value) -> Value {
    Value::Object((0..n).map(|j| (format!("k{j}"), value(j))).collect())
}

fn properties(schema: &Value) -> impl Iterator<Item = (&String, &Value)> {
    member(schema, "properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
}

fn is_required(schema: &Value, name: &str) -> bool {
    member(schema, "required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|v| v == name))
}

/// An example of a string format, or `None` for a format the contract layer never emits.
fn format_example(format: &str) -> Option<&'static str> {
    Some(match format {
        "date" => "2024-02-29",
        "date-time" => "2024-01-01T10:00:00Z",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "email" => "someone@example.com",
        "uri" => "https://example.com/",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "hostname" => "api.example.com",
        "time" => "10:00:00Z",
        _ => return None,
    })
}

/// A number as JSON: an integer when it has no fraction, the schema wants one and it is in
/// the 64-bit range (every whole double there is an `i64` exactly).
fn number(v: f64, integer: bool) -> Value {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    if integer && v.fract() == 0.0 && (-TWO_63..TWO_63).contains(&v) {
        json!(v as i64)
    } else {
        Number::from_f64(v).map_or(Value::Null, Value::Number)
    }
}

/// A value of `schema` that satisfies every bound; `i` varies it (distinct items, enum
/// values in turn).
pub fn valid(schema: &Value, i: usize) -> Value {
    if let Some(c) = member(schema, "const") {
        return c.clone();
    }
    if let Some(values) = member(schema, "enum").and_then(Value::as_array)
        && !values.is_empty()
    {
        return values[i % values.len()].clone();
    }
    match ty(schema) {
        Some("object") if let Some(v) = variant(schema, i) => valid(v, i),
        Some("object") if let Some(values) = map_values(schema) => {
            let n = count(schema, "minProperties").unwrap_or(0).max(1);
            let n = n
                .min(count(schema, "maxProperties").unwrap_or(n))
                .min(MAX_VECTOR_ITEMS);
            map_of(n, |j| valid(values, i + j))
        }
        Some("object") => Value::Object(
            properties(schema)
                .map(|(k, s)| (k.clone(), valid(s, i)))
                .collect(),
        ),
        Some("array") => {
            let n = count(schema, "minItems").unwrap_or(0).max(1);
            let n = n
                .min(count(schema, "maxItems").unwrap_or(n))
                .min(MAX_VECTOR_ITEMS);
            let items = member(schema, "items").unwrap_or(&Value::Null);
            Value::Array((0..n).map(|j| valid(items, i + j)).collect())
        }
        Some("string") => json!(valid_string(schema, i, None)),
        Some("integer") | Some("number") => {
            let integer = ty(schema) == Some("integer");
            let step = num(schema, "multipleOf").unwrap_or(1.0);
            let lower = num(schema, "minimum")
                .or(num(schema, "exclusiveMinimum").map(|x| x + if integer { 1.0 } else { step }))
                .unwrap_or(0.0);
            number((lower / step).ceil() * step, integer)
        }
        Some("boolean") => json!(true),
        _ => Value::Null,
    }
}

/// A string of `schema`: its pattern's example, its format's, or `i` padded with `a` to at
/// least `minLength` (to exactly `len` when given), never over `maxLength`.
fn valid_string(schema: &Value, i: usize, len: Option<usize>) -> String {
    if let Some(p) = member(schema, "pattern").and_then(Value::as_str)
        && let Some(s) = example_of(p)
    {
        return s;
    }
    if let Some(s) = member(schema, "format")
        .and_then(Value::as_str)
        .and_then(format_example)
    {
        return s.to_string();
    }
    let min = count(schema, "minLength").unwrap_or(1).max(1);
    let len = len
        .unwrap_or(min)
        .min(count(schema, "maxLength").unwrap_or(usize::MAX))
        .min(MAX_VECTOR_CHARS);
    i.to_string()
        .chars()
        .chain(std::iter::repeat('a'))
        .take(len)
        .collect()
}

/// The required properties only, each [`valid`].
pub fn minimal(schema: &Value) -> Value {
    match ty(schema) {
        Some("object") if let Some(v) = variant(schema, 0) => minimal(v),
        Some("object") if map_values(schema).is_none() => Value::Object(
            properties(schema)
                .filter(|(k, _)| is_required(schema, k))
                .map(|(k, s)| (k.clone(), minimal(s)))
                .collect(),
        ),
        _ => valid(schema, 0),
    }
}

/// Every property at its upper bounds: strings at `maxLength` (unless a pattern, format or
/// enum fixes them), arrays at `maxItems` (at most [`MAX_ARRAY_ITEMS`]), numbers at the
/// largest allowed multiple.
pub fn maximal(schema: &Value) -> Value {
    maximal_at(schema, 0)
}

/// [`maximal`], the `i`-th of distinct ones (items of a `uniqueItems` array): strings vary
/// their first characters, numbers step down from the upper bound.
fn maximal_at(schema: &Value, i: usize) -> Value {
    if member(schema, "enum").is_some() || member(schema, "const").is_some() {
        return valid(schema, i);
    }
    match ty(schema) {
        Some("object") if let Some(v) = variant(schema, i) => maximal_at(v, i),
        Some("object") if let Some(values) = map_values(schema) => {
            let n = count(schema, "maxProperties")
                .unwrap_or(1)
                .min(MAX_ARRAY_ITEMS)
                .max(count(schema, "minProperties").unwrap_or(0))
                .min(MAX_VECTOR_ITEMS);
            map_of(n, |j| maximal_at(values, i + j))
        }
        Some("object") => Value::Object(
            properties(schema)
                .map(|(k, s)| (k.clone(), maximal_at(s, i)))
                .collect(),
        ),
        Some("array") => {
            let items = member(schema, "items").unwrap_or(&Value::Null);
            let n = count(schema, "maxItems")
                .unwrap_or(1)
                .min(MAX_ARRAY_ITEMS)
                .max(count(schema, "minItems").unwrap_or(0))
                .min(MAX_VECTOR_ITEMS);
            Value::Array((0..n).map(|j| maximal_at(items, i + j)).collect())
        }
        Some("string") => json!(valid_string(schema, i, count(schema, "maxLength"))),
        Some("integer") | Some("number") => {
            let integer = ty(schema) == Some("integer");
            let step = num(schema, "multipleOf").unwrap_or(1.0);
            let upper = num(schema, "maximum")
                .or(num(schema, "exclusiveMaximum").map(|x| x - if integer { 1.0 } else { step }));
            match upper {
                Some(u) => number(((u / step).floor() - i as f64) * step, integer),
                None => valid(schema, i),
            }
        }
        _ => valid(schema, i),
    }
}

/// A shortest string the pattern matches, built from its syntax tree (literals, the first
/// readable character of each class, the fewest repetitions, the first alternative), or
/// `None` when the pattern does not parse or the result does not match as ECMA-262 reads it.
pub fn pattern_example(pattern: &str) -> Option<String> {
    use regex_syntax::hir::{Class, Hir, HirKind};
    fn build(h: &Hir, out: &mut String, depth: usize) -> Option<()> {
        if depth > 64 {
            return None;
        }
        match h.kind() {
            HirKind::Empty | HirKind::Look(_) => {}
            HirKind::Literal(l) => out.push_str(std::str::from_utf8(&l.0).ok()?),
            HirKind::Class(Class::Unicode(c)) => {
                let has = |ch: char| c.ranges().iter().any(|r| r.start() <= ch && ch <= r.end());
                let ch = ['a', 'A', '0']
                    .into_iter()
                    .find(|&ch| has(ch))
                    .or_else(|| c.ranges().first().map(|r| r.start()))?;
                out.push(ch);
            }
            HirKind::Class(Class::Bytes(c)) => {
                let b = c.ranges().first()?.start();
                out.push(char::from(b));
            }
            HirKind::Repetition(r) => {
                for _ in 0..r.min.min(256) {
                    build(&r.sub, out, depth + 1)?;
                }
            }
            HirKind::Capture(c) => build(&c.sub, out, depth + 1)?,
            HirKind::Concat(hs) => {
                for h in hs {
                    build(h, out, depth + 1)?;
                }
            }
            HirKind::Alternation(hs) => build(hs.first()?, out, depth + 1)?,
        }
        Some(())
    }
    let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
    let mut out = String::new();
    build(&hir, &mut out, 0)?;
    let re = compile_pattern(pattern).ok()?;
    (re.is_match(&out) == Ok(true)).then_some(out)
}

/// How many patterns' examples [`example_of`] keeps per thread before it starts over.
const EXAMPLES_KEPT: usize = 4096;

/// [`pattern_example`] of `pattern`, worked out once per pattern on this thread: a field type
/// shared by many tools gives its example to every vector of all of them.
fn example_of(pattern: &str) -> Option<String> {
    thread_local! {
        static EXAMPLES: std::cell::RefCell<HashMap<String, Option<String>>> =
            std::cell::RefCell::default();
    }
    EXAMPLES.with_borrow_mut(|kept| {
        if let Some(example) = kept.get(pattern) {
            return example.clone();
        }
        let example = pattern_example(pattern);
        if kept.len() >= EXAMPLES_KEPT {
            kept.clear();
        }
        kept.insert(pattern.to_string(), example.clone());
        example
    })
}

/// Values of `schema` at and around every bound, each enum value and a wrong one, values of
/// every JSON type, and strings of non-BMP characters; for an array, also arrays of each probe
/// of its items.
pub fn boundary_values(schema: &Value) -> Vec<Probe> {
    let want = ty(schema).unwrap_or("");
    let mut out: Vec<Probe> = [
        ("null", Value::Null),
        ("boolean", json!(true)),
        ("string", json!("x")),
        ("integer", json!(7)),
        ("array", json!([])),
        ("object", json!({})),
    ]
    .into_iter()
    .map(|(t, v)| {
        let same = t == want
            || (t == "integer" && want == "number")
            || (t == "null" && is_nullable(schema));
        let kind = if same { Kind::Value } else { Kind::WrongType };
        probe(kind, format!("a value of type {t}"), v)
    })
    .collect();
    let listed = match (member(schema, "const"), member(schema, "enum")) {
        (Some(c), _) => Some(std::slice::from_ref(c)),
        (None, Some(Value::Array(values))) => Some(&values[..]),
        _ => None,
    };
    if let Some(values) = listed {
        for v in enum_probed(values) {
            out.push(probe(Kind::EnumValue, format!("enum value {v}"), v.clone()));
        }
        out.push(probe(
            Kind::WrongEnum,
            "not an enum value",
            not_listed(values),
        ));
    }
    match want {
        "string" => string_probes(schema, &mut out),
        "integer" | "number" => number_probes(schema, want == "integer", &mut out),
        "object" if let Some(values) = map_values(schema) => {
            let pool = size_probe_items(schema, ["minProperties", "maxProperties"], values);
            for key in ["minProperties", "maxProperties"] {
                if let Some(n) = count(schema, key) {
                    for (len, d) in around(n) {
                        let len = len.min(MAX_ARRAY_ITEMS + 1);
                        out.push(probe(
                            Kind::Bound,
                            format!("{key}{d}"),
                            map_of(len, |j| pool[j].clone()),
                        ));
                    }
                }
            }
            for p in boundary_values(values) {
                out.push(probe(
                    p.kind,
                    format!("one entry: {}", p.note),
                    json!({ "k0": p.value }),
                ));
            }
        }
        "array" => {
            let items = member(schema, "items").unwrap_or(&Value::Null);
            let item = valid(items, 0);
            let pool = size_probe_items(schema, ["minItems", "maxItems"], items);
            for key in ["minItems", "maxItems"] {
                if let Some(n) = count(schema, key) {
                    for (len, d) in around(n) {
                        let len = len.min(MAX_ARRAY_ITEMS + 1);
                        out.push(probe(
                            Kind::Bound,
                            format!("{key}{d}, distinct items"),
                            Value::Array(pool[..len].to_vec()),
                        ));
                        out.push(probe(
                            Kind::Bound,
                            format!("{key}{d}, equal items"),
                            Value::Array(vec![item.clone(); len]),
                        ));
                    }
                }
            }
            out.push(probe(
                Kind::Value,
                "two equal items",
                json!([item.clone(), item]),
            ));
            for p in boundary_values(items) {
                out.push(probe(
                    p.kind,
                    format!("one item: {}", p.note),
                    json!([p.value]),
                ));
            }
        }
        _ => {}
    }
    out
}

/// The distinct items (of schema `items`) that the size probes of `schema`'s two count
/// `bounds` take their first ones from: as many as the longest probe, bound + 1, cut at
/// [`MAX_ARRAY_ITEMS`] + 1.
fn size_probe_items(schema: &Value, bounds: [&str; 2], items: &Value) -> Vec<Value> {
    let longest = bounds
        .into_iter()
        .filter_map(|key| count(schema, key))
        .map(|n| n.saturating_add(1).min(MAX_ARRAY_ITEMS + 1))
        .max()
        .unwrap_or(0);
    (0..longest).map(|j| valid(items, j)).collect()
}

/// The enum values that get a vector each: all of them, or for an enum of more than
/// [`MAX_VECTOR_ITEMS`] values the first `MAX_VECTOR_ITEMS - 1` and the last, so a huge
/// enum's export stays the size of a small one's.
fn enum_probed(values: &[Value]) -> impl Iterator<Item = &Value> {
    let head = if values.len() > MAX_VECTOR_ITEMS {
        MAX_VECTOR_ITEMS - 1
    } else {
        values.len()
    };
    values[..head]
        .iter()
        .chain(values.get(head..).and_then(<[Value]>::last))
}

/// A value of the same JSON type as `values` (an enum's, or a `const` alone) that is none
/// of them: the wrong-enum probe must fail on the enum, not on its type.
fn not_listed(values: &[Value]) -> Value {
    match values.first() {
        Some(Value::Number(_)) => {
            let top = values.iter().filter_map(Value::as_f64).fold(0.0, f64::max);
            json!(top.floor() as i64 + 1)
        }
        Some(Value::Bool(b)) => json!(!b),
        _ => json!("zz-not-a-value"),
    }
}

/// `n - 1`, `n` and `n + 1` with their notes (`n - 1` left out at 0).
fn around(n: usize) -> Vec<(usize, &'static str)> {
    let mut v = Vec::with_capacity(3);
    if n > 0 {
        v.push((n - 1, " - 1"));
    }
    v.push((n, ""));
    v.push((n.saturating_add(1), " + 1"));
    v
}

fn string_probes(schema: &Value, out: &mut Vec<Probe>) {
    let base = valid_string(schema, 0, None);
    for key in ["minLength", "maxLength"] {
        let Some(n) = count(schema, key) else {
            continue;
        };
        for (len, d) in around(n) {
            if len > MAX_VECTOR_CHARS {
                continue;
            }
            let padded = |fill: char| -> String {
                base.chars()
                    .chain(std::iter::repeat(fill))
                    .take(len)
                    .collect()
            };
            out.push(probe(
                Kind::Bound,
                format!("{key}{d} characters"),
                json!(padded('a')),
            ));
            out.push(probe(
                Kind::NonBmp,
                format!("{key}{d} characters, non-BMP fill"),
                json!(padded('😀')),
            ));
        }
    }
    let over = count(schema, "maxLength").map_or(4097, |n| n.saturating_add(1));
    if over <= MAX_VECTOR_CHARS {
        let emoji: String = std::iter::repeat_n('😀', over).collect();
        out.push(probe(
            Kind::NonBmp,
            format!("{over} non-BMP characters"),
            json!(emoji),
        ));
    }
    if base.chars().count() < MAX_VECTOR_CHARS {
        out.push(probe(
            Kind::Value,
            "a character appended",
            json!(format!("{base}!")),
        ));
        out.push(probe(
            Kind::NonBmp,
            "a non-BMP character prepended",
            json!(format!("😀{base}")),
        ));
    }
    let near_misses = [
        "2023-02-29",
        "2024-01-01T24:00:00Z",
        "2024-01-01t10:00:00+01:00",
        "not-a-uuid",
        "123E4567-E89B-12D3-A456-426614174000",
        "a@b@c.example",
    ];
    for s in near_misses {
        out.push(probe(Kind::Value, format!("format probe {s:?}"), json!(s)));
    }
}

fn number_probes(schema: &Value, integer: bool, out: &mut Vec<Probe>) {
    let delta = if integer { 1.0 } else { 0.25 };
    for key in [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ] {
        // An integer bound steps exactly, in 128 bits: `minimum - 1` of `i64::MIN + 1` is
        // `i64::MIN`, not the double nearest to it. A step that leaves the 64-bit range is
        // left out: JSON read into doubles cannot tell it from the bound.
        if integer && let Some(b) = member(schema, key).and_then(Value::as_i64) {
            let b = i128::from(b);
            for (v, note) in [
                (b - 1, format!("{key} - 1")),
                (b, key.to_string()),
                (b + 1, format!("{key} + 1")),
                (-b, format!("-{key}")),
            ] {
                let value = i64::try_from(v)
                    .map(|v| json!(v))
                    .or_else(|_| u64::try_from(v).map(|v| json!(v)));
                if let Ok(value) = value {
                    out.push(probe(Kind::Bound, note, value));
                }
            }
            continue;
        }
        let Some(b) = num(schema, key) else { continue };
        let steps = [
            (b - delta, format!("{key} - {delta}")),
            (b, key.to_string()),
            (b + delta, format!("{key} + {delta}")),
            (b - 1.0, format!("{key} - 1")),
            (b + 1.0, format!("{key} + 1")),
            (-b, format!("-{key}")),
        ];
        for (v, note) in steps {
            out.push(probe(Kind::Bound, note, number(v, integer)));
        }
    }
    // Multiples a validator dividing doubles gets wrong (0.3 / 0.1 = 2.9999999999999996):
    // 3 and 7 times the step, and 4.5 times it, written as the decimals they are.
    if let Some(m) = num(schema, "multipleOf").filter(|_| !integer) {
        for (times, note) in [
            (30, "3 × multipleOf"),
            (70, "7 × multipleOf"),
            (45, "4.5 × multipleOf"),
        ] {
            if let Some(v) = decimal_times(m, times) {
                out.push(probe(Kind::Value, note, number(v, integer)));
            }
        }
    }
    out.push(probe(Kind::Value, "a fraction", json!(1.5)));
    out.push(probe(Kind::Value, "a negative integer", json!(-1)));
}

/// `m × tenths / 10` computed on the shortest decimal of `m` and read back as a double, so
/// `0.1 × 30 / 10` is the double of `0.3`, not `0.30000000000000004`.
fn decimal_times(m: f64, tenths: u64) -> Option<f64> {
    let text = format!("{:e}", m);
    let (mantissa, exp) = text.split_once('e')?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: i128 = format!("{int}{frac}").parse().ok()?;
    let scaled = digits.checked_mul(i128::from(tenths))?;
    let exp = exp - i32::try_from(frac.len()).ok()? - 1;
    format!("{scaled}e{exp}")
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
}

/// Every single edit of `schema`'s instances: an unknown property on each object, and for
/// each property at every depth of nested objects, its removal and each of its
/// [`boundary_values`].
pub fn edits(schema: &Value) -> Vec<Edit> {
    let mut out = Vec::new();
    collect_edits(schema, &mut Vec::new(), &mut out);
    out
}

fn collect_edits(schema: &Value, path: &mut Vec<String>, out: &mut Vec<Edit>) {
    // A union's instances in [`valid`] take its first variant: edits go into that one.
    if let Some(v) = variant(schema, 0) {
        return collect_edits(v, path, out);
    }
    out.push(Edit::Unknown(path.clone()));
    for (k, s) in properties(schema) {
        path.push(k.clone());
        out.push(Edit::Remove(path.clone(), is_required(schema, k)));
        for p in boundary_values(s) {
            out.push(Edit::Set(path.clone(), p));
        }
        if ty(s) == Some("object") {
            collect_edits(s, path, out);
        }
        path.pop();
    }
}

/// Applies `edit` to `v`; an edit whose path is not in `v` changes nothing.
pub fn apply(v: &mut Value, edit: &Edit) {
    let path = edit.path();
    let (parent, last) = match edit {
        Edit::Unknown(_) => (path, None),
        _ => match path.split_last() {
            Some((last, parent)) => (parent, Some(last)),
            None => return,
        },
    };
    let mut cur = v;
    for k in parent {
        match cur.get_mut(k) {
            Some(next) => cur = next,
            None => return,
        }
    }
    let Some(obj) = cur.as_object_mut() else {
        return;
    };
    match (edit, last) {
        (Edit::Set(_, p), Some(k)) => {
            obj.insert(k.clone(), p.value.clone());
        }
        (Edit::Remove(..), Some(k)) => {
            obj.remove(k);
        }
        _ => {
            obj.insert("zz_unknown".into(), json!(1));
        }
    }
}

/// Every tool of `project` with its contract, in [`write_records`] order: catalogs by name (as
/// `tools/list` orders them), tools in declaration order.
fn contracts<'p>(
    project: &'p Project,
    artifacts: &'p Artifacts,
) -> impl Iterator<Item = (&'p Catalog, &'p Tool, &'p super::ToolContract)> + 'p {
    catalogs_by_name(project).into_iter().flat_map(move |c| {
        let cat = &project.catalogs[c];
        (cat.tools.iter().enumerate())
            .filter_map(move |(t, tool)| Some((cat, tool, artifacts.tool(c, t)?)))
    })
}

/// Why [`write_records`] stopped.
#[derive(Debug)]
pub enum WriteError {
    /// A schema [`vectors`] cannot take, with the tool and side named.
    Schema(String),
    /// The output failed.
    Io(std::io::Error),
}

impl From<String> for WriteError {
    fn from(e: String) -> Self {
        WriteError::Schema(e)
    }
}

/// How many bytes of written vectors [`write_records`] keeps to write again for a later side
/// with the same validating schema; a side past what is left is written without being kept.
/// Only the time depends on it, never the output.
pub const REUSE_BYTES: usize = 24 << 20;

/// Every vector of every tool of `project` as one JSON line each, written to `out` as it is
/// made: catalogs by name (as `tools/list` orders them), tools in declaration order, input
/// then output, vectors in [`vectors`] order. `artifacts` are the project's contracts.
///
/// A side's vectors depend only on the validating keywords of its schema, so the lines of a
/// side whose schema differs from an earlier one's only in annotations (descriptions,
/// titles, examples) are the earlier side's with the tool named anew: they are written
/// again, not made again, while up to [`REUSE_BYTES`] of them are kept. Nothing else is
/// held, however many vectors there are. Stops, naming the tool, at a schema [`vectors`]
/// cannot take (the lines before it written).
pub fn write_records(
    project: &Project,
    artifacts: &Artifacts,
    out: &mut dyn std::io::Write,
) -> Result<(), WriteError> {
    let mut kept = Kept::default();
    for (cat, tool, contract) in contracts(project, artifacts) {
        let sides = [
            ("input", Some(contract.input_schema())),
            ("output", contract.output_schema()),
        ];
        for (side, text) in sides {
            let Some(text) = text else { continue };
            let head = Head::new(
                [&cat.name.value, &tool.name.value],
                [&cat.version.value, &tool.version.value],
                side,
            );
            kept.write_side(text, &head, out).map_err(|e| match e {
                WriteError::Schema(e) => {
                    WriteError::Schema(format!("tool {}: {side} schema {e}", tool.name.value))
                }
                e => e,
            })?;
        }
    }
    Ok(())
}

/// What a vector line says of its tool and side, before its vector: the `id` up to its index,
/// then `catalog` … `side` written out.
struct Head {
    /// `{"id":"` and the id up to its index, JSON-escaped (the index is digits, which need
    /// no escape, so the line's id is this, the index and `"`).
    id: Vec<u8>,
    rest: Vec<u8>,
}

impl Head {
    fn new(
        [catalog, tool]: [&str; 2],
        [catalog_version, tool_version]: [&str; 2],
        side: &str,
    ) -> Head {
        let mut rest = Vec::new();
        for (key, value) in [
            ("catalog", catalog),
            ("catalog_version", catalog_version),
            ("tool", tool),
            ("tool_version", tool_version),
            ("side", side),
        ] {
            rest.extend_from_slice(format!(",\"{key}\":").as_bytes());
            json_to(&mut rest, value);
        }
        let mut id = b"{\"id\":".to_vec();
        json_to(&mut id, &format!("{catalog}/{tool}/{side}/"));
        // Without its closing quote: the index comes before it.
        id.pop();
        Head { id, rest }
    }

    /// Writes the start of line `i` of the side: `{"id":…,…,"side":…`.
    fn write(&self, i: usize, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        out.write_all(&self.id)?;
        write!(out, "{i}\"")?;
        out.write_all(&self.rest)
    }
}

/// Appends `value` as JSON to `buf` (writing to a vector cannot fail).
fn json_to(buf: &mut Vec<u8>, value: &(impl serde::Serialize + ?Sized)) {
    let _ = serde_json::to_writer(&mut *buf, value);
}

/// The rest of a vector's line after its [`Head`]: `,"kind":…,"expect":…}` and the newline.
fn tail(v: &Made<'_>, buf: &mut Vec<u8>) {
    buf.extend_from_slice(b",\"kind\":");
    json_to(buf, v.kind.as_str());
    buf.extend_from_slice(b",\"pointer\":");
    json_to(buf, &v.pointer);
    buf.extend_from_slice(b",\"note\":");
    json_to(buf, &v.note);
    buf.extend_from_slice(b",\"instance\":");
    json_to(buf, v.instance);
    buf.extend_from_slice(b",\"expect\":");
    json_to(buf, if v.accept { "accept" } else { "reject" });
    buf.extend_from_slice(b"}\n");
}

/// The written tails of earlier sides, by the validating part of their schema.
#[derive(Default)]
struct Kept {
    /// Per schema key: every line's tail, in order.
    sides: HashMap<[u8; 32], Vec<Box<[u8]>>>,
    bytes: usize,
}

impl Kept {
    /// Writes every vector line of `schema` for `head`: the kept tails when an earlier side
    /// had the same validating schema, else the vectors as they are made (kept when they fit).
    fn write_side(
        &mut self,
        text: &str,
        head: &Head,
        out: &mut dyn std::io::Write,
    ) -> Result<(), WriteError> {
        let schema = &super::schema::parse(text);
        let key = validating_key(schema);
        if let Some(tails) = self.sides.get(&key) {
            for (i, tail) in tails.iter().enumerate() {
                head.write(i, out).map_err(WriteError::Io)?;
                out.write_all(tail).map_err(WriteError::Io)?;
            }
            return Ok(());
        }
        let room = REUSE_BYTES.saturating_sub(self.bytes + key.len());
        // Each tail in a buffer of its own size: kept tails are never moved to grow.
        let mut keep = Some((Vec::new(), 0));
        let mut line = Vec::new();
        let mut i = 0;
        each_vector_of(shape_of_parsed(schema, text)?, schema, |v| {
            line.clear();
            tail(&v, &mut line);
            head.write(i, out).map_err(WriteError::Io)?;
            out.write_all(&line).map_err(WriteError::Io)?;
            i += 1;
            if let Some((tails, bytes)) = &mut keep {
                *bytes += line.len() + std::mem::size_of::<Box<[u8]>>();
                if *bytes > room {
                    keep = None;
                } else {
                    tails.push(Box::from(&line[..]));
                }
            }
            Ok::<(), WriteError>(())
        })?;
        if let Some((tails, bytes)) = keep {
            self.bytes += key.len() + bytes;
            self.sides.insert(key, tails);
        }
        Ok(())
    }
}

/// The SHA-256 of `schema` as compact JSON without its annotations
/// ([`ANNOTATIONS`](super::shape::ANNOTATIONS) of every subschema), after whether it is over
/// the caps: two schemas with the same key have the same vectors. Property order stays (it
/// orders instances and edits). Hashed as it is written, so a huge schema takes no copy.
fn validating_key(schema: &Value) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    fn list<T>(
        h: &mut Sha256,
        [open, close]: [&[u8]; 2],
        items: impl Iterator<Item = T>,
        mut each: impl FnMut(&mut Sha256, T),
    ) {
        h.update(open);
        for (n, item) in items.enumerate() {
            if n > 0 {
                h.update(b",");
            }
            each(h, item);
        }
        h.update(close);
    }
    fn json(h: &mut Sha256, value: &(impl serde::Serialize + ?Sized)) {
        // Hashing cannot fail.
        let _ = serde_json::to_writer(Feed(h), value);
    }
    /// An `io::Write` that feeds the hash, for serde_json's writer.
    struct Feed<'a>(&'a mut Sha256);
    impl std::io::Write for Feed<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.update(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    fn strip(h: &mut Sha256, schema: &Value) {
        let Value::Object(map) = schema else {
            return json(h, schema);
        };
        let kept = map
            .iter()
            .filter(|(k, _)| !super::shape::ANNOTATIONS.contains(&k.as_str()));
        list(h, [b"{", b"}"], kept, |h, (k, v)| {
            json(h, k);
            h.update(b":");
            match (k.as_str(), v) {
                ("properties", Value::Object(props)) => {
                    list(h, [b"{", b"}"], props.iter(), |h, (name, s)| {
                        json(h, name);
                        h.update(b":");
                        strip(h, s);
                    });
                }
                ("items" | "additionalProperties", s) => strip(h, s),
                ("oneOf", Value::Array(branches)) => {
                    list(h, [b"[", b"]"], branches.iter(), strip);
                }
                _ => json(h, v),
            }
        });
    }
    let mut h = Sha256::new();
    h.update(if over_caps(schema) { "cut " } else { "in " });
    strip(&mut h, schema);
    h.finalize().into()
}

/// One refusal vector per tool of `project` that profile `profile` disables, in
/// [`write_records`] order: a call with its minimal valid input (`instance`) that a server started
/// with the profile answers as an unknown tool, JSON-RPC error −32602 (`"expect":
/// "unknown-tool"`), the tool being absent from `tools/list`.
pub fn refusals(
    project: &Project,
    artifacts: &Artifacts,
    profile: &str,
    disabled: &[&str],
) -> Vec<Value> {
    let mut out = Vec::new();
    for (cat, tool, contract) in contracts(project, artifacts) {
        if disabled.contains(&tool.name.value.as_str()) {
            out.push(json!({
                "id": format!("{}/{}/call/disabled", cat.name.value, tool.name.value),
                "catalog": cat.name.value,
                "catalog_version": cat.version.value,
                "tool": tool.name.value,
                "tool_version": tool.version.value,
                "side": "call",
                "kind": "disabled",
                "pointer": "",
                "note": format!("disabled by profile `{profile}`: not listed, and a call is an unknown tool (JSON-RPC -32602)"),
                "instance": minimal(&contract.input_schema_value()),
                "expect": "unknown-tool",
            }));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "code": {"type": "string", "maxLength": 8, "pattern": "^INV-[0-9]+$"},
                "count": {"type": "integer", "exclusiveMinimum": 0, "maximum": 10},
                "state": {"type": "string", "enum": ["open", "paid"]},
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 3},
                         "maxItems": 2, "uniqueItems": true}
            },
            "required": ["code", "count"],
            "additionalProperties": false
        })
    }

    /// The lines of one side: each vector as the record the format names, in its order.
    fn lines_of(schema: &Value, tool: &str) -> String {
        let v = vectors(schema).unwrap_or_else(|e| panic!("{e}"));
        v.iter()
            .enumerate()
            .map(|(i, v)| {
                let record = json!({
                    "id": format!("cat/{tool}/input/{i}"),
                    "catalog": "cat",
                    "catalog_version": "1.0.0",
                    "tool": tool,
                    "tool_version": "2.0.0",
                    "side": "input",
                    "kind": v.kind.as_str(),
                    "pointer": v.pointer,
                    "note": v.note,
                    "instance": v.instance,
                    "expect": if v.accept { "accept" } else { "reject" },
                });
                format!("{record}\n")
            })
            .collect()
    }

    /// Many tools sharing one record type made every vector of it again per tool: a side whose
    /// schema differs from an earlier one only in descriptions is written from the kept lines
    /// (one kept side for both), byte for byte what making it gives; a validating difference
    /// is made anew.
    #[test]
    fn a_schema_differing_only_in_annotations_is_written_again_not_made_again() {
        let a = schema();
        let mut b = schema();
        b["description"] = json!("Another tool.");
        b["properties"]["code"]["description"] = json!("Its code.");
        b["properties"]["tags"]["items"]["title"] = json!("A tag");
        let mut c = schema();
        c["properties"]["code"]["maxLength"] = json!(9);
        let mut kept = Kept::default();
        for (i, s) in [&a, &b, &c].into_iter().enumerate() {
            let tool = format!("t{i}");
            let head = Head::new(["cat", &tool], ["1.0.0", "2.0.0"], "input");
            let mut out = Vec::new();
            kept.write_side(&s.to_string(), &head, &mut out)
                .unwrap_or_else(|e| panic!("{e:?}"));
            assert_eq!(String::from_utf8_lossy(&out), lines_of(s, &tool), "{tool}");
            assert_eq!(kept.sides.len(), if i < 2 { 1 } else { 2 }, "{tool}");
        }
    }

    /// A side too large for what is left of [`REUSE_BYTES`] is written whole and not kept.
    #[test]
    fn a_side_past_the_reuse_room_is_written_and_not_kept() {
        let mut kept = Kept {
            bytes: REUSE_BYTES - 100,
            ..Kept::default()
        };
        let head = Head::new(["cat", "t"], ["1.0.0", "2.0.0"], "input");
        let mut out = Vec::new();
        kept.write_side(&schema().to_string(), &head, &mut out)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(String::from_utf8_lossy(&out), lines_of(&schema(), "t"));
        assert!(kept.sides.is_empty());
    }

    /// An enum of 5,000 values gets a vector for its first 1,023 values and its last, not one
    /// per value, and the whole-instance notes say the enum was cut.
    #[test]
    fn a_huge_enum_is_probed_at_its_first_values_and_its_last() {
        let values: Vec<Value> = (0..5000).map(|i| json!(format!("v{i}"))).collect();
        let s = json!({
            "type": "object",
            "properties": {"v": {"type": "string", "enum": values}},
            "required": ["v"],
            "additionalProperties": false
        });
        let v = vectors(&s).unwrap_or_else(|e| panic!("{e}"));
        let probed: Vec<&Value> = v
            .iter()
            .filter(|x| x.kind == Kind::EnumValue)
            .map(|x| &x.instance["v"])
            .collect();
        assert_eq!(probed.len(), MAX_VECTOR_ITEMS);
        assert_eq!(probed.first(), Some(&&json!("v0")));
        assert_eq!(probed.last(), Some(&&json!("v4999")));
        assert!(
            v.iter()
                .filter(|x| x.kind == Kind::EnumValue)
                .all(|x| x.accept)
        );
        assert!(
            v[0].note.contains("enums probed at 1024 values"),
            "{}",
            v[0].note
        );
    }

    /// `max-length=18446744073709551615` panicked, `max-length=100000000` took 5 GB and
    /// `min-items=100000000` never finished: every generated size is capped, the probes past
    /// the caps are left out, and the whole-instance notes say so.
    #[test]
    fn huge_length_and_count_bounds_stay_small_and_say_they_were_cut() {
        let s = json!({
            "type": "object",
            "properties": {
                "max": {"type": "string", "maxLength": u64::MAX},
                "big": {"type": "string", "maxLength": 100_000_000},
                "long": {"type": "string", "minLength": 100_000_000},
                "many": {"type": "array", "items": {"type": "integer"}, "minItems": 100_000_000},
                "map": {"type": "object", "properties": {}, "additionalProperties": {"type": "boolean"},
                        "minProperties": 100_000_000}
            },
            "required": ["max", "big", "long", "many", "map"],
            "additionalProperties": false
        });
        let v = vectors(&s).unwrap_or_else(|e| panic!("{e}"));
        let bytes: usize = v.iter().map(|x| x.instance.to_string().len()).sum();
        assert!(bytes < 64 << 20, "{bytes} bytes of vectors");
        for x in &v {
            let longest = x.instance.as_object().map_or(0, |o| {
                o.values()
                    .filter_map(Value::as_str)
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(0)
            });
            assert!(longest <= MAX_VECTOR_CHARS, "{}: {longest}", x.note);
        }
        assert!(
            v[0].note.contains("cut: strings at 65536 characters"),
            "{}",
            v[0].note
        );
        // The typical instance cannot reach `minLength` under the cap: its verdict says so.
        assert!(!v[1].accept);
        assert!(vectors(&schema()).unwrap_or_default()[0].note == "required properties only");
    }

    /// `multiple-of=0.1` was never probed with the multiples a validator dividing doubles
    /// rejects, nor an integer bound at the end of the 64-bit range exactly.
    #[test]
    fn decimal_multiples_and_integer_range_ends_are_probed_exactly() {
        let s = json!({
            "type": "object",
            "properties": {
                "x": {"type": "number", "multipleOf": 0.1},
                "n": {"type": "integer", "minimum": i64::MIN}
            },
            "additionalProperties": false
        });
        let v = vectors(&s).unwrap_or_else(|e| panic!("{e}"));
        let find = |pointer: &str, note: &str| {
            v.iter()
                .find(|x| x.pointer == pointer && x.note == note)
                .map(|x| (x.instance[&pointer[1..]].clone(), x.accept))
        };
        assert_eq!(find("/x", "3 × multipleOf"), Some((json!(0.3), true)));
        assert_eq!(find("/x", "7 × multipleOf"), Some((json!(0.7), true)));
        assert_eq!(find("/x", "4.5 × multipleOf"), Some((json!(0.45), false)));
        assert_eq!(find("/n", "minimum"), Some((json!(i64::MIN), true)));
        assert_eq!(find("/n", "minimum + 1"), Some((json!(i64::MIN + 1), true)));
        assert_eq!(find("/n", "minimum - 1"), None);
        // An integer field holds an `i64`: 2^63 is past its range.
        assert_eq!(find("/n", "-minimum"), Some((json!(1u64 << 63), false)));
    }

    #[test]
    fn patterns_get_matching_examples() {
        assert_eq!(pattern_example("^INV-[0-9]+$").as_deref(), Some("INV-0"));
        assert_eq!(pattern_example(r"^\d{6}$").as_deref(), Some("000000"));
        assert_eq!(
            pattern_example("^[A-Z0-9-]{4,34}$").as_deref(),
            Some("AAAA")
        );
        assert_eq!(pattern_example("^(ab|cd)x?$").as_deref(), Some("ab"));
        assert_eq!(pattern_example("("), None);
    }

    #[test]
    fn whole_instances_are_valid_and_edits_have_expected_verdicts() {
        let s = schema();
        let v = vectors(&s).unwrap_or_else(|e| panic!("{e}"));
        for kind in [Kind::Minimal, Kind::Typical, Kind::Maximal] {
            let w = v.iter().find(|x| x.kind == kind);
            assert!(w.is_some_and(|w| w.accept), "{kind:?}: {w:?}");
        }
        assert_eq!(v[0].instance, json!({"code": "INV-0", "count": 1}));
        assert_eq!(v[2].instance["tags"], json!(["0aa", "1aa"]));
        assert_eq!(v[2].instance["count"], json!(10));
        let find = |pointer: &str, note: &str| {
            v.iter()
                .find(|x| x.pointer == pointer && x.note == note)
                .map(|x| x.accept)
        };
        assert_eq!(find("/count", "maximum + 1"), Some(false));
        assert_eq!(find("/count", "maximum"), Some(true));
        assert_eq!(find("/count", "exclusiveMinimum"), Some(false));
        assert_eq!(find("/state", "not an enum value"), Some(false));
        assert_eq!(find("/state", "enum value \"paid\""), Some(true));
        assert_eq!(find("/code", "removed"), Some(false));
        assert_eq!(find("/tags", "removed"), Some(true));
        assert_eq!(find("", "undeclared property `zz_unknown`"), Some(false));
        assert_eq!(find("/tags", "maxItems, equal items"), Some(false));
        assert_eq!(find("/tags", "maxItems + 1, distinct items"), Some(false));
        let kinds: std::collections::BTreeSet<Kind> = v.iter().map(|x| x.kind).collect();
        for k in [
            Kind::NonBmp,
            Kind::WrongType,
            Kind::MissingRequired,
            Kind::Bound,
        ] {
            assert!(kinds.contains(&k), "{k:?}");
        }
    }
}
