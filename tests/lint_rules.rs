//! The lint harness: every registered rule has documentation, a failing and a passing fixture
//! (`tests/fixtures/lint/<category>/<rule-name>/{bad,good}.kdl`) and a snapshot of its
//! rendered findings on the failing one; every rule file is registered; docs/rules.md is the
//! generated text.

use catalogc::diag::Diagnostic;
use catalogc::diag::emit::{self as render, Summary};
use catalogc::lint::{self, Config, Rule};
use catalogc::project::{self, Loaded};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `tests/fixtures/lint/naming/tool-name` for `naming/tool-name`.
fn fixture_dir(rule: &Rule) -> PathBuf {
    PathBuf::from("tests/fixtures/lint").join(rule.id)
}

/// Loads one fixture as the CLI would (path relative to the crate root, so rendered output
/// is the same on every machine).
fn load(rel: &Path) -> Result<Loaded, String> {
    let text =
        std::fs::read_to_string(root().join(rel)).map_err(|e| format!("{}: {e}", rel.display()))?;
    Ok(project::load_source(rel, text))
}

fn is_lint_rule(id: &str) -> bool {
    lint::rule(id).is_some()
}

/// Syntax and model errors of a fixture: loading diagnostics that are not lint findings
/// (the lowering reports exact duplicates as `naming/duplicate`, which is a lint rule).
fn model_errors(loaded: &Loaded) -> Vec<&Diagnostic> {
    loaded
        .diagnostics
        .iter()
        .filter(|d| !is_lint_rule(&d.rule))
        .collect()
}

fn render(diags: &[Diagnostic], loaded: &Loaded) -> String {
    let summary = Summary::new(diags, loaded.tool_count(), loaded.project.catalogs.len());
    render::human::render(diags, &loaded.sources, &summary, false)
}

#[test]
fn every_rule_has_fixtures_that_fire_and_pass() {
    let mut problems = Vec::new();
    // Every target, so the `target/*` rules (which find nothing without one) are checked too.
    // A fixed "today", so the date rules (`catalog/sunset-approaching`) fire the same every day.
    let config = Config {
        targets: catalogc::contract::targets::Target::ALL.to_vec(),
        today: catalogc::model::parse_date("2026-12-04"),
        ..Config::default()
    };
    for rule in lint::registry() {
        let dir = fixture_dir(rule);
        for (kind, must_fire) in [("bad.kdl", true), ("good.kdl", false)] {
            let path = dir.join(kind);
            let loaded = match load(&path) {
                Ok(l) => l,
                Err(e) => {
                    problems.push(format!("{}: missing fixture ({e})", rule.id));
                    continue;
                }
            };
            let errors = model_errors(&loaded);
            if !errors.is_empty() {
                problems.push(format!(
                    "{}: {} has syntax/model errors:\n{}",
                    rule.id,
                    path.display(),
                    render(&errors.into_iter().cloned().collect::<Vec<_>>(), &loaded)
                ));
                continue;
            }
            let all = lint::check_project(
                &loaded,
                &config,
                &catalogc::testing::artifacts(&loaded.project),
            );
            let mine: Vec<Diagnostic> = all.iter().filter(|d| d.rule == rule.id).cloned().collect();
            if must_fire {
                if mine.is_empty() {
                    problems.push(format!(
                        "{}: {} does not trigger the rule",
                        rule.id,
                        path.display()
                    ));
                    continue;
                }
                let name = rule.id.replace('/', "__");
                insta::with_settings!({snapshot_path => "snapshots/lint_rules", prepend_module_to_snapshot => false, omit_expression => true}, {
                    insta::assert_snapshot!(name, render(&mine, &loaded));
                });
            } else if !mine.is_empty() {
                problems.push(format!(
                    "{}: {} triggers the rule:\n{}",
                    rule.id,
                    path.display(),
                    render(&mine, &loaded)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Rule files on disk, as `category/file_stem` (without `mod.rs`).
fn rule_files() -> BTreeSet<String> {
    let mut files = BTreeSet::new();
    let rules_dir = root().join("src/lint/rules");
    for category in std::fs::read_dir(&rules_dir)
        .into_iter()
        .flatten()
        .flatten()
    {
        if !category.path().is_dir() {
            continue;
        }
        let cat = category.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(category.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = file.file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".rs")
                && stem != "mod"
            {
                files.insert(format!("{cat}/{stem}"));
            }
        }
    }
    files
}

#[test]
fn every_rule_file_is_registered_and_is_its_own_source() {
    let files = rule_files();
    assert!(
        !files.is_empty(),
        "no rule files found under src/lint/rules"
    );
    let registered: BTreeSet<String> = lint::registry().map(|r| r.id.replace('-', "_")).collect();
    let unregistered: Vec<_> = files.difference(&registered).collect();
    assert!(
        unregistered.is_empty(),
        "rule files not registered in their category's `declare_rules!` (or named unlike their ID): {unregistered:?}"
    );
    let missing: Vec<_> = registered.difference(&files).collect();
    assert!(
        missing.is_empty(),
        "registered rules without a file of the same name: {missing:?}"
    );
    for rule in lint::registry() {
        let path = root()
            .join("src/lint/rules")
            .join(format!("{}.rs", rule.id.replace('-', "_")));
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            text.contains("declare_rule!") && text.contains(&format!("id: \"{}\",", rule.id)),
            "{}: its file declares it with `declare_rule!`",
            rule.id
        );
        for section in [
            "## What it does",
            "## Why is this bad?",
            "## Example",
            "## Use instead",
        ] {
            assert!(
                rule.doc().contains(section),
                "{} lacks `{section}`",
                rule.id
            );
        }
        assert!(
            rule.doc().contains("```kdl"),
            "{}: examples are ```kdl snippets",
            rule.id
        );
        assert!(
            lint::CATEGORY_NAMES.contains(&rule.category()),
            "{}: unknown category",
            rule.id
        );
    }
}

#[test]
fn rules_md_is_generated_from_the_registry() {
    let path = root().join("docs/rules.md");
    let generated = lint::docs::rules_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::create_dir_all(root().join("docs")).ok();
        std::fs::write(&path, &generated).ok();
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == generated,
        "docs/rules.md is out of date with the rule files; regenerate it with `UPDATE_DOCS=1 cargo test --test lint_rules`"
    );
}

/// The hand-written defect catalog (one tool per defect) produces exactly these findings, as
/// (rule, tool) pairs; catalog-level findings have no tool ("").
#[test]
fn defect_catalog_produces_exactly_the_expected_findings() {
    let expected: Vec<(&str, &str)> = vec![
        ("bounds/array-unbounded", "canal_list"),
        ("bounds/contradiction", "island_get"),
        ("bounds/depth", "festival_get"),
        ("bounds/field-count", "glacier_get"),
        ("bounds/number-unbounded", "dentist_get"),
        ("bounds/offset-pagination", "elevator_list"),
        ("bounds/pattern", "harbor_get"),
        ("bounds/string-unbounded", "bakery_get"),
        ("catalog/budget", ""),
        ("catalog/budget", "course_get"),
        ("catalog/unused-type", ""),
        ("catalog/version", "campaign_get"),
        ("effect/destructive-confirm", "recipe_delete"),
        ("effect/idempotency-key", "contract_add"),
        ("effect/pointless", "playlist_get"),
        ("effect/timeout-recovery", "vehicle_record"),
        ("effect/status-by-key", "contract_add"),
        ("effect/status-by-key", "recipe_delete"),
        ("effect/write-idempotency", "device_register"),
        ("effect/write-idempotency", "voucher_redeem"),
        ("errors/existence-leak", "meeting_get"),
        ("errors/message-leak", "license_get"),
        ("errors/message-leak", "license_get"),
        ("errors/message-leak", "license_get"),
        ("errors/missing-next-step", "article_get"),
        ("errors/retry-policy", "warehouse_get"),
        ("errors/undeclared", "device_register"),
        ("errors/undeclared", "survey_get"),
        ("errors/unsafe-retry", "voucher_redeem"),
        ("header/name", "ferry_get"),
        ("lint/allow-without-reason", "listing_search"),
        ("lint/unknown-rule", "policy_get"),
        ("lint/unused-allow", "asset_get"),
        ("naming/duplicate", "menu_get"),
        ("naming/error-code", "kiosk_get"),
        ("naming/field-name", "delivery_note_get"),
        ("naming/opaque-field", "orchard_search"),
        ("naming/tool-name", "ReportExport"),
        ("naming/type-name", ""),
        ("naming/vague-name", "process_data"),
        ("output/missing-schema", "invoice_ping"),
        ("output/money", "shipment_quote_get"),
        ("output/money", "shipment_quote_get"),
        ("output/time-zone", "ticket_get"),
        ("output/unbounded-result", "booking_get"),
        ("selection/confusable", "vineyard_yield_get"),
        ("selection/effect-wording", "umbrella_get"),
        ("selection/field-doc", "zoo_get"),
        ("selection/injection-phrase", "telescope_get"),
        ("selection/injection-phrase", "telescope_get"),
        ("selection/length", "quarry_get"),
        ("selection/missing-examples", "wallet_get"),
        ("selection/missing-text", "patient_get"),
        ("selection/secret-in-text", "satellite_get"),
        ("selection/tautology", "yacht_mooring_get"),
        ("selection/unknown-tool", "rental_get"),
        ("trust/forbidden-field", "jukebox_get"),
        ("trust/internal-key", "kettle_get"),
        ("trust/sensitive-unmarked", "lantern_get"),
    ];
    let loaded = load(Path::new("tests/fixtures/lint/defects/defects.kdl"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        model_errors(&loaded).is_empty(),
        "{:?}",
        model_errors(&loaded)
    );
    let diags = lint::check_project(
        &loaded,
        &Config::default(),
        &catalogc::testing::artifacts(&loaded.project),
    );
    let mut actual: Vec<(String, String)> = diags
        .iter()
        .map(|d| {
            (
                d.rule.to_string(),
                d.tool.as_deref().unwrap_or_default().to_string(),
            )
        })
        .collect();
    actual.sort();
    let mut expected: Vec<(String, String)> = expected
        .iter()
        .map(|(r, t)| (r.to_string(), t.to_string()))
        .collect();
    expected.sort();
    assert_eq!(actual, expected, "\n{}", render(&diags, &loaded));
    // Every category is exercised, but `target`: its rules find nothing without `--target`,
    // and the defect catalog is linted as `catalogc lint` runs by default.
    for category in lint::CATEGORY_NAMES.iter().filter(|c| **c != "target") {
        assert!(
            actual
                .iter()
                .any(|(r, _)| r.starts_with(&format!("{category}/"))),
            "no `{category}` defect"
        );
    }
}

#[test]
fn example_catalogs_lint_clean() {
    let loaded = project::load(&[root().join("catalogs")], &Default::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let diags = lint::check_project(
        &loaded,
        &Config::default(),
        &catalogc::testing::artifacts(&loaded.project),
    );
    assert!(diags.is_empty(), "\n{}", render(&diags, &loaded));
}

/// `allow` drops exactly the findings of its rule for its tool; `lint/…` findings stay; an
/// allow of a rule turned off in the configuration is reported as unused.
#[test]
fn allow_suppresses_only_its_rule_in_its_tool() {
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/lint/naming/opaque-field/bad.kdl"))
            .unwrap_or_default();
    // Two copies of the tool: one allows the rule, the other does not.
    let tool_start = text.find("tool \"").unwrap_or(0);
    let tool = &text[tool_start..];
    let allowed = tool.replacen(
        "    effect \"read\"\n",
        "    effect \"read\"\n    allow \"naming/opaque-field\" reason=\"Legacy names kept for old clients.\"\n    allow \"naming/field-name\"\n",
        1,
    );
    let other = tool.replace("invoice_search", "invoice_lookup");
    let source = format!("{}{allowed}\n{other}", &text[..tool_start]);
    let loaded = project::load_source("allow.kdl", source);
    assert!(model_errors(&loaded).is_empty());
    let diags = lint::check_project(
        &loaded,
        &Config::default(),
        &catalogc::testing::artifacts(&loaded.project),
    );
    let of = |rule: &str, tool: &str| {
        diags
            .iter()
            .filter(|d| d.rule == rule && d.tool.as_deref() == Some(tool))
            .count()
    };
    assert_eq!(
        of("naming/opaque-field", "invoice_search"),
        0,
        "{}",
        render(&diags, &loaded)
    );
    assert_eq!(of("naming/opaque-field", "invoice_lookup"), 3);
    // The reason-less allow of a rule with no finding: both reported.
    assert_eq!(of("lint/allow-without-reason", "invoice_search"), 1);
    assert_eq!(of("lint/unused-allow", "invoice_search"), 1);

    // With the rule turned off, the allow suppresses nothing.
    let mut config = Config::default();
    config.levels.insert("naming/opaque-field".into(), None);
    let diags = lint::check_project(
        &loaded,
        &config,
        &catalogc::testing::artifacts(&loaded.project),
    );
    let unused: Vec<_> = diags
        .iter()
        .filter(|d| d.rule == "lint/unused-allow")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(unused.len(), 2, "{unused:?}");
    assert!(
        unused.iter().any(|m| m.contains("turned off")),
        "{unused:?}"
    );
}
