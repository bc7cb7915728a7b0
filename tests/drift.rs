//! `catalogc drift` end to end: the real binary, as an MCP client (rmcp), against
//! `catalogc serve --mock` and against a stdio server that pages the `tools/list` of a
//! catalog (`catalogc export tools-json`). The catalog's own server shows no drift; servers
//! built from edited copies of the catalog show each edit with its class.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn billing() -> String {
    std::fs::read_to_string(root().join("catalogs/billing.kdl")).unwrap_or_default()
}

fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("catalogc")
        .unwrap_or_else(|e| panic!("{e}"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("catalogc {args:?}: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A folder with `catalog.kdl` (the catalog as written) and `served.json` (the tools/list of
/// `served`, the catalog the server was built from).
fn setup(served: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let d = dir.path();
    std::fs::write(d.join("catalog.kdl"), billing()).unwrap_or_default();
    std::fs::write(d.join("served.kdl"), served).unwrap_or_default();
    let (code, json, err) = run(d, &["export", "tools-json", "served.kdl"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(d.join("served.json"), json).unwrap_or_default();
    dir
}

/// Which server `drift` talks to: `catalogc serve --mock served.kdl`, or the stdio test
/// server serving `served.json` two tools per page (so every page must be fetched).
#[derive(Clone, Copy)]
enum Server {
    Mock,
    Paged,
}

/// `catalogc drift catalog.kdl --format FORMAT --server …`.
fn drift(dir: &Path, format: &str, server: Server) -> (i32, String, String) {
    let script = root().join("tests/support/fake_mcp_server.py");
    let script = script.to_string_lossy().into_owned();
    let bin = env!("CARGO_BIN_EXE_catalogc");
    let command: Vec<&str> = match server {
        Server::Mock => vec![bin, "serve", "--mock", "served.kdl"],
        Server::Paged => vec!["python3", &script, "served.json"],
    };
    let mut args = vec!["drift", "catalog.kdl", "--format", format, "--server"];
    args.extend(command);
    run(dir, &args)
}

/// (rule, tool, path, level) of every drift.
fn drifts(dir: &Path, server: Server) -> (i32, Vec<Row>) {
    let (code, out, err) = drift(dir, "json", server);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    let list = v["diagnostics"].as_array().cloned().unwrap_or_default();
    let s = |x: &Value| x.as_str().unwrap_or_default().to_string();
    let rows = list
        .iter()
        .map(|f| (s(&f["rule"]), s(&f["tool"]), s(&f["path"]), s(&f["level"])))
        .collect();
    (code, rows)
}

/// (rule, tool, path, level) of one drift.
type Row = (String, String, String, String);

fn row(rule: &str, tool: &str, path: &str, level: &str) -> Row {
    (rule.into(), tool.into(), path.into(), level.into())
}

#[test]
fn the_catalogs_own_server_does_not_drift() {
    let dir = setup(&billing());
    for server in [Server::Mock, Server::Paged] {
        let (code, out, err) = drift(dir.path(), "human", server);
        assert_eq!(code, 0, "{out}{err}");
        assert!(out.contains("0 errors"), "{out}");
    }
}

/// Each seeded edit of the served catalog, and the drift it must show: (what, edited text,
/// expected row, whether it is the only row).
fn seeded_edits() -> Vec<(&'static str, String, Row, bool)> {
    let text = billing();
    let cut = text
        .find("tool \"invoice_send_reminder\"")
        .unwrap_or(text.len());
    let reference = "        field \"invoice_reference\" \"string\" required=#true max-length=32";
    let read = "use invoice_list for that.\"\n    effect \"read\"";
    vec![
        (
            "a removed tool is major",
            text[..cut].to_string(),
            row("compat/tool-removed", "invoice_send_reminder", "", "error"),
            true,
        ),
        (
            "a new required field is major",
            text.replacen(
                reference,
                &format!(
                    "        field \"currency\" \"string\" required=#true max-length=3\n{reference}"
                ),
                1,
            ),
            row(
                "compat/input-field-required-added",
                "invoice_get",
                "input.currency",
                "error",
            ),
            true,
        ),
        (
            "a changed description is patch",
            text.replacen("with reminder history.", "with its reminders.", 1),
            row(
                "compat/tool-selection-text-changed",
                "invoice_get",
                "description",
                "info",
            ),
            true,
        ),
        (
            // Built as if `invoice_get` wrote: no longer read-only, more side effect than
            // the catalog promises (the description's effect wording changes too).
            "a changed annotation is classified by effect",
            text.replacen(read, &read.replace("read\"", "update\""), 1),
            row(
                "compat/tool-effect-increased",
                "invoice_get",
                "annotations.readOnlyHint",
                "error",
            ),
            false,
        ),
    ]
}

#[test]
fn seeded_edits_are_reported_with_their_class() {
    for (what, served, expected, only) in seeded_edits() {
        assert_ne!(served, billing(), "{what}: the edit did not apply");
        let dir = setup(&served);
        let (code, rows) = drifts(dir.path(), Server::Mock);
        assert_eq!(code, 1, "{what}");
        if only {
            assert_eq!(rows, std::slice::from_ref(&expected), "{what}");
        } else {
            assert!(rows.contains(&expected), "{what}: {rows:?}");
        }
    }
}

#[test]
fn github_output_and_an_unreachable_server() {
    let text = billing().replacen("with reminder history.", "with its reminders.", 1);
    let dir = setup(&text);
    let (code, out, _) = drift(dir.path(), "github", Server::Paged);
    assert_eq!(code, 1);
    assert!(
        out.contains("::notice file=catalog.kdl")
            && out.contains("compat/tool-selection-text-changed"),
        "{out}"
    );
    let (code, _, err) = run(
        dir.path(),
        &["drift", "catalog.kdl", "--server", "/nonexistent/server"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("cannot start"), "{err}");
}
