//! `catalogc export vectors`: every line matches docs/vector-line.schema.json, and the
//! `jsonschema` crate, on the schema `export tools-json` prints for the same tool, reaches
//! each line's expected verdict (formats asserted). The consumer crate's agreement test
//! checks the same vectors against generated validation.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

mod support;

use support::{export, root};

fn compile(schema: &Value) -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|e| panic!("{e}: {schema}"))
}

#[test]
fn every_vector_gets_its_verdict_from_the_emitted_schema() {
    // The example catalogs and the consumer crate's hostile one (keywords, digits first,
    // a pattern with `\d`).
    let paths = ["catalogs", "tests/consumer/catalogs"];
    let line_schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/vector-line.schema.json")).expect("readable"),
    )
    .expect("JSON");
    let line_validator = compile(&line_schema);
    let tools: Value = serde_json::from_str(&export("tools-json", &paths)).expect("JSON");
    let mut validators = BTreeMap::new();
    for t in tools["tools"].as_array().into_iter().flatten() {
        let name = t["name"].as_str().unwrap_or_default().to_string();
        for (side, key) in [("input", "inputSchema"), ("output", "outputSchema")] {
            if let Some(s) = t.get(key) {
                validators.insert((name.clone(), side.to_string()), compile(s));
            }
        }
    }
    let jsonl = export("vectors", &paths);
    assert!(jsonl.ends_with('\n'));
    let (mut ids, mut kinds) = (BTreeSet::new(), BTreeMap::<String, [usize; 2]>::new());
    for line in jsonl.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let errors: Vec<String> = line_validator
            .iter_errors(&v)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{line}: {errors:?}");
        assert!(ids.insert(v["id"].to_string()), "duplicate id: {line}");
        let key = (
            v["tool"].as_str().unwrap_or_default().to_string(),
            v["side"].as_str().unwrap_or_default().to_string(),
        );
        let Some(validator) = validators.get(&key) else {
            panic!("no schema for {key:?}");
        };
        let accept = v["expect"] == "accept";
        assert_eq!(validator.is_valid(&v["instance"]), accept, "{line}");
        let kind = v["kind"].as_str().unwrap_or_default().to_string();
        kinds.entry(kind).or_default()[usize::from(accept)] += 1;
    }
    // Every kind the format names occurs, whole instances are always valid, and the probes
    // meet both verdicts.
    for k in ["minimal", "typical", "maximal"] {
        assert_eq!(kinds.get(k).map(|c| c[0]), Some(0), "{k}: {kinds:?}");
    }
    for k in [
        "bound",
        "enum-value",
        "wrong-enum",
        "missing-required",
        "optional-absent",
        "unknown-field",
        "wrong-type",
        "non-bmp",
        "value",
    ] {
        assert!(kinds.contains_key(k), "no {k} vector: {kinds:?}");
    }
    for k in ["bound", "non-bmp", "value"] {
        assert!(kinds[k][0] > 0 && kinds[k][1] > 0, "{k}: {kinds:?}");
    }
    assert!(ids.len() > 1000, "{}", ids.len());
}

/// The lines and bytes `export vectors` writes for a synthetic catalog of `tools` tools whose
/// record types nest `levels` named types deep.
fn nested_export(tools: usize, levels: usize) -> (usize, usize) {
    use catalogc::contract::{Artifacts, Templates};
    let text = catalogc::testing::synthetic_catalog_nested("nested", tools, levels);
    let loaded = catalogc::project::load_source("nested.kdl", text);
    let artifacts = Artifacts::build(&loaded.project, &Templates::builtin()).expect("contracts");
    let mut out = Vec::new();
    catalogc::contract::vectors::write_records(&loaded.project, &artifacts, &mut out)
        .unwrap_or_else(|e| panic!("{e:?}"));
    (out.iter().filter(|&&b| b == b'\n').count(), out.len())
}

/// Many tools sharing record types nested several named types deep took seconds and
/// gigabytes a few thousand tools in (every line held, each shared side made again per
/// tool): the lines and bytes grow with the tools in proportion, nothing faster.
#[test]
fn vectors_of_many_nested_tools_grow_in_proportion_to_the_tools() {
    let (lines, bytes) = nested_export(20, 3);
    let (lines2, bytes2) = nested_export(40, 3);
    assert!(lines > 20 * 50, "{lines}");
    let ratio = |a: usize, b: usize| b as f64 / a as f64;
    assert!(
        (1.9..2.1).contains(&ratio(lines, lines2)),
        "{lines} → {lines2}"
    );
    assert!(
        (1.9..2.1).contains(&ratio(bytes, bytes2)),
        "{bytes} → {bytes2}"
    );
}
