//! `catalogc export eval`: every line the example catalogs produce is valid against
//! docs/eval-line.schema.json, one per example, in a stable order.

use serde_json::Value;

mod support;

use support::{export, root};

#[test]
fn every_line_of_the_examples_matches_the_schema() {
    let text = std::fs::read_to_string(root().join("docs/eval-line.schema.json"))
        .expect("schema is readable");
    let schema: Value = serde_json::from_str(&text).expect("schema is JSON");
    let validator = match jsonschema::validator_for(&schema) {
        Ok(v) => v,
        Err(e) => panic!("schema does not compile: {e}"),
    };
    let jsonl = export("eval", &["catalogs"]);
    assert!(jsonl.ends_with('\n'));
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    let mut ids = std::collections::BTreeSet::new();
    for line in jsonl.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{line}: {errors:?}");
        *kinds
            .entry(v["kind"].as_str().unwrap_or("").to_string())
            .or_default() += 1;
        assert!(
            ids.insert(v["id"].as_str().unwrap_or("").to_string()),
            "{line}"
        );
    }
    // One line per example of the model the catalogs lower to.
    let count = |kind: &str| {
        let loaded = catalogc::project::load(
            &[root().join("catalogs")],
            &catalogc::project::LoadOptions::default(),
        )
        .expect("catalogs load");
        loaded
            .project
            .catalogs
            .iter()
            .flat_map(|c| &c.tools)
            .map(|t| match kind {
                "call" => t.examples.calls.len(),
                "no-call" => t.examples.no_calls.len(),
                _ => t.examples.confusables.len(),
            })
            .sum::<usize>()
    };
    for kind in ["call", "no-call", "confusable"] {
        assert!(count(kind) > 0, "the examples have {kind} examples");
        assert_eq!(kinds.get(kind).copied().unwrap_or(0), count(kind), "{kind}");
    }
}

#[test]
fn a_line_that_breaks_the_format_is_rejected_by_the_schema() {
    let text = std::fs::read_to_string(root().join("docs/eval-line.schema.json"))
        .expect("schema is readable");
    let schema: Value = serde_json::from_str(&text).expect("schema is JSON");
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"));
    let first = export("eval", &["catalogs"])
        .lines()
        .next()
        .map(str::to_string)
        .unwrap_or_default();
    let mut v: Value = serde_json::from_str(&first).expect("JSON line");
    assert!(validator.is_valid(&v));
    // A call example whose expectation says no-call contradicts itself.
    v["expectation"]["expect"] = Value::from("no-call");
    assert!(!validator.is_valid(&v), "{v}");
}

#[test]
fn the_output_is_the_same_on_every_run() {
    assert_eq!(export("eval", &["catalogs"]), export("eval", &["catalogs"]));
}
