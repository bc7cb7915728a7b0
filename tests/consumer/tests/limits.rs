//! The limits every served call is held to, whatever the service: a handler cancelled at
//! its `timeout-ms` deadline (and told so through its token), an oversized result withheld,
//! a panic contained. A small hand-written [`Service`] stands in for a catalog.

use catalogc::rmcp::{BoxFuture, Server, Service};
use catalogc::runtime::serde_json::{Value, json};
use catalogc::runtime::{Call, CallError, CallResult, Content, Policy, ToolInfo};
use catalogc::testing::tool_error;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use support::client::{Client, LEGACY, MODERN};

mod support;

/// A write that never finishes by itself; `payment_status` tells its outcome.
const SLOW_WRITE: Policy<'static> = Policy {
    effect: "update",
    timeout_ms: Some(200),
    on_timeout: Some("query-status"),
    status_tool: Some("payment_status"),
    ..Policy::NONE
};
/// A read whose result is bigger than it may be.
const BIG: Policy<'static> = Policy {
    max_result_bytes: Some(256),
    ..Policy::NONE
};

fn info(name: &'static str, policy: Policy<'static>) -> ToolInfo {
    ToolInfo {
        name,
        version: "1.0.0",
        definition: "",
        input_hash: "",
        output_hash: "",
        contract_hash: "sha256:0",
        policy,
    }
}

/// What the handlers did, for the tests to check.
#[derive(Default)]
struct Seen {
    /// Handlers whose call was cancelled.
    cancelled: AtomicUsize,
}

struct Faults(Arc<Seen>);

/// The server author's context (these handlers need none).
struct Ctx;

impl Service<Ctx> for Faults {
    fn name(&self) -> &str {
        "faults"
    }
    fn version(&self) -> &str {
        "1.0.0"
    }
    fn definitions(&self) -> Vec<Value> {
        ["slow_write", "big", "small", "panic"]
            .iter()
            .map(|n| json!({"name": n, "inputSchema": {"type": "object"}}))
            .collect()
    }
    fn info(&self, name: &str) -> Option<ToolInfo> {
        match name {
            "slow_write" => Some(info("slow_write", SLOW_WRITE)),
            "big" => Some(info("big", BIG)),
            "small" => Some(info("small", BIG)),
            "panic" => Some(info("panic", Policy::NONE)),
            _ => None,
        }
    }
    fn call<'a>(
        &'a self,
        _ctx: &'a Ctx,
        call: &'a Call,
        name: &'a str,
        _arguments: Value,
    ) -> BoxFuture<'a, Result<CallResult, CallError>> {
        let seen = Arc::clone(&self.0);
        Box::pin(async move {
            match name {
                "slow_write" => {
                    assert!(call.deadline().is_some());
                    // Work started elsewhere watches a clone of the call.
                    let call = call.clone();
                    tokio::spawn(async move {
                        call.cancelled().await;
                        seen.cancelled.fetch_add(1, Ordering::SeqCst);
                    });
                    std::future::pending().await
                }
                "big" => Ok(CallResult::unstructured(Content::Text("x".repeat(1000)))),
                "small" => Ok(CallResult::unstructured(Content::Text("x".repeat(10)))),
                "panic" => panic!("secret internals"),
                _ => Err(CallError::UnknownTool(name.into())),
            }
        })
    }
}

fn server(seen: &Arc<Seen>) -> Server<Ctx> {
    Server::new(Faults(Arc::clone(seen)), |_| Ok(Ctx)).unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test]
async fn a_write_past_its_deadline_is_cancelled_and_points_to_its_status_tool() {
    let seen = Arc::new(Seen::default());
    for version in [LEGACY, MODERN] {
        let mut c = Client::start(server(&seen), version, json!({})).await;
        let started = Instant::now();
        let r = c.call("slow_write", json!({})).await;
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(200) && took < Duration::from_millis(300),
            "{took:?}"
        );
        let sc = tool_error(&r);
        assert_eq!(sc["code"], json!("TOOL_TIMEOUT"), "{r}");
        assert_eq!(sc["retry"], json!("never"));
        assert_eq!(sc["status_tool"], json!("payment_status"));
        let next = sc["next_step"].as_str().unwrap_or_default();
        assert!(next.contains("Call payment_status"), "{next}");
        assert!(
            next.contains("do not call this tool again blindly"),
            "{next}"
        );
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(seen.cancelled.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_result_larger_than_its_limit_is_never_sent() {
    let mut c = Client::start(server(&Arc::default()), MODERN, json!({})).await;
    let r = c.call("big", json!({})).await;
    let sc = tool_error(&r);
    assert_eq!(sc["code"], json!("RESULT_TOO_LARGE"), "{r}");
    assert!(!r.to_string().contains("xxxx"), "{r}");
    let ok = c.call("small", json!({})).await;
    assert_eq!(ok["result"]["isError"], json!(false), "{ok}");
}

#[tokio::test]
async fn a_panic_reaches_neither_the_model_nor_the_next_call() {
    let mut c = Client::start(server(&Arc::default()), LEGACY, json!({})).await;
    for _ in 0..3 {
        let r = c.call("panic", json!({})).await;
        assert_eq!(tool_error(&r)["code"], json!("INTERNAL_ERROR"), "{r}");
        assert!(!r.to_string().contains("secret"), "{r}");
    }
    let ok = c.call("small", json!({})).await;
    assert_eq!(ok["result"]["isError"], json!(false), "{ok}");
}
