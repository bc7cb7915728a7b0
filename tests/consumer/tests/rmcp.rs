//! The billing catalog served by `catalogc::rmcp::Server`, spoken to in raw JSON-RPC over an
//! in-memory pipe: what reaches the wire for each kind of outcome, in both protocol eras.
//! (`.ci/mcp-python` proves the same with the official Python SDK.)

use catalogc::rmcp::Server;
use catalogc::runtime::Catalog;
use catalogc::runtime::serde_json::{self, Value, json};
use catalogc::testing::tool_error;
use catalogc_consumer::billing;
use catalogc_consumer::mcp::{server, server_over};
use catalogc_consumer::memory::{HANG_INVOICE, Memory, PANIC_INVOICE, Session};
use std::sync::{Arc, Mutex};
use support::client::{Client, LEGACY, MODERN};
use tokio::io::AsyncWriteExt;

mod support;

fn acme() -> Server<Session> {
    server("acme").unwrap_or_else(|e| panic!("{e}"))
}

fn reminder() -> Value {
    json!({"invoice_reference": "INV-1", "idempotency_key": "k-0123456789abcdef"})
}

async fn lists_the_catalog_in_order(version: &str) {
    let mut c = Client::start(acme(), version, json!({})).await;
    if version == LEGACY {
        assert_eq!(c.init["result"]["serverInfo"]["name"], json!("billing"));
        assert_eq!(c.init["result"]["serverInfo"]["version"], json!("2.2.0"));
    }
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
        let mut c = Client::start(acme(), version, json!({})).await;
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

        // A declared error with typed detail fields: the client reads them as declared.
        let early = c
            .call(
                "invoice_send_reminder",
                json!({"invoice_reference": "INV-2", "idempotency_key": "k-0123456789abcdef"}),
            )
            .await;
        let sc = tool_error(&early);
        assert_eq!(sc["code"], json!("INVOICE_NOT_OVERDUE"), "{early}");
        assert_eq!(sc["detail"], json!({"due_date": "2026-01-31"}), "{early}");

        let unknown = c.call("invoice_delete", json!({})).await;
        assert_eq!(unknown["error"]["code"], json!(-32602), "{unknown}");
    }
}

/// The prompt the user sees for `reminder()`: the handler's question, then what the
/// runtime adds (tool, effect, target, idempotency key).
const REMINDER_PROMPT: &str = "Send a payment reminder for INV-1 to the customer?\n\n\
    Tool: invoice_send_reminder (Send a payment reminder)\n\
    Effect: destructive. Send the customer of one overdue invoice a payment reminder email.\n\
    Target: invoice_reference = \"INV-1\"\n\
    Idempotency key: idempotency_key = \"k-0123456789abcdef\"";

/// A call of `invoice_send_reminder` with `arguments` that answers with `responses` and
/// echoes `state` (the 2026-07-28 retry; a 2025 client ignores `state`).
async fn retry(c: &mut Client, arguments: Value, responses: Value, state: Option<&Value>) -> Value {
    let mut params = json!({"name": "invoice_send_reminder", "arguments": arguments,
                            "inputResponses": responses});
    if let Some(state) = state {
        params["requestState"] = state.clone();
    }
    c.rpc("tools/call", params).await
}

fn accept() -> Value {
    json!({"approval": {"action": "accept", "content": {}}})
}

/// How many reminders were sent for tenant acme (each run of the handler that sent one).
async fn reminders_sent(c: &mut Client) -> Value {
    let r = c
        .call("invoice_get", json!({"invoice_reference": "INV-1"}))
        .await;
    r["result"]["structuredContent"]["reminder_count"].clone()
}

#[tokio::test]
async fn needs_input_is_an_input_request_answered_by_a_retry_on_2026() {
    let mut c = Client::start(acme(), MODERN, json!({"elicitation": {"form": {}}})).await;
    let asked = c.call("invoice_send_reminder", reminder()).await;
    let result = &asked["result"];
    assert_eq!(result["resultType"], json!("input_required"), "{asked}");
    let request = &result["inputRequests"]["approval"];
    assert_eq!(request["method"], json!("elicitation/create"));
    assert_eq!(request["params"]["message"], json!(REMINDER_PROMPT));
    let state = &result["requestState"];
    assert!(state.is_string(), "{asked}");

    let answered = retry(&mut c, reminder(), accept(), Some(state)).await;
    assert_eq!(answered["result"]["isError"], json!(false), "{answered}");
    assert_eq!(
        answered["result"]["structuredContent"]["reminder_reference"],
        json!("REM-1")
    );
    assert_eq!(reminders_sent(&mut c).await, json!(1));

    // Declined or cancelled: a final result, and the handler does not run. (A fresh key:
    // the first one now returns its kept result without asking.)
    let fresh = json!({"invoice_reference": "INV-1", "idempotency_key": "k-declined-0123456789"});
    for action in ["decline", "cancel"] {
        let asked = c.call("invoice_send_reminder", fresh.clone()).await;
        let state = &asked["result"]["requestState"];
        let responses = json!({"approval": {"action": action}});
        let declined = retry(&mut c, fresh.clone(), responses, Some(state)).await;
        let sc = tool_error(&declined);
        assert_eq!(sc["code"], json!("APPROVAL_DECLINED"), "{declined}");
        assert_eq!(sc["retry"], json!("never"));
        assert_eq!(
            sc["next_step"],
            json!(
                "Tell the user the action was not done because they declined; do not try another tool for the same action."
            )
        );
    }
    assert_eq!(reminders_sent(&mut c).await, json!(1));
}

#[tokio::test]
async fn a_forged_first_call_is_refused_and_never_runs() {
    let mut c = Client::start(acme(), MODERN, json!({"elicitation": {"form": {}}})).await;
    // Answers the server never asked for, with no state or with a made-up one.
    for state in [None, Some(json!("rs1.forged.state"))] {
        let r = retry(&mut c, reminder(), accept(), state.as_ref()).await;
        let sc = tool_error(&r);
        assert_eq!(sc["code"], json!("APPROVAL_INVALID"), "{r}");
        assert_eq!(sc["retry"], json!("never"));
    }
    // A state alone, without the answer it asks for.
    let asked = c.call("invoice_send_reminder", reminder()).await;
    let state = asked["result"]["requestState"].clone();
    let r = retry(&mut c, reminder(), json!({}), Some(&state)).await;
    assert_eq!(tool_error(&r)["code"], json!("APPROVAL_INVALID"), "{r}");
    assert_eq!(reminders_sent(&mut c).await, json!(0));
}

#[tokio::test]
async fn a_state_is_bound_to_its_arguments_its_tool_and_its_integrity() {
    let mut c = Client::start(acme(), MODERN, json!({"elicitation": {"form": {}}})).await;
    let asked = c.call("invoice_send_reminder", reminder()).await;
    let state = asked["result"]["requestState"].clone();
    let text = state.as_str().unwrap_or_default().to_string();

    // The approval of INV-1 does not approve another note, key or invoice.
    for changed in [
        json!({"invoice_reference": "INV-1", "idempotency_key": "k-0123456789abcdef", "note": "pay now"}),
        json!({"invoice_reference": "INV-1", "idempotency_key": "k-fedcba9876543210"}),
        json!({"invoice_reference": "INV-2", "idempotency_key": "k-0123456789abcdef"}),
    ] {
        let r = retry(&mut c, changed, accept(), Some(&state)).await;
        assert_eq!(tool_error(&r)["code"], json!("APPROVAL_INVALID"), "{r}");
    }
    // Any changed character of the state breaks its signature.
    let mid = text.len() / 2;
    for at in [5, mid, text.len() - 2] {
        let mut tampered = text.clone().into_bytes();
        tampered[at] = if tampered[at] == b'A' { b'B' } else { b'A' };
        let tampered = json!(String::from_utf8_lossy(&tampered));
        let r = retry(&mut c, reminder(), accept(), Some(&tampered)).await;
        assert_eq!(tool_error(&r)["code"], json!("APPROVAL_INVALID"), "{r}");
    }
    // Another tool cannot borrow it.
    let r = c
        .rpc(
            "tools/call",
            json!({"name": "invoice_get", "arguments": {"invoice_reference": "INV-1"},
                   "inputResponses": accept(), "requestState": state}),
        )
        .await;
    assert_eq!(tool_error(&r)["code"], json!("APPROVAL_INVALID"), "{r}");
    assert_eq!(reminders_sent(&mut c).await, json!(0));
    // The untouched state still approves exactly its call.
    let r = retry(&mut c, reminder(), accept(), Some(&state)).await;
    assert_eq!(r["result"]["isError"], json!(false), "{r}");
}

#[tokio::test]
async fn a_state_is_refused_by_another_tenant_and_another_server() {
    let secret = [7u8; 32];
    let shared = |tenant: &str| {
        server(tenant)
            .and_then(|s| s.with_approval_secret(&secret))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let caps = json!({"elicitation": {"form": {}}});
    let mut acme_client = Client::start(shared("acme"), MODERN, caps.clone()).await;
    let asked = acme_client.call("invoice_send_reminder", reminder()).await;
    let state = asked["result"]["requestState"].clone();

    // Same secret, other tenant: the principal is part of the signature.
    let mut other = Client::start(shared("other"), MODERN, caps.clone()).await;
    let r = retry(&mut other, reminder(), accept(), Some(&state)).await;
    assert_eq!(tool_error(&r)["code"], json!("APPROVAL_INVALID"), "{r}");
    // Another server (another session, its own random secret), same tenant.
    let mut elsewhere = Client::start(acme(), MODERN, caps.clone()).await;
    let r = retry(&mut elsewhere, reminder(), accept(), Some(&state)).await;
    assert_eq!(tool_error(&r)["code"], json!("APPROVAL_INVALID"), "{r}");
    assert_eq!(reminders_sent(&mut elsewhere).await, json!(0));
    // The server that issued it, for the tenant it issued it to, accepts it.
    let r = retry(&mut acme_client, reminder(), accept(), Some(&state)).await;
    assert_eq!(r["result"]["isError"], json!(false), "{r}");
}

#[tokio::test]
async fn an_approval_that_timed_out_is_refused() {
    let s = acme().with_approval_ttl(std::time::Duration::from_millis(50));
    let mut c = Client::start(s, MODERN, json!({"elicitation": {"form": {}}})).await;
    let asked = c.call("invoice_send_reminder", reminder()).await;
    let state = asked["result"]["requestState"].clone();
    tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    let r = retry(&mut c, reminder(), accept(), Some(&state)).await;
    let sc = tool_error(&r);
    assert_eq!(sc["code"], json!("APPROVAL_EXPIRED"), "{r}");
    assert_eq!(sc["retry"], json!("after-user-action"));
    assert_eq!(reminders_sent(&mut c).await, json!(0));
}

#[tokio::test]
async fn needs_input_without_declared_elicitation_is_a_missing_capability_on_2026() {
    // Asking through an undeclared capability is forbidden; the call cannot proceed
    // without it: −32021 naming the capability, not a result.
    for capabilities in [json!({}), json!({"elicitation": {"url": {}}})] {
        let mut c = Client::start(acme(), MODERN, capabilities).await;
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
    let mut c = Client::start(acme(), LEGACY, json!({"elicitation": {}})).await;
    c.elicit = Some(json!({"action": "accept", "content": {}}));
    let done = c.call("invoice_send_reminder", reminder()).await;
    assert_eq!(done["result"]["isError"], json!(false), "{done}");
    assert_eq!(c.asked.len(), 1);
    assert_eq!(c.asked[0]["message"], json!(REMINDER_PROMPT));

    // Declined: the final result, the handler does not run. (A fresh key: the first one now
    // returns its kept result without asking.)
    c.elicit = Some(json!({"action": "decline"}));
    let fresh = json!({"invoice_reference": "INV-1", "idempotency_key": "k-declined-0123456789"});
    let declined = c.call("invoice_send_reminder", fresh).await;
    assert_eq!(
        tool_error(&declined)["code"],
        json!("APPROVAL_DECLINED"),
        "{declined}"
    );
    assert_eq!(c.asked.len(), 2);
    assert_eq!(reminders_sent(&mut c).await, json!(1));

    // A client without elicitation gets the tool's INPUT_REQUIRED result.
    let mut plain = Client::start(acme(), LEGACY, json!({})).await;
    let r = plain.call("invoice_send_reminder", reminder()).await;
    let sc = tool_error(&r);
    assert_eq!(sc["code"], json!("INPUT_REQUIRED"), "{r}");
    assert_eq!(sc["input_required"]["name"], json!("approval"));
}

#[tokio::test]
async fn an_elicitation_left_unanswered_is_a_denial_on_2025() {
    let s = acme().with_approval_ttl(std::time::Duration::from_millis(100));
    let mut c = Client::start(s, LEGACY, json!({"elicitation": {}})).await;
    c.elicit = Some(Value::Null);
    let r = c.call("invoice_send_reminder", reminder()).await;
    assert_eq!(tool_error(&r)["code"], json!("APPROVAL_EXPIRED"), "{r}");
    assert_eq!(c.asked.len(), 1);
    assert_eq!(reminders_sent(&mut c).await, json!(0));
}

#[tokio::test]
async fn input_responses_of_a_2025_client_are_ignored() {
    // Only the answer to the server's own elicitation counts: the forged answer is
    // ignored, the user is asked, and their decline stands.
    let mut c = Client::start(acme(), LEGACY, json!({"elicitation": {}})).await;
    c.elicit = Some(json!({"action": "decline"}));
    let r = retry(&mut c, reminder(), accept(), None).await;
    assert_eq!(tool_error(&r)["code"], json!("APPROVAL_DECLINED"), "{r}");
    assert_eq!(c.asked.len(), 1);
    // A client that cannot be asked is not let through by its own answer either.
    let mut plain = Client::start(acme(), LEGACY, json!({})).await;
    let r = retry(&mut plain, reminder(), accept(), None).await;
    assert_eq!(tool_error(&r)["code"], json!("INPUT_REQUIRED"), "{r}");
    assert_eq!(reminders_sent(&mut plain).await, json!(0));
}

fn faulty() -> Server<Session> {
    let memory = Memory {
        faults: true,
        ..Memory::sample()
    };
    server_over(memory, "acme").unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test]
async fn a_panicking_handler_is_an_internal_error_and_the_server_keeps_serving() {
    for version in [LEGACY, MODERN] {
        let mut c = Client::start(faulty(), version, json!({})).await;
        let r = c
            .call("invoice_get", json!({"invoice_reference": PANIC_INVOICE}))
            .await;
        let sc = tool_error(&r);
        assert_eq!(sc["code"], json!("INTERNAL_ERROR"), "{r}");
        assert_eq!(sc["message"], json!("the tool failed unexpectedly"));
        assert!(!r.to_string().contains("injected"), "{r}");
        let next = c.call("invoice_list", json!({"status": "overdue"})).await;
        assert_eq!(next["result"]["isError"], json!(false), "{next}");
    }
}

#[tokio::test]
async fn a_handler_is_cancelled_at_its_deadline() {
    let mut c = Client::start(faulty(), MODERN, json!({})).await;
    let started = std::time::Instant::now();
    let r = c
        .call("invoice_get", json!({"invoice_reference": HANG_INVOICE}))
        .await;
    let took = started.elapsed();
    let sc = tool_error(&r);
    assert_eq!(sc["code"], json!("TOOL_TIMEOUT"), "{r}");
    // invoice_get: `timeout-ms=3000`; a read, so a later retry is safe.
    assert_eq!(sc["retry"], json!("backoff"));
    assert!(
        took >= std::time::Duration::from_millis(3000)
            && took < std::time::Duration::from_millis(3100),
        "{took:?}"
    );
    let next = c.call("invoice_list", json!({"status": "overdue"})).await;
    assert_eq!(next["result"]["isError"], json!(false), "{next}");
}

#[tokio::test]
async fn a_client_cancellation_ends_the_call_promptly() {
    use std::sync::atomic::Ordering;
    for version in [LEGACY, MODERN] {
        let memory = Memory {
            faults: true,
            ..Memory::sample()
        };
        let ended = Arc::clone(&memory.cancelled);
        let s = server_over(memory, "acme").unwrap_or_else(|e| panic!("{e}"));
        let mut c = Client::start(s, version, json!({})).await;
        let started = std::time::Instant::now();
        let args = json!({"invoice_reference": HANG_INVOICE});
        let id = c
            .request(
                "tools/call",
                json!({"name": "invoice_get", "arguments": args}),
            )
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        c.send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                      "params": {"requestId": id, "reason": "the user stopped it"}}),
        )
        .await;
        // The handler sees the cancellation and returns, well before the tool's 3000 ms
        // deadline. (Its result, the declared `BILLING_UNAVAILABLE` that tests/call.rs
        // shows, is not sent: MCP sends no response to a cancelled request.)
        while ended.load(Ordering::SeqCst) == 0 {
            assert!(
                started.elapsed() < std::time::Duration::from_millis(1000),
                "{version}: the handler did not stop"
            );
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        let next = c.call("invoice_list", json!({"status": "overdue"})).await;
        assert_eq!(next["result"]["isError"], json!(false), "{next}");
    }
}

#[tokio::test]
async fn progress_reaches_a_client_that_sent_a_progress_token() {
    for version in [LEGACY, MODERN] {
        let mut c = Client::start(acme(), version, json!({})).await;
        let params = json!({"name": "invoice_list", "arguments": {"status": "overdue"},
                            "_meta": {"progressToken": "list-1"}});
        let r = c.rpc("tools/call", params).await;
        assert_eq!(r["result"]["isError"], json!(false), "{r}");
        let progress: Vec<&Value> = c
            .notifications
            .iter()
            .filter(|n| n["method"] == json!("notifications/progress"))
            .collect();
        assert_eq!(progress.len(), 1, "{version}: {:?}", c.notifications);
        let p = &progress[0]["params"];
        assert_eq!(p["progressToken"], json!("list-1"));
        assert_eq!((&p["progress"], &p["total"]), (&json!(1.0), &json!(1.0)));
        assert_eq!(p["message"], json!("read INV-1"));
        // Without a token, no report is sent.
        c.notifications.clear();
        let r = c.call("invoice_list", json!({"status": "overdue"})).await;
        assert_eq!(r["result"]["isError"], json!(false), "{r}");
        assert!(c.notifications.is_empty(), "{:?}", c.notifications);
    }
}

#[tokio::test]
async fn an_async_context_function_builds_the_context_under_the_deadline() {
    use catalogc::rmcp::Request;
    use catalogc_consumer::memory::Session;
    // The tenant comes from a lookup that takes a while; `stall` never finishes.
    let server = |stall: bool| {
        Server::catalog_async::<billing::Catalog, _, _, _>(
            Memory::sample(),
            move |r: &Request<'_>| {
                // What the lookup needs is read from the borrowed request first.
                let token = r.header("authorization").map(str::to_string);
                async move {
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    if stall {
                        std::future::pending::<()>().await;
                    }
                    let tenant = token.as_deref().and_then(|t| t.strip_prefix("Bearer "));
                    Ok(Session {
                        tenant: tenant.unwrap_or("acme").to_string(),
                    })
                }
            },
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let mut c = Client::start(server(false), MODERN, json!({})).await;
    let ok = c.call("invoice_list", json!({"status": "overdue"})).await;
    let items = &ok["result"]["structuredContent"]["items"];
    assert_eq!(items[0]["invoice_reference"], json!("INV-1"), "{ok}");
    let mut c = Client::start(server(true), MODERN, json!({})).await;
    let started = std::time::Instant::now();
    let r = c
        .call("invoice_get", json!({"invoice_reference": "INV-1"}))
        .await;
    assert_eq!(tool_error(&r)["code"], json!("TOOL_TIMEOUT"), "{r}");
    assert!(started.elapsed() < std::time::Duration::from_millis(3500));
    // A stateless HTTP request builds a context first, for its budget: held to the deadline
    // too, and refused with a protocol error rather than left hanging.
    let addr = serve_http(server(true)).await;
    let started = std::time::Instant::now();
    let r = http_call(addr, "", "invoice_list", json!({"status": "overdue"})).await;
    let message = r["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("timeout-ms"), "{r}");
    // invoice_list: `timeout-ms=5000`.
    assert!(started.elapsed() < std::time::Duration::from_millis(5500));
}

/// `server` over Streamable HTTP on a free loopback port; its address.
async fn serve_http(server: Server<Session>) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(catalogc::rmcp::serve_http(server, listener));
    addr
}

/// One 2026-07-28 `tools/call` over Streamable HTTP, with `headers`; the JSON-RPC response.
async fn http_call(addr: std::net::SocketAddr, headers: &str, tool: &str, args: Value) -> Value {
    let params = json!({"name": tool, "arguments": args});
    http_rpc(addr, headers, params, json!({})).await
}

/// One 2026-07-28 `tools/call` over Streamable HTTP with `params`, from a client that
/// declares `capabilities`; the JSON-RPC response.
async fn http_rpc(
    addr: std::net::SocketAddr,
    headers: &str,
    mut params: Value,
    capabilities: Value,
) -> Value {
    let tool = params["name"].as_str().unwrap_or_default().to_string();
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
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

#[tokio::test]
async fn over_http_the_tenant_comes_from_the_authorization_header() {
    let addr = serve_http(acme()).await;
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

#[tokio::test]
async fn over_http_an_approval_is_bound_to_the_tenant() {
    let addr = serve_http(acme()).await;
    let caps = json!({"elicitation": {"form": {}}});
    let call = json!({"name": "invoice_send_reminder", "arguments": reminder()});
    let acme = "Authorization: Bearer acme\r\n";
    let asked = http_rpc(addr, acme, call.clone(), caps.clone()).await;
    let state = asked["result"]["requestState"].clone();
    assert!(state.is_string(), "{asked}");
    let mut retry = call;
    retry["inputResponses"] = accept();
    retry["requestState"] = state;
    // Each request stands alone (no session): the tenant is the principal.
    let other = "Authorization: Bearer other\r\n";
    let other = http_rpc(addr, other, retry.clone(), caps.clone()).await;
    assert_eq!(
        tool_error(&other)["code"],
        json!("APPROVAL_INVALID"),
        "{other}"
    );
    let done = http_rpc(addr, acme, retry, caps).await;
    assert_eq!(done["result"]["isError"], json!(false), "{done}");
    assert_eq!(
        done["result"]["structuredContent"]["reminder_reference"],
        json!("REM-1")
    );
}

/// The operator log, captured.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut log) = self.0.lock() {
            log.extend_from_slice(buf);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Logs {
    fn text(&self) -> String {
        self.0
            .lock()
            .map(|log| String::from_utf8_lossy(&log).into_owned())
            .unwrap_or_default()
    }
}

#[tokio::test]
async fn the_operator_sees_what_the_model_does_not() {
    // The test's runtime runs the served tasks on this thread, where the log is captured.
    let logs = Logs::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let lying = Memory {
        lie: true,
        faults: true,
        ..Memory::sample()
    };
    let s = server_over(lying, "acme").unwrap_or_else(|e| panic!("{e}"));
    let mut c = Client::start(s, MODERN, json!({"elicitation": {"form": {}}})).await;

    let r = c
        .call("invoice_get", json!({"invoice_reference": "INV-1"}))
        .await;
    assert_eq!(tool_error(&r)["code"], json!("INVALID_TOOL_OUTPUT"), "{r}");
    assert!(!r.to_string().contains("invoice_reference"), "{r}");
    let forged = retry(&mut c, reminder(), accept(), None).await;
    assert_eq!(tool_error(&forged)["code"], json!("APPROVAL_INVALID"));
    let r = c
        .call("invoice_get", json!({"invoice_reference": PANIC_INVOICE}))
        .await;
    assert_eq!(tool_error(&r)["code"], json!("INTERNAL_ERROR"), "{r}");

    let log = logs.text();
    let line = |event: &str| -> &str {
        log.lines()
            .find(|l| l.contains(event))
            .unwrap_or_else(|| panic!("no {event:?} in {log}"))
    };
    let withheld = line("output breaks its contract; withheld");
    for part in [
        "WARN",
        "tool=\"invoice_get\"",
        "pointer=/invoice/invoice_reference",
        "reason=",
    ] {
        assert!(withheld.contains(part), "{part}: {withheld}");
    }
    // A violation names the rule, never the value.
    assert!(!log.contains("not an invoice number"), "{log}");
    let refused = line("approval refused; the tool did not run");
    assert!(refused.contains("input responses without a request state"));
    let panicked = line("tool failed");
    assert!(panicked.contains("ERROR") && panicked.contains("injected fault"));
}

/// Approves and sends `arguments` to `invoice_send_reminder` on a 2026-07-28 client: the
/// call is asked for approval, then retried with the answer and its state.
async fn approved(c: &mut Client, arguments: Value) -> Value {
    let asked = c.call("invoice_send_reminder", arguments.clone()).await;
    let state = asked["result"]["requestState"].clone();
    assert!(state.is_string(), "{asked}");
    retry(c, arguments, accept(), Some(&state)).await
}

#[tokio::test]
async fn a_key_runs_the_tool_once_and_refuses_other_arguments() {
    let mut c = Client::start(acme(), MODERN, json!({"elicitation": {"form": {}}})).await;
    let first = approved(&mut c, reminder()).await;
    assert_eq!(first["result"]["isError"], json!(false), "{first}");
    // The repeat needs no approval: it is the call already approved and made.
    let replay = c.call("invoice_send_reminder", reminder()).await;
    assert_eq!(replay["result"], first["result"]);
    let mut other = reminder();
    other["note"] = json!("Please pay this week.");
    // Another request under the key is refused before the handler could ask for approval.
    let reused = c.call("invoice_send_reminder", other).await;
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

/// Sends `invoice` under one shared key as the tenant of `auth`, approving it over HTTP.
async fn http_send(addr: std::net::SocketAddr, auth: &str, invoice: &str) -> Value {
    let caps = json!({"elicitation": {"form": {}}});
    let call = json!({"name": "invoice_send_reminder",
        "arguments": {"invoice_reference": invoice, "idempotency_key": "k-shared-0123456789"}});
    let asked = http_rpc(addr, auth, call.clone(), caps.clone()).await;
    let Some(state) = asked["result"].get("requestState").cloned() else {
        // A replay or a refused key: the final result, with no approval asked.
        return asked;
    };
    let mut retry = call;
    retry["inputResponses"] = accept();
    retry["requestState"] = state;
    http_rpc(addr, auth, retry, caps).await
}

#[tokio::test]
async fn a_key_of_one_tenant_is_not_another_tenants() {
    let addr = serve_http(acme()).await;
    let acme = "Authorization: Bearer acme\r\n";
    let other = "Authorization: Bearer other\r\n";
    let first = http_send(addr, acme, "INV-1").await;
    let reference = |r: &Value| r["result"]["structuredContent"]["reminder_reference"].clone();
    assert_eq!(reference(&first), json!("REM-1"), "{first}");
    // The same key from another tenant: that tenant's own reminder, never acme's result.
    let theirs = http_send(addr, other, "INV-3").await;
    assert_eq!(reference(&theirs), json!("REM-2"), "{theirs}");
    let again = http_send(addr, acme, "INV-1").await;
    assert_eq!(again["result"], first["result"]);
    // Acme's exact call sent by the other tenant meets that tenant's own record of the key
    // (a conflict with its INV-3 call), never acme's result.
    let probe = http_send(addr, other, "INV-1").await;
    assert_eq!(
        tool_error(&probe)["code"],
        json!("IDEMPOTENCY_KEY_REUSED"),
        "{probe}"
    );
}

/// The generated catalog states its project's guard and profiles; a server holds every
/// session to the guard and starts under a profile only when the catalog meets it.
#[test]
fn the_projects_guard_and_profiles_reach_the_generated_server() {
    type Billing = billing::Catalog;
    let guard = <Billing as Catalog<Memory>>::GUARD;
    assert_eq!(
        guard.map(|g| (g.max_calls, g.max_same_failure)),
        Some((500, 3))
    );
    assert_eq!(acme().guard(), guard.unwrap_or_default());
    let profiles = <Billing as Catalog<Memory>>::PROFILES;
    let find = |name: &str| profiles.iter().find(|p| p.name == name).copied();
    let production = find("production").expect("declared");
    assert!(acme().with_profile(&production).is_ok());
    let read_only = find("read-only").expect("declared");
    let refused = acme().with_profile(&read_only).expect_err("refused");
    let rules: Vec<&str> = refused.violations.iter().map(|v| v.rule.id()).collect();
    assert_eq!(rules, ["profile/disabled-tool-named"]);
    // Disabling a tool that others name is refused, naming the first tool that does.
    let lenient = catalogc::runtime::Profile {
        disable: &["invoice_get"],
        ..production
    };
    let err = acme()
        .with_profile(&lenient)
        .expect_err("invoice_send_reminder names it");
    assert_eq!(err.violations[0].tool.as_deref(), Some("invoice_list"));
}
