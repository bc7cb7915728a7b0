//! Drift between a catalog and a running MCP server: the server's `tools/list` compared with
//! the tool definitions the catalog's contract promises (`catalogc drift`, docs/cli.md).
//!
//! Nothing is classified twice. The server's input and output schemas are read back into the
//! model ([`import_object`]) and compared with the catalog's tool by the compatibility
//! classifier ([`crate::compat::compare_tools`]), the catalog as the old side and the server as
//! the new one: what a client written against the catalog meets at the server. Missing and
//! extra tools, descriptions, titles and annotation hints map onto the existing tool-level
//! change kinds. A schema that uses JSON Schema the catalog format cannot express (`oneOf`,
//! `$ref`, an open object…) cannot be classified: its differing JSON paths are reported as
//! [`UNCLASSIFIED`], as errors.
//!
//! Every drift is a [`Diagnostic`] whose rule is the change kind's ID (so `catalogc explain`
//! documents it), at error level for a major change, warning for minor and info for patch,
//! located at the catalog's declaration.

use crate::compat::{self, Change, Class, Kind};
use crate::contract::Artifacts;
use crate::contract::schema::HEADER_KEYWORD;
use crate::diag::{Diagnostic, Level};
use crate::model::{
    ArrayTy, Catalog, EnumValues, Field, Format, Literal, Num, NumTy, Object, Project, Sp, Span,
    StringTy, Tool, Ty, TyKind, Unit,
};
use serde_json::{Map, Value};

/// The rule of a schema difference the classifier cannot judge (the server's schema uses
/// JSON Schema outside what a catalog can declare).
pub const UNCLASSIFIED: &str = "drift/schema-unclassified";

/// The one line [`UNCLASSIFIED`] is documented with.
pub const UNCLASSIFIED_SUMMARY: &str =
    "the served schema differs in a way the compatibility classifier cannot judge";

/// One difference: a change kind, or `None` for [`UNCLASSIFIED`].
struct Found {
    kind: Option<Kind>,
    path: String,
    message: String,
    /// Where the catalog declares what differs, when the classifier knows.
    span: Option<Span>,
}

impl From<Change> for Found {
    fn from(c: Change) -> Self {
        Found {
            kind: Some(c.kind),
            span: c.old.map(|l| l.span),
            path: c.path,
            message: c.message,
        }
    }
}

/// The MCP defaults of the annotation hints a server leaves out (MCP `ToolAnnotations`).
const HINT_DEFAULTS: [(&str, bool); 4] = [
    ("readOnlyHint", false),
    ("destructiveHint", true),
    ("idempotentHint", false),
    ("openWorldHint", true),
];

/// Compares the tools a server lists (`served`: the `tools` array of `tools/list`, every page)
/// with the catalogs of `project`, whose contracts are `artifacts`. Tools are matched by name;
/// the result is in catalog order, then the server's extra tools in its order.
pub fn compare(project: &Project, artifacts: &Artifacts, served: &[Value]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let by_name = |name: &str| {
        served
            .iter()
            .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
    };
    for (ci, cat) in project.catalogs.iter().enumerate() {
        for (ti, tool) in cat.tools.iter().enumerate() {
            let Some(contract) = artifacts.tool(ci, ti) else {
                continue;
            };
            let changes = match by_name(&tool.name.value) {
                None => vec![change(
                    Kind::ToolRemoved,
                    String::new(),
                    format!(
                        "tool removed: `{}` is in the catalog but the server does not list it",
                        tool.name.value
                    ),
                )],
                Some(served) => compare_tool(cat, tool, &contract.definition, served),
            };
            for ch in changes {
                out.push(diagnostic(cat, tool, ch));
            }
        }
    }
    let known = |name: &str| {
        project
            .catalogs
            .iter()
            .any(|c| c.tools.iter().any(|t| t.name.value == name))
    };
    if let Some(first) = project.catalogs.first() {
        for t in served {
            let name = t.get("name").and_then(Value::as_str).unwrap_or_default();
            if !known(name) {
                let ch = change(
                    Kind::ToolAdded,
                    String::new(),
                    format!("tool added: the server lists `{name}`, which no catalog declares"),
                );
                let mut d = at(first, first.span, ch);
                d.tool = Some(name.to_string());
                out.push(d);
            }
        }
    }
    out
}

/// Every difference of one tool: texts, annotations, then the classified schemas.
fn compare_tool(cat: &Catalog, tool: &Tool, expected: &Value, served: &Value) -> Vec<Found> {
    let mut out = Vec::new();
    for key in ["description", "title"] {
        let (e, s) = (expected.get(key), served.get(key));
        if e != s {
            out.push(change(
                Kind::ToolSelectionTextChanged,
                key.to_string(),
                format!(
                    "{}: the server's `{key}` differs from the catalog's ({})",
                    Kind::ToolSelectionTextChanged.title(),
                    shown_change(e, s)
                ),
            ));
        }
    }
    annotations(expected, served, &mut out);
    let mut server_tool = tool.clone();
    let mut unclassified = Vec::new();
    for (key, side_input) in [("inputSchema", true), ("outputSchema", false)] {
        let (e, s) = (expected.get(key), served.get(key));
        if e == s {
            continue;
        }
        match s.map(|s| import_object(s, side_input)).transpose() {
            Ok(imported) => {
                if side_input {
                    server_tool.input = imported.unwrap_or(Object {
                        fields: Vec::new(),
                        span: Span::default(),
                    });
                } else {
                    server_tool.output = imported;
                }
            }
            Err(why) => unclassified.push((key, why)),
        }
    }
    // Imported objects are inline; a side served as declared keeps the catalog's named
    // types, so the catalog resolves both sides.
    out.extend(
        compat::compare_tools(cat, tool, cat, &server_tool)
            .into_iter()
            // Sensitivity is never served, so the server cannot differ in it.
            .filter(|c| {
                !matches!(
                    c.kind,
                    Kind::InputSensitiveChanged | Kind::OutputSensitiveChanged
                )
            })
            .map(Found::from),
    );
    for (key, why) in unclassified {
        let mut paths = Vec::new();
        json_diff(expected.get(key), served.get(key), key, &mut paths);
        for p in paths {
            out.push(Found {
                kind: None,
                message: format!("unclassified schema difference at `{p}` ({why})"),
                path: p,
                span: None,
            });
        }
    }
    out
}

/// The hints the catalog derives from the effect against the served ones, as the effect
/// change kinds: a hint that now admits more side effect is `tool-effect-increased`.
fn annotations(expected: &Value, served: &Value, out: &mut Vec<Found>) {
    let hint = |def: &Value, key: &str, default: bool| {
        def.get("annotations")
            .and_then(|a| a.get(key))
            .and_then(Value::as_bool)
            .unwrap_or(default)
    };
    for (key, default) in HINT_DEFAULTS {
        let (e, s) = (hint(expected, key, default), hint(served, key, default));
        if e == s {
            continue;
        }
        // More side effect: no longer read-only, now destructive, no longer idempotent.
        let more = match key {
            "readOnlyHint" | "idempotentHint" => e && !s,
            _ => !e && s,
        };
        let kind = match key {
            "openWorldHint" => Kind::ToolOpenWorldChanged,
            _ if more => Kind::ToolEffectIncreased,
            _ => Kind::ToolEffectDecreased,
        };
        out.push(change(
            kind,
            format!("annotations.{key}"),
            format!(
                "{}: the server's `{key}` is {s}, the catalog's effect gives {e}",
                kind.title()
            ),
        ));
    }
    let title = |def: &Value| def.get("annotations").and_then(|a| a.get("title")).cloned();
    let (e, s) = (title(expected), title(served));
    if e != s {
        out.push(change(
            Kind::ToolSelectionTextChanged,
            "annotations.title".to_string(),
            format!(
                "{}: the server's `annotations.title` differs ({})",
                Kind::ToolSelectionTextChanged.title(),
                shown_change(e.as_ref(), s.as_ref())
            ),
        ));
    }
}

fn change(kind: Kind, path: String, message: String) -> Found {
    Found {
        kind: Some(kind),
        path,
        message,
        span: None,
    }
}

/// `old → new` for a message, long texts cut to the part around their first difference.
fn shown_change(old: Option<&Value>, new: Option<&Value>) -> String {
    const CONTEXT: usize = 24;
    const WIDTH: usize = 60;
    let skip = match (old.and_then(Value::as_str), new.and_then(Value::as_str)) {
        (Some(a), Some(b)) => a
            .chars()
            .zip(b.chars())
            .take_while(|(x, y)| x == y)
            .count()
            .saturating_sub(CONTEXT),
        _ => 0,
    };
    let one = |v: Option<&Value>| match v {
        None => "none".to_string(),
        Some(Value::String(s)) => {
            let count = s.chars().count();
            let body: String = s.chars().skip(skip).take(WIDTH).collect();
            let head = if skip > 0 { "…" } else { "" };
            let tail = if count > skip + WIDTH { "…" } else { "" };
            // JSON quoting shows line breaks as `\n`, keeping the message on one line.
            format!("{head}{}{tail}", Value::String(body))
        }
        Some(v) => v.to_string(),
    };
    format!("{} → {}", one(old), one(new))
}

/// The level a change of `class` is reported at.
pub fn level(class: Class) -> Level {
    match class {
        Class::Major => Level::Error,
        Class::Minor => Level::Warn,
        Class::Patch => Level::Info,
    }
}

fn diagnostic(cat: &Catalog, tool: &Tool, found: Found) -> Diagnostic {
    let span = found.span.unwrap_or(tool.name.span);
    let mut d = at(cat, span, found);
    d.tool = Some(tool.name.value.clone());
    d
}

fn at(cat: &Catalog, span: Span, found: Found) -> Diagnostic {
    let (rule, class) = match found.kind {
        Some(k) => (k.id(), k.class()),
        None => (UNCLASSIFIED, Class::Major),
    };
    let mut d = Diagnostic::new(rule, level(class), cat.file, span, found.message);
    d.catalog = Some(cat.name.value.clone());
    d.path = (!found.path.is_empty()).then_some(found.path);
    d.help = Some(match class {
        Class::Major => {
            "clients written against the catalog break: deploy a server built from it, or release the catalog change".to_string()
        }
        _ => "the server differs from the catalog: redeploy it, or update the catalog".to_string(),
    });
    d
}

/// The JSON paths (`inputSchema.properties.a.maxLength`) where `a` and `b` differ, for a
/// schema the classifier cannot read. Object keys compare regardless of order.
fn json_diff(a: Option<&Value>, b: Option<&Value>, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            for (k, v) in x {
                json_diff(Some(v), y.get(k), &format!("{path}.{k}"), out);
            }
            for (k, v) in y {
                if !x.contains_key(k) {
                    json_diff(None, Some(v), &format!("{path}.{k}"), out);
                }
            }
        }
        (x, y) if x != y => out.push(path.to_string()),
        _ => {}
    }
}

/// Reads a served object schema back into the model, or says which keyword the catalog
/// format has no counterpart for. `input` keeps `x-mcp-header`, which only input schemas
/// carry. The inverse of [`crate::contract::schema`] on everything it emits.
pub fn import_object(schema: &Value, input: bool) -> Result<Object, String> {
    let fields = object_fields(schema, input, "")?;
    Ok(Object {
        fields,
        span: Span::default(),
    })
}

fn sp<T>(v: T) -> Sp<T> {
    Sp::new(v, Span::default())
}

fn as_map<'v>(v: &'v Value, path: &str) -> Result<&'v Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("`{path}` is not a schema object"))
}

const ANNOTATION_KEYS: &[&str] = &["$schema", "description", "default", "deprecated"];

fn object_fields(schema: &Value, input: bool, path: &str) -> Result<Vec<Field>, String> {
    let m = as_map(schema, path)?;
    check_keys(
        m,
        &["type", "properties", "required", "additionalProperties"],
        path,
    )?;
    if m.get("additionalProperties") != Some(&Value::Bool(false)) {
        return Err(format!("`{path}` is an open object"));
    }
    let required: Vec<&str> = match m.get("required") {
        None => Vec::new(),
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        Some(_) => return Err(format!("`{path}.required` is not an array")),
    };
    let mut fields = Vec::new();
    if let Some(props) = m.get("properties") {
        for (name, sub) in as_map(props, path)? {
            let p = format!("{path}.{name}");
            let sm = as_map(sub, &p)?;
            let mut f = Field::new(name.clone(), ty(sub, input, &p)?.kind);
            f.required = required.contains(&name.as_str());
            f.doc = text(sm.get("description"));
            f.default = sm.get("default").map(literal).transpose()?.map(sp);
            f.deprecated = sm.get("deprecated") == Some(&Value::Bool(true));
            if input {
                f.header = text(sm.get(HEADER_KEYWORD));
            }
            fields.push(f);
        }
    }
    Ok(fields)
}

fn text(v: Option<&Value>) -> Option<Sp<String>> {
    v.and_then(Value::as_str).map(|s| sp(s.to_string()))
}

fn literal(v: &Value) -> Result<Literal, String> {
    Ok(match v {
        Value::String(s) => Literal::String(s.clone()),
        Value::Bool(b) => Literal::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Literal::Int(i),
            None => Literal::Float(n.as_f64().unwrap_or_default()),
        },
        other => return Err(format!("default {other} has no catalog counterpart")),
    })
}

fn check_keys(m: &Map<String, Value>, own: &[&str], path: &str) -> Result<(), String> {
    for k in m.keys() {
        let known = own.contains(&k.as_str())
            || ANNOTATION_KEYS.contains(&k.as_str())
            || k == HEADER_KEYWORD;
        if !known {
            return Err(format!("`{path}` uses `{k}`"));
        }
    }
    Ok(())
}

fn num(v: Option<&Value>) -> Option<Sp<Num>> {
    let n = v?.as_number()?;
    Some(sp(match n.as_i64() {
        Some(i) => Num::Int(i),
        None => Num::Float(n.as_f64()?),
    }))
}

fn count(v: Option<&Value>) -> Option<Sp<u64>> {
    v.and_then(Value::as_u64).map(sp)
}

fn ty(schema: &Value, input: bool, path: &str) -> Result<Ty, String> {
    let m = as_map(schema, path)?;
    let kind = match m.get("type").and_then(Value::as_str) {
        Some("string") => {
            check_keys(
                m,
                &[
                    "type",
                    "minLength",
                    "maxLength",
                    "pattern",
                    "format",
                    "enum",
                ],
                path,
            )?;
            let format = match m.get("format").and_then(Value::as_str) {
                None => None,
                Some(f) => Some(sp(
                    Format::parse(f).ok_or_else(|| format!("`{path}` has format `{f}`"))?
                )),
            };
            let enum_values = match m.get("enum") {
                None => None,
                Some(Value::Array(vs)) => Some(EnumValues {
                    values: vs
                        .iter()
                        .map(|v| v.as_str().map(|s| sp(s.to_string())))
                        .collect::<Option<_>>()
                        .ok_or_else(|| format!("`{path}.enum` has a value that is not a string"))?,
                    extensible: false,
                    span: Span::default(),
                }),
                Some(_) => return Err(format!("`{path}.enum` is not an array")),
            };
            TyKind::String(StringTy {
                min_length: count(m.get("minLength")),
                max_length: count(m.get("maxLength")),
                pattern: text(m.get("pattern")),
                format,
                enum_values,
            })
        }
        Some(t @ ("integer" | "number")) => {
            check_keys(
                m,
                &[
                    "type",
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                    "x-unit",
                ],
                path,
            )?;
            let unit = match m.get("x-unit").and_then(Value::as_str) {
                None => None,
                Some(u) => Some(sp(
                    Unit::parse(u).ok_or_else(|| format!("`{path}` has unit `{u}`"))?
                )),
            };
            let n = NumTy {
                min: num(m.get("minimum")),
                max: num(m.get("maximum")),
                exclusive_min: num(m.get("exclusiveMinimum")),
                exclusive_max: num(m.get("exclusiveMaximum")),
                multiple_of: num(m.get("multipleOf")),
                unit,
            };
            if t == "integer" {
                TyKind::Integer(n)
            } else {
                TyKind::Number(n)
            }
        }
        Some("boolean") => {
            check_keys(m, &["type"], path)?;
            TyKind::Boolean
        }
        Some("array") => {
            check_keys(
                m,
                &["type", "items", "minItems", "maxItems", "uniqueItems"],
                path,
            )?;
            let items = m
                .get("items")
                .ok_or_else(|| format!("`{path}` has no `items`"))?;
            TyKind::Array(ArrayTy {
                min_items: count(m.get("minItems")),
                max_items: count(m.get("maxItems")),
                unique: m.get("uniqueItems") == Some(&Value::Bool(true)),
                items: Box::new(ty(items, input, &format!("{path}[]"))?),
            })
        }
        Some("object") => TyKind::Object(Object {
            fields: object_fields(schema, input, path)?,
            span: Span::default(),
        }),
        Some(other) => return Err(format!("`{path}` has type `{other}`")),
        None => return Err(format!("`{path}` has no single `type`")),
    };
    Ok(Ty::new(kind))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Templates;
    use crate::project::load_source;

    fn billing() -> (Project, Artifacts) {
        let loaded = load_source("billing.kdl", include_str!("../catalogs/billing.kdl"));
        let art = Artifacts::build(&loaded.project, &Templates::builtin()).unwrap_or_default();
        (loaded.project, art)
    }

    fn served(art: &Artifacts) -> Vec<Value> {
        art.catalogs[0]
            .tools
            .iter()
            .map(|t| t.definition.clone())
            .collect()
    }

    fn rules(d: &[Diagnostic]) -> Vec<(String, String)> {
        d.iter()
            .map(|d| (d.rule.clone(), d.path.clone().unwrap_or_default()))
            .collect()
    }

    #[test]
    fn the_catalogs_own_definitions_do_not_drift() {
        let (project, art) = billing();
        assert!(compare(&project, &art, &served(&art)).is_empty());
    }

    #[test]
    fn every_emitted_schema_imports_back_to_the_same_schema() {
        let (project, art) = billing();
        let cat = &project.catalogs[0];
        for (tool, c) in cat.tools.iter().zip(&art.catalogs[0].tools) {
            let input = import_object(c.input_schema(), true).map_err(|e| e.to_string());
            let mut t = tool.clone();
            t.input = input.unwrap_or_else(|e| panic!("{}: {e}", tool.name.value));
            let bare = Catalog {
                types: Vec::new(),
                ..cat.clone()
            };
            assert_eq!(
                crate::contract::schema::input_schema(&bare, &t),
                *c.input_schema()
            );
        }
    }

    #[test]
    fn each_edit_has_its_class() {
        let (project, art) = billing();
        let mut list = served(&art);
        let removed = list.remove(0);
        let removed_name = removed["name"].as_str().unwrap_or_default().to_string();
        let t = &mut list[0];
        t["description"] = Value::from("Something else.");
        t["annotations"]["openWorldHint"] = Value::from(true);
        t["annotations"]["readOnlyHint"] = Value::from(false);
        if let Some(m) = t["inputSchema"].as_object_mut() {
            m.entry("required").or_insert(Value::Array(Vec::new()));
            m["properties"]["brand_new"] = serde_json::json!({"type": "string", "maxLength": 8});
            if let Some(r) = m["required"].as_array_mut() {
                r.push("brand_new".into());
            }
        }
        let mut extra = list[0].clone();
        extra["name"] = Value::from("ghost_get");
        list.push(extra);
        let d = compare(&project, &art, &list);
        let got = rules(&d);
        for want in [
            ("compat/tool-removed", ""),
            ("compat/tool-selection-text-changed", "description"),
            (
                "compat/tool-open-world-changed",
                "annotations.openWorldHint",
            ),
            ("compat/tool-effect-increased", "annotations.readOnlyHint"),
            ("compat/input-field-required-added", "input.brand_new"),
            ("compat/tool-added", ""),
        ] {
            assert!(
                got.contains(&(want.0.to_string(), want.1.to_string())),
                "{want:?} not in {got:?}"
            );
        }
        let removed_diag = d.iter().find(|d| d.rule == "compat/tool-removed");
        assert_eq!(
            removed_diag.and_then(|d| d.tool.clone()),
            Some(removed_name)
        );
        assert_eq!(
            d.iter()
                .find(|d| d.rule == "compat/input-field-required-added")
                .map(|d| d.level),
            Some(Level::Error)
        );
    }

    #[test]
    fn a_schema_outside_the_format_is_unclassified() {
        let (project, art) = billing();
        let mut list = served(&art);
        list[0]["inputSchema"]["properties"]["odd"] =
            serde_json::json!({"oneOf": [{"type": "string"}]});
        let d = compare(&project, &art, &list);
        assert_eq!(
            rules(&d),
            [(
                UNCLASSIFIED.to_string(),
                "inputSchema.properties.odd".to_string()
            )]
        );
    }
}
