//! The corpus of 20 public MCP servers (tests/corpus/, 540 tools; sources and licences in
//! tests/corpus/SOURCES.md): every tool imports, loads without syntax or model errors, lints
//! as `catalogc lint FILE.json` would, and exports; the export reproduces every part import
//! did not report as inexpressible; per-server finding counts by rule are snapshotted; and
//! the findings agree with the judged set (tests/corpus/judged.tsv, docs/corpus.md).

use catalogc::contract::{Artifacts, Templates};
use catalogc::diag::{Diagnostic, Level};
use catalogc::import::{Imported, Note, import};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Each server's folder name and its tools/list text, in name order.
fn servers() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap_or_else(|e| panic!("{}: {e}", root.display())) {
        let path = entry.map(|e| e.path()).unwrap_or_default();
        let file = path.join("tools.json");
        if file.is_file() {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{e}"));
            out.push((name, text));
        }
    }
    out.sort();
    out
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
    let imported = import(text, server).unwrap_or_else(|e| panic!("{server}: {e}"));
    let loaded = catalogc::project::load_source(
        PathBuf::from(format!("{server}/tools.json.kdl")),
        imported.text.clone(),
    );
    let broken: Vec<&Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.level == Level::Error)
        .collect();
    assert!(broken.is_empty(), "{server}: {broken:#?}");
    let artifacts = Artifacts::build(&loaded.project, &Templates::builtin())
        .unwrap_or_else(|e| panic!("{server}: {e}"));
    let (config, _) = catalogc::lint::published::config(&Default::default());
    let diags = catalogc::lint::check_project(&loaded, &config, &artifacts);
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
fn all_540_tools_import_load_lint_and_export_with_counts_by_rule() {
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
    assert_eq!(tools, 540);
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

/// docs/corpus.md's "Per server" table: tools, errors, warnings and the three most frequent
/// rules (both levels together; ties by rule ID) of each server, then the totals.
fn per_server_table(counts: &BTreeMap<String, BTreeMap<String, usize>>) -> String {
    let mut out = String::from(
        "| server | tools | errors | warnings | most frequent findings |\n|---|---:|---:|---:|---|\n",
    );
    let (mut tools, mut errors, mut warnings) = (0, 0, 0);
    for (server, per) in counts {
        let level_sum = |level: &str| -> usize {
            per.iter()
                .filter(|(k, _)| k.ends_with(&format!(" {level}")))
                .map(|(_, n)| n)
                .sum()
        };
        let (e, w) = (level_sum("error"), level_sum("warn"));
        let mut by_rule: BTreeMap<&str, usize> = BTreeMap::new();
        for (key, n) in per.iter().filter(|(k, _)| !k.starts_with('(')) {
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
            "| {server} | {n} | {e} | {w} | {} |\n",
            top.join(", ")
        ));
        (tools, errors, warnings) = (tools + n, errors + e, warnings + w);
    }
    out.push_str(&format!(
        "| **all {}** | **{tools}** | **{errors}** | **{warnings}** | |\n",
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

/// `server|tool|rule|path|n` of each finding, `n` counting findings with the same first four
/// parts in report order: the IDs of tests/corpus/judged.tsv.
fn finding_ids(server: &str, diags: &[Diagnostic]) -> Vec<(String, Level)> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    diags
        .iter()
        .map(|d| {
            let key = format!(
                "{server}|{}|{}|{}",
                d.tool.as_deref().unwrap_or(""),
                d.rule,
                d.path.as_deref().unwrap_or("")
            );
            let n = seen.entry(key.clone()).or_default();
            *n += 1;
            (format!("{key}|{n}"), d.level)
        })
        .collect()
}

struct Verdict {
    /// `None` for `unclear`: a reviewer could argue either way; left out of the figures.
    real: Option<bool>,
    fixed: bool,
}

fn judged() -> BTreeMap<String, Verdict> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/judged.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [id, verdict, _level, now, reason] = cols.as_slice() else {
            panic!("judged.tsv: malformed line {line:?}");
        };
        assert!(!reason.is_empty(), "{id}: no reason");
        let real = match *verdict {
            "true" => Some(true),
            "false" => Some(false),
            "unclear" => None,
            other => panic!("{id}: verdict {other:?}"),
        };
        out.insert(
            id.to_string(),
            Verdict {
                real,
                fixed: *now == "fixed",
            },
        );
    }
    out
}

#[test]
fn judged_true_findings_stay_and_fixed_false_ones_do_not_return() {
    let judged = judged();
    let mut current = BTreeMap::new();
    for (server, text) in servers() {
        let r = run(&server, &text);
        current.extend(finding_ids(&server, &r.diags));
    }
    let lost: Vec<&String> = judged
        .iter()
        .filter(|(id, v)| v.real == Some(true) && !current.contains_key(*id))
        .map(|(id, _)| id)
        .collect();
    let back: Vec<&String> = judged
        .iter()
        .filter(|(id, v)| v.real == Some(false) && v.fixed && current.contains_key(*id))
        .map(|(id, _)| id)
        .collect();
    assert!(
        lost.is_empty(),
        "{} real defects no longer found: {lost:#?}",
        lost.len()
    );
    assert!(
        back.is_empty(),
        "{} judged-false findings are back: {back:#?}",
        back.len()
    );
    // The per-rule figures of docs/corpus.md (`cargo test --test corpus -- --nocapture`):
    // each row's last three cells, and the totals per level.
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/corpus.md"))
        .unwrap_or_else(|e| panic!("docs/corpus.md: {e}"));
    let now = |real: usize, judged: usize, unclear: usize| {
        let unclear = if unclear == 0 {
            String::new()
        } else {
            unclear.to_string()
        };
        let precision = real as f64 / judged.max(1) as f64;
        format!("| {real} / {judged} | {precision:.2} | {unclear} |")
    };
    let mut totals: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut stale = Vec::new();
    let mut check = |row: String, (real, judged, unclear): (usize, usize, usize)| {
        eprintln!("{row}\t{real} / {judged}\t{unclear}");
        let cells = now(real, judged, unclear);
        if !doc
            .lines()
            .any(|l| l.starts_with(&row) && l.ends_with(&cells))
        {
            stale.push(format!("{row} … {cells}"));
        }
    };
    for ((rule, level), figures) in precision_by_rule(&judged, &current) {
        let t = totals.entry(level).or_default();
        (t.0, t.1, t.2) = (t.0 + figures.0, t.1 + figures.1, t.2 + figures.2);
        check(format!("| `{rule}` | {level} |"), figures);
    }
    for (level, figures) in totals {
        check(format!("| **all {level}** |"), figures);
    }
    assert!(
        stale.is_empty(),
        "docs/corpus.md's precision table is out of date; rows should end: {stale:#?}"
    );
    // At each level, at least 9 in 10 of today's findings with a verdict are real.
    for level in [Level::Error, Level::Warn] {
        let (mut real, mut noise) = (0, 0);
        for (id, l) in &current {
            match judged.get(id).and_then(|v| v.real) {
                Some(true) if *l == level => real += 1,
                Some(false) if *l == level => noise += 1,
                _ => {}
            }
        }
        assert!(real + noise > 0, "{level:?}: nothing judged");
        assert!(
            real * 10 >= (real + noise) * 9,
            "{level:?}: only {real} of {} judged findings are real",
            real + noise
        );
    }
}

/// Per rule and level of today's findings: (real, judged real or not, unclear).
fn precision_by_rule(
    judged: &BTreeMap<String, Verdict>,
    current: &BTreeMap<String, Level>,
) -> BTreeMap<(String, &'static str), (usize, usize, usize)> {
    let mut out: BTreeMap<(String, &'static str), (usize, usize, usize)> = BTreeMap::new();
    for (id, level) in current {
        let rule = id.split('|').nth(2).unwrap_or_default().to_string();
        let entry = out.entry((rule, level.as_str())).or_default();
        match judged.get(id).map(|v| v.real) {
            Some(Some(real)) => {
                entry.0 += usize::from(real);
                entry.1 += 1;
            }
            Some(None) => entry.2 += 1,
            None => {}
        }
    }
    out
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
    ("description-max", 1024.0, 95),
    // `selection/length` when-max: characters of the `when` / `when-not` texts import split
    // off descriptions that say when to use the tool.
    ("when-max", 300.0, 100),
    // `catalog/budget` budget-tool-bytes: bytes of one tool's rendered definition.
    ("budget-tool-bytes", 4096.0, 97),
    // `catalog/budget` budget-catalog-bytes: bytes of one server's rendered tools/list.
    ("budget-catalog-bytes", 32768.0, 75),
    // `bounds/field-count` max-fields: fields of one object (input, output, nested).
    ("max-fields", 30.0, 100),
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
