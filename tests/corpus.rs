//! The corpus of 39 public MCP servers (tests/corpus/, 797 tools; sources and licences in
//! tests/corpus/SOURCES.md): every tool imports, loads without syntax or model errors, lints
//! as `catalogc lint FILE.json` would, and exports; the export reproduces every part import
//! did not report as inexpressible; per-server finding counts by rule are snapshotted; and
//! every finding has a verdict in the judged set (tests/corpus/judged.tsv, docs/corpus.md),
//! which holds the levels' precision on this training split.

use catalogc::diag::Diagnostic;
use catalogc::import::{Imported, Note};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

mod judging;

/// Each server's folder name and its tools/list text, in name order.
fn servers() -> Vec<(String, String)> {
    judging::servers("tests/corpus")
}

struct Run {
    json: Value,
    imported: Imported,
    diags: Vec<Diagnostic>,
    exported: Value,
    /// The characters of each `when` and `when-not` import split off a description.
    when_lengths: Vec<usize>,
}

fn run(server: &str, text: &str) -> Run {
    let json: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{server}: {e}"));
    let judging::Linted {
        imported,
        loaded,
        artifacts,
        diags,
    } = judging::lint(server, text);
    let exported = artifacts.tools_list(&loaded.project);
    let when_lengths = loaded
        .project
        .catalogs
        .iter()
        .flat_map(|c| &c.tools)
        .flat_map(|t| [&t.when, &t.when_not])
        .flatten()
        .map(|w| w.value.chars().count())
        .collect();
    Run {
        json,
        imported,
        diags,
        exported,
        when_lengths,
    }
}

#[test]
fn all_797_tools_import_load_lint_and_export_with_counts_by_rule() {
    let mut counts: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    let mut tools = 0;
    let mut compared = 0;
    for (server, text) in servers() {
        let r = run(&server, &text);
        tools += r.imported.tools;
        let per = counts.entry(server.clone()).or_default();
        per.insert("(tools)".into(), r.imported.tools);
        for d in &r.diags {
            *per.entry(format!("{} {}", d.rule, d.level.as_str()))
                .or_default() += 1;
        }
        compared += round_trip(&server, &r);
    }
    assert_eq!(tools, 797);
    // Most of the corpus's ~4,000 type, description and bound keywords are expressible.
    assert!(compared > 4_000, "only {compared} keyword values compared");
    insta::assert_json_snapshot!("corpus_findings_by_rule", counts);
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/corpus.md"))
        .unwrap_or_else(|e| panic!("docs/corpus.md: {e}"));
    for table in [per_server_table(&counts), per_rule_table(&counts)] {
        assert!(
            doc.contains(&table),
            "docs/corpus.md does not hold the table the rules give now:\n{table}"
        );
    }
}

/// docs/corpus.md's "Per server" table: tools, errors, warnings, infos and the three most
/// frequent rules at error or warning level (both together; ties by rule ID) of each server,
/// then the totals.
fn per_server_table(counts: &BTreeMap<String, BTreeMap<String, usize>>) -> String {
    let mut out = String::from(
        "| server | tools | errors | warnings | infos | most frequent findings |\n|---|---:|---:|---:|---:|---|\n",
    );
    let (mut tools, mut errors, mut warnings, mut infos) = (0, 0, 0, 0);
    for (server, per) in counts {
        let level_sum = |level: &str| -> usize {
            per.iter()
                .filter(|(k, _)| k.ends_with(&format!(" {level}")))
                .map(|(_, n)| n)
                .sum()
        };
        let (e, w, i) = (level_sum("error"), level_sum("warn"), level_sum("info"));
        let mut by_rule: BTreeMap<&str, usize> = BTreeMap::new();
        for (key, n) in per
            .iter()
            .filter(|(k, _)| !k.starts_with('(') && !k.ends_with(" info"))
        {
            *by_rule
                .entry(key.split(' ').next().unwrap_or_default())
                .or_default() += n;
        }
        let mut top: Vec<(&str, usize)> = by_rule.into_iter().collect();
        top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let top: Vec<String> = top
            .iter()
            .take(3)
            .map(|(r, n)| format!("`{r}` {n}"))
            .collect();
        let n = per.get("(tools)").copied().unwrap_or(0);
        out.push_str(&format!(
            "| {server} | {n} | {e} | {w} | {i} | {} |\n",
            top.join(", ")
        ));
        (tools, errors, warnings, infos) = (tools + n, errors + e, warnings + w, infos + i);
    }
    out.push_str(&format!(
        "| **all {}** | **{tools}** | **{errors}** | **{warnings}** | **{infos}** | |\n",
        counts.len()
    ));
    out
}

/// docs/corpus.md's "Per rule" table: findings and servers of each rule and level, most
/// findings first (ties by rule ID, then level).
fn per_rule_table(counts: &BTreeMap<String, BTreeMap<String, usize>>) -> String {
    let mut rules: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    for per in counts.values() {
        for (key, n) in per.iter().filter(|(k, _)| !k.starts_with('(')) {
            let (rule, level) = key.split_once(' ').unwrap_or((key, ""));
            let e = rules.entry((rule, level)).or_default();
            (e.0, e.1) = (e.0 + n, e.1 + 1);
        }
    }
    let mut rows: Vec<_> = rules.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.cmp(&a.1.0).then(a.0.cmp(&b.0)));
    let mut out = String::from("| rule | level | findings | servers |\n|---|---|---:|---:|\n");
    for ((rule, level), (n, servers)) in rows {
        out.push_str(&format!("| `{rule}` | {level} | {n} | {servers} |\n"));
    }
    out
}

// ---- the round trip ----

/// The keywords import carries into the catalog, compared value for value.
const KEYWORDS: &[&str] = &[
    "type",
    "description",
    "enum",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "default",
    "minItems",
    "maxItems",
    "uniqueItems",
    "deprecated",
    "minProperties",
    "maxProperties",
    "const",
    "title",
    "examples",
];

/// Checks the export against the original; returns how many keyword values it compared.
fn round_trip(server: &str, r: &Run) -> usize {
    let mut compared = 0;
    let originals = match &r.json {
        Value::Object(o) => o.get("tools").and_then(Value::as_array),
        Value::Array(a) => Some(a),
        _ => None,
    };
    let exported = r.exported.get("tools").and_then(Value::as_array);
    let (Some(originals), Some(exported)) = (originals, exported) else {
        panic!("{server}: no tools array");
    };
    assert_eq!(originals.len(), exported.len(), "{server}");
    for (orig, out) in originals.iter().zip(exported) {
        let name = orig["name"].as_str().unwrap_or_default();
        let ctx = format!("{server} {name}");
        assert_eq!(out["name"], orig["name"], "{ctx}");
        let title = orig
            .get("title")
            .or_else(|| orig.pointer("/annotations/title"));
        assert_eq!(out.get("title"), title, "{ctx}");
        let notes: Vec<&Note> = r.imported.notes.iter().filter(|n| n.tool == name).collect();
        description(&ctx, orig, out);
        annotations(&ctx, orig, out, &notes);
        for (key, side) in [("inputSchema", "input"), ("outputSchema", "output")] {
            if let Some(schema) = orig.get(key) {
                let got = out.get(key).unwrap_or_else(|| panic!("{ctx}: no {key}"));
                compared += schema_parts(&ctx, side, schema, got, &notes);
            }
        }
    }
    compared
}

/// Every word of the original description is in the exported one, as often.
fn description(ctx: &str, orig: &Value, out: &Value) {
    let words = |v: &Value| {
        let mut m: BTreeMap<String, usize> = BTreeMap::new();
        for w in v.as_str().unwrap_or_default().split_whitespace() {
            *m.entry(w.to_string()).or_default() += 1;
        }
        m
    };
    let (want, got) = (words(&orig["description"]), words(&out["description"]));
    for (w, n) in want {
        assert!(
            got.get(&w).is_some_and(|g| *g >= n),
            "{ctx}: description lost {w:?}"
        );
    }
}

fn annotations(ctx: &str, orig: &Value, out: &Value, notes: &[&Note]) {
    if notes.iter().any(|n| n.path == "annotations") {
        return;
    }
    for hint in [
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
    ] {
        let Some(want) = orig.pointer(&format!("/annotations/{hint}")) else {
            continue;
        };
        let read_only = orig.pointer("/annotations/readOnlyHint") == Some(&Value::Bool(true));
        // A read-only tool's other write hints mean nothing (MCP ignores them).
        if read_only && matches!(hint, "destructiveHint" | "idempotentHint") {
            continue;
        }
        assert_eq!(out["annotations"].get(hint), Some(want), "{ctx}: {hint}");
    }
}

/// Walks the original's `properties` and `items`: every property is in the export; at every
/// place import left no note, each keyword it carries has the same value in the export
/// (numbers as numbers); `required` lists the same names.
fn schema_parts(ctx: &str, path: &str, orig: &Value, out: &Value, notes: &[&Note]) -> usize {
    let noted = notes.iter().any(|n| n.path == path);
    let mut compared = 0;
    for k in KEYWORDS.iter().filter(|_| !noted) {
        let (Some(want), got) = (orig.get(*k), out.get(*k)) else {
            continue;
        };
        if !same(want, got) {
            panic!("{ctx} {path}: `{k}` was {want}, exported {got:?}");
        }
        compared += 1;
    }
    if let Some(props) = orig.get("properties").and_then(Value::as_object) {
        let mut want: Vec<&str> = orig
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut got: Vec<&str> = out
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(want, got, "{ctx} {path}: required");
        for (name, schema) in props {
            let sub = out
                .pointer(&format!(
                    "/properties/{}",
                    name.replace('~', "~0").replace('/', "~1")
                ))
                .unwrap_or_else(|| panic!("{ctx} {path}.{name}: missing in the export"));
            compared += schema_parts(ctx, &format!("{path}.{name}"), schema, sub, notes);
        }
    }
    if let (Some(items @ Value::Object(_)), Some(sub)) = (orig.get("items"), out.get("items")) {
        compared += schema_parts(ctx, &format!("{path}[]"), items, sub, notes);
    }
    // An open object (a `map`): its value schema, `true` being the empty schema `{}`.
    match (
        orig.get("additionalProperties"),
        out.get("additionalProperties"),
    ) {
        (Some(Value::Bool(true)), Some(got)) if !noted => {
            assert_eq!(
                got,
                &serde_json::json!({}),
                "{ctx} {path}: additionalProperties"
            );
            compared += 1;
        }
        (Some(values @ Value::Object(_)), Some(sub)) => {
            compared += schema_parts(ctx, &format!("{path}{{}}"), values, sub, notes);
        }
        _ => {}
    }
    compared
}

fn same(want: &Value, got: Option<&Value>) -> bool {
    match (want, got) {
        (Value::Number(a), Some(Value::Number(b))) => a.as_f64() == b.as_f64(),
        (Value::Array(a), Some(Value::Array(b))) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, Some(y)))
        }
        (w, g) => Some(w) == g,
    }
}

// ---- the judged set ----

#[test]
fn judged_findings_are_in_step_with_the_rules_and_hold_their_precision() {
    let judged = judging::judged("tests/corpus");
    let mut current = BTreeMap::new();
    for (server, text) in servers() {
        current.extend(judging::finding_ids(
            &server,
            &judging::lint(&server, &text).diags,
        ));
    }
    judging::assert_in_step("tests/corpus", &judged, &current);
    // The training split's per-rule figures in docs/corpus.md (`cargo test --test corpus --
    // --nocapture` prints them).
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/corpus.md"))
        .unwrap_or_else(|e| panic!("docs/corpus.md: {e}"));
    let (rules, totals) = judging::precision(&judged, &current);
    let stale = judging::stale_rows(&doc, "### Training split", &rules, &totals);
    assert!(
        stale.is_empty(),
        "docs/corpus.md's training precision table is out of date; rows should end: {stale:#?}"
    );
    // What the levels promise on the split the rules are tuned on: at least 9 in 10 errors
    // and 17 in 20 warnings are real, and at least 6 in 10 of the first judge's real defects
    // are still reported at warning or error level (docs/corpus.md, "Levels on a published
    // list": the capped rules are those the blind judges found mostly false).
    for (level, (num, den)) in [("error", (9, 10)), ("warn", (17, 20))] {
        let (real, judged, _) = totals.get(level).copied().unwrap_or_default();
        assert!(judged > 0, "{level}: nothing judged");
        assert!(
            real * den >= judged * num,
            "{level}: only {real} of {judged} judged findings are real"
        );
    }
    let (kept, real) = judging::true_findings_kept(&judged);
    eprintln!("real defects reported at warning or error level: {kept} / {real}");
    assert!(
        kept * 10 >= real * 6,
        "only {kept} of {real} real defects are still reported at warning or error level"
    );
}

// ---- thresholds ----

/// Where each default threshold of the rules that measure lengths, sizes and budgets sits in
/// the corpus's distribution, as the rule docs state it: the share of the corpus's values
/// at or under the threshold, in whole percent (rounded down). Docs name these figures; a
/// change of a default or of the corpus that moves one fails here.
const THRESHOLD_PERCENTILES: &[(&str, f64, u32)] = &[
    // `selection/length` summary-max: characters of a whole published description.
    ("summary-max", 560.0, 90),
    // `selection/length` description-max: characters of the description catalogc renders.
    ("description-max", 1024.0, 94),
    // `selection/length` when-max: characters of the `when` / `when-not` texts import split
    // off descriptions that say when to use the tool.
    ("when-max", 300.0, 100),
    // `catalog/budget` budget-tool-bytes: bytes of one tool's rendered definition.
    ("budget-tool-bytes", 4096.0, 95),
    // `catalog/budget` budget-catalog-bytes: bytes of one server's rendered tools/list.
    ("budget-catalog-bytes", 32768.0, 74),
    // `bounds/field-count` max-fields: fields of one object (input, output, nested).
    ("max-fields", 30.0, 99),
    // `bounds/depth` max-depth: object nesting of one tool side (input fields at depth 1).
    ("max-depth", 5.0, 100),
    // `naming/field-name`: characters of a property name.
    ("field-name-max-length", 64.0, 100),
];

#[test]
fn thresholds_sit_at_their_documented_corpus_percentiles() {
    let mut values: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for (server, text) in servers() {
        let r = run(&server, &text);
        let originals = match &r.json {
            Value::Object(o) => o.get("tools").and_then(Value::as_array).cloned(),
            Value::Array(a) => Some(a.clone()),
            _ => None,
        }
        .unwrap_or_default();
        for t in &originals {
            let len = t["description"]
                .as_str()
                .unwrap_or_default()
                .chars()
                .count();
            values.entry("summary-max").or_default().push(len as f64);
        }
        let tools = r.exported["tools"].as_array().cloned().unwrap_or_default();
        let mut catalog_bytes = r#"{"tools":[]}"#.len();
        for (i, t) in tools.iter().enumerate() {
            let len = t["description"]
                .as_str()
                .unwrap_or_default()
                .chars()
                .count();
            values
                .entry("description-max")
                .or_default()
                .push(len as f64);
            let bytes = serde_json::to_string(t).map_or(0, |s| s.len());
            values
                .entry("budget-tool-bytes")
                .or_default()
                .push(bytes as f64);
            catalog_bytes += bytes + usize::from(i > 0);
            let mut depth = 0;
            for key in ["inputSchema", "outputSchema"] {
                if let Some(schema) = t.get(key) {
                    depth = depth.max(measure(schema, 0, &mut values));
                }
            }
            values.entry("max-depth").or_default().push(depth as f64);
        }
        values
            .entry("budget-catalog-bytes")
            .or_default()
            .push(catalog_bytes as f64);
        let whens = values.entry("when-max").or_default();
        whens.extend(r.when_lengths.iter().map(|&n| n as f64));
    }
    let mut wrong = Vec::new();
    for &(name, threshold, documented) in THRESHOLD_PERCENTILES {
        let xs = values.get(name).cloned().unwrap_or_default();
        assert!(!xs.is_empty(), "{name}: nothing measured");
        let under = xs.iter().filter(|&&x| x <= threshold).count();
        let percentile = (under * 100 / xs.len()) as u32;
        eprintln!(
            "{name}\t{threshold}\tp{percentile}\tof {} values (largest {})",
            xs.len(),
            xs.iter().copied().fold(0.0, f64::max)
        );
        if percentile != documented {
            wrong.push(format!(
                "{name} {threshold}: p{percentile}, documented p{documented}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Records the field count of every object of `schema` and the length of every property
/// name; returns the object nesting below `depth` (an object's properties one level deeper,
/// array items and map values at their container's level).
fn measure(schema: &Value, depth: usize, values: &mut BTreeMap<&str, Vec<f64>>) -> usize {
    let mut deepest = depth;
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        if !props.is_empty() {
            values
                .entry("max-fields")
                .or_default()
                .push(props.len() as f64);
        }
        for (name, sub) in props {
            let len = name.chars().count() as f64;
            values.entry("field-name-max-length").or_default().push(len);
            deepest = deepest.max(measure(sub, depth + 1, values));
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub @ Value::Object(_)) = schema.get(key) {
            deepest = deepest.max(measure(sub, depth, values));
        }
    }
    for key in ["oneOf", "anyOf"] {
        for sub in schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            deepest = deepest.max(measure(sub, depth, values));
        }
    }
    deepest
}
