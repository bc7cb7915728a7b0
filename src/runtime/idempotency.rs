//! What a catalog declares about a tool's idempotency key, as generated code states it, and
//! the parts of enforcing it that need no async runtime: the request digest a key is bound
//! to, which results are kept for a replay, how a kept result is stored, and the tool errors
//! a key that cannot be honoured becomes. The store and the enforcement around a call live
//! in `catalogc::rmcp::idempotency`.

use super::call::CallResult;
use super::canonical::digest;
use super::content::{Content, ImageBlock};
use serde_json::{Value, json};

/// How long a key is remembered when the catalog states no `ttl-s`: one day.
pub const DEFAULT_TTL_S: u64 = 86_400;

/// How long a call waits for an earlier call with its key that is still running, when the
/// tool states no `limits timeout-ms` ([`Policy::idempotency_wait_ms`](super::Policy)).
pub const DEFAULT_WAIT_MS: u64 = 30_000;

/// A tool's `idempotency key= scope= ttl-s=`, part of its [`Policy`](super::Policy) (whose
/// `timeout_ms` bounds how long a repeated call waits for the first one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Idempotency<'a> {
    /// The input field carrying the key (a required string).
    pub key: &'a str,
    /// What a key is unique within (`scope="tenant" "operation"`). The caller always scopes
    /// a key; `operation` adds the tool, so one key may be used once per tool.
    pub scope: &'a [&'a str],
    /// `ttl-s`: how long a key is remembered, in seconds.
    pub ttl_s: Option<u64>,
}

impl<'a> Idempotency<'a> {
    /// One tool's declaration, as generated code states it.
    pub const fn new(key: &'a str, scope: &'a [&'a str], ttl_s: Option<u64>) -> Idempotency<'a> {
        Idempotency { key, scope, ttl_s }
    }

    /// How long a key is remembered, in seconds ([`DEFAULT_TTL_S`] when not declared).
    pub fn ttl_s(&self) -> u64 {
        self.ttl_s.unwrap_or(DEFAULT_TTL_S)
    }

    /// Whether the key is unique per tool (`scope` names `operation`).
    pub fn per_operation(&self) -> bool {
        self.scope.contains(&"operation")
    }

    /// The key a call carries: the string value of the key field, when present.
    pub fn key_of<'v>(&self, arguments: &'v Value) -> Option<&'v str> {
        arguments.get(self.key)?.as_str()
    }
}

/// The digest a key is bound to: `sha256:` over the canonical `{"tool": …, "arguments": …}`.
/// Two calls are the same request exactly when their digests are equal, whatever the order
/// of their argument members.
pub fn request_digest(tool: &str, arguments: &Value) -> String {
    digest(&json!({ "tool": tool, "arguments": arguments }))
}

/// Whether a call's result is final, and so is what a call with the same key receives: a
/// success, or a tool error that calling again would not change. A result asking for input,
/// arguments that break the contract (the handler never ran) and an error whose policy is to
/// retry are not kept, so a retry with the same key runs the tool.
pub fn keeps(result: &CallResult) -> bool {
    if result.input_required.is_some() {
        return false;
    }
    match result.error_code() {
        None => !result.is_error,
        Some("INVALID_ARGUMENTS") => false,
        Some(_) => {
            let fields = result.structured_content.as_ref();
            !fields
                .and_then(|f| f.get("retryable"))
                .is_some_and(|r| r == true)
        }
    }
}

/// A kept result as the store holds it: its structured content, its one content block and
/// whether it is an error.
pub fn to_stored(result: &CallResult) -> Value {
    json!({
        "structured": result.structured_content,
        "content": result.content.to_json(),
        "is_error": result.is_error,
    })
}

/// The result a store holds, as it was kept; `None` for a value [`to_stored`] did not write.
pub fn from_stored(stored: &Value) -> Option<CallResult> {
    let block = stored.get("content")?;
    let content = match block.get("type")?.as_str()? {
        "text" => Content::Text(block.get("text")?.as_str()?.to_string()),
        "image" => Content::Image(Box::new(ImageBlock {
            data: block.get("data")?.as_str()?.to_string(),
            mime_type: block.get("mimeType")?.as_str()?.to_string(),
        })),
        _ => return None,
    };
    let structured = match stored.get("structured") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.clone()),
    };
    Some(CallResult {
        structured_content: structured,
        content,
        is_error: stored.get("is_error")?.as_bool()?,
        input_required: None,
        withheld: None,
        failure: None,
    })
}

/// The tool error for a key already used with other arguments: the tool did not run.
pub fn key_reused(key_field: &str) -> CallResult {
    CallResult::error(json!({
        "code": "IDEMPOTENCY_KEY_REUSED",
        "class": "conflict",
        "retryable": false,
        "retry": "never",
        "next_step": format!(
            "This {key_field} was already used for a call with other arguments. To repeat that \
             call, send exactly its arguments; for a new operation, use a fresh {key_field}."
        ),
        "message": "the idempotency key was already used with other arguments; nothing was done",
    }))
}

/// The tool error for a call whose key is held by an earlier call that did not finish
/// within the wait: calling again with the same key and arguments returns that call's
/// result once it has one.
pub fn key_in_flight(key_field: &str) -> CallResult {
    CallResult::error(json!({
        "code": "IDEMPOTENCY_KEY_IN_FLIGHT",
        "class": "unavailable",
        "retryable": true,
        "retry": "backoff",
        "next_step": format!(
            "An earlier call with this {key_field} is still running. Call again later with the \
             same arguments and the same {key_field}, never a new one: the call then returns \
             that call's result."
        ),
        "message": "an earlier call with this idempotency key is still running",
    }))
}

/// The tool error for a store that could not be reached or read: the tool did not run.
pub fn store_unavailable() -> CallResult {
    CallResult::error(json!({
        "code": "IDEMPOTENCY_UNAVAILABLE",
        "class": "unavailable",
        "retryable": true,
        "retry": "backoff",
        "message": "the idempotency store is unavailable; nothing was done",
    }))
}
