//! A tool's published JSON Schema as the runtime's [`Shape`], so `serve --mock` checks
//! arguments, and `export vectors` computes each vector's expected verdict, with the very
//! checker generated code uses, against the very schema clients see.
//!
//! Generated code states its shapes as statics; a catalog loaded at run time has none, so
//! these are built once per distinct schema per process and live until it exits (leaked: a
//! few bytes per schema keyword). Shapes are kept by a digest of the schema text, so a process that checks the
//! same schemas again (the language server re-linting `example-call`s on every keystroke)
//! builds nothing new; only schemas it has not seen before cost memory. Only the keywords catalogc's own
//! schemas use are understood (`contract::schema`); anything else is refused at start, never
//! silently ignored.

use crate::runtime::{
    ArrayRule, Bound, ConstRule, FieldRule, Format, MapRule, NumRule, Pattern, Scalar, Shape,
    StrRule, UnionRule,
};
use serde_json::{Map, Number, Value};

/// What readers take as the output schema of a tool that declares no output: a closed
/// empty object, as compact JSON.
pub const NO_OUTPUT: &str = r#"{"type":"object","properties":{},"additionalProperties":false}"#;

/// The shape of `schema` (an object schema with `type`), or why it cannot be built.
pub fn shape_of(schema: &Value) -> Result<&'static Shape, String> {
    shape_of_text(&schema.to_string())
}

/// [`shape_of`] the schema written as compact JSON `text` (a contract keeps its schemas so):
/// a schema seen before is found by its text without being parsed.
pub fn shape_of_text(text: &str) -> Result<&'static Shape, String> {
    shape_of_both(text, || super::schema::parse(text))
}

/// [`shape_of_text`] of `text` when `schema` is `text` already parsed: not parsed again.
pub fn shape_of_parsed(schema: &Value, text: &str) -> Result<&'static Shape, String> {
    shape_of_both(text, || schema)
}

/// The shape of the schema written as `text`, found by it or built from `parsed()`.
fn shape_of_both<V: std::borrow::Borrow<Value>>(
    text: &str,
    parsed: impl FnOnce() -> V,
) -> Result<&'static Shape, String> {
    use sha2::{Digest, Sha256};
    // Keyed by the SHA-256 of the text rather than the text, so a large schema is not
    // held twice.
    static BUILT: std::sync::LazyLock<
        std::sync::Mutex<std::collections::HashMap<[u8; 32], &'static Shape>>,
    > = std::sync::LazyLock::new(Default::default);
    let key: [u8; 32] = Sha256::digest(text.as_bytes()).into();
    // A poisoned lock only means another thread panicked while inserting: the map is intact.
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(shape) = built.get(&key) {
        return Ok(shape);
    }
    let shape = leak(build(parsed().borrow(), "")?);
    built.insert(key, shape);
    Ok(shape)
}

/// The one [`Pattern`] of `source` in this process: a pattern compiles on its first use, and
/// every shape that has it (the same field type over many tools) shares that compilation.
fn pattern(source: &str) -> &'static Pattern {
    static SEEN: std::sync::LazyLock<
        std::sync::Mutex<std::collections::HashMap<String, &'static Pattern>>,
    > = std::sync::LazyLock::new(Default::default);
    // A poisoned lock only means another thread panicked while inserting: the map is intact.
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = seen.get(source) {
        return p;
    }
    let p = leak(Pattern::new(leak_str(source)));
    seen.insert(source.to_string(), p);
    p
}

fn leak<T>(value: T) -> &'static T {
    Box::leak(Box::new(value))
}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// Keywords that only annotate: they never change what validates.
pub(crate) const ANNOTATIONS: &[&str] = &[
    "$schema",
    "description",
    "default",
    "deprecated",
    "x-unit",
    "title",
    "examples",
    // Where the argument also travels (an HTTP header); the transport checks it.
    super::schema::HEADER_KEYWORD,
];

fn build(schema: &Value, at: &str) -> Result<Shape, String> {
    let Value::Object(s) = schema else {
        return Err(format!("{}: a schema must be an object", pointer(at)));
    };
    if let Some(Value::Array(types)) = s.get("type") {
        return nullable(s, types, at);
    }
    if let Some(value) = s.get("const") {
        return constant(s, value, at);
    }
    if !s.contains_key("type") {
        // A `json` value: the empty schema, annotations aside.
        if let Some(k) = s.keys().find(|k| !ANNOTATIONS.contains(&k.as_str())) {
            return Err(format!("{}: unsupported keyword `{k}`", pointer(at)));
        }
        return Ok(Shape::Any);
    }
    let object_type = s.get("type").and_then(Value::as_str) == Some("object");
    if object_type && s.contains_key("oneOf") {
        return union(s, at);
    }
    let map = object_type && s.get("additionalProperties").is_some_and(Value::is_object);
    let known: &[&str] = match s.get("type").and_then(Value::as_str) {
        Some("object") if map => &[
            "type",
            "properties",
            "required",
            "additionalProperties",
            "minProperties",
            "maxProperties",
        ],
        Some("string") => &[
            "type",
            "enum",
            "minLength",
            "maxLength",
            "pattern",
            "format",
        ],
        Some("integer" | "number") => &[
            "type",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "enum",
        ],
        Some("boolean") => &["type"],
        Some("array") => &["type", "items", "minItems", "maxItems", "uniqueItems"],
        Some("object") => &["type", "properties", "required", "additionalProperties"],
        _ => return Err(format!("{}: no known `type`", pointer(at))),
    };
    if let Some(k) = s
        .keys()
        .find(|k| !known.contains(&k.as_str()) && !ANNOTATIONS.contains(&k.as_str()))
    {
        return Err(format!("{}: unsupported keyword `{k}`", pointer(at)));
    }
    Ok(match s.get("type").and_then(Value::as_str) {
        Some("string") => Shape::String(leak(string(s, at)?)),
        Some("integer") => Shape::Integer(leak(within_i64(number(s, at)?))),
        Some("number") => Shape::Number(leak(number(s, at)?)),
        Some("boolean") => Shape::Boolean,
        Some("array") => Shape::Array(leak(ArrayRule {
            min_items: count(s, "minItems", at)?,
            max_items: count(s, "maxItems", at)?,
            unique: s.get("uniqueItems").and_then(Value::as_bool) == Some(true),
            items: match s.get("items") {
                Some(items) => build(items, &format!("{at}/items"))?,
                None => return Err(format!("{}: an array needs `items`", pointer(at))),
            },
        })),
        _ if map => Shape::Map(leak(entries(s, at)?)),
        _ => Shape::Object(object(s, at)?),
    })
}

/// `"type": [T, "null"]` (a nullable field): the shape of `T`, `null` also accepted. An
/// `enum` lists `null` too; the inner shape checks the other values.
fn nullable(s: &Map<String, Value>, types: &[Value], at: &str) -> Result<Shape, String> {
    let [Value::String(t), Value::String(null)] = types else {
        return Err(format!("{}: `type` must be `[T, \"null\"]`", pointer(at)));
    };
    if null != "null" {
        return Err(format!("{}: `type` must be `[T, \"null\"]`", pointer(at)));
    }
    let mut inner = s.clone();
    inner.insert("type".into(), Value::String(t.clone()));
    if let Some(Value::Array(values)) = inner.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    Ok(Shape::Nullable(leak(build(&Value::Object(inner), at)?)))
}

/// `"const": V` beside a scalar type: the shape of the rest, admitting `V` only.
fn constant(s: &Map<String, Value>, value: &Value, at: &str) -> Result<Shape, String> {
    let scalar = match value {
        Value::String(v) => Scalar::Str(leak_str(v)),
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Number(n) => match bound_of(n) {
            Bound::Int(i) => Scalar::Int(i),
            Bound::Float(f) => Scalar::Float(f),
        },
        _ => {
            return Err(format!(
                "{}: `const` must be a string, number or boolean",
                pointer(at)
            ));
        }
    };
    let mut base = s.clone();
    base.remove("const");
    let base = build(&Value::Object(base), at)?;
    Ok(Shape::Const(leak(ConstRule::new(scalar, base))))
}

/// A `union`: `oneOf` closed objects whose first property is a required string `const`, the
/// same property in each (`contract::schema` writes no other `oneOf`). A `{"type": "null"}`
/// branch is the nullable wrapper's, which admits `null` already.
fn union(s: &Map<String, Value>, at: &str) -> Result<Shape, String> {
    if let Some(k) = s
        .keys()
        .find(|k| !["type", "oneOf"].contains(&k.as_str()) && !ANNOTATIONS.contains(&k.as_str()))
    {
        return Err(format!("{}: unsupported keyword `{k}`", pointer(at)));
    }
    let bad = || {
        format!(
            "{}: `oneOf` must list objects tagged by one `const` property",
            pointer(at)
        )
    };
    let Some(Value::Array(branches)) = s.get("oneOf") else {
        return Err(bad());
    };
    let mut discriminator: Option<&str> = None;
    let mut variants = Vec::with_capacity(branches.len());
    for (i, branch) in branches.iter().enumerate() {
        let Value::Object(b) = branch else {
            return Err(bad());
        };
        if b.get("type").and_then(Value::as_str) == Some("null") && b.len() == 1 {
            continue;
        }
        let props = b
            .get("properties")
            .and_then(Value::as_object)
            .ok_or_else(bad)?;
        let (disc, tag) = props
            .iter()
            .next()
            .and_then(|(k, v)| Some((k.as_str(), v.get("const")?.as_str()?)))
            .ok_or_else(bad)?;
        if discriminator.is_some_and(|d| d != disc) {
            return Err(bad());
        }
        discriminator = Some(disc);
        let mut rest = b.clone();
        if let Some(Value::Object(p)) = rest.get_mut("properties") {
            p.remove(disc);
        }
        if let Some(Value::Array(r)) = rest.get_mut("required") {
            r.retain(|n| n.as_str() != Some(disc));
        }
        let fields = object(&rest, &format!("{at}/oneOf/{i}"))?;
        variants.push((leak_str(tag), Shape::Object(fields)));
    }
    let discriminator = leak_str(discriminator.ok_or_else(bad)?);
    Ok(Shape::Union(leak(UnionRule {
        discriminator,
        variants: Box::leak(variants.into_boxed_slice()),
    })))
}

/// A `map` (`additionalProperties` is the value schema, no property is named) or an open
/// object (named `properties` besides).
fn entries(s: &Map<String, Value>, at: &str) -> Result<MapRule, String> {
    let fields = field_rules(s, at)?;
    let values = match s.get("additionalProperties") {
        Some(v) => build(v, &format!("{at}/additionalProperties"))?,
        None => {
            return Err(format!(
                "{}: a map needs `additionalProperties`",
                pointer(at)
            ));
        }
    };
    Ok(MapRule {
        min_entries: count(s, "minProperties", at)?,
        max_entries: count(s, "maxProperties", at)?,
        values,
        fields,
    })
}

fn pointer(at: &str) -> &str {
    if at.is_empty() { "/" } else { at }
}

fn string(s: &Map<String, Value>, at: &str) -> Result<StrRule, String> {
    let pattern = match s.get("pattern") {
        None => None,
        Some(Value::String(p)) => Some(pattern(p)),
        Some(_) => return Err(format!("{}: `pattern` must be a string", pointer(at))),
    };
    let format = match s.get("format").map(|f| f.as_str()) {
        None => None,
        Some(name) => match name.and_then(Format::from_name) {
            Some(f) => Some(f),
            None => return Err(format!("{}: unsupported `format`", pointer(at))),
        },
    };
    let values = match s.get("enum") {
        None => None,
        Some(Value::Array(vs)) => {
            let strings = vs
                .iter()
                .map(|v| v.as_str().map(leak_str))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| format!("{}: `enum` values must be strings", pointer(at)))?;
            Some(&*Box::leak(strings.into_boxed_slice()))
        }
        Some(_) => return Err(format!("{}: `enum` must be an array", pointer(at))),
    };
    Ok(StrRule {
        min_length: count(s, "minLength", at)?,
        max_length: count(s, "maxLength", at)?,
        pattern,
        format,
        values,
    })
}

fn count(s: &Map<String, Value>, key: &str, at: &str) -> Result<Option<u64>, String> {
    match s.get(key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{}: `{key}` must be a non-negative integer", pointer(at))),
    }
}

fn number(s: &Map<String, Value>, at: &str) -> Result<NumRule, String> {
    let bound = |key: &str| -> Result<Option<Bound>, String> {
        match s.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(Some(bound_of(n))),
            Some(_) => Err(format!("{}: `{key}` must be a number", pointer(at))),
        }
    };
    let values = match s.get("enum") {
        None => None,
        Some(Value::Array(vs)) => {
            let bounds = vs
                .iter()
                .map(|v| match v {
                    Value::Number(n) => Some(bound_of(n)),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| format!("{}: `enum` values must be numbers", pointer(at)))?;
            Some(&*Box::leak(bounds.into_boxed_slice()))
        }
        Some(_) => return Err(format!("{}: `enum` must be an array", pointer(at))),
    };
    Ok(NumRule {
        values,
        min: bound("minimum")?,
        max: bound("maximum")?,
        exclusive_min: bound("exclusiveMinimum")?,
        exclusive_max: bound("exclusiveMaximum")?,
        multiple_of: bound("multipleOf")?,
    })
}

/// `rule` narrowed to what an `i64` holds. Generated code deserialises an `integer` into
/// `i64`, so it refuses 2^63 and beyond even where the schema states no bound; the checker
/// runs before serde there, but here it is the only check, so a side the declared bounds
/// leave open (or open beyond `i64`) gets the type's limit. A side already within range is
/// left as declared, so the shape stays the one generated code states.
fn within_i64(rule: NumRule) -> NumRule {
    // An integer bound is within range by its type; a float one if it is tighter than the
    // limit on its side.
    let above_min = |b: Option<Bound>| match b {
        Some(Bound::Int(_)) => true,
        Some(Bound::Float(f)) => f > i64::MIN as f64,
        None => false,
    };
    let below_max = |b: Option<Bound>| match b {
        Some(Bound::Int(_)) => true,
        Some(Bound::Float(f)) => f < i64::MAX as f64,
        None => false,
    };
    let mut rule = rule;
    if !above_min(rule.min) && !above_min(rule.exclusive_min) {
        rule.min = Some(Bound::Int(i64::MIN));
    }
    if !below_max(rule.max) && !below_max(rule.exclusive_max) {
        rule.max = Some(Bound::Int(i64::MAX));
    }
    rule
}

/// Integers stay exact, as generated code writes them.
fn bound_of(n: &Number) -> Bound {
    match n.as_i64() {
        Some(i) => Bound::Int(i),
        None => Bound::Float(n.as_f64().unwrap_or(f64::NAN)),
    }
}

fn object(s: &Map<String, Value>, at: &str) -> Result<&'static [FieldRule], String> {
    if s.get("additionalProperties") != Some(&Value::Bool(false)) {
        return Err(format!(
            "{}: an object must say `additionalProperties: false`",
            pointer(at)
        ));
    }
    field_rules(s, at)
}

/// The rules of an object schema's `properties`, each required as `required` says.
fn field_rules(s: &Map<String, Value>, at: &str) -> Result<&'static [FieldRule], String> {
    let required: Vec<&str> = match s.get("required") {
        None => Vec::new(),
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        Some(_) => return Err(format!("{}: `required` must be an array", pointer(at))),
    };
    let empty = Map::new();
    let properties = match s.get("properties") {
        None => &empty,
        Some(Value::Object(p)) => p,
        Some(_) => return Err(format!("{}: `properties` must be an object", pointer(at))),
    };
    let fields = properties
        .iter()
        .map(|(name, schema)| {
            Ok(FieldRule {
                name: leak_str(name),
                required: required.contains(&name.as_str()),
                shape: build(schema, &format!("{at}/properties/{name}"))?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Box::leak(fields.into_boxed_slice()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::validate::check;
    use serde_json::json;

    #[test]
    fn a_union_is_emitted_as_one_of_and_checked_by_its_discriminator() {
        let text = r#"catalog "c" version="1.0.0"
tool "survey_create" version="1.0.0" {
effect "update"
input {
    field "q" "union" required=#true discriminator="type" {
        variant "choice" {
            doc "Pick one."
            field "options" "array" required=#true max-items=2 { items "string" max-length=3 }
        }
        variant "text"
    }
    field "r" "union" nullable=#true discriminator="k" { variant "a"; variant "b" }
}
}"#;
        let loaded = crate::project::load_source("x.kdl", text);
        let cat = &loaded.project.catalogs[0];
        let schema = crate::contract::schema::input_schema(cat, &cat.tools[0]);
        assert_eq!(
            schema["properties"]["q"],
            json!({"type": "object", "oneOf": [
                {"type": "object", "description": "Pick one.", "properties": {
                    "type": {"type": "string", "const": "choice"},
                    "options": {"type": "array", "items": {"type": "string", "maxLength": 3},
                                "maxItems": 2}},
                 "required": ["type", "options"], "additionalProperties": false},
                {"type": "object", "properties": {"type": {"type": "string", "const": "text"}},
                 "required": ["type"], "additionalProperties": false}
            ]})
        );
        assert_eq!(schema["properties"]["r"]["type"], json!(["object", "null"]));
        assert_eq!(
            schema["properties"]["r"]["oneOf"][2],
            json!({"type": "null"})
        );
        let shape = shape_of(&schema).unwrap_or_else(|e| panic!("{e}"));
        let violations = |v: Value| -> Vec<(String, String)> {
            check(shape, &v)
                .into_iter()
                .map(|v| (v.path, v.reason))
                .collect()
        };
        assert!(
            violations(json!({"q": {"type": "choice", "options": ["a"]}, "r": null})).is_empty()
        );
        assert!(violations(json!({"q": {"type": "text"}, "r": {"k": "b"}})).is_empty());
        assert_eq!(
            violations(json!({"q": {"type": "choice", "options": ["abcd"], "x": 1}})),
            [
                (
                    "/q/options/0".to_string(),
                    "longer than 3 characters".to_string()
                ),
                ("/q/x".to_string(), "unknown field".to_string())
            ]
        );
        assert_eq!(
            violations(json!({"q": {"options": []}})),
            [(
                "/q/type".to_string(),
                "required field is missing".to_string()
            )]
        );
        assert_eq!(
            violations(json!({"q": {"type": "other"}, "r": {"k": 1}})),
            [
                (
                    "/q/type".to_string(),
                    r#"must be one of "choice", "text""#.to_string()
                ),
                ("/r/k".to_string(), r#"must be one of "a", "b""#.to_string())
            ]
        );
        assert_eq!(
            violations(json!({"q": 3})),
            [(
                "/q".to_string(),
                "expected an object, found a number".to_string()
            )]
        );
    }

    #[test]
    fn a_schema_seen_before_reuses_its_shape() {
        let s = json!({"type": "string", "maxLength": 3});
        let a = shape_of(&s).unwrap_or_else(|e| panic!("{e}"));
        let b = shape_of(&s.clone()).unwrap_or_else(|e| panic!("{e}"));
        assert!(std::ptr::eq(a, b));
    }

    #[test]
    fn checks_what_the_schema_says() {
        let schema = json!({
            "type": "object",
            "properties": {
                "id": {"type": "string", "maxLength": 8, "pattern": "^A[0-9]+$"},
                "n": {"type": "integer", "minimum": 1, "maximum": 5},
                "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]},
                         "uniqueItems": true}
            },
            "required": ["id"],
            "additionalProperties": false
        });
        let shape = shape_of(&schema).unwrap_or_else(|e| panic!("{e}"));
        assert!(check(shape, &json!({"id": "A1", "n": 3, "tags": ["a"]})).is_empty());
        let routed = json!({"type": "string", "x-mcp-header": "Region", "x-unit": "code"});
        assert!(shape_of(&routed).is_ok(), "annotations only");
        let paths: Vec<String> = check(
            shape,
            &json!({"id": "B123456789", "n": 9, "tags": ["a", "a", "c"], "x": 1}),
        )
        .into_iter()
        .map(|v| v.path)
        .collect();
        assert_eq!(
            paths,
            ["/id", "/id", "/n", "/tags", "/tags/2", "/x"],
            "every violation, in document order"
        );
    }

    #[test]
    fn nullable_maps_and_any_values() {
        let schema = json!({
            "type": "object",
            "properties": {
                "note": {"type": ["string", "null"], "maxLength": 3},
                "kind": {"type": ["string", "null"], "enum": ["a", null]},
                "labels": {"type": "object", "properties": {},
                           "additionalProperties": {"type": "string", "maxLength": 2},
                           "maxProperties": 2},
                "extra": {"description": "anything"}
            },
            "additionalProperties": false
        });
        let shape = shape_of(&schema).unwrap_or_else(|e| panic!("{e}"));
        let ok = json!({"note": null, "kind": null, "labels": {"x": "ab"}, "extra": [1, {}]});
        assert!(check(shape, &ok).is_empty());
        let bad = json!({"note": "abcd", "kind": "b", "labels": {"x": "abc", "y": "", "z": ""}});
        let paths: Vec<String> = check(shape, &bad).into_iter().map(|v| v.path).collect();
        assert_eq!(paths, ["/note", "/kind", "/labels", "/labels/x"]);
        let odd = json!({"type": ["string", "integer"]});
        assert!(shape_of(&odd).is_err());
    }

    #[test]
    fn refuses_what_it_does_not_understand() {
        let open = json!({"type": "object", "properties": {}});
        assert!(shape_of(&open).is_err());
        let any_of = json!({"type": "string", "anyOf": []});
        assert!(shape_of(&any_of).unwrap_err().contains("anyOf"));
        assert!(shape_of(&json!({"type": "null"})).is_err());
    }

    #[test]
    fn lengths_count_code_points() {
        let accepts = |schema: Value, v: Value| {
            let shape = shape_of(&schema).unwrap_or_else(|e| panic!("{e}"));
            check(shape, &v).is_empty()
        };
        let s = json!({"type": "string", "maxLength": 2});
        assert!(accepts(s.clone(), json!("😀😀")));
        assert!(!accepts(s, json!("😀😀😀")));
        let n = json!({"type": "integer", "multipleOf": 3});
        assert!(accepts(n.clone(), json!(6.0)));
        assert!(!accepts(n.clone(), json!(7)));
        assert!(!accepts(n, json!(1.5)));
    }

    #[test]
    fn integers_stay_within_what_generated_code_deserialises() {
        // Generated code reads an `integer` into `i64`: 2^63 fails serde there, even with no
        // declared bound, so it must fail here too.
        let shape = |schema: Value| shape_of(&schema).unwrap_or_else(|e| panic!("{e}"));
        let open = shape(json!({"type": "integer"}));
        let bounded = shape(json!({"type": "integer", "minimum": -1e30, "maximum": 5}));
        for (rule, value, ok) in [
            (open, json!(i64::MAX), true),
            (open, json!(i64::MIN), true),
            (open, json!(9_223_372_036_854_775_808u64), false),
            (open, json!(u64::MAX), false),
            (open, json!(1e19), false),
            (open, json!(-1e19), false),
            (bounded, json!(i64::MIN), true),
            (bounded, json!(6), false),
            (bounded, json!(-1e19), false),
        ] {
            assert_eq!(check(rule, &value).is_empty(), ok, "{value}");
        }
        let not_integers = shape(json!({"type": "number"}));
        assert!(
            check(not_integers, &json!(1e19)).is_empty(),
            "numbers are f64"
        );
    }
}
