//! End to end through the real binary: a throwaway git repository, `breaking --against`,
//! every output format, and `lock` / `lock --check`.

mod support;

use assert_cmd::Command;
use std::path::Path;
use support::git;

const CATALOG: &str = r#"catalog "billing" version="1.4.0" {
    summary "Invoices of the authenticated tenant."
}

tool "invoice_list" version="1.2.0" {
    summary "List open or overdue invoices."
    when "Use to look up invoices by status."
    when-not "Not for payments; use payment_list."
    effect "read"
    input {
        field "status" "string" required=#true {
            doc "Invoice status to filter by."
            enum "open" "overdue"
        }
        field "page_size" "integer" min=1 max=50 default=20 { doc "Page size."; }
    }
    output {
        field "total" "integer" required=#true min=0 { doc "Number of invoices."; }
    }
}

tool "payment_list" version="1.0.0" {
    summary "List payments."
    when "Use to look up payments."
    when-not "Not for invoices; use invoice_list."
    effect "read"
    input {
        field "since" "timestamp" { doc "Oldest payment date."; }
    }
}
"#;

fn catalogc(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("catalogc")
        .expect("binary")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn repo_with_catalog() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path();
    git(d, &["init", "-q"]);
    std::fs::create_dir_all(d.join("catalogs")).unwrap();
    std::fs::write(d.join("catalogs/billing.kdl"), CATALOG).unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "catalog"]);
    tmp
}

fn edit(d: &Path, from: &str, to: &str) {
    let p = d.join("catalogs/billing.kdl");
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
}

/// A required input field added (major), an output enum... : a PR that breaks callers.
fn breaking_edit(d: &Path) {
    edit(
        d,
        r#"        field "page_size""#,
        "        field \"region\" \"string\" required=#true max-length=8 { doc \"Region code.\"; }\n        field \"page_size\"",
    );
    edit(
        d,
        r#"summary "List payments.""#,
        r#"summary "List payments received.""#,
    );
}

#[test]
fn breaking_against_head_in_a_throwaway_repository() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    let (code, out, err) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.contains("0 change(s)"), "{out}");

    breaking_edit(d);
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("compat/input-field-required-added"), "{out}");
    assert!(out.contains("suggested 2.0.0"), "{out}");
    assert!(out.contains("re-run the tool-choice evaluation"), "{out}");
    // Both sides' locations: the old one read from git.
    assert!(out.contains("old HEAD:catalogs/billing.kdl:"), "{out}");
    insta::assert_snapshot!("breaking_human", out);
    // The work tree and the index are untouched.
    let text = std::fs::read_to_string(d.join("catalogs/billing.kdl")).unwrap();
    assert!(text.contains("\"region\""));
    let st = std::process::Command::new("git")
        .args(["status", "--porcelain"])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&st.stdout),
        " M catalogs/billing.kdl\n"
    );

    let (code, json, _) = catalogc(d, &["breaking", "--against", "HEAD", "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let tool = &v["catalogs"][0]["tools"][0];
    assert_eq!(tool["name"], "invoice_list");
    assert_eq!(tool["required"], "major");
    assert_eq!(tool["suggested_version"], "2.0.0");
    assert_eq!(tool["ok"], false);
    assert_eq!(
        tool["changes"][0]["rule"],
        "compat/input-field-required-added"
    );
    assert_eq!(tool["changes"][0]["path"], "input.region");
    assert_eq!(tool["changes"][0]["line"], 15);
    insta::assert_json_snapshot!("breaking_json", v);

    let (_, md, _) = catalogc(
        d,
        &["breaking", "--against", "HEAD", "--format", "markdown"],
    );
    insta::assert_snapshot!("breaking_markdown", md);
    let (_, gh, _) = catalogc(d, &["breaking", "--against", "HEAD", "--format", "github"]);
    insta::assert_snapshot!("breaking_github", gh);
    let (_, sarif, _) = catalogc(d, &["breaking", "--against", "HEAD", "--format", "sarif"]);
    let s: serde_json::Value = serde_json::from_str(&sarif).expect("sarif");
    assert_eq!(s["version"], "2.1.0");
    let results = s["runs"][0]["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .any(|r| r["ruleId"] == "compat/version-unchanged" && r["level"] == "error")
    );
    assert!(
        results
            .iter()
            .all(|r| r["partialFingerprints"]["catalogc/v1"].is_string())
    );

    // Bumped enough: compatible, but --policy no-major still refuses the major change.
    edit(
        d,
        r#"tool "invoice_list" version="1.2.0""#,
        r#"tool "invoice_list" version="2.0.0""#,
    );
    edit(
        d,
        r#"tool "payment_list" version="1.0.0""#,
        r#"tool "payment_list" version="1.0.1""#,
    );
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "catalog version still 1.4.0: {out}");
    edit(
        d,
        r#"catalog "billing" version="1.4.0""#,
        r#"catalog "billing" version="2.0.0""#,
    );
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = catalogc(
        d,
        &["breaking", "--against", "HEAD", "--policy", "no-major"],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("compat/policy-no-major"), "{out}");

    // A folder works as the old side too.
    std::fs::create_dir_all(d.join("old")).unwrap();
    std::fs::write(d.join("old/billing.kdl"), CATALOG).unwrap();
    let (code, out, _) = catalogc(d, &["breaking", "--against", "old", "catalogs"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("compat/input-field-required-added"), "{out}");
}

#[test]
fn a_revision_that_does_not_exist_is_exit_2_with_one_line() {
    let tmp = repo_with_catalog();
    let (code, out, err) = catalogc(tmp.path(), &["breaking", "--against", "no-such-branch"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("`no-such-branch` does not exist"), "{err}");
}

#[test]
fn lock_and_lock_check() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    let (code, _, _) = catalogc(d, &["lock", "--check"]);
    assert_eq!(code, 1, "missing lock fails the check");

    let (code, out, _) = catalogc(d, &["lock"]);
    assert_eq!(code, 0, "{out}");
    let lock = std::fs::read_to_string(d.join("catalogs/billing.lock")).unwrap();
    assert!(
        lock.contains(r#"tool "invoice_list" version="1.2.0""#),
        "{lock}"
    );
    assert_eq!(lock.matches("\"sha256:").count(), 8, "{lock}");
    let (code, out, _) = catalogc(d, &["lock", "--check"]);
    assert_eq!(code, 0, "{out}");

    // A contract edit without a version bump: the case the lock exists for.
    edit(d, "max=50 default=20", "max=40 default=20");
    let (code, out, _) = catalogc(d, &["lock", "--check"]);
    assert_eq!(code, 1);
    assert!(
        out.contains(
            "tool `invoice_list`: the input, contract hash changed but the version is still 1.2.0"
        ),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("catalogs/billing.lock")).unwrap(),
        lock,
        "--check writes nothing"
    );

    // Bumped but not re-locked: stale.
    edit(
        d,
        r#"tool "invoice_list" version="1.2.0""#,
        r#"tool "invoice_list" version="2.0.0""#,
    );
    let (code, out, _) = catalogc(d, &["lock", "--check"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("version 2.0.0 but the lock says 1.2.0"),
        "{out}"
    );
    let (code, _, _) = catalogc(d, &["lock"]);
    assert_eq!(code, 0);
    let (code, out, _) = catalogc(d, &["lock", "--check"]);
    assert_eq!(code, 0, "{out}");

    std::fs::write(d.join("catalogs/billing.lock"), "lock version=99\n").unwrap();
    let (code, _, err) = catalogc(d, &["lock", "--check"]);
    assert_eq!(code, 2);
    assert!(err.contains("unsupported lock format"), "{err}");
}

#[test]
fn explain_documents_every_change_kind_and_version_check() {
    let ids = catalogc::compat::kinds::Kind::ALL
        .iter()
        .map(|k| k.id())
        .chain(
            catalogc::compat::version::VERSION_RULES
                .iter()
                .map(|(id, _)| *id),
        );
    for id in ids {
        let out = Command::cargo_bin("catalogc")
            .expect("binary")
            .args(["explain", id])
            .output()
            .expect("catalogc runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "explain {id}: {out:?}");
        assert!(stdout.starts_with(&format!("# {id} (")), "{stdout}");
    }
    let out = Command::cargo_bin("catalogc")
        .expect("binary")
        .args(["explain", "compat/input-field-requird-added"])
        .output()
        .expect("catalogc runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("did you mean `compat/input-field-required-added`"),
        "{out:?}"
    );
}

/// `lock` writes through a temporary file and a rename, and skips an unchanged lock, so
/// `lock --check` running beside it never reads a truncated file (it used to fail 23 of 30).
#[test]
fn concurrent_lock_and_lock_check_never_fail_spuriously() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    let (code, out, _) = catalogc(d, &["lock"]);
    assert_eq!(code, 0, "{out}");
    // A comment makes the first concurrent `lock` really rewrite the file.
    let lock_path = d.join("catalogs/billing.lock");
    let mut lock = std::fs::read_to_string(&lock_path).unwrap();
    lock.push_str("// a comment `lock` drops\n");
    std::fs::write(&lock_path, lock).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("catalogc");
    let children: Vec<_> = (0..30)
        .map(|i| {
            let mut c = std::process::Command::new(&bin);
            c.current_dir(d).arg("lock");
            if i % 3 != 0 {
                c.arg("--check");
            }
            c.stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawns")
        })
        .collect();
    let failures: Vec<String> = children
        .into_iter()
        .map(|c| c.wait_with_output().expect("waits"))
        .filter(|o| !o.status.success())
        .map(|o| {
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
    let (code, out, _) = catalogc(d, &["lock"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("unchanged catalogs/billing.lock"), "{out}");
    let leftovers: Vec<_> = std::fs::read_dir(d.join("catalogs"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// `breaking --against HEAD "$PWD/catalogs"`: the absolute path is read at the revision
/// relative to the repository; it used to find nothing there, so the breaking change passed.
#[test]
fn an_absolute_path_is_compared_like_a_relative_one() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    breaking_edit(d);
    let abs = std::fs::canonicalize(d.join("catalogs")).unwrap();
    let abs = abs.to_string_lossy();
    let (code, out, err) = catalogc(d, &["breaking", "--against", "HEAD", &abs]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("compat/input-field-required-added"), "{out}");
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD", "catalogs"]);
    assert_eq!(code, 1, "{out}");
}

/// Renaming the catalog file, or moving a tool to another catalog, changes no tool: tools
/// are matched by name across catalogs, so a breaking change in a moved tool still fails.
#[test]
fn renamed_files_and_moved_tools_are_matched_by_tool_name() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    git(d, &["mv", "catalogs/billing.kdl", "catalogs/invoicing.kdl"]);
    let (code, out, err) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert!(out.contains("0 change(s)"), "{out}");
    git(d, &["mv", "catalogs/invoicing.kdl", "catalogs/billing.kdl"]);

    // payment_list moves to a new catalog `payments`, with a breaking change on the way.
    let p = d.join("catalogs/billing.kdl");
    let text = std::fs::read_to_string(&p).unwrap();
    let at = text.find("tool \"payment_list\"").unwrap();
    std::fs::write(&p, &text[..at]).unwrap();
    let moved = text[at..].replace(
        "field \"since\" \"timestamp\" {",
        "field \"since\" \"timestamp\" required=#true {",
    );
    std::fs::write(
        d.join("catalogs/payments.kdl"),
        format!("catalog \"payments\" version=\"1.0.0\"\n\n{moved}"),
    )
    .unwrap();
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("compat/tool-removed"), "{out}");
    assert!(out.contains("input-field-made-required"), "{out}");
}

/// A deleted catalog whose tools exist nowhere else removes them (major) and can declare no
/// bump: exit 1, as for any major change without a major version (docs/breaking.md).
#[test]
fn a_deleted_catalog_with_tools_fails_the_check() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    std::fs::write(
        d.join("catalogs/other.kdl"),
        "catalog \"other\" version=\"1.0.0\"\n",
    )
    .unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "other"]);
    std::fs::remove_file(d.join("catalogs/billing.kdl")).unwrap();
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("compat/catalog-removed"), "{out}");
    assert!(out.contains("compat/tool-removed"), "{out}");
    // Deleting a catalog with no tools left is no change.
    git(d, &["rm", "-q", "catalogs/billing.kdl"]);
    git(d, &["commit", "-qm", "billing gone"]);
    std::fs::remove_file(d.join("catalogs/other.kdl")).unwrap();
    std::fs::write(
        d.join("catalogs/billing.kdl"),
        CATALOG.replacen("catalog \"billing\"", "catalog \"renamed\"", 1),
    )
    .unwrap();
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 0, "{out}");
}

/// Moving `catalogs/` to `api/` and making a field required: `api` did not exist at the
/// revision, and reading it as "no catalogs then" reported every tool as added (exit 0).
#[test]
fn a_path_missing_at_the_revision_is_an_error_not_all_new() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    breaking_edit(d);
    std::fs::rename(d.join("catalogs"), d.join("api")).unwrap();
    let (code, out, err) = catalogc(d, &["breaking", "--against", "HEAD", "api"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("`api` does not exist at `HEAD`"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // One missing path among existing ones is refused too.
    std::fs::rename(d.join("api"), d.join("catalogs")).unwrap();
    std::fs::create_dir(d.join("api")).unwrap();
    let (code, _, err) = catalogc(d, &["breaking", "--against", "HEAD", "catalogs", "api"]);
    assert_eq!(code, 2, "{err}");
}

/// A folder named exactly like the base commit held the new catalogs, so `--against SHA`
/// compared the new side with itself (0 changes, exit 0): a name that is both a revision and
/// a path is refused, and `SHA^{commit}` (what the Action passes) is always the revision.
#[test]
fn a_folder_named_like_the_base_commit_does_not_shadow_it() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(d)
        .output()
        .unwrap();
    let sha = String::from_utf8_lossy(&out.stdout).trim().to_string();
    breaking_edit(d);
    for name in [sha.clone(), sha[..12].to_string(), "HEAD".to_string()] {
        std::fs::create_dir_all(d.join(&name)).unwrap();
        std::fs::copy(
            d.join("catalogs/billing.kdl"),
            d.join(&name).join("billing.kdl"),
        )
        .unwrap();
        let (code, out, err) = catalogc(d, &["breaking", "--against", &name]);
        assert_eq!(code, 2, "{name}: {out}{err}");
        assert!(
            err.contains("names both a git revision and a file or folder"),
            "{err}"
        );
        let rev = format!("{name}^{{commit}}");
        let (code, out, err) = catalogc(d, &["breaking", "--against", &rev]);
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert!(out.contains("compat/input-field-required-added"), "{out}");
        // `./NAME` is the folder: the new catalogs against themselves.
        let path = format!("./{name}");
        let (code, out, err) = catalogc(d, &["breaking", "--against", &path]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        assert!(out.contains("0 change(s)"), "{out}");
    }
    // A folder named `SHA^{commit}` cannot take the revision's place either.
    let rev = format!("{sha}^{{commit}}");
    std::fs::create_dir_all(d.join(&rev)).unwrap();
    std::fs::copy(
        d.join("catalogs/billing.kdl"),
        d.join(&rev).join("billing.kdl"),
    )
    .unwrap();
    let (code, out, err) = catalogc(d, &["breaking", "--against", &rev]);
    assert_eq!(code, 1, "{out}{err}");
}

/// A backtick in a field name ended its code span in `breaking --format markdown` (which the
/// Action appends to the job summary), so raw HTML, links and mentions rendered; every name
/// and message now goes through the docs' Markdown helpers.
#[test]
fn a_backtick_in_a_field_name_cannot_escape_markdown_code_spans() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    let name = "x` <img src=x onerror=alert(1)> [link](https://evil.example) @admin `y|z";
    let escaped = name.replace('\\', "\\\\").replace('"', "\\\"");
    edit(
        d,
        r#"        field "page_size""#,
        &format!(
            "        field \"{escaped}\" \"string\" max-length=8 {{ doc \"Code.\"; }}\n        field \"page_size\""
        ),
    );
    let (code, md, err) = catalogc(
        d,
        &["breaking", "--against", "HEAD", "--format", "markdown"],
    );
    assert_eq!(code, 1, "{md}{err}");
    let html = {
        use pulldown_cmark::{Options, Parser, html};
        let mut out = String::new();
        html::push_html(&mut out, Parser::new_ext(&md, Options::ENABLE_TABLES));
        out
    };
    assert!(!html.contains("<img"), "{html}");
    assert!(!html.contains("<a "), "{html}");
    // Outside code, no part of the name is left to render (a mention, a link).
    let outside_code: String = html
        .split("<code>")
        .map(|part| part.split_once("</code>").map_or(part, |(_, rest)| rest))
        .collect();
    assert!(!outside_code.contains("@admin"), "{outside_code}");
    assert!(!outside_code.contains("evil.example"), "{outside_code}");
    // The name shows whole, inside code, in a table that keeps its five columns.
    assert!(html.contains("<code>input.x` &lt;img"), "{html}");
    let rows = html
        .split("<tr>")
        .filter(|r| r.contains("input-field-optional-added"));
    for row in rows {
        assert_eq!(row.matches("<td>").count(), 5, "{row}");
    }
}

/// A write tool's `resource key=` through the binary: removing it is major for `breaking`
/// (a minor bump fails, a major one passes), `changelog` lists it with its class, and `lock
/// --check` sees the contract hash move; adding it is minor.
#[test]
fn resource_key_changes_are_classified_by_breaking_changelog_and_lock() {
    let tmp = repo_with_catalog();
    let d = tmp.path();
    edit(
        d,
        "tool \"payment_list\"",
        r#"tool "invoice_void" version="1.0.0" {
    summary "Void one invoice."
    when "Use when the user asks to cancel an invoice."
    when-not "Not for listing invoices; use invoice_list."
    effect "update"
    resource key="invoice_reference"
    input {
        field "invoice_reference" "string" required=#true max-length=16 { doc "The invoice."; }
    }
}

tool "payment_list""#,
    );
    let (code, out, _) = catalogc(d, &["lock"]);
    assert_eq!(code, 0, "{out}");
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "void"]);

    edit(d, "    resource key=\"invoice_reference\"\n", "");
    let (code, out, _) = catalogc(d, &["lock", "--check"]);
    assert_eq!(code, 1, "the contract hash moved without a bump: {out}");
    assert!(out.contains("invoice_void"), "{out}");
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("compat/tool-resource-removed"), "{out}");
    assert!(out.contains("suggested 2.0.0"), "{out}");
    let (_, md, _) = catalogc(d, &["changelog", "--against", "HEAD"]);
    assert!(md.contains("resource key removed"), "{md}");
    let bump = |node: &str, from: &str, to: &str| {
        edit(
            d,
            &format!("{node} version=\"{from}\""),
            &format!("{node} version=\"{to}\""),
        );
    };
    bump("tool \"invoice_void\"", "1.0.0", "1.1.0");
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 1, "a minor bump is not enough: {out}");
    bump("tool \"invoice_void\"", "1.1.0", "2.0.0");
    bump("catalog \"billing\"", "1.4.0", "2.0.0");
    let (code, out, _) = catalogc(d, &["breaking", "--against", "HEAD"]);
    assert_eq!(code, 0, "{out}");

    // The reverse edit, committed and compared: adding the key is minor.
    git(d, &["commit", "-qam", "no key"]);
    edit(
        d,
        "    effect \"update\"\n",
        "    effect \"update\"\n    resource key=\"invoice_reference\"\n",
    );
    let (_, json, _) = catalogc(d, &["breaking", "--against", "HEAD", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    let tools = v["catalogs"][0]["tools"].as_array().expect("tools");
    let void = tools
        .iter()
        .find(|t| t["name"] == "invoice_void")
        .expect("invoice_void");
    assert_eq!(void["required"], "minor", "{json}");
    assert_eq!(void["changes"][0]["rule"], "compat/tool-resource-added");
}
