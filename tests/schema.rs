//! Canonical JSON Schemas, MCP tool definitions and descriptions of hand-built models.

use catalogc::contract::schema::{self, DIALECT};
use catalogc::model::{Catalog, Project, Tool};
use catalogc::testing;
use catalogc::testing::Fx;
use serde_json::{Value, json};

/// The `tools/list` payload of `p`, from the built-in templates.
fn tools_list(p: &Project) -> Value {
    testing::artifacts(p).tools_list(p)
}

fn definition(cat: &Catalog, t: &Tool) -> Value {
    testing::contract(cat, t).definition_value()
}

fn description(cat: &Catalog, t: &Tool) -> String {
    testing::contract(cat, t).description
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).expect("a Value serialises")
}

fn billing() -> Catalog {
    Fx::new(0).billing()
}

/// Every schema this crate emits for a catalog: inputs and outputs.
fn schemas(cat: &Catalog) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for t in &cat.tools {
        out.push((
            format!("{}.input", t.name.value),
            schema::input_schema(cat, t),
        ));
        if let Some(o) = schema::output_schema(cat, t) {
            out.push((format!("{}.output", t.name.value), o));
        }
    }
    out
}

/// Calls `f` on every subschema (the root, properties, items), with its JSON pointer.
fn walk(path: &str, s: &Value, f: &mut dyn FnMut(&str, &Value)) {
    f(path, s);
    if let Some(props) = s.get("properties").and_then(Value::as_object) {
        for (k, v) in props {
            walk(&format!("{path}/properties/{k}"), v, f);
        }
    }
    if let Some(items) = s.get("items") {
        walk(&format!("{path}/items"), items, f);
    }
}

#[test]
fn valid_against_the_2020_12_meta_schema() {
    // The check is real: a malformed schema fails it.
    assert!(!jsonschema::draft202012::meta::is_valid(
        &json!({"type": "object", "additionalProperties": "no", "required": [1]})
    ));
    let cat = billing();
    for (name, s) in schemas(&cat) {
        if let Err(e) = jsonschema::draft202012::meta::validate(&s) {
            panic!("{name}: {e}\n{}", pretty(&s));
        }
    }
}

#[test]
fn closed_objects_at_every_depth_and_no_nullable_types() {
    let cat = billing();
    for (name, s) in schemas(&cat) {
        assert_eq!(s["$schema"], json!(DIALECT), "{name}");
        let mut objects = 0;
        walk("", &s, &mut |path, sub| {
            assert!(
                sub.get("type").is_some_and(Value::is_string),
                "{name}{path}: type must be one string, never a nullable array"
            );
            if path.is_empty() {
                assert_eq!(sub["type"], "object", "{name}: top level is an object");
            } else {
                assert!(
                    sub.get("$schema").is_none(),
                    "{name}{path}: $schema only at the top"
                );
            }
            if sub["type"] == "object" {
                objects += 1;
                assert_eq!(sub["additionalProperties"], json!(false), "{name}{path}");
                assert!(sub["properties"].is_object(), "{name}{path}");
                if let Some(req) = sub.get("required") {
                    assert!(!req.as_array().expect("required is an array").is_empty());
                }
            }
            if let Some(f) = sub.get("format").and_then(Value::as_str) {
                assert!(
                    ["date-time", "date", "email", "uri", "uuid"].contains(&f),
                    "{name}{path}: non-standard format {f}"
                );
            }
        });
        assert!(objects >= 1);
    }
}

#[test]
fn declaration_order_and_required() {
    let cat = billing();
    let t = cat.tool("invoice_list").expect("fixture tool");
    let s = schema::input_schema(&cat, t);
    let keys: Vec<&String> = s["properties"]
        .as_object()
        .expect("object")
        .keys()
        .collect();
    assert_eq!(keys, ["status", "page_size", "cursor"]);
    assert_eq!(s["required"], json!(["status"]));
    assert_eq!(s["properties"]["cursor"]["maxLength"], json!(512));
    assert_eq!(s["properties"]["page_size"]["default"], json!(20));

    let sub = cat.tool("payment_transfer_submit").expect("fixture tool");
    let s = schema::input_schema(&cat, sub);
    assert_eq!(
        s["required"],
        json!([
            "source_account_reference",
            "destination_account_reference",
            "amount_minor",
            "currency",
            "idempotency_key"
        ])
    );
    assert_eq!(
        s["properties"]["amount_minor"]["exclusiveMinimum"],
        json!(0)
    );
    assert_eq!(s["properties"]["amount_minor"]["x-unit"], json!("minor"));

    // An empty input: properties present, no `required`.
    let ping = cat.tool("service_ping").expect("fixture tool");
    assert_eq!(
        schema::input_schema(&cat, ping),
        json!({"$schema": DIALECT, "type": "object", "properties": {}, "additionalProperties": false})
    );
    assert_eq!(schema::output_schema(&cat, ping), None);
}

#[test]
fn named_types_are_inlined_with_their_doc() {
    let cat = billing();
    let t = cat.tool("invoice_list").expect("fixture tool");
    let out = schema::output_schema(&cat, t).expect("has output");
    let item = &out["properties"]["items"]["items"];
    assert_eq!(item["type"], "object");
    assert_eq!(item["description"], "An invoice summary.");
    assert_eq!(
        item["properties"]["invoice_reference"]["pattern"],
        "^INV-[0-9]+$"
    );
    assert!(!pretty(&out).contains("$ref"));
}

#[test]
fn field_and_type_schemas() {
    let fx = Fx::new(0);
    let cat = fx.billing();
    let t = cat.tool("report_export").expect("fixture tool");
    let ratio = &t.input.fields[1];
    assert_eq!(
        schema::ty_schema(&cat, ratio),
        json!({"type": "number", "minimum": 0.5, "exclusiveMaximum": 99.5, "multipleOf": 0.25,
               "x-unit": "percent", "default": 1.5})
    );
    assert_eq!(
        schema::ty_schema(&cat, &ratio.ty),
        json!({"type": "number", "minimum": 0.5, "exclusiveMaximum": 99.5, "multipleOf": 0.25,
               "x-unit": "percent"})
    );
    let legacy = &t.input.fields[3];
    assert_eq!(
        schema::ty_schema(&cat, legacy),
        json!({"type": "string", "maxLength": 10, "default": "off", "deprecated": true})
    );
    let sensitive = &t.input.fields[4];
    assert!(sensitive.sensitive);
    assert_eq!(
        schema::ty_schema(&cat, sensitive),
        json!({"type": "string", "format": "email", "maxLength": 254})
    );
    assert_eq!(
        schema::object_schema(&cat, &fx.obj(vec![])),
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
}

fn validator(s: &Value) -> jsonschema::Validator {
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(s)
        .expect("emitted schemas compile")
}

/// Valid arguments for each fixture input, touching every nested object.
fn valid_inputs() -> Vec<(&'static str, Value)> {
    let invoice = json!({"invoice_reference": "INV-42", "currency": "EUR", "amount_minor": 1999});
    vec![
        (
            "invoice_list",
            json!({"status": "overdue", "page_size": 10, "cursor": "abc"}),
        ),
        (
            "payment_transfer_submit",
            json!({
                "source_account_reference": "DE89370400440532013000",
                "destination_account_reference": "DE02120300000000202051",
                "amount_minor": 2500,
                "currency": "EUR",
                "idempotency_key": "2b7f9a1c-8d3e-4f60"
            }),
        ),
        (
            "report_export",
            json!({
                "nested": {"label": "q3", "deep": {"at": "2026-03-01T10:00:00+01:00", "invoice": invoice}},
                "ratio": 12.75,
                "include_archived": true,
                "legacy_mode": "on",
                "contact_email": "ops@example.com",
                "tags": ["a", "b"],
                "matrix": [[1, 2], [3]],
                "page": "p2",
                "day": "2026-03-01"
            }),
        ),
        ("service_ping", json!({})),
    ]
}

/// Every copy of `v` with one unknown property added to one of its objects, with the path.
fn with_unknown_property(v: &Value) -> Vec<(String, Value)> {
    fn go(
        path: String,
        v: &Value,
        out: &mut Vec<(String, Value)>,
        rebuild: &dyn Fn(Value) -> Value,
    ) {
        match v {
            Value::Object(m) => {
                let mut extra = m.clone();
                extra.insert("unexpected_property".into(), json!(1));
                out.push((path.clone(), rebuild(Value::Object(extra))));
                for (k, child) in m {
                    let k2 = k.clone();
                    let m2 = m.clone();
                    let r = move |c: Value| {
                        let mut m3 = m2.clone();
                        m3.insert(k2.clone(), c);
                        rebuild(Value::Object(m3))
                    };
                    go(format!("{path}/{k}"), child, out, &r);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    let items2 = items.clone();
                    let r = move |c: Value| {
                        let mut a = items2.clone();
                        a[i] = c;
                        rebuild(Value::Array(a))
                    };
                    go(format!("{path}/{i}"), child, out, &r);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    go(String::new(), v, &mut out, &|x| x);
    out
}

#[test]
fn instances_valid_and_unknown_properties_rejected_at_every_depth() {
    let cat = billing();
    let mut depths = Vec::new();
    for (tool, args) in valid_inputs() {
        let t = cat.tool(tool).expect("fixture tool");
        let v = validator(&schema::input_schema(&cat, t));
        let errs: Vec<String> = v.iter_errors(&args).map(|e| e.to_string()).collect();
        assert!(errs.is_empty(), "{tool}: {errs:?}");
        for (path, bad) in with_unknown_property(&args) {
            assert!(
                !v.is_valid(&bad),
                "{tool}: unknown property accepted at {path:?}"
            );
            depths.push(path.matches('/').count());
        }
    }
    // The fixture reaches an object four levels down (nested/deep/invoice).
    assert!(depths.iter().any(|d| *d >= 3), "{depths:?}");
}

#[test]
fn bounds_are_enforced_by_the_emitted_schema() {
    let cat = billing();
    let list = validator(&schema::input_schema(
        &cat,
        cat.tool("invoice_list").expect("tool"),
    ));
    for bad in [
        json!({}),
        json!({"status": "paid"}),
        json!({"status": "open", "page_size": 0}),
        json!({"status": "open", "page_size": 51}),
        json!({"status": "open", "page_size": 2.5}),
        json!({"status": "open", "cursor": "x".repeat(513)}),
        json!({"status": null}),
    ] {
        assert!(!list.is_valid(&bad), "accepted {bad}");
    }
    let export = validator(&schema::input_schema(
        &cat,
        cat.tool("report_export").expect("tool"),
    ));
    let base = valid_inputs()[2].1.clone();
    let bad_variants = [
        ("/tags", json!(["a", "a"])),
        ("/tags", json!([])),
        ("/matrix", json!([[1, 2, 3, 4]])),
        ("/ratio", json!(99.5)),
        ("/ratio", json!(0.3)),
        ("/contact_email", json!("not an email")),
        ("/page", json!("x".repeat(129))),
        ("/nested/deep/at", json!("yesterday")),
        ("/nested/deep/invoice/invoice_reference", json!("INV-x")),
    ];
    for (ptr, bad) in bad_variants {
        let mut v = base.clone();
        *v.pointer_mut(ptr).expect("pointer exists in the fixture") = bad.clone();
        assert!(!export.is_valid(&v), "accepted {ptr} = {bad}");
    }
}

#[test]
fn tool_definitions() {
    let cat = billing();
    let list = definition(&cat, cat.tool("invoice_list").expect("tool"));
    let keys: Vec<&String> = list.as_object().expect("object").keys().collect();
    assert_eq!(
        keys,
        [
            "name",
            "title",
            "description",
            "inputSchema",
            "outputSchema",
            "annotations"
        ]
    );
    assert_eq!(
        list["annotations"],
        json!({"title": "List invoices", "readOnlyHint": true, "destructiveHint": false,
               "idempotentHint": true, "openWorldHint": false})
    );
    let submit = definition(&cat, cat.tool("payment_transfer_submit").expect("tool"));
    assert!(submit.get("title").is_none());
    assert_eq!(
        submit["annotations"],
        json!({"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true,
               "openWorldHint": false})
    );
    let ping = definition(&cat, cat.tool("service_ping").expect("tool"));
    assert!(ping.get("outputSchema").is_none());
    assert_eq!(ping["annotations"]["openWorldHint"], json!(true));
    let export = definition(&cat, cat.tool("report_export").expect("tool"));
    // append without idempotency: not idempotent.
    assert_eq!(export["annotations"]["idempotentHint"], json!(false));
    assert_eq!(export["annotations"]["destructiveHint"], json!(false));
}

fn project() -> Project {
    let fx = Fx::new(0);
    let mut payments = fx.billing();
    payments.name = fx.s("payments");
    payments
        .tools
        .retain(|t| t.name.value == "payment_transfer_submit");
    let mut billing = fx.billing();
    billing
        .tools
        .retain(|t| t.name.value != "payment_transfer_submit");
    Project {
        catalogs: vec![payments, billing],
    }
}

#[test]
fn tools_list_order_and_determinism() {
    let list = tools_list(&project());
    let names: Vec<&str> = list["tools"]
        .as_array()
        .expect("tools array")
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    // Catalogs by name (billing before payments), tools in declaration order.
    assert_eq!(
        names,
        [
            "invoice_list",
            "report_export",
            "service_ping",
            "payment_transfer_submit"
        ]
    );
    let a = serde_json::to_string(&tools_list(&project())).expect("serialises");
    let b = serde_json::to_string(&tools_list(&Project {
        catalogs: project().catalogs.into_iter().rev().collect(),
    }))
    .expect("serialises");
    assert_eq!(
        a, b,
        "byte-identical whatever order the files were loaded in"
    );
}

#[test]
fn same_model_same_bytes() {
    let a = Fx::new(0).billing();
    let b = Fx::new(5_000).billing();
    for (ta, tb) in a.tools.iter().zip(&b.tools) {
        assert_eq!(pretty(&definition(&a, ta)), pretty(&definition(&b, tb)));
    }
}

fn desc(cat: &Catalog, t: &Tool) -> String {
    let d = description(cat, t);
    assert!(!d.contains('\r'));
    assert!(
        d.lines().all(|l| l == l.trim_end()),
        "trailing whitespace in {d:?}"
    );
    assert!(!d.ends_with('\n') && !d.contains("\n\n\n"));
    d
}

#[test]
fn descriptions() {
    let cat = billing();
    let list = desc(&cat, cat.tool("invoice_list").expect("tool"));
    assert_eq!(
        list,
        "List open or overdue invoices visible to the authenticated tenant.\n\
         Use to look up invoices of the current tenant by status.\n\
         Not for payments or reminders; use invoice_send_reminder to remind.\n\
         \n\
         Effect: read — reads only; changes nothing.\n\
         Limits: at most 50 items; results up to 65536 bytes; times out after 5000 ms."
    );
    let submit = desc(&cat, cat.tool("payment_transfer_submit").expect("tool"));
    assert!(submit.contains(
        "Effect: destructive — irreversible or externally visible; requires confirmation; \
         a retry with the same idempotency_key is safe."
    ));
    assert!(submit.contains("If it times out, call payment_transfer_status"));
    let export = desc(&cat, cat.tool("report_export").expect("tool"));
    assert!(
        export.ends_with(
            "Deprecated: Exports move to the reports catalog. Use reports_export instead."
        )
    );
    assert!(export.contains("a retry may add it twice; reaches systems outside this service"));
    assert!(export.contains("Limits: at most 1 item; times out after 30000 ms."));
}

#[test]
fn descriptions_normalise_author_text() {
    let fx = Fx::new(0);
    let cat = fx.billing();
    let mut t = cat.tool("service_ping").expect("tool").clone();
    t.summary = fx.os("Check the service.   \r\nIt answers fast.\r\n\r\n\r\n\r\nReally.  ");
    t.when = None;
    t.when_not = None;
    assert_eq!(
        desc(&cat, &t),
        "Check the service.\nIt answers fast.\n\nReally.\n\n\
         Effect: external-read — reads only, but the read is visible outside this service \
         (third-party call, audit)."
    );
}

/// Author text is data, never template code.
#[test]
fn descriptions_do_not_evaluate_author_text() {
    let fx = Fx::new(0);
    let cat = fx.billing();
    let mut t = cat.tool("service_ping").expect("tool").clone();
    t.summary = fx.os("Shows {{ name }} and {% if true %}x{% endif %} <b>&amp;</b> as written.");
    let d = desc(&cat, &t);
    assert!(
        d.starts_with("Shows {{ name }} and {% if true %}x{% endif %} <b>&amp;</b> as written.\n"),
        "{d}"
    );
}

#[test]
fn project_templates_override_the_builtin() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("description.j2"),
        "{{ name }}: {{ summary }}   \n\n\n[{{ effect }}] {{ limits_words | join(', ') }}\n",
    )
    .expect("write template");
    let t = catalogc::config::load_templates(dir.path()).expect("templates load");
    let cat = billing();
    let got = t
        .description(&cat, cat.tool("invoice_list").expect("tool"))
        .expect("renders");
    assert_eq!(
        got,
        "invoice_list: List open or overdue invoices visible to the authenticated tenant.\n\n\
         [read] at most 50 items, results up to 65536 bytes, times out after 5000 ms"
    );

    std::fs::write(dir.path().join("description.j2"), "{% if %}").expect("write template");
    let err = catalogc::config::load_templates(dir.path()).expect_err("syntax error is reported");
    // The file, not just the template name, so the author finds it.
    assert_eq!(
        err.template,
        dir.path().join("description.j2").display().to_string()
    );
    assert!(err.to_string().contains("line 1"), "{err}");

    let missing =
        catalogc::config::load_templates(&dir.path().join("nope")).expect_err("no folder");
    assert!(missing.template.ends_with("nope"));
}

#[test]
fn snapshots() {
    let cat = billing();
    for t in &cat.tools {
        let def = definition(&cat, t);
        insta::assert_snapshot!(format!("tool_definition__{}", t.name.value), pretty(&def));
        insta::assert_snapshot!(
            format!("description__{}", t.name.value),
            description(&cat, t)
        );
    }
}

// ---- The example catalogs, loaded from KDL by the real pipeline. ----

mod catalogs {
    use super::*;
    use catalogc::project::Loaded;
    use std::path::PathBuf;

    pub fn load() -> Loaded {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("catalogs");
        let loaded = testing::load_clean(&[dir]);
        assert!(loaded.tool_count() >= 6);
        loaded
    }

    /// Schemas of every input and output of every example tool.
    pub fn all_schemas(loaded: &Loaded) -> Vec<(String, Value)> {
        loaded
            .project
            .catalogs
            .iter()
            .flat_map(|c| {
                schemas(c)
                    .into_iter()
                    .map(move |(n, s)| (format!("{}/{n}", c.name.value), s))
            })
            .collect()
    }

    /// A valid instance of `s` holding every optional property too, so every nested object
    /// is present; leaves are picked from candidates checked against their own subschema.
    pub fn instance(s: &Value) -> Value {
        match s["type"].as_str() {
            Some("object") => {
                let mut m = serde_json::Map::new();
                if let Some(props) = s["properties"].as_object() {
                    for (k, p) in props {
                        m.insert(k.clone(), instance(p));
                    }
                }
                Value::Object(m)
            }
            Some("array") => {
                let n = s["minItems"].as_u64().unwrap_or(1).max(1);
                let item = instance(&s["items"]);
                let items: Vec<Value> = (0..n)
                    .map(|i| match &item {
                        // Distinct items for uniqueItems: vary integers and strings.
                        Value::Number(x) if i > 0 => json!(x.as_i64().unwrap_or(0) + i as i64),
                        Value::String(x) if i > 0 => json!(format!("{x}{i}")),
                        other => other.clone(),
                    })
                    .collect();
                Value::Array(items)
            }
            _ => leaf(s),
        }
    }

    fn leaf(s: &Value) -> Value {
        let mut candidates: Vec<Value> = Vec::new();
        if let Some(e) = s["enum"].as_array() {
            candidates.extend(e.iter().cloned());
        }
        match s["type"].as_str() {
            Some("string") => {
                candidates.extend(
                    [
                        "2026-03-01T10:00:00+01:00",
                        "2026-03-01",
                        "ops@example.com",
                        "https://example.com/a",
                        "0b6f2d8e-3c1a-4c55-9a57-6f1f0a2b9c11",
                        "INV-1001",
                        "REM-1001",
                        "TRF-1001",
                        "OPS-EUR-01",
                        "b2c7d1e0a9f84c3b9e6d5a4f3c2b1a09",
                    ]
                    .map(Value::from),
                );
                let min = s["minLength"].as_u64().unwrap_or(1) as usize;
                candidates.push(json!("x".repeat(min.max(1))));
            }
            Some("integer") | Some("number") => {
                let excl = s["exclusiveMinimum"].as_f64().map(|x| x.floor() + 1.0);
                for c in [s["minimum"].as_f64(), excl, s["maximum"].as_f64()]
                    .into_iter()
                    .flatten()
                {
                    candidates.push(if s["type"] == "integer" {
                        json!(c as i64)
                    } else {
                        json!(c)
                    });
                }
                candidates.extend([json!(0), json!(1), json!(100)]);
            }
            Some("boolean") => candidates.push(json!(true)),
            _ => {}
        }
        let v = validator(s);
        candidates
            .into_iter()
            .find(|c| v.is_valid(c))
            .unwrap_or_else(|| panic!("no candidate fits {s}"))
    }
}

#[test]
fn example_catalogs_schemas_valid_and_closed() {
    let loaded = catalogs::load();
    for (name, s) in catalogs::all_schemas(&loaded) {
        if let Err(e) = jsonschema::draft202012::meta::validate(&s) {
            panic!("{name}: {e}");
        }
        walk("", &s, &mut |path, sub| {
            assert!(sub["type"].is_string(), "{name}{path}");
            if sub["type"] == "object" {
                assert_eq!(sub["additionalProperties"], json!(false), "{name}{path}");
            }
        });
    }
}

#[test]
fn example_catalogs_instances() {
    let loaded = catalogs::load();
    let mut checked = 0;
    for (name, s) in catalogs::all_schemas(&loaded) {
        let v = validator(&s);
        let good = catalogs::instance(&s);
        let errs: Vec<String> = v.iter_errors(&good).map(|e| e.to_string()).collect();
        assert!(errs.is_empty(), "{name}: {good} {errs:?}");
        for (path, bad) in with_unknown_property(&good) {
            assert!(
                !v.is_valid(&bad),
                "{name}: unknown property accepted at {path:?}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked}");
}

#[test]
fn example_catalogs_tools_list_snapshot_and_determinism() {
    let a = catalogs::load();
    let b = catalogs::load();
    let list = pretty(&tools_list(&a.project));
    assert_eq!(list, pretty(&tools_list(&b.project)));
    insta::assert_snapshot!("tools_list__catalogs", list);
    for c in &a.project.catalogs {
        for t in &c.tools {
            let d = desc(c, t);
            insta::assert_snapshot!(format!("catalogs_description__{}", t.name.value), d);
        }
    }
}

/// The synthetic catalogs (varied shapes: nested objects, named types, arrays of objects,
/// every bound) go through the same checks as the examples.
#[test]
fn synthetic_catalog_schemas() {
    let text = catalogc::testing::synthetic_catalog("synthetic", 60);
    let loaded = testing::load_clean_source("synthetic.kdl", text.clone());
    let cat = loaded.project.catalogs.first().expect("one catalog");
    assert_eq!(cat.tools.len(), 60);
    let mut unknown_checked = 0;
    for (name, s) in schemas(cat) {
        if let Err(e) = jsonschema::draft202012::meta::validate(&s) {
            panic!("{name}: {e}");
        }
        let v = validator(&s);
        let good = catalogs::instance(&s);
        let errs: Vec<String> = v.iter_errors(&good).map(|e| e.to_string()).collect();
        assert!(errs.is_empty(), "{name}: {good} {errs:?}");
        for (path, bad) in with_unknown_property(&good) {
            assert!(
                !v.is_valid(&bad),
                "{name}: unknown property accepted at {path:?}"
            );
            unknown_checked += 1;
        }
    }
    assert!(unknown_checked > 120, "{unknown_checked}");
    // Same text, same bytes.
    let again = catalogc::project::load_source("synthetic.kdl", text);
    let again = again.project.catalogs.first().expect("one catalog");
    for (a, b) in cat.tools.iter().zip(&again.tools) {
        assert_eq!(pretty(&definition(cat, a)), pretty(&definition(again, b)));
    }
}

/// A model built without loading (so no cap left its tool out) whose named types chain
/// 10,000 deep: the schema is cut off at `MAX_INLINED_DEPTH` named types, a closed empty
/// object, instead of overflowing the stack.
#[test]
fn a_chain_of_named_types_in_a_hand_built_model_is_cut_off_not_overflowed() {
    let src = catalogc::testing::chain_catalog(10_000);
    let parsed = catalogc::syntax::parse(&src);
    let (cat, _) = catalogc::model::lower(&parsed.document, catalogc::diag::FileId(0));
    let cat = cat.expect("the chain lowers");
    let s = schema::input_schema(&cat, &cat.tools[0]);
    let mut depth = 0;
    let mut at = &s["properties"]["root"];
    while let Some(next) = at["properties"].get("next") {
        depth += 1;
        at = next;
    }
    assert_eq!(depth, catalogc::model::inline::MAX_INLINED_DEPTH);
    assert_eq!(at["properties"], json!({}));
    assert_eq!(at["additionalProperties"], json!(false));
}

/// Maps whose values are objects, arrays or named types: the value schema is the type's own
/// (a named one inlined), and the runtime checks every value against it, at `/FIELD/KEY/…`.
#[test]
fn maps_of_objects_arrays_and_named_types() {
    let text = r#"catalog "c" version="1.0.0"
type "Limit" {
    field "max" "integer" required=#true min=0 max=100
}
tool "quota_set" version="1.0.0" {
    effect "update"
    input {
        field "by_team" "map" max-entries=8 {
            values "object" {
                field "owner" "string" required=#true max-length=8
            }
        }
        field "tags" "map" max-entries=8 {
            values "array" max-items=2 { items "string" max-length=3; }
        }
        field "limits" "map" max-entries=8 { values "Limit"; }
    }
}"#;
    let loaded = catalogc::project::load_source("c.kdl", text);
    let errors: Vec<&str> = loaded.diagnostics.iter().map(|d| d.rule.as_ref()).collect();
    assert!(
        !errors.iter().any(|r| r.starts_with("model/")),
        "{errors:?}"
    );
    let cat = &loaded.project.catalogs[0];
    let s = schema::input_schema(cat, &cat.tools[0]);
    let object = json!({"type": "object", "properties": {}, "maxProperties": 8});
    let with = |values: Value| {
        let mut m = object.clone();
        m["additionalProperties"] = values;
        m
    };
    assert_eq!(
        s["properties"]["by_team"],
        with(json!({"type": "object",
            "properties": {"owner": {"type": "string", "maxLength": 8}},
            "required": ["owner"], "additionalProperties": false}))
    );
    assert_eq!(
        s["properties"]["tags"],
        with(json!({"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 2}))
    );
    assert_eq!(
        s["properties"]["limits"],
        with(json!({"type": "object",
            "properties": {"max": {"type": "integer", "minimum": 0, "maximum": 100}},
            "required": ["max"], "additionalProperties": false}))
    );
    let shape = catalogc::contract::shape::shape_of(&s).unwrap_or_else(|e| panic!("{e}"));
    let violations = |v: Value| -> Vec<(String, String)> {
        catalogc::runtime::validate::check(shape, &v)
            .into_iter()
            .map(|v| (v.path, v.reason))
            .collect()
    };
    let good = json!({"by_team": {"pay": {"owner": "ann"}}, "tags": {"a": ["x"]},
        "limits": {"cpu": {"max": 4}}});
    assert!(violations(good).is_empty());
    let bad = json!({"by_team": {"pay": {}}, "tags": {"a": ["x", "y", "z"]},
        "limits": {"cpu": {"max": 101}}});
    let got: Vec<String> = violations(bad).into_iter().map(|(p, _)| p).collect();
    assert_eq!(got, ["/by_team/pay/owner", "/tags/a", "/limits/cpu/max"]);
}
