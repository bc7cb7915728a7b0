//! `--format json`: the object `catalogc lint` prints (docs/cli.md), schema in
//! docs/lint-output.schema.json.

use super::{Record, Summary};
use serde_json::{Value, json};
use std::io::{self, Write};

/// The `--format json` object: every record, then the summary counts (what [`write()`] prints,
/// read back).
pub fn to_json(records: &[Record], summary: &Summary) -> Value {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail, and what is written is JSON.
    let _ = write(&mut out, records.iter().cloned(), summary);
    serde_json::from_slice(&out).unwrap_or(Value::Null)
}

/// One record as its object of the `diagnostics` list: its fields in the documented order,
/// the absent ones left out. Serialized directly: a tree per record cost more than writing
/// it, on runs of a hundred thousand findings.
#[derive(serde::Serialize)]
struct RecordObject<'a> {
    rule: &'a str,
    level: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    catalog: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<&'a str>,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<&'a str>,
    fingerprint: &'a str,
}

impl<'a> RecordObject<'a> {
    fn of(r: &'a Record) -> Self {
        let l = r.location.as_ref();
        RecordObject {
            rule: &r.rule,
            level: r.level.as_str(),
            file: l.map(|l| l.file.as_str()),
            line: l.map(|l| l.line),
            column: l.map(|l| l.column),
            end_line: l.map(|l| l.end_line),
            end_column: l.map(|l| l.end_column),
            catalog: r.catalog.as_deref(),
            tool: r.tool.as_deref(),
            path: r.path.as_deref(),
            pointer: r.pointer.as_deref(),
            message: &r.message,
            help: r.help.as_deref(),
            fingerprint: &r.fingerprint,
        }
    }
}

/// The `summary` object.
fn counts(summary: &Summary) -> Value {
    let mut counts = json!({
        "errors": summary.errors,
        "warnings": summary.warnings,
        "infos": summary.infos,
        "tools": summary.tools,
        "catalogs": summary.catalogs,
    });
    if !summary.skipped_rules.is_empty()
        && let Some(obj) = counts.as_object_mut()
    {
        obj.insert("skipped_rules".into(), json!(summary.skipped_rules));
    }
    counts
}

/// Writes the `--format json` object, pretty-printed and newline-terminated, one record at a
/// time as `records` gives them: the bytes `serde_json::to_writer_pretty` gives for the whole
/// object, without building it.
pub fn write(
    out: &mut dyn Write,
    records: impl IntoIterator<Item = Record>,
    summary: &Summary,
) -> io::Result<()> {
    out.write_all(b"{\n  \"diagnostics\": [")?;
    super::write_array_items(out, records, 1, |out, r| {
        super::write_nested(out, &RecordObject::of(&r), 2)
    })?;
    out.write_all(b",\n  \"summary\": ")?;
    super::write_nested(out, &counts(summary), 1)?;
    out.write_all(b"\n}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::emit::tests::samples;
    use serde_json::Map;

    /// The object as one tree, laid out by serde_json: what `write` printed before it
    /// streamed, and must still print byte for byte.
    fn as_tree(records: &[Record], summary: &Summary) -> String {
        let list: Vec<Value> = records.iter().map(record).collect();
        crate::diag::emit::pretty_json(&json!({ "diagnostics": list, "summary": counts(summary) }))
    }

    /// A record as the object the output had before records were serialized directly.
    fn record(r: &Record) -> Value {
        let mut m = Map::new();
        m.insert("rule".into(), json!(r.rule));
        m.insert("level".into(), json!(r.level.as_str()));
        if let Some(l) = &r.location {
            m.insert("file".into(), json!(l.file));
            m.insert("line".into(), json!(l.line));
            m.insert("column".into(), json!(l.column));
            m.insert("end_line".into(), json!(l.end_line));
            m.insert("end_column".into(), json!(l.end_column));
        }
        if let Some(c) = &r.catalog {
            m.insert("catalog".into(), json!(c));
        }
        if let Some(t) = &r.tool {
            m.insert("tool".into(), json!(t));
        }
        if let Some(p) = &r.path {
            m.insert("path".into(), json!(p));
        }
        if let Some(p) = &r.pointer {
            m.insert("pointer".into(), json!(p));
        }
        m.insert("message".into(), json!(r.message));
        if let Some(h) = &r.help {
            m.insert("help".into(), json!(h));
        }
        m.insert("fingerprint".into(), json!(r.fingerprint));
        Value::Object(m)
    }

    #[test]
    fn streamed_object_is_the_tree_serde_json_prints() {
        let mut summary = Summary {
            errors: 1,
            warnings: 2,
            ..Summary::default()
        };
        for records in [samples(), Vec::new(), samples()[1..2].to_vec()] {
            let mut out = Vec::new();
            write(&mut out, records.clone(), &summary).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), as_tree(&records, &summary));
            assert_eq!(
                to_json(&records, &summary),
                serde_json::from_str::<Value>(&as_tree(&records, &summary)).unwrap()
            );
            summary.skipped_rules = vec!["effect/idempotency-key".into()];
        }
    }
}
