//! Change policy end to end through the real binary (docs/breaking.md): accepted breaks and
//! their stale twins, stability levels, deprecation windows against an injected "today",
//! `--category source`, and the same decisions in every output format.

mod support;

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;
use support::git;

const CATALOG: &str = r#"catalog "shop" version="1.0.0" {
    summary "Orders of the authenticated customer."
}

tool "order_get" version="1.0.0" {
    summary "Get one order by its reference."
    when "Use to look up one order."
    when-not "Not for listing orders; use order_list."
    effect "read"
    input {
        field "order_ref" "string" required=#true max-length=32 { doc "The order reference."; }
        field "note" "string" max-length=200 { doc "A note for the audit log."; }
    }
    output {
        field "total_minor" "integer" required=#true min=0 { doc "Total in minor units."; }
    }
}

tool "order_list" version="1.0.0" {
    summary "List the customer's orders."
    when "Use to browse orders."
    when-not "Not for one order; use order_get."
    effect "read"
    stability "experimental"
    input {
        field "page_size" "integer" min=1 max=50 { doc "Page size."; }
    }
}

tool "order_export" version="1.0.0" {
    summary "Export orders as a file."
    when "Use to download orders."
    when-not "Not for one order; use order_get."
    effect "read"
    deprecated "Exports moved to the reports service." replacement="order_list" since="1.0.0" sunset="2027-03-01"
    input {
        field "format" "string" max-length=8 { doc "File format."; }
    }
}
"#;

fn catalogc(dir: &Path, today: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("catalogc")
        .expect("binary")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("CATALOGC_TODAY", today)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn repo() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path();
    git(d, &["init", "-q"]);
    std::fs::create_dir_all(d.join("catalogs")).unwrap();
    std::fs::write(d.join("catalogs/shop.kdl"), CATALOG).unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "catalog"]);
    tmp
}

fn edit(d: &Path, from: &str, to: &str) {
    edit_file(&d.join("catalogs/shop.kdl"), from, to);
}

/// Sets the version of `node` (`tool "NAME"` or `catalog "NAME"`) from `from` to `to`.
fn version(d: &Path, node: &str, from: &str, to: &str) {
    edit(
        d,
        &format!("{node} version=\"{from}\""),
        &format!("{node} version=\"{to}\""),
    );
}

/// Removes the tool `name` (its whole block) from the catalog.
fn remove_tool(d: &Path, name: &str) {
    let p = d.join("catalogs/shop.kdl");
    let text = std::fs::read_to_string(&p).unwrap();
    let start = text.find(&format!("tool \"{name}\"")).expect("tool");
    let end = text[start..]
        .find("\n}\n")
        .map(|i| start + i + 3)
        .expect("end");
    std::fs::write(&p, format!("{}{}", &text[..start], &text[end..])).unwrap();
}

fn json(out: &str) -> Value {
    serde_json::from_str(out).expect("JSON")
}

const TODAY: &str = "2026-12-04";

#[test]
fn an_accepted_break_passes_and_its_stale_twin_warns() {
    let tmp = repo();
    let d = tmp.path();
    edit(
        d,
        "        field \"note\" \"string\" max-length=200 { doc \"A note for the audit log.\"; }\n",
        "",
    );
    version(d, "tool \"order_get\"", "1.0.0", "1.1.0");
    version(d, "catalog \"shop\"", "1.0.0", "1.1.0");
    // Without an accept entry: a removed input field is major, 1.1.0 is too low.
    let (code, out, _) = catalogc(d, TODAY, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("compat/version-too-low"), "{out}");

    std::fs::write(
        d.join("catalogc.kdl"),
        "accept tool=\"order_get\" kind=\"input-field-removed\" path=\"input.note\" version=\"1.1.0\" reason=\"No caller ever set it (audit of 2026-11).\"\naccept tool=\"order_get\" kind=\"compat/input-field-removed\" path=\"input.order_ref\" reason=\"A twin that matches nothing.\"\n",
    )
    .unwrap();
    let (code, out, err) = catalogc(d, TODAY, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("compat/input-field-removed: input field removed: `input.note` (accepted: No caller ever set it (audit of 2026-11).)"),
        "{out}"
    );
    assert!(out.contains("warning[compat/accept-stale]"), "{out}");
    assert!(out.contains("catalogc.kdl:2:1"), "{out}");

    let (code, out, _) = catalogc(
        d,
        TODAY,
        &["breaking", "--against", "HEAD", "--format", "json"],
    );
    assert_eq!(code, 0);
    let v = json(&out);
    let tools = v["catalogs"][0]["tools"].as_array().expect("tools");
    let get = tools
        .iter()
        .find(|t| t["name"] == "order_get")
        .expect("order_get");
    let ch = &get["changes"][0];
    assert_eq!(ch["rule"], "compat/input-field-removed");
    assert_eq!(ch["standing"], "accepted");
    assert_eq!(ch["class"], "patch");
    assert_eq!(ch["kind_class"], "major");
    assert_eq!(v["stale_accepts"][0]["path"], "input.order_ref");
    assert_eq!(v["stale_accepts"][0]["line"], 2);

    let (_, out, _) = catalogc(
        d,
        TODAY,
        &["breaking", "--against", "HEAD", "--format", "github"],
    );
    assert!(out.contains("::warning file=catalogc.kdl,line=2"), "{out}");
    let (_, out, _) = catalogc(
        d,
        TODAY,
        &["breaking", "--against", "HEAD", "--format", "markdown"],
    );
    assert!(
        out.contains("| patch (`accepted: No caller ever set it"),
        "{out}"
    );
    assert!(out.contains("**Warnings**"), "{out}");
    let (_, out, _) = catalogc(
        d,
        TODAY,
        &["breaking", "--against", "HEAD", "--format", "sarif"],
    );
    assert!(out.contains("compat/accept-stale"), "{out}");

    // An entry for another version does not match: the break counts again.
    std::fs::write(
        d.join("catalogc.kdl"),
        "accept tool=\"order_get\" kind=\"input-field-removed\" version=\"2.0.0\" reason=\"For the next major.\"\n",
    )
    .unwrap();
    let (code, out, _) = catalogc(d, TODAY, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("warning[compat/accept-stale]"), "{out}");
}

#[test]
fn a_bad_accept_entry_stops_the_run_with_its_location() {
    let tmp = repo();
    let d = tmp.path();
    std::fs::write(
        d.join("catalogc.kdl"),
        "accept tool=\"order_get\" kind=\"input-feild-removed\"\n",
    )
    .unwrap();
    let (code, _, err) = catalogc(d, TODAY, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("catalogc.kdl:1:"), "{err}");
    assert!(
        err.contains("did you mean `compat/input-field-removed`?"),
        "{err}"
    );
    assert!(err.contains("`accept` needs `reason=`"), "{err}");
}

#[test]
fn removing_an_experimental_tool_needs_no_major_bump() {
    let tmp = repo();
    let d = tmp.path();
    remove_tool(d, "order_list");
    version(d, "catalog \"shop\"", "1.0.0", "1.1.0");
    let (code, out, err) = catalogc(d, TODAY, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("minor compat/tool-removed: tool removed: `order_list` (experimental tool)"),
        "{out}"
    );
    // --policy no-major lets it pass too, and the annotation is a notice.
    let args = ["breaking", "--against", "HEAD", "--policy", "no-major"];
    assert_eq!(catalogc(d, TODAY, &args).0, 0);
    let (_, out, _) = catalogc(
        d,
        TODAY,
        &["breaking", "--against", "HEAD", "--format", "github"],
    );
    assert!(
        out.contains("::notice") && !out.contains("::warning"),
        "{out}"
    );
}

#[test]
fn a_beta_tool_needs_a_major_bump_but_passes_no_major() {
    let tmp = repo();
    let d = tmp.path();
    edit(
        d,
        "    stability \"experimental\"\n",
        "    stability \"beta\"\n",
    );
    git(d, &["commit", "-qam", "beta"]);
    remove_tool(d, "order_list");
    version(d, "catalog \"shop\"", "1.0.0", "1.1.0");
    let (code, out, _) = catalogc(d, TODAY, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "{out}");
    version(d, "catalog \"shop\"", "1.1.0", "2.0.0");
    let args = ["breaking", "--against", "HEAD", "--policy", "no-major"];
    let (code, out, _) = catalogc(d, TODAY, &args);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("(beta tool)"), "{out}");
}

#[test]
fn promoting_and_demoting_a_tool_are_recorded_changes() {
    let tmp = repo();
    let d = tmp.path();
    edit(d, "    stability \"experimental\"\n", "");
    let (code, out, _) = catalogc(d, TODAY, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "the version must be bumped: {out}");
    assert!(
        out.contains("minor compat/tool-stability-promoted"),
        "{out}"
    );
    version(d, "tool \"order_list\"", "1.0.0", "1.1.0");
    version(d, "catalog \"shop\"", "1.0.0", "1.1.0");
    assert_eq!(catalogc(d, TODAY, &["breaking", "--against", "HEAD"]).0, 0);

    let tmp = repo();
    let d = tmp.path();
    edit(
        d,
        "    effect \"read\"\n    input {\n        field \"order_ref\"",
        "    effect \"read\"\n    stability \"beta\"\n    input {\n        field \"order_ref\"",
    );
    let (_, out, _) = catalogc(d, TODAY, &["breaking", "--against", "HEAD"]);
    assert!(out.contains("major compat/tool-stability-demoted"), "{out}");
}

#[test]
fn removing_a_tool_before_its_sunset_fails_and_after_it_is_a_patch() {
    let tmp = repo();
    let d = tmp.path();
    remove_tool(d, "order_export");
    version(d, "catalog \"shop\"", "1.0.0", "1.0.1");
    let (code, out, _) = catalogc(d, "2027-02-28", &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error[compat/removed-before-sunset]: deprecated with sunset 2027-03-01, but removed on 2027-02-28"),
        "{out}"
    );
    let (code, out, _) = catalogc(d, "2027-03-01", &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "patch compat/tool-removed: tool removed: `order_export` (removed after its sunset)"
        ),
        "{out}"
    );
    // An accepted early removal passes before the sunset.
    std::fs::write(
        d.join("catalogc.kdl"),
        "accept tool=\"order_export\" kind=\"tool-removed\" reason=\"The reports service shipped early.\"\n",
    )
    .unwrap();
    assert_eq!(
        catalogc(d, "2027-02-28", &["breaking", "--against", "HEAD"]).0,
        0
    );
    // "today" must be a date.
    let (code, _, err) = catalogc(d, "soon", &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 2);
    assert!(err.contains("CATALOGC_TODAY=`soon` is not a date"), "{err}");
}

#[test]
fn category_source_flags_a_new_required_output_field_that_wire_passes() {
    let tmp = repo();
    let d = tmp.path();
    edit(
        d,
        "        field \"total_minor\" \"integer\" required=#true min=0 { doc \"Total in minor units.\"; }\n",
        "        field \"total_minor\" \"integer\" required=#true min=0 { doc \"Total in minor units.\"; }\n        field \"currency\" \"string\" required=#true max-length=3 { doc \"ISO 4217 code.\"; }\n",
    );
    version(d, "tool \"order_get\"", "1.0.0", "1.1.0");
    version(d, "catalog \"shop\"", "1.0.0", "1.1.0");
    let (code, out, _) = catalogc(d, TODAY, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("minor compat/output-field-required-added"),
        "{out}"
    );
    let args = ["breaking", "--against", "HEAD", "--category", "source"];
    let (code, out, _) = catalogc(d, TODAY, &args);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("major compat/output-field-required-added"),
        "{out}"
    );
    let (_, out, _) = catalogc(d, TODAY, &[&args[..], &["--format", "json"]].concat());
    assert_eq!(json(&out)["category"], "source");
}

#[test]
fn lint_warns_as_a_sunset_approaches_within_the_configured_window() {
    let tmp = repo();
    let d = tmp.path();
    let sunset = |out: &str| out.contains("catalog/sunset-approaching");
    let (_, out, _) = catalogc(d, "2026-12-04", &["lint"]);
    assert!(!sunset(&out), "{out}");
    let (_, out, _) = catalogc(d, "2027-02-20", &["lint"]);
    assert!(
        out.contains("tool `order_export` reaches its sunset on 2027-03-01 (in 9 days)"),
        "{out}"
    );
    let (_, out, _) = catalogc(d, "2027-03-02", &["lint"]);
    assert!(
        out.contains("tool `order_export` passed its sunset on 2027-03-01"),
        "{out}"
    );
    std::fs::write(
        d.join("catalogc.kdl"),
        "lint {\n    thresholds { sunset-warning-days 5; }\n}\n",
    )
    .unwrap();
    let (_, out, _) = catalogc(d, "2027-02-20", &["lint"]);
    assert!(!sunset(&out), "{out}");
    let (_, out, _) = catalogc(d, "2027-02-25", &["lint"]);
    assert!(sunset(&out), "{out}");
}

#[test]
fn changelog_lists_every_change_per_catalog_and_tool_in_three_formats() {
    let tmp = repo();
    let d = tmp.path();
    // A doc edit (patch), an accepted break and an experimental tool removed.
    edit(
        d,
        "{ doc \"The order reference.\"; }",
        "{ doc \"The order's reference.\"; }",
    );
    edit(
        d,
        "        field \"note\" \"string\" max-length=200 { doc \"A note for the audit log.\"; }\n",
        "",
    );
    remove_tool(d, "order_list");
    std::fs::write(
        d.join("catalogc.kdl"),
        "accept tool=\"order_get\" kind=\"input-field-removed\" reason=\"Unused.\"\n",
    )
    .unwrap();
    let (code, md, err) = catalogc(d, TODAY, &["changelog", "--against", "HEAD"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        md.starts_with("## Changelog\n\n### Catalog `shop` `1.0.0` → `1.0.0`\n"),
        "{md}"
    );
    assert!(
        md.contains("#### `order_get` `1.0.0` → `1.0.0` (changed)\n"),
        "{md}"
    );
    assert!(
        md.contains("- **patch** `compat/input-doc-changed`"),
        "{md}"
    );
    assert!(
        md.contains("- **patch** `compat/input-field-removed` "),
        "{md}"
    );
    assert!(md.contains(" (`accepted: Unused.`)\n"), "{md}");
    assert!(
        md.contains("#### `order_list` `1.0.0` → `—` (removed)\n"),
        "{md}"
    );
    assert!(
        !md.contains("order_export"),
        "unchanged tools are left out: {md}"
    );

    let (_, out, _) = catalogc(
        d,
        TODAY,
        &["changelog", "--against", "HEAD", "--format", "json"],
    );
    let v = json(&out);
    let tools = v["catalogs"][0]["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 2, "{v}");
    assert_eq!(tools[1]["status"], "removed");
    assert_eq!(tools[1]["changes"][0]["standing"], "experimental");

    let (_, html, _) = catalogc(
        d,
        TODAY,
        &["changelog", "--against", "HEAD", "--format", "html"],
    );
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("(accepted: Unused.)</li>"), "{html}");
    assert!(
        html.contains("<h3><code>order_list</code> 1.0.0 → — (removed)</h3>"),
        "{html}"
    );

    // Nothing changed: one line says so.
    let tmp = repo();
    let (_, md, _) = catalogc(tmp.path(), TODAY, &["changelog", "--against", "HEAD"]);
    assert_eq!(md, "## Changelog\n\nNo changes.\n");
}

#[test]
fn overrides_set_levels_for_the_files_they_match_in_lint_and_breaking() {
    let tmp = repo();
    let d = tmp.path();
    std::fs::create_dir_all(d.join("catalogs/legacy")).unwrap();
    // A legacy tool with a camelCase name: naming/tool-name reports it outside the override.
    let legacy = CATALOG
        .replace("catalog \"shop\"", "catalog \"legacy\"")
        .replace("order_get", "orderGet")
        .replace("order_list", "legacy_order_list")
        .replace("order_export", "legacy_order_export");
    std::fs::write(d.join("catalogs/legacy/legacy.kdl"), &legacy).unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "legacy"]);
    let (_, out, _) = catalogc(d, TODAY, &["lint"]);
    assert!(out.contains("naming/tool-name"), "{out}");
    std::fs::write(
        d.join("catalogc.kdl"),
        "override \"catalogs/legacy/**\" {\n    rule \"naming/tool-name\" level=\"off\"\n    rule \"compat/tool-removed\" level=\"off\"\n    rule \"catalog\" level=\"info\"\n}\n",
    )
    .unwrap();
    let (_, out, _) = catalogc(d, TODAY, &["lint", "--format", "json"]);
    let v = json(&out);
    let findings = v["diagnostics"].as_array().cloned().expect("diagnostics");
    let in_legacy = |rule: &str| {
        findings
            .iter()
            .any(|f| f["rule"] == rule && f["file"].as_str().is_some_and(|p| p.contains("legacy")))
    };
    assert!(!in_legacy("naming/tool-name"), "{out}");
    // `catalog` findings in the legacy file are infos now (the sunset is near at this date).
    let (_, out, _) = catalogc(d, "2027-02-20", &["lint", "--format", "json"]);
    let v = json(&out);
    let levels: Vec<(&str, &str)> = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|f| f["rule"] == "catalog/sunset-approaching")
        .map(|f| {
            (
                f["file"].as_str().unwrap_or(""),
                f["level"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        levels,
        [
            ("catalogs/legacy/legacy.kdl", "info"),
            ("catalogs/shop.kdl", "warn")
        ],
        "{out}"
    );

    // breaking: removing a tool from a legacy file is turned off there, not elsewhere.
    let p = d.join("catalogs/legacy/legacy.kdl");
    let text = std::fs::read_to_string(&p).unwrap();
    let start = text.find("tool \"legacy_order_list\"").unwrap();
    let end = text[start..].find("\n}\n").map(|i| start + i + 3).unwrap();
    std::fs::write(&p, format!("{}{}", &text[..start], &text[end..])).unwrap();
    edit_file(
        &p,
        "catalog \"legacy\" version=\"1.0.0\"",
        "catalog \"legacy\" version=\"1.0.1\"",
    );
    let (code, out, _) = catalogc(
        d,
        TODAY,
        &["breaking", "--against", "HEAD", "--policy", "no-major"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("(turned off for this file in catalogc.kdl)"),
        "{out}"
    );
    remove_tool(d, "order_list");
    let (code, out, _) = catalogc(
        d,
        TODAY,
        &["breaking", "--against", "HEAD", "--policy", "no-major"],
    );
    assert_eq!(
        code, 1,
        "the override does not reach catalogs/shop.kdl: {out}"
    );

    // A misspelled rule is an error with the closest ID.
    std::fs::write(
        d.join("catalogc.kdl"),
        "override \"catalogs/legacy/**\" { rule \"naming/tool-nam\" level=\"off\"; }\n",
    )
    .unwrap();
    let (code, _, err) = catalogc(d, TODAY, &["lint"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("did you mean `naming/tool-name`?"), "{err}");
}

fn edit_file(p: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(p).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::write(p, text.replacen(from, to, 1)).unwrap();
}
