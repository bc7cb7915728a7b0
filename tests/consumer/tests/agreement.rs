//! The generated contract checks and the emitted JSON Schema agree: for boundary instances
//! of every input and output of every catalog (each bound ±1, every enum value and a wrong
//! one, missing required fields, unknown fields, wrong types, non-BMP strings, and random
//! combinations of them), three verdicts are the same:
//! - serde into the generated type, then its `validate()`;
//! - the runtime checker on the JSON as received (what `call` runs before serde);
//! - the `jsonschema` crate on the schema in the tool definition, formats asserted;
//! - the `jsonschema` crate on schemars' schema of the type generated with
//!   `json_schema_derive(true)`.

use catalogc::runtime::serde::{Serialize, de::DeserializeOwned};
use catalogc::runtime::serde_json::{self, Map, Value, json};
use catalogc::runtime::validate::check;
use catalogc::runtime::{ToolInfo, Validate};
use catalogc_consumer::{billing, hostile, payments, with_schemars};
use proptest::prelude::*;

/// An example value for each pattern the catalogs use: a generator cannot invert a regular
/// expression, and a wrong example would only make the valid base instance invalid (which
/// `base_instances_are_valid` catches).
fn pattern_example(pattern: &str) -> &'static str {
    match pattern {
        "^INV-[0-9]+$" => "INV-1",
        "^REM-[0-9]+$" => "REM-1",
        "^TRF-[0-9]+$" => "TRF-1",
        "^[A-Z0-9-]{4,34}$" => "OPS-EUR-01",
        r"^\d{6}$" => "123456",
        other => panic!("no example for pattern {other:?}: add one"),
    }
}

fn num(schema: &Value, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

fn count(schema: &Value, key: &str) -> Option<usize> {
    schema.get(key).and_then(Value::as_u64).map(|n| n as usize)
}

/// A value of `schema` that satisfies every bound (the `i`-th one, for distinct items).
fn valid(schema: &Value, i: usize) -> Value {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values[i % values.len()].clone();
    }
    match schema["type"].as_str() {
        Some("object") => {
            let mut m = Map::new();
            if let Some(props) = schema["properties"].as_object() {
                for (k, s) in props {
                    m.insert(k.clone(), valid(s, i));
                }
            }
            Value::Object(m)
        }
        Some("array") => {
            let n = count(schema, "minItems").unwrap_or(0).max(1);
            let n = n.min(count(schema, "maxItems").unwrap_or(n));
            Value::Array((0..n).map(|j| valid(&schema["items"], i + j)).collect())
        }
        Some("string") => {
            if let Some(p) = schema["pattern"].as_str() {
                return json!(pattern_example(p));
            }
            match schema["format"].as_str() {
                Some("date") => return json!("2024-02-29"),
                Some("date-time") => return json!("2024-01-01T10:00:00Z"),
                Some("uuid") => return json!("123e4567-e89b-12d3-a456-426614174000"),
                _ => {}
            }
            let len = count(schema, "minLength").unwrap_or(1).max(1);
            let len = len.min(count(schema, "maxLength").unwrap_or(len));
            let s: String = format!("{i}")
                .chars()
                .chain(std::iter::repeat('a'))
                .take(len)
                .collect();
            json!(s)
        }
        Some("integer") | Some("number") => {
            let integer = schema["type"] == "integer";
            let step = num(schema, "multipleOf").unwrap_or(1.0);
            let lower = num(schema, "minimum")
                .or(num(schema, "exclusiveMinimum").map(|x| x + if integer { 1.0 } else { step }))
                .unwrap_or(0.0);
            let v = (lower / step).ceil() * step;
            if integer { json!(v as i64) } else { json!(v) }
        }
        Some("boolean") => json!(true),
        _ => Value::Null,
    }
}

/// Values at and around every bound of a leaf schema, plus wrong types.
fn boundary_values(schema: &Value) -> Vec<Value> {
    let mut out = vec![
        Value::Null,
        json!(true),
        json!("x"),
        json!(7),
        json!([]),
        json!({}),
    ];
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        out.extend(values.iter().cloned());
        out.push(json!("zz-not-a-value"));
    }
    match schema["type"].as_str() {
        Some("string") => {
            let base = valid(schema, 0);
            let base = base.as_str().unwrap_or("a").to_string();
            for key in ["minLength", "maxLength"] {
                if let Some(n) = count(schema, key) {
                    for len in [n.saturating_sub(1), n, n + 1] {
                        for fill in ['a', '😀'] {
                            let s: String = base
                                .chars()
                                .chain(std::iter::repeat(fill))
                                .take(len)
                                .collect();
                            out.push(json!(s));
                        }
                    }
                }
            }
            out.push(json!(format!("{base}!")));
            out.push(json!(format!("😀{base}")));
            out.extend(
                [
                    "2023-02-29",
                    "2024-01-01T24:00:00Z",
                    "2024-01-01t10:00:00+01:00",
                    "not-a-uuid",
                    "123E4567-E89B-12D3-A456-426614174000",
                ]
                .map(|s| json!(s)),
            );
        }
        Some("integer") | Some("number") => {
            let integer = schema["type"] == "integer";
            let delta = if integer { 1.0 } else { 0.25 };
            for key in [
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum",
                "multipleOf",
            ] {
                if let Some(b) = num(schema, key) {
                    for v in [b - delta, b, b + delta, b - 1.0, b + 1.0, -b] {
                        out.push(if integer && v.fract() == 0.0 {
                            json!(v as i64)
                        } else {
                            json!(v)
                        });
                    }
                }
            }
            out.push(json!(1.5));
            out.push(json!(-1));
        }
        Some("array") => {
            let item = valid(&schema["items"], 0);
            for key in ["minItems", "maxItems"] {
                if let Some(n) = count(schema, key) {
                    for len in [n.saturating_sub(1), n, n + 1] {
                        let distinct: Vec<Value> =
                            (0..len).map(|j| valid(&schema["items"], j)).collect();
                        out.push(Value::Array(distinct));
                        out.push(Value::Array(vec![item.clone(); len]));
                    }
                }
            }
            out.push(json!([item.clone(), item.clone()]));
            for v in boundary_values(&schema["items"]) {
                out.push(json!([v]));
            }
        }
        _ => {}
    }
    out
}

/// One change to an instance: set the value at `path` (or remove it), or add an unknown field.
#[derive(Debug, Clone)]
enum Edit {
    Set(Vec<String>, Value),
    Remove(Vec<String>),
    Unknown(Vec<String>),
}

/// Every edit of every property at every depth of `schema`.
fn edits(schema: &Value, path: &mut Vec<String>, out: &mut Vec<Edit>) {
    out.push(Edit::Unknown(path.clone()));
    let Some(props) = schema["properties"].as_object() else {
        return;
    };
    for (k, s) in props {
        path.push(k.clone());
        out.push(Edit::Remove(path.clone()));
        for v in boundary_values(s) {
            out.push(Edit::Set(path.clone(), v));
        }
        if s["type"] == "object" {
            edits(s, path, out);
        }
        path.pop();
    }
}

fn apply(v: &mut Value, edit: &Edit) {
    let (path, last) = match edit {
        Edit::Set(p, _) | Edit::Remove(p) => match p.split_last() {
            Some((last, parent)) => (parent, Some(last)),
            None => return,
        },
        Edit::Unknown(p) => (&p[..], None),
    };
    let mut cur = v;
    for k in path {
        match cur.get_mut(k) {
            Some(next) => cur = next,
            None => return,
        }
    }
    let Some(obj) = cur.as_object_mut() else {
        return;
    };
    match (edit, last) {
        (Edit::Set(_, val), Some(k)) => {
            obj.insert(k.clone(), val.clone());
        }
        (Edit::Remove(_), Some(k)) => {
            obj.remove(k);
        }
        _ => {
            obj.insert("zz_unknown".into(), json!(1));
        }
    }
}

/// The three verdicts on one instance of generated type `T` with JSON Schema `schema`.
fn verdicts<T: Validate + DeserializeOwned + Serialize>(
    validator: &jsonschema::Validator,
    instance: &Value,
) -> (bool, bool, bool) {
    let typed = serde_json::from_value::<T>(instance.clone()).is_ok_and(|t| t.validate().is_ok());
    let checker = check(T::shape(), instance).is_empty();
    (typed, checker, validator.is_valid(instance))
}

/// One side of one tool: its schema and the verdict function of its generated type.
struct Side {
    label: String,
    schema: Value,
    validator: jsonschema::Validator,
    /// schemars' schema of the same type generated with `json_schema_derive(true)`.
    schemars: jsonschema::Validator,
    verdicts: fn(&jsonschema::Validator, &Value) -> (bool, bool, bool),
    edits: Vec<Edit>,
}

fn compile(schema: &Value, label: &str) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("{label}: {e}"))
}

fn side<T: Validate + DeserializeOwned + Serialize, S: catalogc::runtime::schemars::JsonSchema>(
    info: &ToolInfo,
    key: &str,
) -> Option<Side> {
    let schema = info.definition().get(key)?.clone();
    let label = format!("{}.{key}", info.name);
    let validator = compile(&schema, &label);
    let derived =
        serde_json::to_value(catalogc::runtime::schemars::schema_for!(S)).unwrap_or(Value::Null);
    let schemars = compile(&derived, &format!("{label} (schemars)"));
    let mut edits_out = Vec::new();
    edits(&schema, &mut Vec::new(), &mut edits_out);
    Some(Side {
        label,
        schema,
        validator,
        schemars,
        verdicts: verdicts::<T>,
        edits: edits_out,
    })
}

macro_rules! sides {
    ($($c:ident::$m:ident),* $(,)?) => {{
        let mut v = Vec::new();
        $({
            use $c::$m as m;
            use with_schemars::$c::$m as s;
            v.extend(side::<m::Input, s::Input>(&m::INFO, "inputSchema"));
            v.extend(side::<m::Output, s::Output>(&m::INFO, "outputSchema"));
        })*
        v
    }};
}

fn all_sides() -> Vec<Side> {
    sides!(
        billing::invoice_list,
        billing::invoice_get,
        billing::invoice_send_reminder,
        payments::payment_transfer_preview,
        payments::payment_transfer_submit,
        payments::payment_transfer_status,
        hostile::r#async,
        hostile::mut_record,
    )
}

fn agree(side: &Side, instance: &Value) -> Result<(), String> {
    let (typed, checker, schema) = (side.verdicts)(&side.validator, instance);
    let derived = side.schemars.is_valid(instance);
    if typed == schema && checker == schema && derived == schema {
        Ok(())
    } else {
        Err(format!(
            "{}: validate()+serde {typed}, checker {checker}, jsonschema {schema}, \
             schemars {derived} on {instance}",
            side.label
        ))
    }
}

#[test]
fn base_instances_are_valid() {
    for side in all_sides() {
        let base = valid(&side.schema, 0);
        assert_eq!(
            (side.verdicts)(&side.validator, &base),
            (true, true, true),
            "{}: {base}",
            side.label
        );
    }
}

#[test]
fn every_single_edit_gets_the_same_verdict() {
    let mut checked = 0;
    let mut rejected = 0;
    for side in all_sides() {
        let base = valid(&side.schema, 0);
        for edit in &side.edits {
            let mut v = base.clone();
            apply(&mut v, edit);
            agree(&side, &v).unwrap_or_else(|e| panic!("{e} ({edit:?})"));
            checked += 1;
            rejected += usize::from(!side.validator.is_valid(&v));
        }
    }
    // Both outcomes are well represented: the comparison is not vacuous.
    assert!(
        checked > 1000 && rejected > checked / 3 && rejected < checked,
        "{rejected}/{checked}"
    );
}

#[path = "../../support/mod.rs"]
mod support;

proptest! {
    #![proptest_config(support::proptest_config(256))]

    #[test]
    fn random_combinations_of_edits_get_the_same_verdict(
        side_pick in any::<prop::sample::Index>(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let sides = SIDES.with(|s| s.clone());
        let side = &sides[side_pick.index(sides.len())];
        let mut v = valid(&side.schema, 0);
        for p in &picks {
            apply(&mut v, &side.edits[p.index(side.edits.len())]);
        }
        prop_assert!(agree(side, &v).is_ok(), "{:?}", agree(side, &v));
    }
}

thread_local! {
    static SIDES: std::rc::Rc<Vec<Side>> = std::rc::Rc::new(all_sides());
}
