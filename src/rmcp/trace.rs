//! One `tracing` span per `tools/call`, named and attributed after the OpenTelemetry
//! semantic conventions for MCP, plus catalogc's own decisions under the `catalogc.` prefix
//! (docs/runtime.md, "Traces").
//!
//! The span (target [`TARGET`]) is named `tools/call` and carries `otel.name = "tools/call
//! {tool}"`, `otel.kind = "server"`, `mcp.method.name`, `mcp.session.id` (a digest of the
//! session, never the id itself), `mcp.protocol.version`, `jsonrpc.request.id`,
//! `gen_ai.tool.name`, `gen_ai.operation.name = "execute_tool"`, `network.transport` and, on
//! failure, `error.type` (`tool_error` for a tool error, the JSON-RPC code for a protocol
//! error) and `rpc.response.status_code`. When the call ends, one event of the same target
//! repeats every field with the duration (`mcp.server.operation.duration`, seconds): the
//! JSON trace line ([`super::telemetry`]) that `catalogc report` reads.
//!
//! Nothing a client sent is recorded as it was sent: the arguments are a digest taken after
//! the tool's `sensitive` fields are removed, the idempotency key a digest of the key. Error
//! codes and classes come from the catalog, never from a handler's message.

use crate::runtime::canonical::{digest_members, sha256_hex};
use crate::runtime::{BudgetDecision, ToolInfo};
use ::rmcp::ErrorData;
use ::rmcp::model::{CallToolRequestParams, CallToolResponse, CallToolResult};
use ::rmcp::service::{RequestContext, RoleServer};
use serde_json::Value;
use std::sync::{Mutex, OnceLock};
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use tracing::field::Empty;

/// The `tracing` target of the call spans and of the trace lines.
pub const TARGET: &str = "catalogc::trace";

/// What the server decided during one call, as the call's code paths report it.
#[derive(Debug, Default)]
struct Facts {
    /// `asked`, `granted`, `declined` or `refused`.
    approval: Option<&'static str>,
    /// The call reached the idempotency check (the context was built).
    reached_store: bool,
    /// When the handler first started (the arguments were checked by it): the handler ran.
    handler_start: Option<Instant>,
    /// When the handler last ended.
    handler_end: Option<Instant>,
    /// The session budget's decision on the call, when it reached the budget.
    budget: Option<BudgetDecision>,
}

/// The trace of one `tools/call` in progress.
#[derive(Debug)]
pub(super) struct CallTrace {
    span: tracing::Span,
    start: Instant,
    facts: Mutex<Facts>,
    fixed: Fixed,
}

/// What is known when the call arrives.
#[derive(Debug)]
struct Fixed {
    tool: String,
    session: Option<String>,
    protocol: Option<String>,
    era: &'static str,
    request_id: String,
    transport: &'static str,
    version: Option<&'static str>,
    effect: Option<&'static str>,
    contract: Option<&'static str>,
    arguments: Option<String>,
    /// No argument was left out of `arguments` (none is sensitive).
    whole: bool,
    key: Option<String>,
}

impl CallTrace {
    /// Opens the span of one call of `info` (`None`: the tool is unknown). `connection`
    /// names the session of a transport without session ids (one stdio connection).
    pub(super) fn start(
        info: Option<&ToolInfo>,
        params: &CallToolRequestParams,
        rc: &RequestContext<RoleServer>,
        connection: &str,
    ) -> CallTrace {
        let http = rc.extensions.get::<::http::request::Parts>();
        let session = match http {
            Some(parts) => parts
                .headers
                .get("mcp-session-id")
                .map(|v| session_digest(v.as_bytes())),
            None => Some(session_digest(connection.as_bytes())),
        };
        let protocol = rc.protocol_version().map(|v| v.as_str().to_string());
        let era = super::call::era(rc).as_str();
        let arguments = params.arguments.as_ref();
        let fixed = Fixed {
            tool: params.name.to_string(),
            session,
            protocol,
            era,
            request_id: rc.id.to_string(),
            transport: if http.is_some() { "tcp" } else { "pipe" },
            version: info.map(|i| i.version),
            effect: info.map(|i| i.policy.effect),
            contract: info.map(|i| i.contract_hash),
            arguments: info.map(|i| arguments_digest(i, arguments)),
            whole: info.is_some_and(|i| {
                arguments.is_none_or(|a| !a.keys().any(|k| i.policy.is_sensitive(k)))
            }),
            key: info.and_then(|i| {
                let idem = i.policy.idempotency?;
                let key = arguments?.get(idem.key)?.as_str()?;
                Some(sha256_hex(key.as_bytes()))
            }),
        };
        let span = tracing::info_span!(
            target: TARGET,
            "tools/call",
            otel.name = %format_args!("tools/call {}", fixed.tool),
            otel.kind = "server",
            otel.status_code = Empty,
            mcp.method.name = "tools/call",
            mcp.session.id = fixed.session.as_deref(),
            mcp.protocol.version = fixed.protocol.as_deref(),
            jsonrpc.request.id = fixed.request_id.as_str(),
            gen_ai.tool.name = fixed.tool.as_str(),
            gen_ai.operation.name = "execute_tool",
            network.transport = fixed.transport,
            error.type = Empty,
            rpc.response.status_code = Empty,
            catalogc.tool.version = fixed.version,
            catalogc.tool.effect = fixed.effect,
            catalogc.contract.hash = fixed.contract,
            catalogc.arguments.digest = fixed.arguments.as_deref(),
            catalogc.validation = Empty,
            catalogc.validation.violations = Empty,
            catalogc.approval = Empty,
            catalogc.idempotency = Empty,
            catalogc.idempotency.key_digest = fixed.key.as_deref(),
            catalogc.budget = Empty,
            catalogc.budget.name = Empty,
            catalogc.budget.limit = Empty,
            catalogc.error.code = Empty,
            catalogc.error.class = Empty,
            catalogc.error.kind = Empty,
            catalogc.output = Empty,
            catalogc.handler.start_us = Empty,
            catalogc.handler.end_us = Empty,
            catalogc.protocol.era = fixed.era,
        );
        #[cfg(feature = "otlp")]
        super::telemetry::continue_trace(&span, params.meta.as_ref(), &rc.meta);
        CallTrace {
            span,
            start: Instant::now(),
            facts: Mutex::new(Facts::default()),
            fixed,
        }
    }

    /// The canonical digest of all the call's arguments when the trace's argument digest is
    /// that (no argument is sensitive), so the budget need not take it again.
    pub(super) fn whole_arguments_digest(&self) -> Option<&str> {
        self.fixed.arguments.as_deref().filter(|_| self.fixed.whole)
    }

    /// The call's span, to run the call in.
    pub(super) fn span(&self) -> &tracing::Span {
        &self.span
    }

    fn with(&self, f: impl FnOnce(&mut Facts)) {
        if let Ok(mut facts) = self.facts.lock() {
            f(&mut facts);
        }
    }

    /// The user was asked to approve (an input request went out).
    pub(super) fn approval_asked(&self) {
        self.with(|f| f.approval = Some("asked"));
    }

    /// The user's answer was verified and accepted.
    pub(super) fn approval_granted(&self) {
        self.with(|f| f.approval = Some("granted"));
    }

    /// The user declined or cancelled.
    pub(super) fn approval_declined(&self) {
        self.with(|f| f.approval = Some("declined"));
    }

    /// The answers were refused (forged, tampered with, expired, for other arguments).
    pub(super) fn approval_refused(&self) {
        self.with(|f| f.approval = Some("refused"));
    }

    /// The session budget decided on the call ([`super::guard::Guards::admit`]).
    pub(super) fn budget(&self, decision: BudgetDecision) {
        self.with(|f| f.budget = Some(decision));
    }

    /// The call reached its idempotency check.
    pub(super) fn reached_store(&self) {
        self.with(|f| f.reached_store = true);
    }

    /// The handler was started (the first start of a call that runs it more than once
    /// counts).
    pub(super) fn handler_started(&self) {
        self.with(|f| {
            f.handler_start.get_or_insert_with(Instant::now);
        });
    }

    /// The handler returned, failed or was cut off (the last end counts).
    pub(super) fn handler_ended(&self) {
        self.with(|f| f.handler_end = Some(Instant::now()));
    }

    /// Records the call's outcome on its span and writes its trace line.
    pub(super) fn finish(self, outcome: &Result<CallToolResponse, ErrorData>) {
        let facts = self.facts.into_inner().unwrap_or_default();
        let fixed = &self.fixed;
        let decided = decide(&facts, fixed.key.is_some(), outcome);
        let span = &self.span;
        if decided.error_type.is_some() {
            span.record("otel.status_code", "error");
        }
        span.record("error.type", decided.error_type.as_deref());
        span.record("rpc.response.status_code", decided.rpc_code.as_deref());
        span.record("catalogc.validation", decided.validation);
        span.record("catalogc.validation.violations", decided.violations);
        span.record("catalogc.approval", facts.approval);
        span.record("catalogc.idempotency", decided.idempotency);
        span.record("catalogc.budget", decided.budget);
        span.record("catalogc.budget.name", decided.budget_name);
        span.record("catalogc.budget.limit", decided.budget_limit);
        span.record("catalogc.error.code", decided.code.as_deref());
        span.record("catalogc.error.class", decided.class.as_deref());
        span.record("catalogc.error.kind", decided.kind);
        span.record("catalogc.output", decided.output);
        let start_us = facts.handler_start.map(unix_micros);
        let end_us = facts.handler_end.map(unix_micros);
        span.record("catalogc.handler.start_us", start_us);
        span.record("catalogc.handler.end_us", end_us);
        let seconds = self.start.elapsed().as_secs_f64();
        tracing::event!(
            target: TARGET,
            tracing::Level::INFO,
            mcp.method.name = "tools/call",
            mcp.session.id = fixed.session.as_deref(),
            mcp.protocol.version = fixed.protocol.as_deref(),
            mcp.server.operation.duration = seconds,
            jsonrpc.request.id = fixed.request_id.as_str(),
            gen_ai.tool.name = fixed.tool.as_str(),
            gen_ai.operation.name = "execute_tool",
            network.transport = fixed.transport,
            error.type = decided.error_type.as_deref(),
            rpc.response.status_code = decided.rpc_code.as_deref(),
            catalogc.tool.version = fixed.version,
            catalogc.tool.effect = fixed.effect,
            catalogc.contract.hash = fixed.contract,
            catalogc.arguments.digest = fixed.arguments.as_deref(),
            catalogc.validation = decided.validation,
            catalogc.validation.violations = decided.violations,
            catalogc.approval = facts.approval,
            catalogc.idempotency = decided.idempotency,
            catalogc.idempotency.key_digest = fixed.key.as_deref(),
            catalogc.budget = decided.budget,
            catalogc.budget.name = decided.budget_name,
            catalogc.budget.limit = decided.budget_limit,
            catalogc.error.code = decided.code.as_deref(),
            catalogc.error.class = decided.class.as_deref(),
            catalogc.error.kind = decided.kind,
            catalogc.output = decided.output,
            catalogc.handler.start_us = start_us,
            catalogc.handler.end_us = end_us,
            catalogc.protocol.era = fixed.era,
            "tools/call"
        );
    }
}

/// The outcome fields of one call.
#[derive(Debug, Default, PartialEq)]
struct Decided {
    error_type: Option<String>,
    rpc_code: Option<String>,
    validation: Option<&'static str>,
    violations: Option<u64>,
    idempotency: Option<&'static str>,
    budget: Option<&'static str>,
    budget_name: Option<&'static str>,
    budget_limit: Option<u64>,
    code: Option<String>,
    class: Option<String>,
    kind: Option<&'static str>,
    output: Option<&'static str>,
}

/// Reads the outcome fields off what the call answered and what it did on the way.
fn decide(facts: &Facts, has_key: bool, outcome: &Result<CallToolResponse, ErrorData>) -> Decided {
    let result = match outcome {
        Err(e) => {
            let code = e.code.0.to_string();
            return Decided {
                error_type: Some(code.clone()),
                rpc_code: Some(code),
                kind: Some("protocol"),
                ..Decided::default()
            };
        }
        Ok(CallToolResponse::Complete(result)) => Some(result),
        Ok(_) => None,
    };
    let error = result.and_then(error_object);
    let code = error
        .as_ref()
        .and_then(|e| e.get("code")?.as_str().map(str::to_string));
    let class = error
        .as_ref()
        .and_then(|e| e.get("class")?.as_str().map(str::to_string));
    let is_error = result.is_some_and(|r| r.is_error == Some(true));
    let invalid = code.as_deref() == Some("INVALID_ARGUMENTS");
    let violations = error
        .as_ref()
        .filter(|_| invalid)
        .and_then(|e| e.get("violations")?.as_array().map(|v| v.len() as u64));
    let idempotency = if !has_key || !facts.reached_store {
        None
    } else if facts.handler_start.is_some() {
        Some("executed")
    } else {
        Some(match code.as_deref() {
            Some("IDEMPOTENCY_KEY_REUSED") => "conflict",
            Some("IDEMPOTENCY_KEY_IN_FLIGHT") => "in-flight",
            Some("IDEMPOTENCY_UNAVAILABLE") => "unavailable",
            _ => "replayed",
        })
    };
    let exceeded = match facts.budget {
        Some(BudgetDecision::Exceeded { budget, limit }) => Some((budget, limit)),
        _ => None,
    };
    let output = match code.as_deref() {
        _ if result.is_none() || facts.handler_start.is_none() => None,
        None if !is_error => Some("valid"),
        Some("INVALID_TOOL_OUTPUT") => Some("withheld"),
        Some("RESULT_TOO_LARGE") => Some("too-large"),
        _ => None,
    };
    Decided {
        error_type: is_error.then(|| "tool_error".to_string()),
        rpc_code: None,
        validation: facts.handler_start.is_some().then_some(if invalid {
            "invalid"
        } else {
            "valid"
        }),
        violations,
        idempotency,
        budget: facts.budget.map(|d| match d {
            BudgetDecision::Admitted => "ok",
            BudgetDecision::Exceeded { .. } => "exceeded",
        }),
        budget_name: exceeded.map(|(budget, _)| budget.key()),
        budget_limit: exceeded.map(|(_, limit)| limit),
        kind: is_error.then(|| error_kind(code.as_deref(), class.as_deref())),
        code,
        class,
        output,
    }
}

/// A tool error's object: the JSON of its text block.
fn error_object(result: &CallToolResult) -> Option<Value> {
    if result.is_error != Some(true) {
        return None;
    }
    let text = result.content.first()?.as_text()?;
    serde_json::from_str(&text.text).ok()
}

/// Which kind of failure a tool error is, for the error rates of `catalogc report`:
/// `arguments` (the call broke the input schema: `INVALID_ARGUMENTS`), `permission` (class
/// `permission-denied`, and every refused, declined, expired or impossible approval),
/// `infrastructure` (classes `rate-limited`, `unavailable`, `timeout`, `budget-exceeded`,
/// `internal`: the tool could not do its work) or `business` (every other class: the tool
/// worked and said no — `not-found`, `conflict`, `precondition-failed`, `business-rejected`,
/// a declared `invalid-argument`).
pub fn error_kind(code: Option<&str>, class: Option<&str>) -> &'static str {
    match (code, class) {
        (Some("INVALID_ARGUMENTS"), _) => "arguments",
        (
            Some("APPROVAL_DECLINED" | "APPROVAL_EXPIRED" | "APPROVAL_INVALID" | "INPUT_REQUIRED"),
            _,
        )
        | (_, Some("permission-denied")) => "permission",
        (
            _,
            Some("rate-limited" | "unavailable" | "timeout" | "budget-exceeded" | "internal")
            | None,
        ) => "infrastructure",
        _ => "business",
    }
}

/// The digest of the arguments with the tool's sensitive fields removed.
fn arguments_digest(info: &ToolInfo, arguments: Option<&serde_json::Map<String, Value>>) -> String {
    match arguments {
        Some(map) => digest_members(map, |k| !info.policy.is_sensitive(k)),
        None => digest_members(&serde_json::Map::new(), |_| true),
    }
}

/// `at` in microseconds since the Unix epoch, on the monotonic clock: the wall clock is read
/// once per process, so two instants of one server compare as they happened even when the
/// wall clock is set meanwhile.
fn unix_micros(at: Instant) -> u64 {
    static ANCHOR: OnceLock<(Instant, SystemTime)> = OnceLock::new();
    let (instant, wall) = *ANCHOR.get_or_init(|| (Instant::now(), SystemTime::now()));
    let wall_at = match at.checked_duration_since(instant) {
        Some(later) => wall.checked_add(later),
        None => wall.checked_sub(instant.duration_since(at)),
    };
    wall_at
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}

/// A session id as traced: the first 16 hex digits of its SHA-256, so a trace never holds a
/// live session id.
fn session_digest(id: &[u8]) -> String {
    let hex = sha256_hex(id);
    let digits = hex.strip_prefix("sha256:").unwrap_or(&hex);
    digits.chars().take(16).collect()
}

#[cfg(test)]
mod tests;
