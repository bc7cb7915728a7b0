//! `--profile NAME` on the command line: `lint --profile` reports each violation with its
//! `profile/…` rule, `serve --mock --profile` refuses to start on a violation (and
//! `forbid-mock`) and otherwise neither lists nor calls the profile's disabled tools.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

const CONFIG: &str = "tests/fixtures/profile/catalogc.kdl";

fn catalogc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_catalogc"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("catalogc runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn lint_profile_reports_a_destructive_tool_without_approval_and_a_disabled_tool_still_named() {
    let out = catalogc(&[
        "lint",
        "catalogs/billing.kdl",
        "tests/fixtures/profile/unapproved.kdl",
        "--config",
        CONFIG,
        "--profile",
        "production",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let found: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| {
            d["rule"]
                .as_str()
                .is_some_and(|r| r.starts_with("profile/"))
        })
        .map(|d| {
            let at = format!(
                "{}:{}",
                d["file"].as_str().unwrap_or_default(),
                d["line"].as_u64().unwrap_or_default()
            );
            (d["rule"].as_str().unwrap_or_default().to_string(), at)
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "profile/disabled-tool-named".to_string(),
                "catalogs/billing.kdl:35".to_string()
            ),
            (
                "profile/missing-approval".to_string(),
                "tests/fixtures/profile/unapproved.kdl:6".to_string()
            ),
        ],
        "{report:#}"
    );
    // Without --profile the same catalogs pass; the rules are documented.
    let out = catalogc(&["lint", "catalogs/billing.kdl", "--config", CONFIG]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = catalogc(&["explain", "profile/missing-approval"]);
    assert!(text(&out).contains("require-approval"), "{}", text(&out));
}

#[test]
fn an_unknown_profile_or_a_misspelled_tool_is_an_error() {
    let out = catalogc(&["lint", "catalogs", "--config", CONFIG, "--profile", "prod"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("declared: `production`, `notes`, `typo`"),
        "{}",
        text(&out)
    );
    let out = catalogc(&[
        "lint",
        "tests/python/guard.kdl",
        "--config",
        CONFIG,
        "--profile",
        "typo",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).contains("profile/unknown-tool"),
        "{}",
        text(&out)
    );
}

#[test]
fn serve_mock_refuses_a_profile_it_breaks() {
    // `production` forbids the mock (and the catalog breaks it besides).
    let out = catalogc(&[
        "serve",
        "--mock",
        "catalogs/billing.kdl",
        "--config",
        CONFIG,
        "--profile",
        "production",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let err = text(&out);
    assert!(err.contains("profile/mock-forbidden"), "{err}");
    assert!(err.contains("not serving"), "{err}");
}

#[test]
fn serve_mock_hides_and_refuses_the_disabled_tool() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_catalogc"))
        .args([
            "serve",
            "--mock",
            "tests/python/guard.kdl",
            "--config",
            CONFIG,
            "--profile",
            "notes",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("catalogc runs");
    let requests = [
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "note_rename", "arguments": {"note_reference": "NOTE-1", "title": "x"}}}),
    ];
    let mut stdin = child.stdin.take().expect("stdin");
    for r in &requests {
        writeln!(stdin, "{r}").expect("write");
    }
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut responses: Vec<Value> = stdout
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| serde_json::from_str(&l).ok())
        .take(3)
        .collect();
    drop(stdin);
    let _ = child.wait();
    responses.sort_by_key(|r| r["id"].as_u64());
    let listed: Vec<&str> = responses[1]["result"]["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(listed, ["note_get", "note_history"], "{responses:?}");
    assert_eq!(
        responses[2]["error"]["code"],
        json!(-32602),
        "{responses:?}"
    );
}

#[test]
fn export_vectors_adds_a_refusal_vector_per_disabled_tool() {
    let args = [
        "export",
        "vectors",
        "tests/python/guard.kdl",
        "--config",
        CONFIG,
    ];
    let plain = catalogc(&args);
    let out = catalogc(&[&args[..], &["--profile", "notes"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let lines = String::from_utf8_lossy(&out.stdout);
    let added: Vec<Value> = lines
        .lines()
        .skip(String::from_utf8_lossy(&plain.stdout).lines().count())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(added.len(), 1, "{lines}");
    assert_eq!(added[0]["tool"], "note_rename");
    assert_eq!(added[0]["expect"], "unknown-tool");
    assert_eq!(added[0]["instance"]["note_reference"], "NOTE-0");
}
