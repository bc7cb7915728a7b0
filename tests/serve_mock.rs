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

/// A failure with declared detail fields carries a sample detail that keeps their schema.
#[test]
fn a_failure_with_detail_fields_carries_a_detail_of_their_schema() {
    let args = json!({"invoice_reference": "INV-1", "idempotency_key": "k-0123456789abcdef"});
    let r = serve(
        &[
            "catalogs",
            "--fail",
            "invoice_send_reminder=INVOICE_NOT_OVERDUE",
        ],
        &[
            json!({"method": "tools/call", "params": {"name": "invoice_send_reminder", "arguments": args}}),
        ],
    );
    let failed = &tool_error(&r[1]);
    assert_eq!(failed["code"], json!("INVOICE_NOT_OVERDUE"), "{}", r[1]);
    let due = failed["detail"]["due_date"].as_str().unwrap_or_default();
    assert!(
        catalogc::model::parse_date(due).is_some(),
        "{}",
        failed["detail"]
    );
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

/// A running `catalogc serve --mock ARGS` over stdio, initialized (2025-11-25).
struct StdioClient {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: std::sync::mpsc::Receiver<Value>,
}

impl StdioClient {
    fn start(args: &[&str]) -> StdioClient {
        let mut child = Command::new(env!("CARGO_BIN_EXE_catalogc"))
            .args(["serve", "--mock"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("catalogc runs");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                let v = serde_json::from_str(&line).unwrap_or(Value::String(line));
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let mut s = StdioClient {
            child,
            stdin,
            lines,
        };
        s.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "test", "version": "0"}}})
            .to_string()
            .as_bytes(),
        );
        s.send(br#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#);
        let init = s.next();
        assert!(init["result"]["serverInfo"].is_object(), "{init}");
        s
    }

    fn send(&mut self, line: &[u8]) {
        self.stdin.write_all(line).expect("write");
        self.stdin.write_all(b"\n").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The next message from the server; a hang guard fails the test after 60 s.
    fn next(&self) -> Value {
        self.lines
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the server answers")
    }
}

impl Drop for StdioClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn malformed_input_over_stdio_is_answered_and_the_server_goes_on() {
    let mut s = StdioClient::start(&["catalogs"]);
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"name":"invoice_list","arguments":{{"status":{}"x"{}}}}}}}"#,
        "[".repeat(125),
        "]".repeat(125)
    );
    let huge = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"ping","x":"{}"}}"#,
        "a".repeat(17 << 20)
    );
    let cases: [(&[u8], i64); 7] = [
        (b"{not json", -32700),
        (b"\xff\xfe\xfd", -32700),
        (deep.as_bytes(), -32700),
        (
            br#"{"jsonrpc":"2.0","id":9,"method":"ping","params":{"n":1e400}}"#,
            -32700,
        ),
        (
            br#"{"jsonrpc":"2.0","id":9,"method":"ping","params":{"s":"\ud800"}}"#,
            -32700,
        ),
        (huge.as_bytes(), -32700),
        (
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"arguments":{}}}"#,
            -32602,
        ),
    ];
    for (line, code) in cases {
        s.send(line);
        let reply = s.next();
        assert_eq!(reply["error"]["code"], json!(code), "{reply}");
        // The server still serves.
        s.send(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        assert_eq!(s.next()["id"], json!(1));
    }
}

/// The lint fixture with one catastrophic pattern, in a temporary folder.
fn redos_catalog() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string("tests/fixtures/lint/bounds/pattern-backtracking/bad.kdl")
        .expect("fixture")
        .replace(
            "^NOTE-([0-9]+)+$\" {\n            doc \"Identifies",
            "^(.*a){20}$\" {\n            doc \"Identifies",
        );
    assert!(text.contains("^(.*a){20}$"));
    std::fs::write(dir.path().join("redos.kdl"), text).expect("write");
    dir
}

#[test]
fn a_catastrophic_pattern_does_not_hang_the_mock() {
    let dir = redos_catalog();
    let path = dir.path().to_string_lossy().to_string();
    let mut s = StdioClient::start(&[&path]);
    for (i, n) in [31, 42, 4096].into_iter().enumerate() {
        let arg = format!("{}!", "a".repeat(n));
        let call = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
            "params": {"name": "note_search", "arguments": {"note_reference": arg}}});
        s.send(call.to_string().as_bytes());
        let reply = s.next();
        let error = tool_error(&reply);
        assert_eq!(error["code"], json!("INVALID_ARGUMENTS"), "{reply}");
        let reasons = error["violations"].to_string();
        assert!(reasons.contains("does not match the pattern"), "{reasons}");
    }
}

/// A `catalogc serve --mock catalogs --http 127.0.0.1:0 ARGS` and its address.
struct Http {
    child: std::process::Child,
    addr: std::net::SocketAddr,
}

impl Http {
    fn start(args: &[&str]) -> Http {
        let mut child = Command::new(env!("CARGO_BIN_EXE_catalogc"))
            .args(["serve", "--mock", "catalogs", "--http", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("catalogc runs");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        stderr.read_line(&mut line).expect("the listening line");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.strip_suffix("/mcp"))
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        Http { child, addr }
    }

    /// One HTTP/1.1 request; the status and the body.
    fn request(&self, head: &str, body: &[u8]) -> (u16, String, String) {
        use std::io::Read;
        let mut stream = std::net::TcpStream::connect(self.addr).expect("connect");
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .expect("timeout");
        let head = head.replace("{addr}", &self.addr.to_string());
        write!(
            stream,
            "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .expect("write");
        stream.write_all(body).expect("write");
        let mut out = Vec::new();
        let _ = stream.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).to_string();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        (status, head.to_string(), body.to_string())
    }

    fn post(&self, extra: &str, body: &str) -> (u16, String, String) {
        self.request(
            &format!(
                "POST /mcp HTTP/1.1\r\nHost: {{addr}}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream{extra}"
            ),
            body.as_bytes(),
        )
    }

    /// A new session's id.
    fn initialize(&self) -> String {
        let (status, head, body) = self.post(
            "",
            r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
        );
        assert_eq!(status, 200, "{head}\n{body}");
        head.lines()
            .find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case("mcp-session-id")
                    .then(|| v.trim().to_string())
            })
            .unwrap_or_else(|| panic!("{head}"))
    }

    fn list(&self, session: &str) -> u16 {
        let extra = format!("\r\nMcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-11-25");
        self.post(&extra, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
            .0
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_foreign_origin_or_host_port_is_refused_over_http() {
    let h = Http::start(&[]);
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    assert_eq!(h.post("\r\nOrigin: http://evil.example.com", init).0, 403);
    assert_eq!(h.post("\r\nOrigin: null", init).0, 403);
    let rebound = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:evil.com\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream";
    assert_eq!(h.request(rebound, init.as_bytes()).0, 403);
    assert_eq!(h.post("\r\nOrigin: http://localhost:6274", init).0, 200);
}

#[test]
fn malformed_bodies_over_http_are_400_with_the_json_rpc_error() {
    let h = Http::start(&[]);
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"ping","params":{{"a":{}1{}}}}}"#,
        "[".repeat(130),
        "]".repeat(130)
    );
    for (body, code) in [
        ("{not json", -32700),
        (deep.as_str(), -32700),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"ping","params":{"n":1e400}}"#,
            -32700,
        ),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"ping","params":{"s":"\ud800"}}"#,
            -32700,
        ),
        (r#"[{"jsonrpc":"2.0","id":9,"method":"ping"}]"#, -32600),
        (
            r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"arguments":{}}}"#,
            -32602,
        ),
    ] {
        let (status, head, reply) = h.post("", body);
        assert_eq!(status, 400, "{body}: {head}");
        let reply: Value = serde_json::from_str(&reply).unwrap_or_default();
        assert_eq!(reply["error"]["code"], json!(code), "{body}: {reply}");
    }
    let (status, _, _) = h.request(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream",
        b"\xff\xfe",
    );
    assert_eq!(status, 400);
}

#[test]
fn http_sessions_are_capped_and_expire_when_idle() {
    let h = Http::start(&["--max-sessions", "2", "--session-idle", "1"]);
    let first = h.initialize();
    let second = h.initialize();
    let third = h.initialize();
    // The third closed the session idle the longest.
    assert_eq!(h.list(&first), 404);
    assert_eq!(h.list(&third), 200);
    // Idle past a second, the others expire (a hang guard's margin, not a measurement).
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert_eq!(h.list(&second), 404);
    assert_eq!(h.list(&third), 404);
}
