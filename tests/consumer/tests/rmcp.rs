//! The billing catalog served by `catalogc::rmcp::Server`, spoken to in raw JSON-RPC over an
//! in-memory pipe: what reaches the wire for each kind of outcome, in both protocol eras.
//! (`.ci/mcp-python` proves the same with the official Python SDK.)

use catalogc::runtime::Catalog;
use catalogc::runtime::serde_json::{self, Value, json};
use catalogc::testing::tool_error;
use catalogc_consumer::billing;
use catalogc_consumer::mcp::server;
use catalogc_consumer::memory::Memory;
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

struct Client {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    next_id: u64,
    /// Per-request `_meta` of the 2026-07-28 era; `None` after a 2025 `initialize`.
    meta: Option<Value>,
    /// How a 2025 client answers `elicitation/create`; `None`: it never is asked.
    elicit: Option<Value>,
    /// The `elicitation/create` requests the server sent.
    asked: Vec<Value>,
}

impl Client {
    /// A served billing server and a client that said `initialize` (2025) with
    /// `capabilities`, or that sends 2026-07-28 `_meta` with every request.
    async fn start(version: &str, capabilities: Value) -> Client {
        let (ours, theirs) = tokio::io::duplex(1 << 20);
        let (r, w) = tokio::io::split(theirs);
        let s = server("acme").unwrap_or_else(|e| panic!("{e}"));
        tokio::spawn(s.serve_io(r, w));
        let (read, write) = tokio::io::split(ours);
        let mut c = Client {
            write,
            lines: BufReader::new(read).lines(),
            next_id: 0,
            meta: None,
            elicit: None,
            asked: Vec::new(),
        };
        if version == MODERN {
            c.meta = Some(json!({
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
                "io.modelcontextprotocol/clientCapabilities": capabilities,
            }));
        } else {
            let init = c
                .rpc(
                    "initialize",
                    json!({"protocolVersion": version, "capabilities": capabilities,
                       "clientInfo": {"name": "test", "version": "0"}}),
                )
                .await;
            assert_eq!(init["result"]["protocolVersion"], json!(version), "{init}");
            assert_eq!(init["result"]["serverInfo"]["name"], json!("billing"));
            assert_eq!(init["result"]["serverInfo"]["version"], json!("2.1.0"));
            c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await;
        }
        c
    }

    async fn send(&mut self, msg: Value) {
        let mut line = msg.to_string();
        line.push('\n');
        self.write
            .write_all(line.as_bytes())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }

    /// Sends one request and returns its response, answering server requests meanwhile.
    async fn rpc(&mut self, method: &str, mut params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        if let (Some(meta), Some(p)) = (&self.meta, params.as_object_mut()) {
            p.insert("_meta".into(), meta.clone());
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let line =
                tokio::time::timeout(std::time::Duration::from_secs(10), self.lines.next_line())
                    .await
                    .unwrap_or_else(|_| panic!("no response to {method}"))
                    .unwrap_or_else(|e| panic!("{e}"))
                    .unwrap_or_else(|| panic!("server closed"));
            let msg: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
            if msg["method"] == json!("elicitation/create") {
                self.asked.push(msg["params"].clone());
                let answer = self
                    .elicit
                    .clone()
                    .unwrap_or_else(|| panic!("asked: {msg}"));
                let reply = json!({"jsonrpc": "2.0", "id": msg["id"], "result": answer});
                self.send(reply).await;
            } else if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.rpc("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }
}

fn reminder() -> Value {
    json!({"invoice_reference": "INV-1", "idempotency_key": "k-0123456789abcdef"})
}

async fn lists_the_catalog_in_order(version: &str) {
    let mut c = Client::start(version, json!({})).await;
    let r = c.rpc("tools/list", json!({})).await;
    let expected = <billing::Catalog as Catalog<Memory>>::tools_list();
    assert_eq!(r["result"]["tools"], expected["tools"], "{r}");
    assert_eq!(r["result"]["ttlMs"], json!(0));
    assert_eq!(r["result"]["cacheScope"], json!("public"));
}

#[tokio::test]
async fn tools_list_is_the_catalog_byte_for_byte() {
    lists_the_catalog_in_order(LEGACY).await;
    lists_the_catalog_in_order(MODERN).await;
}

#[tokio::test]
async fn outcomes_reach_the_wire_as_the_runtime_encodes_them() {
    for version in [LEGACY, MODERN] {
        let mut c = Client::start(version, json!({})).await;
        let ok = c.call("invoice_list", json!({"status": "overdue"})).await;
        assert_eq!(ok["result"]["isError"], json!(false), "{ok}");
        let items = &ok["result"]["structuredContent"]["items"];
        assert_eq!(items[0]["invoice_reference"], json!("INV-1"), "{ok}");
        let text = ok["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_default();
        assert_eq!(
            serde_json::from_str::<Value>(text).ok().as_ref(),
            Some(&ok["result"]["structuredContent"])
        );

        let bad = c
            .call(
                "invoice_list",
                json!({"status": "closed", "page_size": 0, "x": 1}),
            )
            .await;
        let sc = tool_error(&bad);
        assert_eq!(sc["code"], json!("INVALID_ARGUMENTS"));
        assert_eq!(sc["violations"].as_array().map(Vec::len), Some(3), "{bad}");

        let failed = c
            .call("invoice_get", json!({"invoice_reference": "INV-9"}))
            .await;
        assert_eq!(tool_error(&failed)["code"], json!("INVOICE_NOT_FOUND"));

        let unknown = c.call("invoice_delete", json!({})).await;
        assert_eq!(unknown["error"]["code"], json!(-32602), "{unknown}");
    }
}

#[tokio::test]
async fn needs_input_is_an_input_request_answered_by_a_retry_on_2026() {
    let mut c = Client::start(MODERN, json!({"elicitation": {"form": {}}})).await;
    let asked = c.call("invoice_send_reminder", reminder()).await;
    let result = &asked["result"];
    assert_eq!(result["resultType"], json!("input_required"), "{asked}");
    let request = &result["inputRequests"]["approval"];
    assert_eq!(request["method"], json!("elicitation/create"));
    assert_eq!(
        request["params"]["message"],
        json!("Send a payment reminder for INV-1 to the customer?")
    );

    let answered = c
        .rpc(
            "tools/call",
            json!({"name": "invoice_send_reminder", "arguments": reminder(),
                   "inputResponses": {"approval": {"action": "accept", "content": {}}}}),
        )
        .await;
    assert_eq!(answered["result"]["isError"], json!(false), "{answered}");
    assert_eq!(
        answered["result"]["structuredContent"]["reminder_reference"],
        json!("REM-1")
    );

    // A declined approval is not asked again: the model reads the tool's INPUT_REQUIRED.
    let fresh = json!({"invoice_reference": "INV-1", "idempotency_key": "k-declined-0123456789"});
    let declined = c
        .rpc(
            "tools/call",
            json!({"name": "invoice_send_reminder", "arguments": fresh,
                   "inputResponses": {"approval": {"action": "decline"}}}),
        )
        .await;
    assert_eq!(tool_error(&declined)["code"], json!("INPUT_REQUIRED"));
}

#[tokio::test]
async fn needs_input_without_declared_elicitation_is_a_missing_capability_on_2026() {
    // Asking through an undeclared capability is forbidden; the call cannot proceed
    // without it: −32021 naming the capability, not a result.
    for capabilities in [json!({}), json!({"elicitation": {"url": {}}})] {
        let mut c = Client::start(MODERN, capabilities).await;
        let r = c.call("invoice_send_reminder", reminder()).await;
        assert_eq!(r["error"]["code"], json!(-32021), "{r}");
        assert_eq!(
            r["error"]["data"]["requiredCapabilities"],
            json!({"elicitation": {"form": {}}}),
            "{r}"
        );
        // A call that needs no input is unaffected.
        let ok = c.call("invoice_list", json!({"status": "open"})).await;
        assert_eq!(ok["result"]["isError"], json!(false), "{ok}");
    }
}

#[tokio::test]
async fn needs_input_is_elicited_within_the_call_on_2025() {
    let mut c = Client::start(LEGACY, json!({"elicitation": {}})).await;
    c.elicit = Some(json!({"action": "accept", "content": {}}));
    let done = c.call("invoice_send_reminder", reminder()).await;
    assert_eq!(done["result"]["isError"], json!(false), "{done}");
    assert_eq!(c.asked.len(), 1);
    assert_eq!(
        c.asked[0]["message"],
        json!("Send a payment reminder for INV-1 to the customer?")
    );

    // A client without elicitation gets the tool's INPUT_REQUIRED result.
    let mut plain = Client::start(LEGACY, json!({})).await;
    let r = plain.call("invoice_send_reminder", reminder()).await;
    let sc = tool_error(&r);
    assert_eq!(sc["code"], json!("INPUT_REQUIRED"), "{r}");
    assert_eq!(sc["input_required"]["name"], json!("approval"));
}

/// One 2026-07-28 `tools/call` over Streamable HTTP, with `headers`; the JSON-RPC response.
async fn http_call(addr: std::net::SocketAddr, headers: &str, tool: &str, args: Value) -> Value {
    http_rpc(addr, headers, json!({"name": tool, "arguments": args})).await
}

/// One 2026-07-28 `tools/call` over Streamable HTTP with `params` (and this era's `_meta`).
async fn http_rpc(addr: std::net::SocketAddr, headers: &str, mut params: Value) -> Value {
    let tool = params["name"].as_str().unwrap_or_default().to_string();
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
    });
    let body =
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: {MODERN}\r\n\
         Mcp-Method: tools/call\r\nMcp-Name: {tool}\r\n{headers}Connection: close\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    stream
        .write_all(request.as_bytes())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut response = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut stream, &mut response)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // A JSON body or an event stream: the one JSON-RPC response is the line with the id.
    response
        .lines()
        .map(|l| l.strip_prefix("data:").unwrap_or(l).trim())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["id"] == json!(1))
        .unwrap_or_else(|| panic!("no JSON-RPC response in {response}"))
}

/// The billing server over Streamable HTTP on a free loopback port.
async fn http_server() -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    let s = server("acme").unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(catalogc::rmcp::serve_http(s, listener));
    addr
}

#[tokio::test]
async fn over_http_the_tenant_comes_from_the_authorization_header() {
    let addr = http_server().await;
    let overdue = json!({"status": "overdue"});
    let refs = |r: &Value| -> Vec<String> {
        r["result"]["structuredContent"]["items"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["invoice_reference"].as_str().map(str::to_string))
            .collect()
    };
    let acme = http_call(addr, "", "invoice_list", overdue.clone()).await;
    assert_eq!(refs(&acme), ["INV-1"], "{acme}");
    let other = http_call(
        addr,
        "Authorization: Bearer other\r\n",
        "invoice_list",
        overdue.clone(),
    )
    .await;
    assert_eq!(refs(&other), ["INV-3"], "{other}");
    let refused = http_call(
        addr,
        "Authorization: Bearer nobody\r\n",
        "invoice_list",
        overdue,
    )
    .await;
    assert_eq!(
        refused["error"]["message"],
        json!("unknown bearer token"),
        "{refused}"
    );
}

/// Sent reminders as `invoice_get` counts them: how often the reminder handler really ran.
async fn reminders_sent(c: &mut Client) -> Value {
    let got = c
        .call("invoice_get", json!({"invoice_reference": "INV-1"}))
        .await;
    got["result"]["structuredContent"]["reminder_count"].clone()
}

#[tokio::test]
async fn a_key_runs_the_tool_once_and_refuses_other_arguments() {
    let mut c = Client::start(MODERN, json!({"elicitation": {"form": {}}})).await;
    let approved = |args: Value| {
        json!({"name": "invoice_send_reminder", "arguments": args,
               "inputResponses": {"approval": {"action": "accept", "content": {}}}})
    };
    let first = c.rpc("tools/call", approved(reminder())).await;
    assert_eq!(first["result"]["isError"], json!(false), "{first}");
    // The repeat needs no approval: it is the call already approved and made.
    let replay = c.call("invoice_send_reminder", reminder()).await;
    assert_eq!(replay["result"], first["result"]);
    let mut other = reminder();
    other["note"] = json!("Please pay this week.");
    let reused = c.rpc("tools/call", approved(other)).await;
    let error = tool_error(&reused);
    assert_eq!(error["code"], json!("IDEMPOTENCY_KEY_REUSED"), "{reused}");
    assert_eq!(error["retry"], json!("never"));
    assert_eq!(reminders_sent(&mut c).await, json!(1));
    // The status tool finds the operation by its key, as `on-timeout` recovery needs.
    let status = |key: &str| json!({"invoice_reference": "INV-1", "idempotency_key": key});
    for (key, count) in [("k-0123456789abcdef", 1), ("k-never-sent-0123456", 0)] {
        let got = c.call("invoice_get", status(key)).await;
        let found = &got["result"]["structuredContent"]["reminder_count"];
        assert_eq!(found, &json!(count), "{got}");
    }
}

#[tokio::test]
async fn a_key_of_one_tenant_is_not_another_tenants() {
    let addr = http_server().await;
    let send = |invoice: &str| {
        json!({"name": "invoice_send_reminder",
               "arguments": {"invoice_reference": invoice, "idempotency_key": "k-shared-0123456789"},
               "inputResponses": {"approval": {"action": "accept", "content": {}}}})
    };
    let acme = "Authorization: Bearer acme\r\n";
    let other = "Authorization: Bearer other\r\n";
    let first = http_rpc(addr, acme, send("INV-1")).await;
    let reference = |r: &Value| r["result"]["structuredContent"]["reminder_reference"].clone();
    assert_eq!(reference(&first), json!("REM-1"), "{first}");
    // The same key from another tenant: that tenant's own reminder, never acme's result.
    let theirs = http_rpc(addr, other, send("INV-3")).await;
    assert_eq!(reference(&theirs), json!("REM-2"), "{theirs}");
    let again = http_rpc(addr, acme, send("INV-1")).await;
    assert_eq!(again["result"], first["result"]);
    // Acme's exact call sent by the other tenant meets that tenant's own record of the key
    // (a conflict with its INV-3 call), never acme's result.
    let probe = http_rpc(addr, other, send("INV-1")).await;
    assert_eq!(
        tool_error(&probe)["code"],
        json!("IDEMPOTENCY_KEY_REUSED"),
        "{probe}"
    );
}
