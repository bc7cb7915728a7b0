//! SARIF 2.1.0 (validated against tests/fixtures/sarif-2.1.0.json): the only place a SARIF
//! log is built.

use super::{Level, Record, RuleMeta, RuleMetadata};
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// The SARIF `level` of one of our levels.
pub fn level(l: Level) -> &'static str {
    match l {
        Level::Error => "error",
        Level::Warn => "warning",
        Level::Info => "note",
    }
}

/// The parts of a run that differ between the lint log and the compatibility log. Both shapes
/// are kept as they were published, so code-scanning history stays comparable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Results carry `ruleIndex`, and the run `columnKind`.
    pub indexed: bool,
    /// The driver carries `informationUri`.
    pub information_uri: bool,
}

impl Shape {
    /// `catalogc lint`.
    pub const DIAGNOSTICS: Shape = Shape {
        indexed: true,
        information_uri: false,
    };
    /// `catalogc breaking`.
    pub const COMPAT: Shape = Shape {
        indexed: false,
        information_uri: true,
    };
}

/// The rules of these IDs (the records' rules), sorted by ID: the rule list of a log that lists only the
/// rules it reports. The first table that knows an ID answers; an ID no table knows gets a
/// bare descriptor.
pub fn used_rules<'a>(
    ids: impl IntoIterator<Item = &'a str>,
    tables: &[&dyn RuleMetadata],
) -> Vec<RuleMeta> {
    let mut ids: Vec<&str> = ids.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_iter()
        .map(|id| {
            tables
                .iter()
                .find_map(|t| t.rule(id))
                .unwrap_or_else(|| RuleMeta {
                    id: id.to_string(),
                    summary: id.to_string(),
                    ..RuleMeta::default()
                })
        })
        .collect()
}

/// A `reportingDescriptor`.
fn descriptor(m: &RuleMeta) -> Value {
    let mut r = Map::new();
    r.insert("id".into(), json!(m.id));
    r.insert("shortDescription".into(), json!({ "text": m.summary }));
    if let Some(help) = &m.help {
        let help = if m.doc_is_markdown {
            json!({ "text": help, "markdown": help })
        } else {
            json!({ "text": help })
        };
        r.insert("help".into(), help);
    }
    if let Some(l) = m.level {
        r.insert("defaultConfiguration".into(), json!({ "level": level(l) }));
    }
    if let Some(name) = &m.name {
        r.insert("name".into(), json!(name));
    }
    if let Some(d) = &m.description {
        r.insert("fullDescription".into(), json!({ "text": d }));
    }
    if !m.properties.is_empty() {
        let props: Map<String, Value> = m
            .properties
            .iter()
            .map(|(k, v)| ((*k).to_string(), json!(v)))
            .collect();
        r.insert("properties".into(), Value::Object(props));
    }
    Value::Object(r)
}

/// One `result`, serialized directly (a tree per result cost more than writing it, on logs
/// of a hundred thousand results), its members in the order the log has always had.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultObject<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_index: Option<usize>,
    level: &'static str,
    message: Text,
    locations: Vec<PhysicalLocation<'a>>,
    partial_fingerprints: Fingerprints<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<&'a Value>,
}

#[derive(serde::Serialize)]
struct Text {
    text: String,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation<'a> {
    physical_location: ArtifactRegion<'a>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactRegion<'a> {
    artifact_location: Uri<'a>,
    region: Region,
}

#[derive(serde::Serialize)]
struct Uri<'a> {
    uri: &'a str,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(serde::Serialize)]
struct Fingerprints<'a> {
    #[serde(rename = "catalogc/v1")]
    v1: &'a str,
}

impl<'a> ResultObject<'a> {
    fn of(r: &'a Record, rules: &[RuleMeta], shape: Shape) -> Self {
        let locations = (r.location.iter())
            .map(|l| PhysicalLocation {
                physical_location: ArtifactRegion {
                    artifact_location: Uri { uri: &l.file },
                    region: Region {
                        start_line: l.line,
                        start_column: l.column,
                        end_line: l.end_line,
                        end_column: l.end_column,
                    },
                },
            })
            .collect();
        ResultObject {
            rule_id: &r.rule,
            rule_index: (shape.indexed)
                .then(|| rules.iter().position(|m| m.id == r.rule).unwrap_or(0)),
            level: level(r.level),
            message: Text { text: r.text() },
            locations,
            partial_fingerprints: Fingerprints { v1: &r.fingerprint },
            properties: r.properties.as_ref(),
        }
    }
}

/// One run over `records`, listing `rules` (what [`write()`] prints, read back).
pub fn to_sarif(records: &[Record], rules: &[RuleMeta], shape: Shape) -> Value {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail, and what is written is JSON.
    let _ = write(&mut out, records.iter().cloned(), rules, shape);
    serde_json::from_slice(&out).unwrap_or(Value::Null)
}

/// The run's `tool`: catalogc as the driver, with `rules`.
fn tool(rules: &[RuleMeta], shape: Shape) -> Value {
    let mut driver = Map::new();
    driver.insert("name".into(), json!("catalogc"));
    if shape.information_uri {
        driver.insert(
            "informationUri".into(),
            json!("https://github.com/catalogc/catalogc"),
        );
    }
    driver.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
    driver.insert(
        "rules".into(),
        Value::Array(rules.iter().map(descriptor).collect()),
    );
    json!({ "driver": driver })
}

/// Writes the SARIF 2.1.0 log of `records`, with `rules` as the tool's rule descriptors,
/// pretty-printed and newline-terminated, one result at a time as `records` gives them: a
/// log of hundreds of thousands of results is never built as one tree.
pub fn write(
    out: &mut dyn Write,
    records: impl IntoIterator<Item = Record>,
    rules: &[RuleMeta],
    shape: Shape,
) -> io::Result<()> {
    // The log has one run, whose results come last: everything around them is written as
    // serde_json's pretty printer lays the whole log out.
    out.write_all(b"{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",")?;
    out.write_all(b"\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": ")?;
    super::write_nested(out, &tool(rules, shape), 3)?;
    if shape.indexed {
        // Columns count characters, as in every other output.
        out.write_all(b",\n      \"columnKind\": \"unicodeCodePoints\"")?;
    }
    out.write_all(b",\n      \"results\": [")?;
    super::write_array_items(out, records, 3, |out, r| {
        super::write_nested(out, &ResultObject::of(&r, rules, shape), 4)
    })?;
    out.write_all(b"\n    }\n  ]\n}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::emit::tests::samples;

    /// The log as one tree, laid out by serde_json: what `write` printed before it streamed,
    /// and must still print byte for byte.
    fn as_tree(records: &[Record], rules: &[RuleMeta], shape: Shape) -> String {
        let mut run = Map::new();
        run.insert("tool".into(), tool(rules, shape));
        if shape.indexed {
            run.insert("columnKind".into(), json!("unicodeCodePoints"));
        }
        let results = records.iter().map(|r| result(r, rules, shape)).collect();
        run.insert("results".into(), Value::Array(results));
        crate::diag::emit::pretty_json(&json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [run],
        }))
    }

    /// A result as the tree the log had before results were serialized directly.
    fn result(r: &Record, rules: &[RuleMeta], shape: Shape) -> Value {
        let mut m = Map::new();
        m.insert("ruleId".into(), json!(r.rule));
        if shape.indexed {
            let index = rules.iter().position(|m| m.id == r.rule).unwrap_or(0);
            m.insert("ruleIndex".into(), json!(index));
        }
        m.insert("level".into(), json!(level(r.level)));
        m.insert("message".into(), json!({ "text": r.text() }));
        let locations: Vec<Value> = r
            .location
            .iter()
            .map(|l| {
                json!({
                    "physicalLocation": {
                        "artifactLocation": { "uri": l.file },
                        "region": {
                            "startLine": l.line,
                            "startColumn": l.column,
                            "endLine": l.end_line,
                            "endColumn": l.end_column,
                        }
                    }
                })
            })
            .collect();
        m.insert("locations".into(), Value::Array(locations));
        m.insert(
            "partialFingerprints".into(),
            json!({ "catalogc/v1": r.fingerprint }),
        );
        if let Some(p) = &r.properties {
            m.insert("properties".into(), p.clone());
        }
        Value::Object(m)
    }

    #[test]
    fn streamed_log_is_the_tree_serde_json_prints() {
        let rules = [
            RuleMeta {
                id: "naming/tool-name".into(),
                level: Some(Level::Warn),
                summary: "a summary".into(),
                help: Some("# Doc\n\nwith \"quotes\"".into()),
                doc_is_markdown: true,
                properties: vec![("category", "naming".into())],
                ..RuleMeta::default()
            },
            RuleMeta {
                id: "lint/unknown-rule".into(),
                ..RuleMeta::default()
            },
        ];
        for shape in [Shape::DIAGNOSTICS, Shape::COMPAT] {
            for (records, rules) in [(samples(), &rules[..]), (Vec::new(), &[][..])] {
                let mut out = Vec::new();
                write(&mut out, records.clone(), rules, shape).unwrap();
                let tree = as_tree(&records, rules, shape);
                assert_eq!(String::from_utf8(out).unwrap(), tree);
                assert_eq!(
                    to_sarif(&records, rules, shape),
                    serde_json::from_str::<Value>(&tree).unwrap()
                );
            }
        }
    }
}
