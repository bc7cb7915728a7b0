//! `--format json`: the object `catalogc lint` prints (docs/cli.md), schema in
//! docs/lint-output.schema.json.

use super::{Record, Summary};
use serde_json::{Map, Value, json};
use std::io::{self, Write};

/// The `--format json` object: every record, then the summary counts.
pub fn to_json(records: &[Record], summary: &Summary) -> Value {
    let list: Vec<Value> = records
        .iter()
        .map(|r| {
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
            m.insert("message".into(), json!(r.message));
            if let Some(h) = &r.help {
                m.insert("help".into(), json!(h));
            }
            m.insert("fingerprint".into(), json!(r.fingerprint));
            Value::Object(m)
        })
        .collect();
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
    json!({ "diagnostics": list, "summary": counts })
}

/// Writes [`to_json`]'s object, pretty-printed and newline-terminated.
pub fn write(out: &mut dyn Write, records: &[Record], summary: &Summary) -> io::Result<()> {
    super::write_json(out, &to_json(records, summary))
}
