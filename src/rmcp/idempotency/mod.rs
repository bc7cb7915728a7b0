//! Idempotency keys enforced around a call: a tool that declares `idempotency key=…` runs
//! at most once per key within the caller's scope, and every call with that key receives
//! the first call's result.
//!
//! Per call of such a tool ([`enforce`]), with the key read from the arguments and the
//! request digest over the tool and its canonical arguments
//! ([`request_digest`]):
//! - no live record of the key: the call claims it, the tool runs, and its result is kept
//!   when it is final ([`keeps`]); otherwise the claim is released so a retry runs the tool;
//! - the key's record has another digest: `IDEMPOTENCY_KEY_REUSED` (retry `never`), the tool
//!   does not run;
//! - the same digest with a kept result: that result, the tool does not run;
//! - the same digest while the first call is still running: the call waits for it, at most
//!   the tool's `timeout-ms`, then answers `IDEMPOTENCY_KEY_IN_FLIGHT` (retry later with the
//!   same key);
//! - a first call the server cut off (its `timeout-ms`, a panic) or that was dropped before
//!   its result was kept may have acted: its key keeps `IDEMPOTENCY_OUTCOME_UNKNOWN`, which
//!   every repeat receives (query the status tool; never run it again under the key);
//! - records expire `ttl-s` after the call that claimed them.
//!
//! A key is unique within a scope: the caller, as a plain string (the server's principal,
//! `Server::with_principal`, by default [`default_scope`] of the request), followed by the tool when the catalog's scope names `operation`.
//! The same key from another caller is another record: it never returns that caller's
//! result, nor conflicts with it.
//!
//! Records live in an [`IdempotencyStore`]: [`MemoryStore`] (tests, `serve --mock`),
//! `SqliteStore` (feature `sqlite`: one server, kept across restarts) or `PostgresStore`
//! (feature `postgres`: several replicas sharing one database).

#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod db;
mod memory;
#[cfg(feature = "postgres")]
mod postgres;
#[cfg(feature = "sqlite")]
mod sqlite;
#[cfg(test)]
mod tests;

pub use self::memory::MemoryStore;
#[cfg(feature = "postgres")]
pub use self::postgres::PostgresStore;
#[cfg(feature = "sqlite")]
pub use self::sqlite::SqliteStore;

use super::BoxFuture;
use crate::runtime::canonical::sha256_hex;
use crate::runtime::idempotency::{
    from_stored, keeps, key_in_flight, key_reused, request_digest, store_unavailable, to_stored,
};
use crate::runtime::{CallError, CallResult, Policy};
use serde_json::{Value, json};
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// One key of one scope, as a call claims it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// What the key is unique within (the caller, and the tool for `operation` scopes).
    pub scope: String,
    /// The idempotency key as the client sent it.
    pub key: String,
    /// The request digest the key is bound to.
    pub digest: String,
    /// Identifies the claiming call, so only it finishes or releases its claim.
    pub owner: String,
    /// How long the record lives after the claim.
    pub ttl: Duration,
}

/// What the store holds for a slot's key when a call asks for it.
#[derive(Debug, Clone, PartialEq)]
pub enum Claim {
    /// No live record: this call now holds the key and runs the tool.
    Claimed,
    /// The same request finished: its kept result ([`to_stored`] form).
    Done(Value),
    /// The same request is still running.
    Running,
    /// The key is bound to another request digest.
    Conflict,
}

/// A store that could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "idempotency store: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

/// Where idempotency records live. Each operation is atomic with respect to every other
/// user of the same store (other tasks, and for a shared database other processes).
pub trait IdempotencyStore: Send + Sync + 'static {
    /// Claims `slot.key` for `slot.digest`, or reports the live record that holds it. An
    /// expired record counts as absent.
    fn begin<'a>(&'a self, slot: &'a Slot) -> BoxFuture<'a, Result<Claim, StoreError>>;
    /// Keeps `result` for the key `slot` claimed (only while `slot.owner` holds it).
    fn finish<'a>(
        &'a self,
        slot: &'a Slot,
        result: &'a Value,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// Drops the claim of `slot.owner` without a result, so a retry runs the tool.
    fn release<'a>(&'a self, slot: &'a Slot) -> BoxFuture<'a, Result<(), StoreError>>;
}

/// The scope of a request's caller: the `Authorization` header's digest when the request
/// has one (the same credential is the same caller across sessions and replicas, and
/// another credential never shares its keys), else the MCP session, else `connection` (one
/// per stdio connection).
pub fn default_scope(http: Option<&::http::request::Parts>, connection: &str) -> String {
    let header = |name: &str| http.and_then(|p| p.headers.get(name));
    if let Some(auth) = header("authorization") {
        return format!("authorization:{}", sha256_hex(auth.as_bytes()));
    }
    if let Some(session) = header("mcp-session-id").and_then(|v| v.to_str().ok()) {
        return format!("session:{session}");
    }
    format!("connection:{connection}")
}

/// A string no other call of this or another process draws: the process, the time and a
/// counter, hashed.
pub fn unique_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let seed = format!("{}:{nanos}:{n}", std::process::id());
    sha256_hex(seed.as_bytes())
        .trim_start_matches("sha256:")
        .get(..32)
        .unwrap_or_default()
        .to_string()
}

/// The first pause between two looks at a running call's record, and the longest.
const POLL_FIRST: Duration = Duration::from_millis(5);
const POLL_MAX: Duration = Duration::from_millis(100);

/// Runs `call` under the idempotency of `policy` (when the tool declares one and the
/// arguments carry the key): at most once per key within `scope`, every call with the key
/// receiving the first call's result; a repeated call waits for a running first one at
/// most the policy's `timeout_ms`. See the module documentation for each case.
pub async fn enforce<F, Fut>(
    store: &Arc<dyn IdempotencyStore>,
    policy: &Policy<'_>,
    scope: &str,
    tool: &str,
    arguments: &Value,
    call: F,
) -> Result<CallResult, CallError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<CallResult, CallError>>,
{
    let Some(idem) = policy.idempotency else {
        return call().await;
    };
    let Some(key) = idem.key_of(arguments) else {
        return call().await;
    };
    let slot = Slot {
        scope: if idem.per_operation() {
            format!("{scope}\n{tool}")
        } else {
            scope.to_string()
        },
        key: key.to_string(),
        digest: request_digest(tool, arguments),
        owner: unique_id(),
        ttl: Duration::from_secs(idem.ttl_s()),
    };
    let deadline = Instant::now() + Duration::from_millis(policy.idempotency_wait_ms());
    let mut pause = POLL_FIRST;
    loop {
        let claim = match store.begin(&slot).await {
            Ok(claim) => claim,
            Err(e) => {
                eprintln!("catalogc: {tool}: {e}; the call was refused");
                return Ok(store_unavailable());
            }
        };
        match claim {
            Claim::Claimed => return run(store, slot, call).await,
            Claim::Conflict => return Ok(key_reused(idem.key)),
            Claim::Done(stored) => {
                return Ok(from_stored(&stored).unwrap_or_else(|| {
                    eprintln!("catalogc: {tool}: idempotency store: a kept result is unreadable");
                    store_unavailable()
                }));
            }
            Claim::Running => {
                let now = Instant::now();
                if now >= deadline {
                    return Ok(key_in_flight(idem.key));
                }
                tokio::time::sleep(pause.min(deadline - now)).await;
                pause = (pause * 2).min(POLL_MAX);
            }
        }
    }
}

/// Runs the call that holds `slot`, then keeps its result or releases the key.
async fn run<F, Fut>(
    store: &Arc<dyn IdempotencyStore>,
    slot: Slot,
    call: F,
) -> Result<CallResult, CallError>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<CallResult, CallError>>,
{
    let mut held = Held {
        store: Arc::clone(store),
        slot: slot.clone(),
        armed: true,
    };
    let result = match call().await {
        Ok(result) => result,
        // Only an unknown tool is a protocol error, and such a call ran nothing.
        Err(e) => {
            held.armed = false;
            let _ = store.release(&slot).await;
            return Err(e);
        }
    };
    let kept = if outcome_unknown(&result) {
        // The handler was cut off (its deadline, a panic) and may have acted: like a call
        // dropped mid-run, the key keeps the unknown outcome and is not run again.
        held.armed = false;
        store.finish(&slot, &to_stored(&interrupted())).await
    } else if keeps(&result) {
        // Still armed: dropped before the result is kept, the call counts as interrupted.
        let kept = store.finish(&slot, &to_stored(&result)).await;
        held.armed = false;
        kept
    } else {
        held.armed = false;
        store.release(&slot).await
    };
    if let Err(e) = kept {
        eprintln!("catalogc: {e}; the call's result is returned but was not kept");
    }
    Ok(result)
}

/// A claim whose call may be dropped before it finishes (the client cancelled, the
/// connection closed): the tool may have acted, so the key is not released; the calls
/// that repeat it receive [`interrupted`] instead of running the tool a second time.
struct Held {
    store: Arc<dyn IdempotencyStore>,
    slot: Slot,
    /// Set until the call returns.
    armed: bool,
}

impl Drop for Held {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let store = Arc::clone(&self.store);
        let slot = self.slot.clone();
        if let Ok(handle) = tokio::runtime::Handle::try_current() {
            handle.spawn(async move {
                let _ = store.finish(&slot, &to_stored(&interrupted())).await;
            });
        }
    }
}

/// Whether `result` is the server's answer for a handler it cut off before the handler
/// answered, after which a write's outcome is unknown: a timeout (`TOOL_TIMEOUT`) or a
/// panic (`INTERNAL_ERROR`) that is not to be retried. A read's timeout is retryable, so its
/// key is released.
fn outcome_unknown(result: &CallResult) -> bool {
    let retryable = result
        .structured_content
        .as_ref()
        .and_then(|f| f.get("retryable"))
        .is_some_and(|r| r == true);
    matches!(result.error_code(), Some("TOOL_TIMEOUT" | "INTERNAL_ERROR")) && !retryable
}

/// What a call receives whose key is held by a call that was interrupted before it
/// finished: its outcome is unknown, so the tool must not run again under the key.
fn interrupted() -> CallResult {
    CallResult::error(json!({
        "code": "IDEMPOTENCY_OUTCOME_UNKNOWN",
        "class": "timeout",
        "retryable": false,
        "retry": "query-status",
        "next_step": "The first call with this key was interrupted before it answered. Find \
            out whether it took effect (the tool's status tool), then tell the user; do not \
            call again with this key.",
        "message": "the first call with this idempotency key was interrupted; its outcome is unknown",
    }))
}
