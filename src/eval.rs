//! The tool-choice evaluation set: one record per `call`, `no-call` and `confusable` example
//! of every tool, with what a model should do with it (`catalogc export eval`, one JSON line
//! each; the line format is `docs/eval-line.schema.json`).

use crate::model::{Catalog, Project, Tool};
use serde_json::{Value, json};

/// Every example of every tool: catalogs by name (as `tools/list` orders them), tools in
/// declaration order, then `call`, `no-call` and `confusable` examples each in source order.
/// The same project always gives the same records.
pub fn eval_records(project: &Project) -> Vec<Value> {
    let mut cats: Vec<&Catalog> = project.catalogs.iter().collect();
    cats.sort_by(|a, b| a.name.value.cmp(&b.name.value));
    let mut out = Vec::new();
    for c in cats {
        for t in &c.tools {
            let ex = &t.examples;
            for (i, text) in ex.calls.iter().enumerate() {
                let expect = json!({ "expect": "call", "tool": t.name.value });
                out.push(record(c, t, "call", i, ("prompt", &text.value), expect));
            }
            for (i, text) in ex.no_calls.iter().enumerate() {
                let expect = json!({ "expect": "no-call", "tool": t.name.value });
                out.push(record(c, t, "no-call", i, ("prompt", &text.value), expect));
            }
            for (i, other) in ex.confusables.iter().enumerate() {
                let expect = json!({
                    "expect": "distinguish",
                    "tools": [t.name.value, other.value],
                });
                out.push(record(
                    c,
                    t,
                    "confusable",
                    i,
                    ("other_tool", &other.value),
                    expect,
                ));
            }
        }
    }
    out
}

/// One record; `text` is the prompt of a call or no-call example, or the tool a confusable
/// example names.
fn record(
    c: &Catalog,
    t: &Tool,
    kind: &str,
    index: usize,
    (text_key, text): (&str, &str),
    expectation: Value,
) -> Value {
    let mut v = json!({
        "id": format!("{}/{}/{kind}/{index}", c.name.value, t.name.value),
        "catalog": c.name.value,
        "catalog_version": c.version.value,
        "tool": t.name.value,
        "tool_version": t.version.value,
        "kind": kind,
    });
    if let Value::Object(m) = &mut v {
        m.insert(text_key.to_string(), Value::String(text.to_string()));
        m.insert("expectation".to_string(), expectation);
    }
    v
}

/// The records as JSON Lines: one compact object per line, each line ending in `\n`.
pub fn eval_jsonl(project: &Project) -> String {
    crate::diag::emit::jsonl(&eval_records(project))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::load_source;

    const SRC: &str = r#"catalog "c" version="1.0.0"
tool "b_tool" version="2.0.0" {
    effect "read"
    examples {
        confusable "a_tool"
        call "first"
        no-call "elsewhere"
        call "second"
    }
}
tool "a_tool" version="1.0.0" {
    effect "read"
}
"#;

    #[test]
    fn one_line_per_example_in_a_fixed_order() {
        let loaded = load_source("c.kdl", SRC);
        let lines: Vec<Value> = eval_jsonl(&loaded.project)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
            .collect();
        let ids: Vec<&str> = lines.iter().filter_map(|l| l["id"].as_str()).collect();
        assert_eq!(
            ids,
            [
                "c/b_tool/call/0",
                "c/b_tool/call/1",
                "c/b_tool/no-call/0",
                "c/b_tool/confusable/0"
            ]
        );
        assert_eq!(lines[1]["prompt"], "second");
        assert_eq!(lines[1]["tool_version"], "2.0.0");
        assert_eq!(
            lines[2]["expectation"],
            json!({"expect": "no-call", "tool": "b_tool"})
        );
        assert_eq!(
            lines[3]["expectation"],
            json!({"expect": "distinguish", "tools": ["b_tool", "a_tool"]})
        );
        assert_eq!(lines[3]["other_tool"], "a_tool");
    }

    #[test]
    fn a_project_without_examples_gives_no_lines() {
        let loaded = load_source("c.kdl", "catalog \"c\" version=\"1.0.0\"\n");
        assert_eq!(eval_jsonl(&loaded.project), "");
    }
}
