//! Contract checks for generated types: each type states its schema as a static [`Shape`]
//! (bounds as literals, patterns compiled once), and [`check`] walks a JSON value against it,
//! reporting every violation with its JSON Pointer.
//!
//! One checker serves both directions: `call` checks the arguments as received, before
//! serde sees them, so a model gets every problem at once (serde stops at the first); and
//! [`Validate::validate`] checks a typed value (an output before it is sent) through its
//! JSON form, which is what the client will read. The semantics are JSON Schema 2020-12's:
//! lengths in Unicode scalar values, `integer` as any number with no fraction, numbers
//! compared by value, `pattern` as an unanchored ECMA-262 search (`u` flag) in bounded time
//! ([`crate::runtime::pattern`]).

use crate::runtime::pattern::{Compiled, Undecided};
use serde::Serialize;
use serde_json::{Map, Number, Value};
use std::cmp::Ordering;
use std::fmt::{self, Write as _};
use std::sync::OnceLock;

/// One broken rule: where (a JSON Pointer into the checked value, `""` for the root) and why.
/// Reasons name the rule, never the offending value, so they are safe to show and log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// A JSON Pointer (RFC 6901) to the offending value, e.g. `/items/0/amount`: what a
    /// model needs to fix exactly that argument.
    pub path: String,
    /// The rule that is broken (`longer than 32 characters`), without the value itself, so
    /// a secret in an argument never reaches a log through a violation.
    pub reason: String,
}

/// Every violation of one value, in document order: the error of [`Validate::validate`],
/// reported all at once so one round trip fixes them all.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[serde(transparent)]
pub struct Violations(pub Vec<Violation>);

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            let path = if v.path.is_empty() { "/" } else { &v.path };
            write!(f, "{path}: {}", v.reason)?;
        }
        Ok(())
    }
}

impl std::error::Error for Violations {}

/// The schema of a value, as generated code states it.
#[derive(Debug, Clone, Copy)]
///
/// Generated code builds shapes as `static`s: the whole schema is data the one checker
/// walks, so a tool costs a table, not a validation function, in a server's build.
pub enum Shape {
    /// A string (also `cursor` and `timestamp`) with its bounds.
    String(&'static StrRule),
    /// A JSON number with no fraction (JSON Schema `integer`: `1.0` is one too).
    Integer(&'static NumRule),
    /// Any JSON number.
    Number(&'static NumRule),
    /// `true` or `false`.
    Boolean,
    /// An array with its item count, uniqueness and item shape.
    Array(&'static ArrayRule),
    /// A closed object: unknown fields are violations.
    Object(&'static [FieldRule]),
    /// A named type's shape, shared by every use of it.
    Named(fn() -> &'static Shape),
    /// An object with free keys whose values share one shape (a catalog `map`).
    Map(&'static MapRule),
    /// Any JSON value (a catalog `json`).
    Any,
    /// `null` or a value of the inner shape (a `nullable=#true` field).
    Nullable(&'static Shape),
    /// Exactly one value, which also satisfies the base shape (a `const=` field).
    Const(&'static ConstRule),
    /// One of several closed objects, chosen by the string in one property (a `union`).
    Union(&'static UnionRule),
}

/// A `union`: the property naming the variant, and each variant's other properties.
#[derive(Debug, Clone, Copy)]
pub struct UnionRule {
    /// The discriminator property; its value is a variant's name.
    pub discriminator: &'static str,
    /// The variants, each a name and the closed object shape of its other properties
    /// (`Shape::Object`, or `Shape::Named` of one in generated code).
    pub variants: &'static [(&'static str, Shape)],
}

/// The one value of a `const=` field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// A string.
    Str(&'static str),
    /// An integer (equal to a JSON number of the same value, `1.0` included).
    Int(i64),
    /// A fractional number.
    Float(f64),
    /// `true` or `false`.
    Bool(bool),
}

/// A `const=` field: its value, and the shape of its type with the other constraints (JSON
/// Schema applies every keyword, so a `const` outside them admits nothing).
#[derive(Debug, Clone, Copy)]
pub struct ConstRule {
    /// The only value admitted.
    pub value: Scalar,
    /// The type and constraints besides `const`.
    pub base: Shape,
}

impl ConstRule {
    /// The rule of a field whose only value is `value`, of shape `base`.
    pub const fn new(value: Scalar, base: Shape) -> ConstRule {
        ConstRule { value, base }
    }

    fn admits(&self, v: &Value) -> bool {
        match (self.value, v) {
            (Scalar::Str(s), Value::String(x)) => s == x,
            (Scalar::Bool(b), Value::Bool(x)) => b == *x,
            (Scalar::Int(i), Value::Number(n)) => compare(n, Bound::Int(i)) == Ordering::Equal,
            (Scalar::Float(f), Value::Number(n)) => compare(n, Bound::Float(f)) == Ordering::Equal,
            _ => false,
        }
    }

    fn show(&self) -> String {
        match self.value {
            Scalar::Str(s) => format!("{s:?}"),
            Scalar::Int(i) => i.to_string(),
            Scalar::Float(f) => f.to_string(),
            Scalar::Bool(b) => b.to_string(),
        }
    }
}

/// One property of a closed object.
#[derive(Debug, Clone, Copy)]
pub struct FieldRule {
    /// The JSON name, as the catalog spells it (not the Rust field name).
    pub name: &'static str,
    /// Whether a missing property is a violation; an optional property is never `null`.
    pub required: bool,
    /// What the property's value must be.
    pub shape: Shape,
}

impl FieldRule {
    /// A property rule as one call: generated shapes state each property on one line.
    pub const fn new(name: &'static str, required: bool, shape: Shape) -> FieldRule {
        FieldRule {
            name,
            required,
            shape,
        }
    }
}

/// The bounds of a string; `None` is no bound.
#[derive(Debug, Clone, Copy)]
pub struct StrRule {
    /// The least length, in Unicode scalar values as JSON Schema counts (not bytes).
    pub min_length: Option<u64>,
    /// The greatest length, in Unicode scalar values.
    pub max_length: Option<u64>,
    /// An ECMA-262 pattern the string must match somewhere (unanchored, like JSON Schema).
    pub pattern: Option<&'static Pattern>,
    /// A format the string must be in.
    pub format: Option<Format>,
    /// The enum values, when the string is an enum.
    pub values: Option<&'static [&'static str]>,
}

impl StrRule {
    /// No constraint: the base for `..StrRule::ANY` in generated rules.
    pub const ANY: StrRule = StrRule {
        min_length: None,
        max_length: None,
        pattern: None,
        format: None,
        values: None,
    };

    // Builders for generated code: `StrRule::ANY.max_length(32)` states only the bounds the
    // catalog sets, in far fewer tokens than a struct literal (the generated code of a large
    // catalog is dominated by these tables).

    /// This rule with a least length.
    pub const fn min_length(mut self, n: u64) -> StrRule {
        self.min_length = Some(n);
        self
    }

    /// This rule with a greatest length.
    pub const fn max_length(mut self, n: u64) -> StrRule {
        self.max_length = Some(n);
        self
    }

    /// This rule with a pattern.
    pub const fn pattern(mut self, p: &'static Pattern) -> StrRule {
        self.pattern = Some(p);
        self
    }

    /// This rule with a format.
    pub const fn format(mut self, f: Format) -> StrRule {
        self.format = Some(f);
        self
    }

    /// This rule restricted to the enum values.
    pub const fn values(mut self, v: &'static [&'static str]) -> StrRule {
        self.values = Some(v);
        self
    }
}

/// A numeric bound as the catalog wrote it: integers stay exact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// An integer bound, compared exactly with integer values (no rounding through `f64`).
    Int(i64),
    /// A fractional bound.
    Float(f64),
}

/// The bounds of a number or integer; `None` is no bound.
#[derive(Debug, Clone, Copy)]
pub struct NumRule {
    /// The value must be at least this (`minimum`).
    pub min: Option<Bound>,
    /// The value must be at most this (`maximum`).
    pub max: Option<Bound>,
    /// The value must be greater than this (`exclusiveMinimum`).
    pub exclusive_min: Option<Bound>,
    /// The value must be less than this (`exclusiveMaximum`).
    pub exclusive_max: Option<Bound>,
    /// The value divided by this must be a whole number (`multipleOf`).
    pub multiple_of: Option<Bound>,
    /// The enum values, when the number is an enum (`enum 1 2 3`).
    pub values: Option<&'static [Bound]>,
}

impl NumRule {
    /// No constraint: the base for `..NumRule::ANY` in generated rules.
    pub const ANY: NumRule = NumRule {
        min: None,
        max: None,
        exclusive_min: None,
        exclusive_max: None,
        multiple_of: None,
        values: None,
    };

    // Builders for generated code, as for `StrRule`.

    /// This rule with a `minimum`.
    pub const fn min(mut self, b: Bound) -> NumRule {
        self.min = Some(b);
        self
    }

    /// This rule with a `maximum`.
    pub const fn max(mut self, b: Bound) -> NumRule {
        self.max = Some(b);
        self
    }

    /// This rule with an `exclusiveMinimum`.
    pub const fn exclusive_min(mut self, b: Bound) -> NumRule {
        self.exclusive_min = Some(b);
        self
    }

    /// This rule with an `exclusiveMaximum`.
    pub const fn exclusive_max(mut self, b: Bound) -> NumRule {
        self.exclusive_max = Some(b);
        self
    }

    /// This rule with a `multipleOf`.
    pub const fn multiple_of(mut self, b: Bound) -> NumRule {
        self.multiple_of = Some(b);
        self
    }

    /// This rule restricted to the enum values.
    pub const fn values(mut self, v: &'static [Bound]) -> NumRule {
        self.values = Some(v);
        self
    }
}

/// The bounds of a map: an object with free keys. With `fields`, an open object (a
/// catalog `object` with `extra`): the named properties have their own shapes, the rest
/// the shape of `values`.
#[derive(Debug, Clone, Copy)]
pub struct MapRule {
    /// The least number of keys.
    pub min_entries: Option<u64>,
    /// The greatest number of keys.
    pub max_entries: Option<u64>,
    /// What every value must be.
    pub values: Shape,
    /// The declared properties of an open object (empty for a map).
    pub fields: &'static [FieldRule],
}

impl MapRule {
    /// A map of `values` with no count bound; the builders add what the catalog sets.
    pub const fn of(values: Shape) -> MapRule {
        MapRule {
            min_entries: None,
            max_entries: None,
            values,
            fields: &[],
        }
    }

    /// This rule with declared properties: an open object whose other properties are
    /// `values`.
    pub const fn fields(mut self, fields: &'static [FieldRule]) -> MapRule {
        self.fields = fields;
        self
    }

    /// This rule with a least key count.
    pub const fn min_entries(mut self, n: u64) -> MapRule {
        self.min_entries = Some(n);
        self
    }

    /// This rule with a greatest key count.
    pub const fn max_entries(mut self, n: u64) -> MapRule {
        self.max_entries = Some(n);
        self
    }
}

/// The bounds of an array.
#[derive(Debug, Clone, Copy)]
pub struct ArrayRule {
    /// The least number of items.
    pub min_items: Option<u64>,
    /// The greatest number of items: what keeps a model from sending (or a tool from
    /// returning) an unbounded list.
    pub max_items: Option<u64>,
    /// No two items may be equal as JSON values (`1` equals `1.0`; key order is ignored).
    pub unique: bool,
    /// What every item must be.
    pub items: Shape,
}

impl ArrayRule {
    /// An array of `items` with no count bound and duplicates allowed; the builders below
    /// add what the catalog sets.
    pub const fn of(items: Shape) -> ArrayRule {
        ArrayRule {
            min_items: None,
            max_items: None,
            unique: false,
            items,
        }
    }

    /// This rule with a least item count.
    pub const fn min_items(mut self, n: u64) -> ArrayRule {
        self.min_items = Some(n);
        self
    }

    /// This rule with a greatest item count.
    pub const fn max_items(mut self, n: u64) -> ArrayRule {
        self.max_items = Some(n);
        self
    }

    /// This rule with unique items.
    pub const fn unique(mut self) -> ArrayRule {
        self.unique = true;
        self
    }
}

/// The string formats a catalog may name (the model's `Format`, as generated code names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// RFC 3339 `date-time`, with a UTC offset (`2024-01-31T09:30:00+01:00`).
    DateTime,
    /// RFC 3339 `full-date` (`2024-01-31`), leap years included.
    Date,
    /// `local@domain`, without spaces.
    Email,
    /// Anything with a scheme (`https:…`, `mailto:…`); relative references are not URIs.
    Uri,
    /// RFC 4122 text form: 36 characters, hyphens at 8, 13, 18 and 23.
    Uuid,
    /// RFC 2673 dotted quad (`192.0.2.1`), no leading zeros.
    Ipv4,
    /// RFC 4291 text form (`2001:db8::1`), an embedded IPv4 tail included.
    Ipv6,
    /// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, each
    /// at most 63 characters, 253 in all.
    Hostname,
    /// RFC 3339 `full-time` (`09:30:00Z`, `09:30:00.5+01:00`), offset required.
    Time,
}

impl Format {
    /// Every format, in the catalog format's order.
    pub const ALL: &'static [Format] = &[
        Format::DateTime,
        Format::Date,
        Format::Email,
        Format::Uri,
        Format::Uuid,
        Format::Ipv4,
        Format::Ipv6,
        Format::Hostname,
        Format::Time,
    ];

    /// The format a JSON Schema `format` names, when it is one of these.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.iter().copied().find(|f| f.as_str() == name)
    }

    /// The JSON Schema `format` name, as violations and schemas say it.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Email => "email",
            Format::Uri => "uri",
            Format::Uuid => "uuid",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Hostname => "hostname",
            Format::Time => "time",
        }
    }

    /// Whether `s` is in this format (RFC 3339 for dates, RFC 4122 text for UUIDs; an
    /// e-mail address is `local@domain` without spaces, a URI has a scheme).
    pub fn matches(self, s: &str) -> bool {
        match self {
            Format::Date => is_date(s),
            Format::DateTime => is_date_time(s),
            Format::Uuid => is_uuid(s),
            Format::Email => is_email(s),
            Format::Uri => is_uri(s),
            Format::Ipv4 => s.parse::<std::net::Ipv4Addr>().is_ok(),
            // Rust's parser also takes a zone-less address only, as RFC 4291 text form is.
            Format::Ipv6 => s.parse::<std::net::Ipv6Addr>().is_ok(),
            Format::Hostname => is_hostname(s),
            Format::Time => is_time(s),
        }
    }
}

/// An ECMA-262 pattern, compiled on first use and then shared; checked in bounded time
/// ([`crate::runtime::pattern`]).
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Result<Compiled, String>>,
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

impl Pattern {
    /// A pattern compiled on its first use: a `const fn`, so generated code can hold it in
    /// a `static` and a pattern no call reaches costs nothing at start-up.
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The pattern as the catalog wrote it, for messages and schemas.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The compiled pattern, or why it does not compile (the linter rejects such catalogs,
    /// so generated code only meets this through a hand-built model).
    pub fn compiled(&self) -> Result<&Compiled, &str> {
        self.compiled
            .get_or_init(|| compile_pattern(self.source))
            .as_ref()
            .map_err(String::as_str)
    }

    /// Whether the pattern matches somewhere in `s`; [`Undecided`] when it could not be
    /// told within the pattern's budget. A pattern that does not compile matches nothing:
    /// fail closed.
    pub fn matches(&self, s: &str) -> Result<bool, Undecided> {
        self.compiled().map_or(Ok(false), |c| c.is_match(s))
    }

    /// Whether the pattern is known to match somewhere in `s` (undecided is no match).
    pub fn is_match(&self, s: &str) -> bool {
        self.matches(s) == Ok(true)
    }
}

/// Compiles a JSON Schema `pattern` as ECMA-262 with the `u` flag (what 2020-12 asks for).
pub fn compile_pattern(source: &str) -> Result<Compiled, String> {
    Compiled::new(source)
}

/// A generated type that knows its contract.
pub trait Validate: Serialize {
    /// The schema of this type.
    fn shape() -> &'static Shape;

    /// Every violation of the contract by this value, as a client would read it.
    fn validate(&self) -> Result<(), Violations> {
        self.checked_value().map(drop)
    }

    /// This value as JSON when it keeps its contract; every violation otherwise.
    fn checked_value(&self) -> Result<Value, Violations> {
        let value = serde_json::to_value(self).map_err(|e| {
            Violations(vec![Violation {
                path: String::new(),
                reason: format!("cannot be serialised: {e}"),
            }])
        })?;
        let found = check(Self::shape(), &value);
        if found.is_empty() {
            Ok(value)
        } else {
            Err(Violations(found))
        }
    }
}

/// Every violation of `shape` by `value`.
pub fn check(shape: &Shape, value: &Value) -> Vec<Violation> {
    let mut out = Found::All(Vec::new());
    walk(shape, value, &mut String::new(), &mut out);
    match out {
        Found::All(found) => found,
        Found::Any(_) => Vec::new(),
    }
}

/// Whether `value` keeps `shape`: [`check`] finds nothing, without composing its messages.
pub fn conforms(shape: &Shape, value: &Value) -> bool {
    let mut out = Found::Any(false);
    walk(shape, value, &mut String::new(), &mut out);
    out.count() == 0
}

/// How many allowed values a violation lists; the rest are counted.
const LISTED_VALUES: usize = 32;

/// `must be one of …` over the allowed `values`: the first [`LISTED_VALUES`] of them and how
/// many more there are, so the message for an enum of many values stays the size of one line.
fn one_of(values: impl ExactSizeIterator<Item = String>) -> String {
    let more = values.len().saturating_sub(LISTED_VALUES);
    let list: Vec<String> = values.take(LISTED_VALUES).collect();
    if more == 0 {
        format!("must be one of {}", list.join(", "))
    } else {
        format!("must be one of {}, … ({more} more)", list.join(", "))
    }
}

/// What a walk collects: every violation, or only whether there is one (then no message is
/// made).
enum Found {
    All(Vec<Violation>),
    Any(bool),
}

impl Found {
    /// How many violations were found (at most 1 when only whether there is one is kept).
    fn count(&self) -> usize {
        match self {
            Found::All(v) => v.len(),
            Found::Any(any) => usize::from(*any),
        }
    }
}

/// Records a violation at `path`; `reason` is only called when messages are kept.
fn push(out: &mut Found, path: &str, reason: impl FnOnce() -> String) {
    match out {
        Found::All(v) => v.push(Violation {
            path: path.to_string(),
            reason: reason(),
        }),
        Found::Any(any) => *any = true,
    }
}

/// Appends `/token` to a JSON Pointer (RFC 6901: `~` → `~0`, `/` → `~1`).
fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn walk(shape: &Shape, value: &Value, path: &mut String, out: &mut Found) {
    match (shape, value) {
        (Shape::Named(f), v) => walk(f(), v, path, out),
        (Shape::Any, _) | (Shape::Nullable(_), Value::Null) => {}
        (Shape::Nullable(inner), v) => walk(inner, v, path, out),
        (Shape::Const(rule), v) => {
            let before = out.count();
            walk(&rule.base, v, path, out);
            if out.count() == before && !rule.admits(v) {
                push(out, path, || format!("must be {}", rule.show()));
            }
        }
        (Shape::Map(rule), Value::Object(map)) => entries(rule, map, path, out),
        (Shape::String(rule), Value::String(s)) => string(rule, s, path, out),
        (Shape::Integer(rule), Value::Number(n)) if is_integer(n) => number(rule, n, path, out),
        (Shape::Integer(_), Value::Number(n))
            if n.as_f64()
                .is_some_and(|f| f.fract() == 0.0 && beyond_i64(f)) =>
        {
            push(out, path, || "outside the 64-bit integer range".into());
        }
        (Shape::Number(rule), Value::Number(n)) => number(rule, n, path, out),
        (Shape::Boolean, Value::Bool(_)) => {}
        (Shape::Array(rule), Value::Array(items)) => array(rule, items, path, out),
        (Shape::Object(fields), Value::Object(map)) => object(fields, None, map, path, out, None),
        (Shape::Union(rule), Value::Object(map)) => union(rule, map, path, out),
        (shape, v) => {
            let want = match shape {
                Shape::String(_) => "a string",
                Shape::Integer(_) => "an integer",
                Shape::Number(_) => "a number",
                Shape::Boolean => "a boolean",
                Shape::Array(_) => "an array",
                Shape::Object(_) | Shape::Named(_) | Shape::Map(_) | Shape::Union(_) => "an object",
                // Both match every value above; listed so the match stays exhaustive.
                Shape::Any | Shape::Nullable(_) | Shape::Const(_) => "a value",
            };
            push(out, path, || {
                format!("expected {want}, found {}", kind_of(v))
            });
        }
    }
}

fn string(rule: &StrRule, s: &str, path: &str, out: &mut Found) {
    if let Some(values) = rule.values
        && !values.contains(&s)
    {
        push(out, path, || {
            one_of(values.iter().map(|v| format!("{v:?}")))
        });
    }
    // JSON Schema counts characters as Unicode code points; a Rust `char` is a scalar value,
    // and JSON text in a `String` holds no lone surrogates.
    let len = s.chars().count() as u64;
    if let Some(min) = rule.min_length
        && len < min
    {
        push(out, path, || format!("shorter than {min} characters"));
    }
    if let Some(max) = rule.max_length
        && len > max
    {
        push(out, path, || format!("longer than {max} characters"));
    }
    if let Some(p) = rule.pattern {
        match p.matches(s) {
            Ok(true) => {}
            Ok(false) => push(out, path, || {
                format!("does not match the pattern {:?}", p.source())
            }),
            Err(undecided) => push(out, path, || format!("{undecided} {:?}", p.source())),
        }
    }
    if let Some(f) = rule.format
        && !f.matches(s)
    {
        push(out, path, || format!("not a valid {}", f.as_str()));
    }
}

fn is_integer(n: &Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.is_finite() && f.fract() == 0.0 && !beyond_i64(f))
}

/// A whole number held as a double at or past ±2^63. JSON text for an integer that fits 64
/// bits is read as one, so such a double was written with a fraction or exponent, or is an
/// integer outside the 64-bit range: `-9223372036854775809` reads as the double −2^63, equal
/// to `i64::MIN`, and would pass a `minimum` of `i64::MIN`. An integer field holds `i64`, so
/// these are refused as out of range rather than compared.
fn beyond_i64(f: f64) -> bool {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    f.abs() >= TWO_63
}

/// `n` compared with `b` by numeric value (exact when both are integers).
fn compare(n: &Number, b: Bound) -> Ordering {
    match (n.as_i64(), n.as_u64(), b) {
        (Some(i), _, Bound::Int(j)) => i.cmp(&j),
        (None, Some(_), Bound::Int(_)) => Ordering::Greater,
        _ => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            let g = match b {
                Bound::Int(j) => j as f64,
                Bound::Float(g) => g,
            };
            f.partial_cmp(&g).unwrap_or(Ordering::Equal)
        }
    }
}

fn show(b: Bound) -> String {
    match b {
        Bound::Int(i) => i.to_string(),
        Bound::Float(f) => f.to_string(),
    }
}

fn number(rule: &NumRule, n: &Number, path: &str, out: &mut Found) {
    if let Some(values) = rule.values
        && !values.iter().any(|&b| compare(n, b) == Ordering::Equal)
    {
        push(out, path, || one_of(values.iter().map(|&b| show(b))));
    }
    if let Some(b) = rule.min
        && compare(n, b) == Ordering::Less
    {
        push(out, path, || format!("less than the minimum {}", show(b)));
    }
    if let Some(b) = rule.max
        && compare(n, b) == Ordering::Greater
    {
        push(out, path, || {
            format!("greater than the maximum {}", show(b))
        });
    }
    if let Some(b) = rule.exclusive_min
        && compare(n, b) != Ordering::Greater
    {
        push(out, path, || format!("must be greater than {}", show(b)));
    }
    if let Some(b) = rule.exclusive_max
        && compare(n, b) != Ordering::Less
    {
        push(out, path, || format!("must be less than {}", show(b)));
    }
    if let Some(b) = rule.multiple_of
        && !is_multiple(n, b)
    {
        push(out, path, || format!("not a multiple of {}", show(b)));
    }
}

/// Whether `n` is a whole multiple of `b`, decided exactly on decimals: each double is taken
/// as the shortest decimal that reads back as it (the number as written, for up to 17
/// significant digits), so `0.3` is a multiple of `0.1` and `0.35` is not, where dividing
/// the doubles (0.3 / 0.1 = 2.9999999999999996) says otherwise.
fn is_multiple(n: &Number, b: Bound) -> bool {
    if let (Some(i), Bound::Int(m)) = (n.as_i64(), b)
        && m != 0
    {
        return i % m == 0;
    }
    let step = match b {
        Bound::Int(m) => Some((u128::from(m.unsigned_abs()), 0)),
        Bound::Float(m) => shortest_decimal(m),
    };
    let value = match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => Some((u128::from(u), 0)),
        (_, Some(i)) => Some((u128::from(i.unsigned_abs()), 0)),
        _ => n.as_f64().and_then(shortest_decimal),
    };
    let (Some((a, p)), Some((d, q))) = (value, step) else {
        return false;
    };
    if d == 0 {
        return false;
    }
    if a == 0 {
        return true;
    }
    // a·10^p / (d·10^q), both normalized (no trailing zero digit): when p < q the quotient
    // needs 10 to divide `a`, which it does not.
    if p < q {
        return false;
    }
    let mut r = a % d;
    for _ in 0..(p - q) {
        r = r * 10 % d;
        if r == 0 {
            break;
        }
    }
    r == 0
}

/// A finite double as `digits × 10^exp` of its shortest round-trip decimal, sign dropped and
/// trailing zero digits moved into the exponent (`0.30` → `(3, -1)`, `1500.0` → `(15, 2)`).
fn shortest_decimal(f: f64) -> Option<(u128, i32)> {
    if !f.is_finite() {
        return None;
    }
    let text = format!("{:e}", f.abs());
    let (mantissa, exp) = text.split_once('e')?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits: u128 = format!("{int}{frac}").parse().ok()?;
    let mut exp = exp.parse::<i32>().ok()? - i32::try_from(frac.len()).ok()?;
    while digits != 0 && digits.is_multiple_of(10) {
        digits /= 10;
        exp += 1;
    }
    Some((digits, exp))
}

fn array(rule: &ArrayRule, items: &[Value], path: &mut String, out: &mut Found) {
    let n = items.len() as u64;
    if let Some(min) = rule.min_items
        && n < min
    {
        push(out, path, || format!("fewer than {min} items"));
    }
    if let Some(max) = rule.max_items
        && n > max
    {
        push(out, path, || format!("more than {max} items"));
    }
    if rule.unique {
        let dup = items
            .iter()
            .enumerate()
            .any(|(i, a)| items[..i].iter().any(|b| json_equal(a, b)));
        if dup {
            push(out, path, || "items are not unique".into());
        }
    }
    let len = path.len();
    for (i, item) in items.iter().enumerate() {
        // An index needs no escape.
        let _ = write!(path, "/{i}");
        walk(&rule.items, item, path, out);
        path.truncate(len);
    }
}

fn entries(rule: &MapRule, map: &Map<String, Value>, path: &mut String, out: &mut Found) {
    let n = map.len() as u64;
    if let Some(min) = rule.min_entries
        && n < min
    {
        push(out, path, || format!("fewer than {min} entries"));
    }
    if let Some(max) = rule.max_entries
        && n > max
    {
        push(out, path, || format!("more than {max} entries"));
    }
    object(rule.fields, None, map, path, out, Some(&rule.values));
}

/// JSON Schema equality: numbers by value (`1` equals `1.0`), objects regardless of order.
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// The variant the discriminator names, checked as a closed object; a missing or unknown
/// discriminator is one violation at its own path (no variant's fields are then checked).
fn union(rule: &UnionRule, map: &Map<String, Value>, path: &mut String, out: &mut Found) {
    let len = path.len();
    let tag = map.get(rule.discriminator);
    let found = tag
        .and_then(Value::as_str)
        .and_then(|t| rule.variants.iter().find(|(name, _)| *name == t));
    match (tag, found) {
        (_, Some((_, shape))) => {
            let mut shape = shape;
            while let Shape::Named(f) = shape {
                shape = f();
            }
            match shape {
                Shape::Object(fields) => {
                    object(fields, Some(rule.discriminator), map, path, out, None)
                }
                other => walk(other, &Value::Object(map.clone()), path, out),
            }
        }
        (None, _) => {
            push_token(path, rule.discriminator);
            push(out, path, || "required field is missing".into());
        }
        (Some(_), None) => {
            push_token(path, rule.discriminator);
            push(out, path, || {
                one_of(rule.variants.iter().map(|(n, _)| format!("{n:?}")))
            });
        }
    }
    path.truncate(len);
}

/// An object: closed unless `rest` is the shape of its undeclared properties (a map or open
/// object); `tag` is a union's discriminator, already checked, so not unknown.
fn object(
    fields: &[FieldRule],
    tag: Option<&str>,
    map: &Map<String, Value>,
    path: &mut String,
    out: &mut Found,
    rest: Option<&Shape>,
) {
    let len = path.len();
    for f in fields {
        push_token(path, f.name);
        match map.get(f.name) {
            Some(v) => walk(&f.shape, v, path, out),
            None if f.required => push(out, path, || "required field is missing".into()),
            None => {}
        }
        path.truncate(len);
    }
    for (key, value) in map {
        if !fields.iter().any(|f| f.name == key) && tag != Some(key.as_str()) {
            push_token(path, key);
            match rest {
                Some(shape) => walk(shape, value, path, out),
                None => push(out, path, || "unknown field".into()),
            }
            path.truncate(len);
        }
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn num(s: &str) -> u32 {
    s.parse().unwrap_or(u32::MAX)
}

/// RFC 3339 `full-date`.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (y, m, d) = (&s[0..4], &s[5..7], &s[8..10]);
    if !(digits(y) && digits(m) && digits(d)) {
        return false;
    }
    let (y, m, d) = (num(y), num(m), num(d));
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// RFC 3339 `date-time`: `full-date "T" partial-time time-offset`.
fn is_date_time(s: &str) -> bool {
    if !s.is_char_boundary(10) || s.len() < 20 {
        return false;
    }
    let (date, rest) = s.split_at(10);
    let Some(time) = rest.strip_prefix(['T', 't']) else {
        return false;
    };
    is_date(date) && is_time(time)
}

fn is_hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            let b = label.as_bytes();
            !b.is_empty()
                && b.len() <= 63
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
                && b[0] != b'-'
                && b[b.len() - 1] != b'-'
        })
}

/// RFC 3339 `full-time`: `HH:MM:SS[.frac]` and `Z` or `±HH:MM`.
fn is_time(time: &str) -> bool {
    let (time, offset) = if let Some(t) = time.strip_suffix(['Z', 'z']) {
        (t, None)
    } else if time.len() > 6 && time.is_char_boundary(time.len() - 6) {
        let (t, o) = time.split_at(time.len() - 6);
        (t, Some(o))
    } else {
        return false;
    };
    if let Some(o) = offset {
        let b = o.as_bytes();
        if !(matches!(b[0], b'+' | b'-') && b[3] == b':' && digits(&o[1..3]) && digits(&o[4..6]))
            || num(&o[1..3]) > 23
            || num(&o[4..6]) > 59
        {
            return false;
        }
    }
    let (hms, frac) = match time.split_once('.') {
        Some((hms, frac)) => (hms, Some(frac)),
        None => (time, None),
    };
    if frac.is_some_and(|f| !digits(f)) {
        return false;
    }
    let b = hms.as_bytes();
    b.len() == 8
        && b[2] == b':'
        && b[5] == b':'
        && digits(&hms[0..2])
        && digits(&hms[3..5])
        && digits(&hms[6..8])
        && num(&hms[0..2]) <= 23
        && num(&hms[3..5]) <= 59
        && num(&hms[6..8]) <= 60
}

fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// RFC 5321's `Mailbox`, as JSON Schema's `email` format names it: a local part (a
/// dot-atom, or a quoted string, the only place another `@` may appear) and a domain (dot-
/// separated labels of letters, digits and inner hyphens, or an address literal `[…]`).
/// `a@b@c` has a local part `a@b` that is neither.
fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let quoted = local.len() >= 2
        && local.starts_with('"')
        && local.ends_with('"')
        && local[1..local.len() - 1]
            .chars()
            .all(|c| c != '"' && c != '\\' && !c.is_control());
    let atom = |part: &str| {
        !part.is_empty()
            && part.chars().all(|c| {
                c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || !c.is_ascii()
            })
    };
    let dot_atom = local.split('.').all(atom);
    let label = |l: &str| {
        !l.is_empty()
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || !c.is_ascii())
    };
    let literal = domain.len() > 2
        && domain.starts_with('[')
        && domain.ends_with(']')
        && domain[1..domain.len() - 1]
            .chars()
            .all(|c| c.is_ascii_graphic() && !matches!(c, '[' | ']' | '\\'));
    let labels = domain.split('.').all(label);
    (quoted || dot_atom)
        && (literal || labels)
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

fn is_uri(s: &str) -> bool {
    let Some((scheme, _)) = s.split_once(':') else {
        return false;
    };
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    static P: Pattern = Pattern::new("^INV-[0-9]+$");
    static ITEM: Shape = Shape::Object(&[
        FieldRule {
            name: "reference",
            required: true,
            shape: Shape::String(&StrRule {
                max_length: Some(8),
                pattern: Some(&P),
                ..StrRule::ANY
            }),
        },
        FieldRule {
            name: "n",
            required: false,
            shape: Shape::Integer(&NumRule {
                exclusive_min: Some(Bound::Int(0)),
                multiple_of: Some(Bound::Int(5)),
                ..NumRule::ANY
            }),
        },
    ]);
    static LIST: Shape = Shape::Array(&ArrayRule {
        min_items: Some(1),
        max_items: Some(2),
        unique: true,
        items: Shape::Named(|| &ITEM),
    });

    /// A value outside an enum of many values is told the first 32 and how many more there
    /// are, not the whole list.
    #[test]
    fn a_violation_lists_at_most_32_enum_values() {
        let values: Vec<&'static str> = (0..1000)
            .map(|i| &*Box::leak(format!("v{i}").into_boxed_str()))
            .collect();
        let rule: &'static StrRule = Box::leak(Box::new(
            StrRule::ANY.values(Box::leak(values.into_boxed_slice())),
        ));
        let found = check(&Shape::String(rule), &json!("nope"));
        assert_eq!(found.len(), 1);
        let listed: Vec<String> = (0..32).map(|i| format!("\"v{i}\"")).collect();
        assert_eq!(
            found[0].reason,
            format!("must be one of {}, … (968 more)", listed.join(", "))
        );
        static SMALL: StrRule = StrRule::ANY.values(&["a", "b"]);
        let small = check(&Shape::String(&SMALL), &json!("c"));
        assert_eq!(small[0].reason, r#"must be one of "a", "b""#);
    }

    #[test]
    fn reports_every_violation_with_its_pointer() {
        let v = json!([{"reference": "INV-1234567", "n": 0, "x/y": 1}, {"n": 1.5}, {}]);
        let got: Vec<(String, String)> = check(&LIST, &v)
            .into_iter()
            .map(|v| (v.path, v.reason))
            .collect();
        let paths: Vec<&str> = got.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "",
                "/0/reference",
                "/0/n",
                "/0/x~1y",
                "/1/reference",
                "/1/n",
                "/2/reference"
            ],
            "{got:?}"
        );
        assert!(check(&LIST, &json!([{"reference": "INV-1", "n": 10.0}])).is_empty());
    }

    #[test]
    fn lengths_count_scalar_values_and_patterns_are_ecma() {
        static S: StrRule = StrRule {
            max_length: Some(2),
            ..StrRule::ANY
        };
        assert!(check(&Shape::String(&S), &json!("😀😀")).is_empty());
        assert_eq!(check(&Shape::String(&S), &json!("😀😀😀")).len(), 1);
        // `\d` and `\p{L}` are ECMA-262 with the `u` flag.
        static U: Pattern = Pattern::new(r"^\p{L}+\d$");
        assert!(U.is_match("été1"));
        assert!(!U.is_match("été"));
        static BAD: Pattern = Pattern::new("(");
        assert!(!BAD.is_match("("));
    }

    /// `multiple-of=0.1` rejected 0.3, 0.6, 0.7 and 1.2 (dividing doubles leaves a fraction):
    /// multiples are decided on exact decimals.
    #[test]
    fn multiple_of_a_decimal_step_is_decided_exactly() {
        static TENTH: NumRule = NumRule {
            multiple_of: Some(Bound::Float(0.1)),
            ..NumRule::ANY
        };
        static THREE: NumRule = NumRule {
            multiple_of: Some(Bound::Int(3)),
            ..NumRule::ANY
        };
        let ok = |rule: &'static NumRule, v: Value| check(&Shape::Number(rule), &v).is_empty();
        for v in [
            0.3, 0.6, 0.7, 1.2, 0.4, 0.0, -0.3, 3.0, 100.0, 1e300, 12345.6,
        ] {
            assert!(ok(&TENTH, json!(v)), "{v} is a multiple of 0.1");
        }
        for v in [0.35, 0.05, 1e-20, 0.123, 5e-324] {
            assert!(!ok(&TENTH, json!(v)), "{v} is no multiple of 0.1");
        }
        assert!(ok(&TENTH, json!(7)) && ok(&TENTH, json!(u64::MAX)));
        assert!(ok(&THREE, json!(9.0)) && ok(&THREE, json!(-9)) && ok(&THREE, json!(3e20)));
        assert!(!ok(&THREE, json!(9.5)) && !ok(&THREE, json!(1e300)) && !ok(&THREE, json!(10)));
    }

    /// With `min=-9223372036854775808`, -9223372036854775809 read as the double −2^63, equal
    /// to the bound, and passed: an integer beyond the 64-bit range is refused.
    #[test]
    fn an_integer_below_i64_min_is_refused() {
        static MIN: NumRule = NumRule {
            min: Some(Bound::Int(i64::MIN)),
            ..NumRule::ANY
        };
        let shape = Shape::Integer(&MIN);
        let parse = |t: &str| serde_json::from_str::<Value>(t).unwrap_or(Value::Null);
        let got = check(&shape, &parse("-9223372036854775809"));
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].reason, "outside the 64-bit integer range");
        assert_eq!(check(&shape, &parse("-1e19")).len(), 1);
        assert!(check(&shape, &parse("-9223372036854775808")).is_empty());
        assert!(check(&shape, &parse("-9223372036854775807")).is_empty());
    }

    /// `format="email"` accepted `a@b@c`.
    #[test]
    fn email_has_one_mailbox() {
        for good in [
            "a@b.example",
            "first.last+tag@sub.example.com",
            "\"a@b\"@c.example",
            "a@[192.0.2.1]",
            "a@b",
        ] {
            assert!(Format::Email.matches(good), "{good}");
        }
        for bad in [
            "a@b@c", "@b", "a@", "a..b@c", ".a@c", "a@-b.c", "a@b..c", "a@b.", "a\"b@c",
        ] {
            assert!(!Format::Email.matches(bad), "{bad}");
        }
    }

    #[test]
    fn formats() {
        assert!(Format::Date.matches("2024-02-29"));
        assert!(!Format::Date.matches("2023-02-29"));
        assert!(Format::DateTime.matches("2024-01-01T10:00:00.5+01:00"));
        assert!(Format::DateTime.matches("2024-01-01T10:00:00Z"));
        assert!(!Format::DateTime.matches("2024-01-01 10:00:00Z"));
        assert!(!Format::DateTime.matches("2024-01-01T24:00:00Z"));
        assert!(Format::Uuid.matches("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!Format::Uuid.matches("123e4567e89b12d3a456426614174000"));
        assert!(Format::Email.matches("a@b.example"));
        assert!(!Format::Email.matches("a b@c"));
        assert!(Format::Uri.matches("https://example.com/x"));
        assert!(!Format::Uri.matches("/relative"));
        assert!(Format::Ipv4.matches("192.0.2.1"));
        assert!(!Format::Ipv4.matches("192.0.2.01"));
        assert!(!Format::Ipv4.matches("256.0.0.1"));
        assert!(Format::Ipv6.matches("2001:db8::1"));
        assert!(Format::Ipv6.matches("::ffff:192.0.2.1"));
        assert!(!Format::Ipv6.matches("2001:db8::1::2"));
        assert!(Format::Hostname.matches("api.example.com"));
        assert!(!Format::Hostname.matches("-bad.example"));
        assert!(!Format::Hostname.matches("a..b"));
        assert!(!Format::Hostname.matches(&"a".repeat(64)));
        assert!(Format::Time.matches("09:30:00Z"));
        assert!(Format::Time.matches("09:30:00.5+01:00"));
        assert!(!Format::Time.matches("09:30Z"));
        assert!(!Format::Time.matches("25:00:00Z"));
        assert!(!Format::Time.matches("09:30:00"));
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.as_str()), Some(*f));
        }
    }

    #[test]
    fn numbers_compare_by_value() {
        let r = NumRule {
            max: Some(Bound::Int(i64::MAX)),
            ..NumRule::ANY
        };
        assert!(number_ok(&r, json!(i64::MAX)));
        assert!(!number_ok(&r, json!(u64::MAX)));
        assert!(json_equal(&json!([1, {"a": 2}]), &json!([1.0, {"a": 2.0}])));
    }

    fn number_ok(r: &NumRule, v: Value) -> bool {
        let mut out = Found::All(Vec::new());
        if let Value::Number(n) = v {
            number(r, &n, "", &mut out);
        }
        out.count() == 0
    }

    /// `conforms` agrees with `check` on every kind of violation, with and without one.
    #[test]
    fn conforms_is_whether_check_finds_nothing() {
        let cases = [
            json!([{"reference": "INV-1"}]),
            json!([{"reference": "INV-1", "n": 5}, {"reference": "INV-2"}]),
            json!([]),
            json!([{"reference": "INV-1"}, {"reference": "INV-1"}]),
            json!([{"reference": "X"}]),
            json!([{"reference": "INV-1", "n": 3}]),
            json!([{"reference": "INV-1", "extra": 1}]),
            json!([{}]),
            json!({"reference": "INV-1"}),
            json!([{"reference": 7}]),
        ];
        for v in cases {
            assert_eq!(conforms(&LIST, &v), check(&LIST, &v).is_empty(), "{v}");
        }
    }
}
