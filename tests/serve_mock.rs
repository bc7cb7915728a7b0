//! `catalogc serve --mock`: the shapes it checks against are the generated code's, and the
//! real binary answers MCP over stdio as docs/cli.md says.

use catalogc::runtime::serde_json::{self, Value, json};
use catalogc::runtime::{Bound, Shape, Validate};
use catalogc::testing::tool_error;
use catalogc_consumer::{billing, payments};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A shape as plain JSON, named shapes resolved, so two shapes compare by what they check.
fn describe(shape: &Shape) -> Value {
    let bound = |b: Option<Bound>| match b {
        None => Value::Null,
        Some(Bound::Int(i)) => json!(i),
        Some(Bound::Float(f)) => json!(f),
    };
    match shape {
        Shape::String(r) => json!({
            "string": [r.min_length, r.max_length, r.pattern.map(|p| p.source()),
                       r.format.map(|f| f.as_str()), r.values]
        }),
        Shape::Integer(r) | Shape::Number(r) => json!({
            (if matches!(shape, Shape::Integer(_)) { "integer" } else { "number" }):
                [bound(r.min), bound(r.max), bound(r.exclusive_min), bound(r.exclusive_max),
                 bound(r.multiple_of),
                 r.values.map(|vs| vs.iter().map(|&b| bound(Some(b))).collect::<Vec<_>>())]
        }),
        Shape::Boolean => json!("boolean"),
        Shape::Array(a) => json!({
            "array": [a.min_items, a.max_items, a.unique, describe(&a.items)]
        }),
        Shape::Object(fields) => Value::Array(
            fields
                .iter()
                .map(|f| json!([f.name, f.required, describe(&f.shape)]))
                .collect(),
        ),
        Shape::Named(f) => describe(f()),
        Shape::Map(m) => json!({"map": [m.min_entries, m.max_entries, describe(&m.values)]}),
        Shape::Any => json!("any"),
        Shape::Nullable(inner) => json!({"nullable": describe(inner)}),
        Shape::Const(c) => json!({"const": [format!("{:?}", c.value), describe(&c.base)]}),
        Shape::Union(u) => json!({
            "union": [u.discriminator, u.variants.iter()
                .map(|(name, s)| json!([name, describe(s)])).collect::<Vec<_>>()]
        }),
    }
}

#[test]
fn the_mock_checks_against_the_shapes_generated_code_states() {
    let loaded = catalogc::testing::load_clean(&[PathBuf::from("catalogs")]);
    let artifacts = catalogc::testing::artifacts(&loaded.project);
    let generated: Vec<(&str, &Shape, &Shape)> = vec![
        (
            "invoice_list",
            billing::invoice_list::Input::shape(),
            billing::invoice_list::Output::shape(),
        ),
        (
            "invoice_get",
            billing::invoice_get::Input::shape(),
            billing::invoice_get::Output::shape(),
        ),
        (
            "invoice_send_reminder",
            billing::invoice_send_reminder::Input::shape(),
            billing::invoice_send_reminder::Output::shape(),
        ),
        (
            "payment_transfer_preview",
            payments::payment_transfer_preview::Input::shape(),
            payments::payment_transfer_preview::Output::shape(),
        ),
        (
            "payment_transfer_submit",
            payments::payment_transfer_submit::Input::shape(),
            payments::payment_transfer_submit::Output::shape(),
        ),
        (
            "payment_transfer_status",
            payments::payment_transfer_status::Input::shape(),
            payments::payment_transfer_status::Output::shape(),
        ),
    ];
    let mut compared = 0;
    for (ci, cat) in loaded.project.catalogs.iter().enumerate() {
        for (ti, tool) in cat.tools.iter().enumerate() {
            let contract = artifacts.tool(ci, ti).expect("contract");
            let (_, input, output) = generated
                .iter()
                .find(|(n, _, _)| *n == tool.name.value)
                .expect("a generated module per tool");
            let mock_in =
                catalogc::contract::shape::shape_of_text(contract.input_schema()).expect("input");
            assert_eq!(describe(mock_in), describe(input), "{}", tool.name.value);
            let schema_text = contract.output_schema().expect("output schema");
            let mock_out = catalogc::contract::shape::shape_of_text(schema_text).expect("output");
            let schema = &catalogc::contract::schema::parse(schema_text);
            assert_eq!(describe(mock_out), describe(output), "{}", tool.name.value);
            // The mock's answer is an output the generated type accepts.
            let answer = catalogc::mock::sample::sample(schema);
            assert!(
                catalogc::runtime::validate::check(output, &answer).is_empty(),
                "{}: {answer}",
                tool.name.value
            );
            compared += 1;
        }
    }
    assert_eq!(compared, generated.len());
}

/// Runs `catalogc serve --mock ARGS` with `requests` on stdin (after a 2025-11-25
/// `initialize`) and returns the responses by id.
fn serve(args: &[&str], requests: &[Value]) -> Vec<Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_catalogc"))
        .arg("serve")
        .arg("--mock")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("catalogc runs");
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (i, r) in requests.iter().enumerate() {
        let mut r = r.clone();
        r["jsonrpc"] = json!("2.0");
        r["id"] = json!(i + 1);
        lines.push(r);
    }
    let mut stdin = child.stdin.take().expect("stdin");
    for l in &lines {
        writeln!(stdin, "{l}").expect("write");
    }
    // Read every response before closing stdin: the server ends when its input does.
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut responses: Vec<Value> = stdout
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| serde_json::from_str(&l).ok())
        .take(lines.len() - 1)
        .collect();
    drop(stdin);
    let out = child.wait_with_output().expect("exits");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    responses.sort_by_key(|r| r["id"].as_u64());
    assert_eq!(responses.len(), lines.len() - 1, "{responses:?}");
    responses
}

#[test]
fn the_binary_serves_the_catalogs_over_stdio() {
    let call = |name: &str, arguments: Value| json!({"method": "tools/call", "params": {"name": name, "arguments": arguments}});
    let r = serve(
        &[
            "catalogs",
            "--fail",
            "invoice_get=INVOICE_NOT_FOUND",
            "--ttl-ms",
            "5000",
        ],
        &[
            json!({"method": "tools/list", "params": {}}),
            call("invoice_list", json!({"status": "overdue"})),
            call("invoice_list", json!({"status": "closed", "page_size": 0})),
            call("invoice_get", json!({"invoice_reference": "INV-1"})),
            call(
                "invoice_send_reminder",
                json!({"invoice_reference": "INV-1", "idempotency_key": "k-0123456789abcdef"}),
            ),
            call("invoice_delete", json!({})),
        ],
    );
    assert_eq!(r[0]["result"]["serverInfo"]["name"], json!("catalogc-mock"));

    let export = Command::new(env!("CARGO_BIN_EXE_catalogc"))
        .args(["export", "tools-json", "catalogs"])
        .output()
        .expect("export runs");
    let exported: Value = serde_json::from_slice(&export.stdout).expect("tools json");
    assert_eq!(r[1]["result"]["tools"], exported["tools"]);
    assert_eq!(r[1]["result"]["ttlMs"], json!(5000));

    assert_eq!(r[2]["result"]["isError"], json!(false), "{}", r[2]);
    // invoice_list declares an `example-call`: the mock answers with its result.
    let listed = &r[2]["result"]["structuredContent"];
    assert_eq!(
        listed["items"][0]["invoice_reference"],
        json!("INV-1042"),
        "{listed}"
    );
    assert_eq!(listed["next_cursor"], json!("c2"));

    let invalid = &tool_error(&r[3]);
    assert_eq!(invalid["code"], json!("INVALID_ARGUMENTS"));
    let paths: Vec<&str> = invalid["violations"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v["path"].as_str())
        .collect();
    assert_eq!(paths, ["/status", "/page_size"]);

    let failed = &tool_error(&r[4]);
    assert_eq!(failed["code"], json!("INVOICE_NOT_FOUND"), "{}", r[4]);
    assert_eq!(failed["class"], json!("not-found"));

    // This client cannot answer input requests: the tool's INPUT_REQUIRED result.
    let asked = &tool_error(&r[5]);
    assert_eq!(asked["code"], json!("INPUT_REQUIRED"), "{}", r[5]);
    assert_eq!(
        asked["input_required"]["prompt"],
        json!("The user approves sending this reminder to the customer.")
    );

    assert_eq!(r[6]["error"]["code"], json!(-32602));
}

#[test]
fn a_failure_the_catalog_does_not_declare_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_catalogc"))
        .args([
            "serve",
            "--mock",
            "catalogs",
            "--fail",
            "invoice_get=TEAPOT",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("INVOICE_NOT_FOUND, BILLING_UNAVAILABLE"),
        "{err}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_catalogc"))
        .args(["serve", "catalogs"])
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    // A delay for a tool the catalogs do not declare, or without a number, stops it too.
    for delay in ["invoice_delete=100", "invoice_get=soon", "invoice_get"] {
        let out = Command::new(env!("CARGO_BIN_EXE_catalogc"))
            .args(["serve", "--mock", "catalogs", "--delay", delay])
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{delay}");
    }
}

#[test]
fn a_delayed_tool_answers_late_or_times_out() {
    // invoice_list: `timeout-ms=5000`, delayed 300 ms, answers; invoice_get:
    // `timeout-ms=3000`, delayed 8000 ms, is cancelled at 3000 ms.
    let started = std::time::Instant::now();
    let r = serve(
        &[
            "catalogs",
            "--delay",
            "invoice_list=300",
            "--delay",
            "invoice_get=8000",
        ],
        &[
            json!({"method": "tools/call", "params": {"name": "invoice_list", "arguments": {"status": "open"}}}),
            json!({"method": "tools/call", "params": {"name": "invoice_get", "arguments": {"invoice_reference": "INV-1"}}}),
        ],
    );
    assert_eq!(r[1]["result"]["isError"], json!(false), "{}", r[1]);
    let timed_out = tool_error(&r[2]);
    assert_eq!(timed_out["code"], json!("TOOL_TIMEOUT"), "{}", r[2]);
    assert_eq!(timed_out["retry"], json!("backoff"));
    // Cancelled at the deadline, long before the delay would have ended.
    let took = started.elapsed();
    assert!(took >= std::time::Duration::from_millis(3000), "{took:?}");
    assert!(took < std::time::Duration::from_millis(6000), "{took:?}");
}
