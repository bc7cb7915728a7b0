//! Every diagnostic kind of the loader, rendered as a user sees it (human and JSON), from
//! the fixtures in tests/fixtures/model. A fixture's `// expect: RULE` lines name rules it
//! must report.

use catalogc::diag::emit::{self as render, Summary, sarif};
use catalogc::diag::{Diagnostic, Level};
use catalogc::lint::docs::CoreRules;
use catalogc::project::{self, LoadOptions, Loaded};
use std::path::{Path, PathBuf};

const FIXTURES: &str = "tests/fixtures/model";

fn load(paths: &[&str]) -> (Loaded, Vec<Diagnostic>) {
    let paths: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
    let loaded = match project::load(&paths, &LoadOptions::default()) {
        Ok(l) => l,
        Err(e) => panic!("fixture did not load: {e}"),
    };
    let diags = loaded.diagnostics.clone();
    (loaded, diags)
}

fn summary(loaded: &Loaded, diags: &[Diagnostic]) -> Summary {
    Summary::new(diags, loaded.tool_count(), loaded.project.catalogs.len())
}

fn human(loaded: &Loaded, diags: &[Diagnostic]) -> String {
    render::human::render(diags, &loaded.sources, &summary(loaded, diags), false)
}

fn json(loaded: &Loaded, diags: &[Diagnostic]) -> serde_json::Value {
    render::json::to_json(
        &render::records(diags, &loaded.sources),
        &summary(loaded, diags),
    )
}

fn fixture_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(FIXTURES)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "kdl"));
    files.sort();
    files
}

fn expected_rules(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter_map(|l| l.strip_prefix("// expect: "))
        .map(|s| s.trim().to_string())
        .collect()
}

#[test]
fn every_fixture_reports_its_kind_and_matches_its_snapshots() {
    let files = fixture_files();
    assert!(files.len() >= 18, "fixtures missing: {files:?}");
    for path in files {
        let shown = path.to_string_lossy().replace('\\', "/");
        let (loaded, diags) = load(&[&shown]);
        assert!(!diags.is_empty(), "{shown}: no diagnostics");
        for rule in expected_rules(&path) {
            assert!(
                diags.iter().any(|d| d.rule == rule),
                "{shown}: expected {rule}, got {:?}",
                diags.iter().map(|d| &d.rule).collect::<Vec<_>>()
            );
        }
        assert!(diags.iter().all(|d| d.level == Level::Error));
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        insta::assert_snapshot!(format!("{name}.human"), human(&loaded, &diags));
        insta::assert_json_snapshot!(format!("{name}.json"), json(&loaded, &diags));
    }
}

#[test]
fn five_independent_mistakes_are_all_reported_with_positions() {
    let (loaded, diags) = load(&["tests/fixtures/model/five_mistakes.kdl"]);
    let positions: Vec<(String, usize, usize)> = diags
        .iter()
        .map(|d| {
            let (l, c) = loaded.sources.get(d.file).line_col(d.span.start);
            (d.rule.to_string(), l, c)
        })
        .collect();
    assert_eq!(
        positions,
        vec![
            ("model/unknown-keyword".to_string(), 5, 12),
            ("model/wrong-type".to_string(), 6, 22),
            ("model/unknown-property".to_string(), 8, 33),
            ("model/unresolved-type".to_string(), 9, 26),
            ("model/unknown-node".to_string(), 11, 5),
        ]
    );
    let text = human(&loaded, &diags);
    for loc in [
        "five_mistakes.kdl:5:12",
        "five_mistakes.kdl:6:22",
        "five_mistakes.kdl:8:33",
        "five_mistakes.kdl:9:26",
        "five_mistakes.kdl:11:5",
    ] {
        assert!(text.contains(loc), "missing {loc} in\n{text}");
    }
    // One header per file, then the summary line.
    assert_eq!(text.matches("five_mistakes.kdl: 5 errors").count(), 1);
    assert!(text.ends_with("error: 5 errors, 0 warnings, 0 infos in 1 catalog, 0 tools\n"));
}

#[test]
fn duplicate_tool_names_across_catalogs_are_reported() {
    let a = ("catalogs/a.kdl".into(), "catalog \"a\" version=\"1.0.0\"\ntool \"order_list\" version=\"1.0.0\" {\n    effect \"read\"\n    input\n}\n".to_string());
    let b = ("catalogs/b.kdl".into(), "catalog \"b\" version=\"1.0.0\"\ntool \"order_list\" version=\"1.0.0\" {\n    effect \"read\"\n    input\n}\n".to_string());
    let loaded = project::load_sources([a, b]);
    let dups: Vec<&Diagnostic> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.rule == "naming/duplicate")
        .collect();
    assert_eq!(dups.len(), 1);
    assert_eq!(dups[0].tool.as_deref(), Some("order_list"));
    assert_eq!(dups[0].catalog.as_deref(), Some("b"));
    assert!(dups[0].message.contains("catalogs/a.kdl"));
    assert_eq!(loaded.tool_count(), 1);
}

#[test]
fn json_output_validates_against_the_published_schema() {
    let schema_text = std::fs::read_to_string("docs/lint-output.schema.json").unwrap_or_default();
    let schema: serde_json::Value = serde_json::from_str(&schema_text).unwrap_or_default();
    let validator = match jsonschema::validator_for(&schema) {
        Ok(v) => v,
        Err(e) => panic!("schema does not compile: {e}"),
    };
    let mut paths: Vec<String> = fixture_files()
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    paths.push("catalogs".into());
    for p in &paths {
        let (loaded, diags) = load(&[p]);
        let v = json(&loaded, &diags);
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{p}: {errors:?}");
    }
    // The schema is strict: an extra key is rejected.
    let bad = serde_json::json!({"diagnostics": [], "summary": {"errors": 0, "warnings": 0, "infos": 0, "tools": 0, "catalogs": 0}, "extra": 1});
    assert!(!validator.is_valid(&bad));
}

#[test]
fn sarif_and_github_outputs_carry_rule_and_position() {
    let (loaded, diags) = load(&["tests/fixtures/model/five_mistakes.kdl"]);
    let records = render::records(&diags, &loaded.sources);
    let rules = sarif::used_rules(records.iter().map(|r| r.rule.as_str()), &[&CoreRules]);
    let sarif = sarif::to_sarif(&records, &rules, sarif::Shape::DIAGNOSTICS);
    assert_eq!(sarif["version"], "2.1.0");
    let run = &sarif["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().map(Vec::len);
    assert_eq!(rules, Some(5));
    assert_eq!(run["results"].as_array().map(Vec::len), Some(5));
    let first = &run["results"][0];
    assert_eq!(first["ruleId"], "model/unknown-keyword");
    assert_eq!(
        first["locations"][0]["physicalLocation"]["region"]["startLine"],
        5
    );
    assert_eq!(
        first["locations"][0]["physicalLocation"]["region"]["startColumn"],
        12
    );
    let idx = first["ruleIndex"].as_u64().unwrap_or(99) as usize;
    assert_eq!(
        run["tool"]["driver"]["rules"][idx]["id"],
        "model/unknown-keyword"
    );
    insta::assert_json_snapshot!("five_mistakes.sarif", sarif);

    let gh = render::github::render(&records, true);
    assert_eq!(gh.lines().count(), 5);
    assert!(gh.starts_with("::error file=tests/fixtures/model/five_mistakes.kdl,line=5,col=12,endLine=5,endColumn=18,title=model/unknown-keyword::`effect`: `reed` is not a known value%0Ahelp: "));
}

#[test]
fn fingerprints_ignore_line_numbers_and_are_distinct() {
    let text = "catalog \"a\" version=\"1.0.0\"\ntool \"order_list\" version=\"1.0.0\" {\n    effect \"reed\"\n    input { field \"x\" \"strin\" }\n}\n";
    let moved = format!("\n\n// moved down\n{text}");
    let a = project::load_source("c.kdl", text);
    let b = project::load_source("c.kdl", moved);
    let fa = render::fingerprints(&a.diagnostics, &a.sources);
    let fb = render::fingerprints(&b.diagnostics, &b.sources);
    assert_eq!(fa, fb);
    assert_eq!(fa.len(), 2);
    assert_ne!(fa[0], fa[1]);
    assert!(
        fa.iter()
            .all(|f| f.len() == 64 && f.bytes().all(|c| c.is_ascii_hexdigit()))
    );
}

#[test]
fn colored_output_only_when_asked() {
    let (loaded, diags) = load(&["tests/fixtures/model/five_mistakes.kdl"]);
    let s = summary(&loaded, &diags);
    let plain = render::human::render(&diags, &loaded.sources, &s, false);
    let color = render::human::render(&diags, &loaded.sources, &s, true);
    assert!(!plain.contains('\x1b'));
    assert!(color.contains("\x1b[1;31merror[model/unknown-keyword]"));
}

#[test]
fn caret_counts_characters_and_expands_tabs() {
    let text = "catalog \"é\" version=\"1.0.0\"\ntool \"ça_va\" version=\"1.0.0\" {\n\teffect \"rëad\"\n\tinput\n}\n";
    let loaded = project::load_source("t.kdl", text);
    let diags = loaded.diagnostics.clone();
    let out = render::human::render(&diags, &loaded.sources, &summary(&loaded, &diags), false);
    assert!(out.contains(" --> t.kdl:3:9\n"), "{out}");
    assert!(
        out.contains("3 |     effect \"rëad\"\n  |            ^^^^^^\n"),
        "{out}"
    );
    let j = json(&loaded, &diags);
    let effect = j["diagnostics"]
        .as_array()
        .and_then(|d| d.iter().find(|d| d["rule"] == "model/unknown-keyword"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(effect["column"], 9, "{j}");
    assert_eq!(effect["end_column"], 15, "{j}");
}

#[test]
fn the_example_catalogs_are_clean() {
    let (loaded, diags) = load(&["catalogs"]);
    assert!(diags.is_empty(), "{}", human(&loaded, &diags));
    assert_eq!(loaded.project.catalogs.len(), 2);
    assert_eq!(loaded.tool_count(), 6);
}

/// Loads and renders `text` in every format; the point is that nothing panics.
fn load_and_render(text: &str) -> usize {
    let loaded = project::load_source("x.kdl", text);
    let diags = loaded.diagnostics.clone();
    let s = summary(&loaded, &diags);
    let records = render::records(&diags, &loaded.sources);
    let n = render::human::render(&diags, &loaded.sources, &s, true).len()
        + render::pretty_json(&render::json::to_json(&records, &s)).len()
        + render::pretty_json(&sarif::to_sarif(
            &records,
            &sarif::used_rules(records.iter().map(|r| r.rule.as_str()), &[&CoreRules]),
            sarif::Shape::DIAGNOSTICS,
        ))
        .len()
        + render::github::render(&records, true).len();
    for d in &diags {
        assert!(
            d.span.start <= d.span.end && d.span.end <= text.len(),
            "{d:?}"
        );
    }
    n
}

#[test]
fn every_prefix_of_the_examples_loads_without_panic() {
    for name in ["catalogs/billing.kdl", "catalogs/payments.kdl"] {
        let text = std::fs::read_to_string(name).unwrap_or_default();
        assert!(text.len() > 1000);
        let mut cuts: Vec<usize> = (0..=text.len())
            .filter(|i| text.is_char_boundary(*i))
            .collect();
        // Rendering every prefix in four formats is slow in debug builds; parse and lower
        // every prefix, render a spread of them.
        for (k, cut) in cuts.drain(..).enumerate() {
            let prefix = &text[..cut];
            if k % 50 == 0 {
                load_and_render(prefix);
            } else {
                let loaded = project::load_source("x.kdl", prefix);
                for d in &loaded.diagnostics {
                    assert!(d.span.end <= prefix.len(), "{d:?}");
                }
            }
        }
    }
}

#[test]
fn garbled_examples_load_without_panic() {
    // A fixed-seed generator: the same garbling on every run.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let noise = [
        "{",
        "}",
        "\"",
        "=",
        "#",
        "(",
        ")",
        ";",
        "\\",
        "/-",
        "\n",
        "#nan",
        "1e400",
        "-",
        "é",
        "\"\"\"",
        "/*",
        "99999999999999999999999",
    ];
    for name in ["catalogs/billing.kdl", "catalogs/payments.kdl"] {
        let text = std::fs::read_to_string(name).unwrap_or_default();
        for _ in 0..120 {
            let mut s = text.clone();
            for _ in 0..1 + next() % 6 {
                let mut at = (next() as usize) % s.len();
                while !s.is_char_boundary(at) {
                    at -= 1;
                }
                let mut end = (at + (next() as usize) % 8).min(s.len());
                while !s.is_char_boundary(end) {
                    end -= 1;
                }
                let piece = noise[(next() as usize) % noise.len()];
                s.replace_range(at..end, piece);
            }
            load_and_render(&s);
        }
    }
}
