//! Traces end to end: `catalogc serve --mock --trace` writes lines valid against
//! docs/trace-line.schema.json and never a sensitive value, anywhere it writes; `catalogc
//! report` reads them (docs/report-output.schema.json), naming every bad line.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

mod support;

use support::root;

fn validator(schema: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs").join(schema)).expect("schema");
    let schema: Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"))
}

fn assert_valid(v: &jsonschema::Validator, value: &Value) {
    let errors: Vec<String> = v.iter_errors(value).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{value}: {errors:?}");
}

fn catalogc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_catalogc"))
}

/// `catalogc report ARGS…` run from the repository root.
fn run_report(args: &[&str]) -> std::process::Output {
    catalogc()
        .arg("report")
        .args(args)
        .current_dir(root())
        .output()
        .expect("catalogc runs")
}

const SECRET: &str = "hunter2-correct-horse-battery";
const SHORT_SECRET: &str = "zq7#";

/// `catalogc serve --mock CATALOG --trace TRACE EXTRA…` over stdio, initialized as a
/// 2025-11-25 client that answers input requests: the child, its stdin and its stdout, and
/// what it wrote so far.
fn serve_traced(
    catalog: &str,
    trace: &std::path::Path,
    extra: &[&str],
) -> (
    std::process::Child,
    std::process::ChildStdin,
    BufReader<std::process::ChildStdout>,
    String,
) {
    let mut child = catalogc()
        .args(["serve", "--mock", catalog, "--trace"])
        .arg(trace)
        .args(extra)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("catalogc serve runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut written = String::new();
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"elicitation": {"form": {}}},
        "clientInfo": {"name": "t", "version": "1"}}}),
    );
    recv(&mut stdout, &mut written);
    send(
        &mut stdin,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    (child, stdin, stdout, written)
}

fn send(stdin: &mut std::process::ChildStdin, m: Value) {
    writeln!(stdin, "{m}").expect("the server reads");
}

/// The server's next message, appended to `written` as sent.
fn recv(stdout: &mut BufReader<std::process::ChildStdout>, written: &mut String) -> Value {
    let mut line = String::new();
    stdout.read_line(&mut line).expect("the server answers");
    written.push_str(&line);
    serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
}

/// Drives a mock of tests/python/traced.kdl over stdio like a 2025-11-25 client that
/// answers approvals: the sensitive `secret` goes out valid, invalid and refused.
#[test]
fn the_server_writes_no_sensitive_value_and_schema_valid_trace_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let trace = dir.path().join("trace.jsonl");
    let (child, mut stdin, mut stdout, mut written) =
        serve_traced("tests/python/traced.kdl", &trace, &[]);
    let mut send = |m: Value| send(&mut stdin, m);
    let mut recv = |written: &mut String| recv(&mut stdout, written);
    let calls = [
        (
            json!({"label": "ci-token", "secret": SECRET, "idempotency_key": "k-0123456789abcdef"}),
            "accept",
        ),
        (
            json!({"label": "ci-token", "secret": SECRET, "idempotency_key": "k-0123456789abcdef"}),
            "accept",
        ),
        (
            json!({"label": "Bad!", "secret": SHORT_SECRET, "idempotency_key": "k-fedcba9876543210"}),
            "accept",
        ),
        (
            json!({"label": "other", "secret": SECRET, "idempotency_key": "k-aaaaaaaaaaaaaaaa"}),
            "decline",
        ),
    ];
    for (id, (arguments, answer)) in calls.iter().enumerate() {
        send(
            json!({"jsonrpc": "2.0", "id": id + 1, "method": "tools/call",
            "params": {"name": "secret_store", "arguments": arguments}}),
        );
        let mut m = recv(&mut written);
        while m["method"] == "elicitation/create" {
            send(
                json!({"jsonrpc": "2.0", "id": m["id"], "result": {"action": answer, "content": {}}}),
            );
            m = recv(&mut written);
        }
        assert_eq!(m["id"], json!(id + 1), "{m}");
    }
    drop(stdin);
    let out = child.wait_with_output().expect("the server exits");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines = std::fs::read_to_string(&trace).expect("the trace file");
    for (what, text) in [
        ("stdout", &written),
        ("stderr", &stderr.to_string()),
        ("trace", &lines),
    ] {
        for secret in [SECRET, SHORT_SECRET] {
            assert!(
                !text.contains(secret),
                "{what} holds a sensitive value:\n{text}"
            );
        }
    }
    let schema = validator("trace-line.schema.json");
    let parsed: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(parsed.len(), 4, "{lines}");
    for line in &parsed {
        assert_valid(&schema, line);
    }
    let field = |i: usize, f: &str| parsed[i][f].as_str().unwrap_or_default().to_string();
    assert_eq!(field(0, "catalogc.approval"), "granted");
    assert_eq!(field(0, "catalogc.idempotency"), "executed");
    assert_eq!(field(1, "catalogc.idempotency"), "replayed");
    assert_eq!(field(2, "catalogc.validation"), "invalid");
    assert_eq!(parsed[2]["catalogc.validation.violations"], 2);
    assert_eq!(field(3, "catalogc.approval"), "declined");
    // Calls 1 and 4 differ only in the sensitive field and the key: their argument
    // digests differ through the label and key alone.
    assert_eq!(
        field(0, "catalogc.arguments.digest"),
        field(1, "catalogc.arguments.digest")
    );
    assert_eq!(field(0, "mcp.session.id"), field(3, "mcp.session.id"));
}

/// The guard's decision is recorded where it is made, with the budget and its cap, and a
/// call whose handler ran carries the handler's start and end: the refused call has none.
#[test]
fn trace_lines_record_the_budget_decision_and_the_handler_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let trace = dir.path().join("trace.jsonl");
    let config = dir.path().join("catalogc.kdl");
    std::fs::write(&config, "guard { max-calls 2 }\n").expect("config");
    let config = config.to_string_lossy().to_string();
    let (child, mut stdin, mut stdout, mut written) =
        serve_traced("tests/python/guard.kdl", &trace, &["--config", &config]);
    for id in 1..=3 {
        send(
            &mut stdin,
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "note_get", "arguments": {"note_reference": "NOTE-1"}}}),
        );
        let answer = recv(&mut stdout, &mut written);
        assert_eq!(answer["id"], json!(id), "{answer}");
        // Each line is written before its call is answered.
        let lines = std::fs::read_to_string(&trace).expect("the trace file");
        assert_eq!(lines.lines().count(), id, "{lines}");
    }
    drop(stdin);
    child.wait_with_output().expect("the server exits");
    let schema = validator("trace-line.schema.json");
    let lines: Vec<Value> = std::fs::read_to_string(&trace)
        .expect("the trace file")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    for line in &lines {
        assert_valid(&schema, line);
    }
    for ran in &lines[..2] {
        assert_eq!(ran["catalogc.budget"], "ok", "{ran}");
        assert_eq!(ran.get("catalogc.budget.name"), None, "{ran}");
        let start = ran["catalogc.handler.start_us"].as_u64().expect("a start");
        let end = ran["catalogc.handler.end_us"].as_u64().expect("an end");
        assert!(start <= end, "{ran}");
    }
    assert!(
        lines[0]["catalogc.handler.end_us"].as_u64()
            <= lines[1]["catalogc.handler.start_us"].as_u64(),
        "one call after the other"
    );
    let refused = &lines[2];
    assert_eq!(
        refused["catalogc.error.code"], "BUDGET_EXCEEDED",
        "{refused}"
    );
    assert_eq!(refused["catalogc.budget"], "exceeded");
    assert_eq!(refused["catalogc.budget.name"], "max-calls");
    assert_eq!(refused["catalogc.budget.limit"], 2);
    assert_eq!(refused.get("catalogc.handler.start_us"), None, "{refused}");
    assert_eq!(refused.get("catalogc.validation"), None, "{refused}");
}

#[test]
fn the_recorded_trace_lines_match_their_schema() {
    let schema = validator("trace-line.schema.json");
    let text = std::fs::read_to_string(root().join("tests/fixtures/traces/mock-session.jsonl"))
        .expect("fixture");
    for line in text.lines() {
        assert_valid(&schema, &serde_json::from_str(line).expect("JSON"));
    }
}

#[test]
fn report_json_matches_its_schema_in_every_format() {
    let schema = validator("report-output.schema.json");
    let out = run_report(&[
        "tests/fixtures/traces/mock-session.jsonl",
        "--format",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_valid(&schema, &report);
    assert_eq!(report["total"]["calls"], 10);
    for format in ["text", "markdown"] {
        let out = run_report(&[
            "tests/fixtures/traces/mock-session.jsonl",
            "--format",
            format,
        ]);
        assert_eq!(out.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&out.stdout).contains("secret_store"));
    }
}

#[test]
fn report_names_every_bad_line_and_still_reports() {
    let out = run_report(&[
        "tests/fixtures/traces/malformed.jsonl",
        "tests/fixtures/traces/absent.jsonl",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for n in [2, 3, 5, 6, 7, 8, 9] {
        assert!(
            stderr.contains(&format!("tests/fixtures/traces/malformed.jsonl:{n}: ")),
            "line {n}: {stderr}"
        );
    }
    assert!(stderr.contains("absent.jsonl: cannot read"), "{stderr}");
    assert_eq!(stderr.lines().count(), 8, "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["total"]["calls"], 2);
}
