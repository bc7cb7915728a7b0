//! The real binary: `catalogc rules`, `catalogc explain`, and the lint-specific parts of
//! `catalogc lint` (configuration, levels, `--deny warnings`, baselines, SARIF rule metadata).

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The binary, run in `dir` (so no stray `catalogc.kdl` is picked up), without colors.
fn catalogc(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("catalogc").unwrap_or_else(|e| panic!("{e}"));
    cmd.current_dir(dir).env("NO_COLOR", "1");
    cmd
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(dir: &Path, args: &[&str]) -> Run {
    let out = catalogc(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"))
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn rules_of(run: &Run) -> Vec<String> {
    json(&run.stdout)["diagnostics"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|d| d["rule"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn rules_lists_every_rule_in_both_formats() {
    let dir = tempdir();
    let human = run(dir.path(), &["rules"]);
    assert_eq!(human.code, 0, "{}", human.stderr);
    let listed = json(&run(dir.path(), &["rules", "--format", "json"]).stdout);
    let listed = listed.as_array().cloned().unwrap_or_default();
    assert_eq!(listed.len(), catalogc::lint::registry().count());
    for (entry, rule) in listed.iter().zip(catalogc::lint::registry()) {
        assert_eq!(entry["id"], rule.id);
        assert_eq!(entry["level"], rule.level.as_str());
        assert_eq!(entry["summary"], rule.summary);
        assert_eq!(entry["category"], rule.category());
        assert!(
            human
                .stdout
                .lines()
                .any(|l| l.starts_with(rule.id) && l.contains(rule.summary)),
            "{}",
            rule.id
        );
    }
}

#[test]
fn explain_prints_every_rule_doc_and_suggests_on_typos() {
    let dir = tempdir();
    for rule in catalogc::lint::registry() {
        let r = run(dir.path(), &["explain", rule.id]);
        assert_eq!(r.code, 0, "{}: {}", rule.id, r.stderr);
        assert!(
            r.stdout.contains("## Example") && r.stdout.contains("## Use instead"),
            "{}",
            rule.id
        );
    }
    let r = run(dir.path(), &["explain", "naming/vage-name"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("did you mean `naming/vague-name`?"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

#[test]
fn broken_configuration_stops_the_run_with_locations() {
    let dir = tempdir();
    write(
        dir.path(),
        "c.kdl",
        &fixture("tests/fixtures/lint/naming/tool-name/good.kdl"),
    );
    write(
        dir.path(),
        "catalogc.kdl",
        "lint {\n    deny \"naming/vage-name\"\n    thresholds {\n        sumary-max 10\n    }\n}\n",
    );
    let r = run(dir.path(), &["lint", "c.kdl"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("catalogc.kdl:2:10"), "{}", r.stderr);
    assert!(
        r.stderr.contains("did you mean `naming/vague-name`?"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("catalogc.kdl:4:9"), "{}", r.stderr);
    assert!(
        r.stderr.contains("did you mean `summary-max`?"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.is_empty(), "{}", r.stdout);

    // A syntax error in the configuration is as fatal, also through --config.
    write(dir.path(), "other.kdl", "lint {\n    deny \"naming\n");
    let r = run(dir.path(), &["lint", "--config", "other.kdl", "c.kdl"]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("other.kdl:"), "{}", r.stderr);
}

#[test]
fn templates_section_names_a_folder_beside_the_configuration() {
    let dir = tempdir();
    write(
        dir.path(),
        "c.kdl",
        &fixture("tests/fixtures/lint/naming/tool-name/good.kdl"),
    );
    std::fs::create_dir_all(dir.path().join("conf/tpl")).unwrap_or_else(|e| panic!("{e}"));
    // Relative to the configuration's folder, not to where catalogc runs.
    write(dir.path(), "conf/project.kdl", "templates \"tpl\"\n");
    let r = run(
        dir.path(),
        &["lint", "--config", "conf/project.kdl", "c.kdl"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);

    write(
        dir.path(),
        "conf/project.kdl",
        "templates \"c.kdl\"\ntemplate \"tpl\"\n",
    );
    let r = run(
        dir.path(),
        &["lint", "--config", "conf/project.kdl", "c.kdl"],
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("project.kdl:1:11"), "{}", r.stderr);
    assert!(r.stderr.contains("does not exist"), "{}", r.stderr);
    assert!(
        r.stderr.contains("did you mean `templates`?"),
        "{}",
        r.stderr
    );
}

#[test]
fn documented_configuration_example_loads_and_sets_every_threshold() {
    let doc = fixture("docs/configuration.md");
    let example = doc
        .split("```kdl\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .unwrap_or_default();
    for key in catalogc::config::lint::threshold_keys() {
        assert!(
            example.contains(&format!("        {key} ")),
            "the example does not show `{key}`"
        );
    }
    let parsed = catalogc::syntax::parse(example);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let config = catalogc::lint::Config::from_document(&parsed.document, catalogc::diag::FileId(0))
        .unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(config.forbidden_fields.len(), 3);
    assert_eq!(
        config.thresholds,
        catalogc::lint::config::Thresholds::default(),
        "the example shows the defaults"
    );

    let dir = tempdir();
    write(dir.path(), "catalogc.kdl", example);
    write(
        dir.path(),
        "c.kdl",
        &fixture("tests/fixtures/lint/naming/tool-name/good.kdl"),
    );
    let r = run(dir.path(), &["lint", "c.kdl"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
}

#[test]
fn levels_from_configuration_and_deny_warnings() {
    let dir = tempdir();
    write(
        dir.path(),
        "c.kdl",
        &fixture("tests/fixtures/lint/naming/opaque-field/bad.kdl"),
    );
    // Warnings alone pass, unless denied.
    assert_eq!(run(dir.path(), &["lint", "c.kdl"]).code, 0);
    assert_eq!(
        run(dir.path(), &["lint", "--deny", "warnings", "c.kdl"]).code,
        1
    );
    // deny by rule ID: errors.
    write(
        dir.path(),
        "deny.kdl",
        "lint {\n    deny \"naming/opaque-field\"\n}\n",
    );
    let r = run(
        dir.path(),
        &["lint", "--config", "deny.kdl", "--format", "json", "c.kdl"],
    );
    assert_eq!(r.code, 1);
    assert!(
        json(&r.stdout)["diagnostics"]
            .as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(|d| d["level"] == "error"))
    );
    // allow by category: the rule does not run; a rule ID wins over its category.
    write(dir.path(), "allow.kdl", "lint {\n    allow \"naming\"\n}\n");
    let r = run(
        dir.path(),
        &[
            "lint",
            "--config",
            "allow.kdl",
            "--deny",
            "warnings",
            "--format",
            "json",
            "c.kdl",
        ],
    );
    assert_eq!((r.code, rules_of(&r)), (0, vec![]));
    write(
        dir.path(),
        "mixed.kdl",
        "lint {\n    allow \"naming\"\n    info \"naming/opaque-field\"\n}\n",
    );
    let r = run(
        dir.path(),
        &[
            "lint",
            "--config",
            "mixed.kdl",
            "--deny",
            "warnings",
            "--format",
            "json",
            "c.kdl",
        ],
    );
    assert_eq!(r.code, 0);
    assert!(
        json(&r.stdout)["diagnostics"]
            .as_array()
            .is_some_and(|a| !a.is_empty() && a.iter().all(|d| d["level"] == "info"))
    );
}

/// The tool-name fixture with its tools in reverse order and shifted down by blank lines and
/// comments: the same findings at other lines.
fn moved(text: &str) -> String {
    let (head, tools) = text.split_at(text.find("tool \"").unwrap_or(0));
    let mut parts: Vec<&str> = tools.split_inclusive("\n}\n").collect();
    parts.reverse();
    format!("{head}\n// moved around\n\n\n{}", parts.concat())
}

#[test]
fn baseline_reports_only_new_findings_and_survives_moves() {
    let dir = tempdir();
    let original = fixture("tests/fixtures/lint/naming/tool-name/bad.kdl");
    write(dir.path(), "c.kdl", &original);
    let before = run(dir.path(), &["lint", "--format", "json", "c.kdl"]);
    assert_eq!(before.code, 1);

    let w = run(
        dir.path(),
        &["lint", "--write-baseline", "base.json", "c.kdl"],
    );
    assert_eq!(w.code, 0, "{}", w.stderr);
    let base_text = std::fs::read_to_string(dir.path().join("base.json")).unwrap_or_default();
    let base = json(&base_text);
    let entries = base["findings"].as_array().cloned().unwrap_or_default();
    assert_eq!(
        entries.len(),
        json(&before.stdout)["diagnostics"]
            .as_array()
            .map_or(0, Vec::len)
    );
    // Deterministic: writing again gives the same bytes.
    run(
        dir.path(),
        &["lint", "--write-baseline", "base2.json", "c.kdl"],
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("base2.json")).unwrap_or_default(),
        base_text
    );

    let r = run(dir.path(), &["lint", "--baseline", "base.json", "c.kdl"]);
    assert_eq!(r.code, 0, "{}", r.stdout);

    // Moving the tools changes every line but no fingerprint.
    write(dir.path(), "c.kdl", &moved(&original));
    let after = run(dir.path(), &["lint", "--format", "json", "c.kdl"]);
    let fps = |r: &Run| {
        let mut v: Vec<(String, String)> = json(&r.stdout)["diagnostics"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|d| (d["fingerprint"].to_string(), d["line"].to_string()))
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    let (b, a) = (fps(&before), fps(&after));
    assert_eq!(
        b.iter().map(|x| &x.0).collect::<Vec<_>>(),
        a.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    assert_ne!(b, a, "the lines should have changed");
    let r = run(dir.path(), &["lint", "--baseline", "base.json", "c.kdl"]);
    assert_eq!(r.code, 0, "{}", r.stdout);

    // A new finding is reported, and only it.
    let extra = original[original.find("tool \"InvoiceGet\"").unwrap_or(0)..]
        .split_inclusive("\n}\n")
        .next()
        .unwrap_or_default()
        .replace("tool \"InvoiceGet\"", "tool \"InvoiceFind\"");
    write(
        dir.path(),
        "c.kdl",
        &format!("{}\n{extra}", moved(&original)),
    );
    let r = run(
        dir.path(),
        &[
            "lint",
            "--baseline",
            "base.json",
            "--format",
            "json",
            "c.kdl",
        ],
    );
    assert_eq!(r.code, 1);
    let diags = json(&r.stdout)["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        !diags.is_empty() && diags.iter().all(|d| d["tool"] == "InvoiceFind"),
        "{diags:#?}"
    );

    // A file that is not a baseline: exit 2, one line.
    write(dir.path(), "bad.json", "{\"findings\": 3}");
    let r = run(dir.path(), &["lint", "--baseline", "bad.json", "c.kdl"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

fn validator(schema_path: &str) -> jsonschema::Validator {
    // The stored SARIF 2.1.0 schema has a stray `]` in the pattern of `language`
    // (`…-[a-zA-Z]{2}]?$`), which a strict ECMA-262 check of the schema itself rejects. Its
    // evident intent, a language with an optional region, is put in its place here; our output
    // sets no `language`, so nothing we emit is checked by it.
    let text = fixture(schema_path).replace(
        r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#,
        r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#,
    );
    let schema = json(&text);
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{schema_path}: {e}"))
}

#[test]
fn sarif_is_valid_and_carries_rule_docs() {
    let dir = tempdir();
    write(
        dir.path(),
        "defects.kdl",
        &fixture("tests/fixtures/lint/defects/defects.kdl"),
    );
    let r = run(dir.path(), &["lint", "--format", "sarif", "defects.kdl"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let sarif = json(&r.stdout);
    let v = validator("tests/fixtures/sarif-2.1.0.json");
    let errors: Vec<String> = v
        .iter_errors(&sarif)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF does not match the 2.1.0 schema:\n{}",
        errors.join("\n")
    );
    let rules = sarif
        .pointer("/runs/0/tool/driver/rules")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    assert!(rules.len() >= 5);
    for descriptor in &rules {
        let id = descriptor["id"].as_str().unwrap_or_default();
        let Some(rule) = catalogc::lint::rule(id) else {
            continue;
        };
        assert_eq!(descriptor["shortDescription"]["text"], rule.summary, "{id}");
        assert!(
            descriptor["fullDescription"]["text"]
                .as_str()
                .is_some_and(|t| !t.is_empty()),
            "{id}"
        );
        assert_eq!(descriptor["help"]["markdown"], rule.doc().as_str(), "{id}");
    }

    let r = run(dir.path(), &["lint", "--format", "json", "defects.kdl"]);
    let out = json(&r.stdout);
    let errors: Vec<String> = validator("docs/lint-output.schema.json")
        .iter_errors(&out)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn thresholds_and_forbidden_fields_from_configuration() {
    let dir = tempdir();
    // A clean catalog: clean with defaults, findings once the configuration tightens.
    let clean = fixture("tests/fixtures/lint/naming/tool-name/good.kdl");
    write(dir.path(), "c.kdl", &clean);
    assert_eq!(
        rules_of(&run(dir.path(), &["lint", "--format", "json", "c.kdl"])),
        Vec::<String>::new()
    );

    write(
        dir.path(),
        "tight.kdl",
        "lint {\n    thresholds {\n        budget-tool-bytes 256\n        summary-max 20\n    }\n}\n",
    );
    let r = run(
        dir.path(),
        &["lint", "--config", "tight.kdl", "--format", "json", "c.kdl"],
    );
    let rules = rules_of(&r);
    assert!(rules.iter().any(|r| r == "catalog/budget"), "{rules:?}");
    assert!(rules.iter().any(|r| r == "selection/length"), "{rules:?}");
    let budget = json(&r.stdout)["diagnostics"]
        .as_array()
        .and_then(|a| a.iter().find(|d| d["rule"] == "catalog/budget").cloned())
        .unwrap_or_default();
    assert!(
        budget["message"]
            .as_str()
            .is_some_and(|m| m.contains("tokens") && m.contains("256 bytes")),
        "{budget}"
    );

    // The project's own forbidden names, matched whatever the spelling.
    let reference = clean
        .find("invoice_reference")
        .map(|_| "invoice_reference")
        .unwrap_or_default();
    assert!(!reference.is_empty());
    write(
        dir.path(),
        "forbid.kdl",
        "lint {\n    forbidden-fields \"InvoiceReference\"\n}\n",
    );
    let r = run(
        dir.path(),
        &[
            "lint",
            "--config",
            "forbid.kdl",
            "--format",
            "json",
            "c.kdl",
        ],
    );
    assert_eq!(r.code, 1);
    assert!(
        rules_of(&r).iter().all(|r| r == "trust/forbidden-field") && !rules_of(&r).is_empty(),
        "{}",
        r.stdout
    );
}

#[test]
fn each_published_list_is_its_own_namespace() {
    let dir = tempdir();
    let list = r#"{"tools": [{"name": "search_items", "description": "Search the items.",
        "inputSchema": {"type": "object", "properties": {"status": {"type": "string"}}}}]}"#;
    write(dir.path(), "a.json", list);
    write(dir.path(), "b.json", list);
    let r = run(
        dir.path(),
        &["lint", "--format", "json", "a.json", "b.json"],
    );
    let rules = rules_of(&r);
    assert!(
        !rules.iter().any(|r| r == "naming/duplicate"),
        "{}",
        r.stdout
    );
    // Both lists' `status` fields are reported: neither tool was dropped.
    let undocumented = rules.iter().filter(|r| *r == "selection/field-doc").count();
    assert_eq!(undocumented, 2, "{}", r.stdout);
}
