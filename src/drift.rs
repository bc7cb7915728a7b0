//! Drift between a catalog and a running MCP server: the server's `tools/list` compared with
//! the tool definitions the catalog's contract promises (`catalogc drift`, docs/cli.md).
//!
//! Nothing is read or classified twice. The server's input and output schemas are imported
//! into the model by `catalogc import`'s reader ([`crate::import::import_tools`]) and compared
//! with the catalog's tool by the compatibility classifier ([`crate::compat::compare_tools`]),
//! the catalog as the old side and the server as the new one: what a client written against
//! the catalog meets at the server. Missing and extra tools, descriptions, titles and
//! annotation hints map onto the existing tool-level change kinds. A differing schema the
//! import could only approximate (`oneOf`, a nullable type, an unresolved `$ref`, an open
//! object, an unknown keyword…) cannot be classified: each place the import noted is reported
//! as [`UNCLASSIFIED`] at its JSON path ([`crate::import::Note::json_path`]), as an error.
//!
//! Every drift is a [`Diagnostic`] whose rule is the change kind's ID (so `catalogc explain`
//! documents it), at error level for a major change, warning for minor and info for patch,
//! located at the catalog's declaration.

use crate::compat::{self, Change, Class, Kind};
use crate::contract::Artifacts;
use crate::diag::{Diagnostic, Level};
use crate::import::{self, Note};
use crate::model::{Catalog, Project, Span, Tool};
use crate::project::load_source;
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
    // Both sides indexed by name once (each looked up by a scan, a server listing thousands
    // of tools took quadratic time); the first listing of a name is the one compared.
    let mut served_by_name: crate::FastMap<&str, &Value> = crate::FastMap::default();
    for t in served {
        if let Some(name) = t.get("name").and_then(Value::as_str) {
            served_by_name.entry(name).or_insert(t);
        }
    }
    let by_name = |name: &str| served_by_name.get(name).copied();
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
                Some(served) => compare_tool(cat, tool, &contract.definition_value(), served),
            };
            for ch in changes {
                out.push(diagnostic(cat, tool, ch));
            }
        }
    }
    let declared: crate::FastSet<&str> = (project.catalogs.iter())
        .flat_map(|c| c.tools.iter().map(|t| t.name.value.as_str()))
        .collect();
    let known = |name: &str| declared.contains(name);
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
                d.tool = Some(name.into());
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
    let differs: Vec<&str> = ["inputSchema", "outputSchema"]
        .into_iter()
        .filter(|key| expected.get(*key) != served.get(*key))
        .collect();
    if differs.is_empty() {
        return out;
    }
    let mut server_tool = tool.clone();
    let mut lost_paths = Vec::new();
    match served_schemas(served) {
        Ok((imported, notes)) => {
            for key in differs {
                // What the import could only approximate where the server differs from the
                // catalog cannot be classified: that whole side is reported at those places.
                let lost: Vec<&Note> = notes
                    .iter()
                    .filter(|n| on_side(n, key) && !same_at(expected, served, n))
                    .collect();
                if !lost.is_empty() {
                    lost_paths.extend(
                        lost.into_iter()
                            .map(|n| unclassified(&n.json_path, &n.what)),
                    );
                } else if key == "inputSchema" {
                    server_tool.input = imported.input.clone();
                } else {
                    // A served `outputSchema` is a structured result, whatever kind the
                    // catalog declares; a served list cannot state text or image results.
                    server_tool.output = imported.output.clone();
                    server_tool.content = None;
                }
            }
        }
        Err(why) => lost_paths.extend(differs.into_iter().map(|key| unclassified(key, &why))),
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
    out.extend(lost_paths);
    out
}

/// The served tool's schemas read into the model by the importer ([`crate::import`]), with
/// what the import noted, or why it could not import them.
fn served_schemas(served: &Value) -> Result<(Tool, Vec<Note>), String> {
    let mut schemas = Map::new();
    // The importer needs the name; the texts and annotations are compared above.
    schemas.insert("name".into(), Value::from("served"));
    for key in ["inputSchema", "outputSchema"] {
        if let Some(s) = served.get(key) {
            schemas.insert(key.into(), s.clone());
        }
    }
    let imported =
        import::import_tools(&[Value::Object(schemas)], "served").map_err(|e| e.to_string())?;
    let loaded = load_source("served.kdl", &imported.text);
    let tool = loaded
        .project
        .catalogs
        .into_iter()
        .next()
        .and_then(|c| c.tools.into_iter().next())
        .ok_or("the imported schemas do not load")?;
    Ok((tool, imported.notes))
}

/// Whether `note` is about the schema `key` (`inputSchema` or `outputSchema`).
fn on_side(note: &Note, key: &str) -> bool {
    note.json_path
        .strip_prefix(key)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// Whether both tools have the same value at the note's JSON path. A path that does not lead
/// to a value is never the same.
fn same_at(expected: &Value, served: &Value, note: &Note) -> bool {
    let path = note.json_path.as_str();
    matches!((value_at(expected, path), value_at(served, path)), (Some(a), Some(b)) if a == b)
}

/// The value at a dotted JSON path whose keys may themselves hold dots (a property named
/// `a.b`): each key of the object that the path starts with is tried, and the first that
/// leads to a value wins.
fn value_at<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    if path.is_empty() {
        return Some(value);
    }
    let rest_after = |key: &str| {
        path.strip_prefix(key).and_then(|rest| match rest {
            "" => Some(""),
            _ => rest.strip_prefix('.'),
        })
    };
    match value {
        Value::Object(map) => map
            .iter()
            .find_map(|(key, child)| rest_after(key).and_then(|rest| value_at(child, rest))),
        Value::Array(items) => {
            let (index, rest) = path.split_once('.').unwrap_or((path, ""));
            items
                .get(index.parse::<usize>().ok()?)
                .and_then(|item| value_at(item, rest))
        }
        _ => None,
    }
}

fn unclassified(path: &str, why: &str) -> Found {
    Found {
        kind: None,
        message: format!("unclassified schema difference at `{path}` ({why})"),
        path: path.to_string(),
        span: None,
    }
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
    d.tool = Some(tool.name.value.as_str().into());
    d
}

fn at(cat: &Catalog, span: Span, found: Found) -> Diagnostic {
    let (rule, class) = match found.kind {
        Some(k) => (k.id(), k.class()),
        None => (UNCLASSIFIED, Class::Major),
    };
    let mut d = Diagnostic::new(rule, level(class), cat.file, span, found.message);
    d.catalog = Some(cat.name.value.as_str().into());
    d.path = (!found.path.is_empty()).then_some(found.path);
    d.help = Some(match class {
        Class::Major => {
            "clients written against the catalog break: deploy a server built from it, or release the catalog change".into()
        }
        _ => "the server differs from the catalog: redeploy it, or update the catalog".into(),
    });
    d
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
            .map(|t| t.definition_value())
            .collect()
    }

    fn rules(d: &[Diagnostic]) -> Vec<(String, String)> {
        d.iter()
            .map(|d| (d.rule.to_string(), d.path.clone().unwrap_or_default()))
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
            let (imported, notes) = served_schemas(&c.definition_value())
                .unwrap_or_else(|e| panic!("{}: {e}", tool.name.value));
            let input_notes: Vec<&Note> =
                notes.iter().filter(|n| on_side(n, "inputSchema")).collect();
            assert_eq!(input_notes, Vec::<&Note>::new(), "{}", tool.name.value);
            let mut t = tool.clone();
            t.input = imported.input;
            let bare = Catalog {
                types: Vec::new(),
                ..cat.clone()
            };
            assert_eq!(
                crate::contract::schema::input_schema(&bare, &t),
                c.input_schema_value()
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
            removed_diag.and_then(|d| d.tool.as_deref()),
            Some(removed_name.as_str())
        );
        assert_eq!(
            d.iter()
                .find(|d| d.rule == "compat/input-field-required-added")
                .map(|d| d.level),
            Some(Level::Error)
        );
    }

    #[test]
    fn a_served_header_is_classified() {
        let (project, art) = billing();
        let mut list = served(&art);
        let props = list[0]["inputSchema"]["properties"].as_object_mut();
        let Some((name, prop)) = props.and_then(|p| p.iter_mut().next()) else {
            panic!("the first tool has no input field");
        };
        prop["x-mcp-header"] = Value::from("Served");
        let path = format!("input.{name}.header");
        let d = compare(&project, &art, &list);
        assert_eq!(rules(&d), [("compat/input-header-added".to_string(), path)]);
    }

    #[test]
    fn paths_find_keys_that_hold_dots() {
        let v = serde_json::json!({"a": {"b.c": {"d": 1}, "b": {"e": 2}}, "l": [0, {"x": 3}]});
        assert_eq!(value_at(&v, "a.b.c.d"), Some(&Value::from(1)));
        assert_eq!(value_at(&v, "a.b.e"), Some(&Value::from(2)));
        assert_eq!(value_at(&v, "l.1.x"), Some(&Value::from(3)));
        assert_eq!(value_at(&v, "a.zz"), None);
        assert_eq!(value_at(&v, ""), Some(&v));
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
