//! Serving a generated catalog: the [`Catalog`] trait every generated catalog implements,
//! and how each outcome of a call becomes an MCP `tools/call` result.
//!
//! What leaves the server is decided here, once for every catalog: arguments are checked
//! against the contract before the handler runs; a handler error is reduced to what the
//! catalog declared about it (code, class, retry policy, next step, message), never its
//! internals; an output that breaks its own schema is withheld.

use super::content::{Content, ToolOutput};
use super::policy::Policy;
use super::validate::{Shape, Validate, Violation, Violations, check};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use std::fmt;
use std::future::Future;

/// What a catalog declares about one error: everything of it that may reach a client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErrorInfo {
    /// The catalog's error code, e.g. `INVOICE_NOT_FOUND`.
    pub code: &'static str,
    /// The error class (`not-found`, `unavailable`, …).
    pub class: &'static str,
    /// The retry policy (`never`, `backoff`, …), as declared or the class's default.
    pub retry: &'static str,
    /// What the model should do next, when the catalog says.
    pub next_step: Option<&'static str>,
    /// The catalog's message, else the code.
    pub message: &'static str,
}

impl ErrorInfo {
    /// Every tool's internal error (`Error::Internal`): a failure the handler did not
    /// expect, which reaches the model only as this code.
    pub const INTERNAL: ErrorInfo = ErrorInfo::new(
        "INTERNAL_ERROR",
        "internal",
        "never",
        None,
        "the tool failed unexpectedly",
    );

    /// One declared error, as generated code states it in its table.
    pub const fn new(
        code: &'static str,
        class: &'static str,
        retry: &'static str,
        next_step: Option<&'static str>,
        message: &'static str,
    ) -> ErrorInfo {
        ErrorInfo {
            code,
            class,
            retry,
            next_step,
            message,
        }
    }
}

/// The error a tool's handler returns: one of the errors its catalog declares, with an
/// optional detail, or the internal error. Generated code implements [`info`](ToolError::info)
/// (a lookup in a static table), [`detail`](ToolError::detail), [`is_internal`](ToolError::is_internal)
/// and [`policy`](ToolError::policy), so a handler can only ever report what the catalog
/// says about its error, plus the detail it chose to give the model.
pub trait ToolError {
    /// The catalog's declaration of this error ([`ErrorInfo::INTERNAL`] for the internal
    /// error).
    fn info(&self) -> &'static ErrorInfo;
    /// What this occurrence adds: of a declared error, sent to the model as `detail` beside
    /// the catalog's message; of the internal error, logged for the operator and never sent.
    fn detail(&self) -> Option<&str> {
        None
    }
    /// The typed detail of a declared error whose catalog declares detail fields, as the
    /// JSON sent to the model under `detail`, checked against its declared schema ([`error_detail`]
    /// builds it): `Err` lists each violation, and the error is then withheld as
    /// `INTERNAL_ERROR` (a server bug). `None` for an error without declared detail fields.
    fn detail_value(&self) -> Option<Result<Value, Violations>> {
        None
    }
    /// Whether this is the internal error: the model learns only `INTERNAL_ERROR`.
    fn is_internal(&self) -> bool {
        false
    }
    /// The tool's run-time policy, which decides the next step after an internal error of
    /// a write.
    fn policy(&self) -> &'static Policy<'static> {
        &Policy::NONE
    }
    /// The catalog's error code, e.g. `INVOICE_NOT_FOUND`.
    fn code(&self) -> &'static str {
        self.info().code
    }
    /// The error class (`not-found`, `unavailable`, …).
    fn class(&self) -> &'static str {
        self.info().class
    }
    /// The retry policy (`never`, `backoff`, …), as declared or the class's default.
    fn retry(&self) -> &'static str {
        self.info().retry
    }
    /// Whether calling again with the same arguments may succeed (policy `backoff`).
    fn retryable(&self) -> bool {
        self.retry() == "backoff"
    }
    /// What the model should do next, when the catalog says.
    fn next_step(&self) -> Option<&'static str> {
        self.info().next_step
    }
    /// The catalog's message, else the code.
    fn message(&self) -> &'static str {
        self.info().message
    }
}

/// A `needs-input` request a tool may answer with instead of completing.
pub trait InputRequest {
    /// The `needs-input` name, e.g. `approval`.
    fn name(&self) -> &'static str;
    /// `confirmation`, `choice`, `credential` or `text`.
    fn kind(&self) -> &'static str;
}

/// What a tool with `needs-input` returns: more input from the user, or its output.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply<O, N> {
    /// The tool needs `needs` from the user before it can go on; `prompt` says what exactly.
    InputRequired {
        /// Which of the tool's declared `needs-input` requests this is; the client learns
        /// its name and kind, so it can render a confirmation, a choice or a text box.
        needs: N,
        /// Shown to the user: what exactly is asked and why. It reaches the model and the
        /// user as written, so say what the answer changes, not internals.
        prompt: String,
    },
    /// As `InputRequired`, for a tool whose approval also binds the version of what it
    /// changes (`confirm digest="arguments+resource-version"`): the approval is bound to
    /// `resource_version` too, and the handler learns the approved version from the answer.
    InputRequiredAt {
        /// Which `needs-input` request this is.
        needs: N,
        /// Shown to the user, as for `InputRequired`.
        prompt: String,
        /// The current version of the resource the call changes.
        resource_version: String,
    },
    /// The tool finished; the output is checked against its schema before it is sent.
    Complete(O),
}

/// The result of `tools/call` that reached a tool (MCP `CallToolResult`).
#[derive(Debug, Clone, PartialEq)]
pub struct CallResult {
    /// `structuredContent`.
    pub structured_content: Option<Value>,
    /// The one block of `content`: the JSON text of `structuredContent`, or an unstructured
    /// result's text or image.
    pub content: Content,
    /// `isError`: the tool failed (a tool error, not a protocol error).
    pub is_error: bool,
    /// Set when the tool answered `needs-input` instead of completing. The result is then
    /// also the `INPUT_REQUIRED` tool error, for a transport that has no better way to say
    /// it; an MCP adapter answers with an input request instead (`catalogc::rmcp`).
    pub input_required: Option<Box<InputNeeded>>,
    /// Why an output was withheld as `INVALID_TOOL_OUTPUT`: each violation of the output
    /// contract (JSON Pointer and rule). Never sent; for the operator's log
    /// (`catalogc::rmcp` logs them).
    pub withheld: Option<Box<Violations>>,
    /// The detail of the internal error a handler returned (`INTERNAL_ERROR`). Never sent;
    /// for the operator's log (`catalogc::rmcp` logs it).
    pub failure: Option<Box<String>>,
}

/// What a tool that answered `needs-input` asks the user for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputNeeded {
    /// The `needs-input` name, e.g. `approval`.
    pub name: String,
    /// `confirmation`, `choice`, `credential` or `text`.
    pub kind: String,
    /// What exactly the user is asked, as the handler phrased it.
    pub prompt: String,
    /// The resource version the approval binds (`Reply::InputRequiredAt`).
    pub resource_version: Option<String>,
}

impl CallResult {
    /// The result as MCP JSON: `content`, `structuredContent` ([`Self::mcp_structured`]),
    /// `isError`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("content".into(), json!([self.content.to_json()]));
        if let Some(sc) = self.mcp_structured() {
            m.insert("structuredContent".into(), sc.clone());
        }
        m.insert("isError".into(), json!(self.is_error));
        Value::Object(m)
    }

    /// What MCP's `structuredContent` carries: the output, and nothing on a tool error. MCP
    /// requires `structuredContent` to conform to the tool's `outputSchema`, with no
    /// exception for `isError` results, and clients check it (the MCP Inspector rejects an
    /// error object there); the error object is the text block instead, as JSON.
    pub fn mcp_structured(&self) -> Option<&Value> {
        if self.is_error {
            None
        } else {
            self.structured_content.as_ref()
        }
    }

    /// The error code of a tool error (`structured_content.code`).
    pub fn error_code(&self) -> Option<&str> {
        if !self.is_error {
            return None;
        }
        self.structured_content.as_ref()?.get("code")?.as_str()
    }

    /// The text of the content block (empty for an image).
    pub fn text(&self) -> &str {
        match &self.content {
            Content::Text(t) => t,
            Content::Image(_) => "",
        }
    }

    fn structured(value: Value, is_error: bool) -> CallResult {
        let text = value.to_string();
        CallResult {
            structured_content: Some(value),
            content: Content::Text(text),
            is_error,
            input_required: None,
            withheld: None,
            failure: None,
        }
    }

    /// A successful unstructured result: the block alone, no `structuredContent`.
    pub fn unstructured(content: Content) -> CallResult {
        CallResult {
            structured_content: None,
            content,
            is_error: false,
            input_required: None,
            withheld: None,
            failure: None,
        }
    }

    pub(crate) fn error(fields: Value) -> CallResult {
        CallResult::structured(fields, true)
    }
}

/// A call that never reached a tool: a protocol error, not a tool result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No tool of this name in the catalog.
    UnknownTool(String),
}

impl CallError {
    /// The JSON-RPC error code when served over MCP (−32602, invalid params).
    pub fn code(&self) -> i64 {
        match self {
            CallError::UnknownTool(_) => -32602,
        }
    }

    /// The JSON-RPC `error` object.
    pub fn to_json(&self) -> Value {
        json!({ "code": self.code(), "message": self.to_string() })
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::UnknownTool(name) => write!(f, "unknown tool: {name:?}"),
        }
    }
}

impl std::error::Error for CallError {}

/// The published contract of one tool, as generated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolInfo {
    /// The tool name a client calls (`tools/call` `name`).
    pub name: &'static str,
    /// The tool's declared version; `catalogc breaking` keeps it honest.
    pub version: &'static str,
    /// The MCP tool definition (an entry of `tools/list`) as JSON text: stored as text so
    /// the whole list is a `'static` constant, parsed only when served.
    pub definition: &'static str,
    /// `sha256:` of the canonical input schema: changes exactly when what a client may send
    /// changes, so a server can log or gate on it.
    pub input_hash: &'static str,
    /// `sha256:` of the canonical output schema.
    pub output_hash: &'static str,
    /// `sha256:` of the whole contract, as `catalogc hash` prints it and the lock file
    /// records it: compare it with a client's pinned hash to detect drift.
    pub contract_hash: &'static str,
    /// What a server enforces for the tool at run time: limits, timeout recovery,
    /// approval binding.
    pub policy: Policy<'static>,
}

impl ToolInfo {
    /// The tool definition as JSON (`Value::Null` only if the generated text were corrupt).
    pub fn definition(&self) -> Value {
        serde_json::from_str(self.definition).unwrap_or(Value::Null)
    }
}

/// A generated catalog, served by handler `H` (the catalog's handler trait).
pub trait Catalog<H: ?Sized> {
    /// The trusted per-request context the handler receives (identity, tenant, policy).
    type Context: ?Sized;
    /// The catalog name.
    const NAME: &'static str;
    /// The catalog version.
    const VERSION: &'static str;
    /// Every tool, in declaration order.
    const TOOLS: &'static [ToolInfo];
    /// The session budgets of the catalog's project (`guard { … }` in `catalogc.kdl`), when
    /// it declares them; a server holds every session to them.
    const GUARD: Option<super::Guard> = None;
    /// The profiles of the catalog's project (`profile "NAME" { … }` in `catalogc.kdl`); a
    /// server started with one checks the catalog against it.
    const PROFILES: &'static [super::Profile<'static>] = &[];

    /// The `tools/list` payload: `{"tools":[...]}` in declaration order.
    fn tools_list() -> Value {
        json!({ "tools": Self::TOOLS.iter().map(ToolInfo::definition).collect::<Vec<_>>() })
    }

    /// Calls tool `name` with `arguments`: checks them, runs the handler (with `ctx` and
    /// what it learns of the call, `call`, its answers typed as the tool declares them),
    /// checks its output and encodes the outcome. Only an unknown tool is a protocol error.
    fn call(
        handler: &H,
        ctx: &Self::Context,
        call: &super::Call,
        name: &str,
        arguments: Value,
    ) -> impl Future<Output = Result<CallResult, CallError>> + Send;
}

/// One tool's call as the dispatcher of a generated catalog holds it: boxed, so that
/// dispatching over many tools awaits one future type instead of one per tool.
pub type BoxCall<'a> = std::pin::Pin<Box<dyn Future<Output = CallResult> + Send + 'a>>;

/// `call` boxed as a [`BoxCall`].
pub fn boxed<'a>(call: impl Future<Output = CallResult> + Send + 'a) -> BoxCall<'a> {
    Box::pin(call)
}

/// Runs one tool whose handler returns its output (structured, or an unstructured
/// [`Text`](super::Text), [`Markdown`](super::Markdown) or [`Image`](super::Image)).
pub async fn run<I, O, E, F, Fut>(arguments: Value, handler: F) -> CallResult
where
    I: Validate + DeserializeOwned,
    O: ToolOutput,
    E: ToolError,
    F: FnOnce(I) -> Fut,
    Fut: Future<Output = Result<O, E>>,
{
    match parse::<I>(arguments) {
        Ok(input) => match handler(input).await {
            Ok(output) => output.into_result(),
            Err(e) => tool_error(&e),
        },
        Err(result) => *result,
    }
}

/// Runs one tool with `needs-input`, whose handler returns a [`Reply`].
pub async fn run_reply<I, O, N, E, F, Fut>(arguments: Value, handler: F) -> CallResult
where
    I: Validate + DeserializeOwned,
    O: ToolOutput,
    N: InputRequest,
    E: ToolError,
    F: FnOnce(I) -> Fut,
    Fut: Future<Output = Result<Reply<O, N>, E>>,
{
    match parse::<I>(arguments) {
        Ok(input) => match handler(input).await {
            Ok(Reply::Complete(output)) => output.into_result(),
            Ok(Reply::InputRequired { needs, prompt }) => input_required(&needs, &prompt),
            Ok(Reply::InputRequiredAt {
                needs,
                prompt,
                resource_version,
            }) => {
                let mut result = input_required(&needs, &prompt);
                if let Some(need) = result.input_required.as_mut() {
                    need.resource_version = Some(resource_version);
                }
                result
            }
            Err(e) => tool_error(&e),
        },
        Err(result) => *result,
    }
}

/// The arguments as the typed input, or the `INVALID_ARGUMENTS` result listing every
/// violation.
fn parse<I: Validate + DeserializeOwned>(arguments: Value) -> Result<I, Box<CallResult>> {
    check_arguments(I::shape(), &arguments)?;
    // The shape admits what JSON Schema admits; serde is stricter only where a JSON number
    // does not fit the Rust type (an integer beyond its range). The generated impls start
    // the message with the value's JSON Pointer.
    I::deserialize(&arguments).map_err(|e| {
        let message = e.to_string();
        let (path, reason) = at_pointer(&arguments, &message);
        Box::new(invalid_arguments(vec![Violation {
            path: path.to_string(),
            reason: reason.to_string(),
        }]))
    })
}

/// A deserialisation error's `/pointer: reason` split in two: the longest pointer before a
/// `": "` that names a value of `arguments` (a key may hold `": "` itself). A message
/// without one is about the arguments as a whole.
fn at_pointer<'m>(arguments: &Value, message: &'m str) -> (&'m str, &'m str) {
    if message.starts_with('/') {
        let found = message
            .rmatch_indices(": ")
            .map(|(i, _)| i)
            .find(|&i| arguments.pointer(&message[..i]).is_some());
        if let Some(i) = found {
            return (&message[..i], &message[i + 2..]);
        }
    }
    ("", message)
}

/// Checks arguments against an input shape: `Err` is the `INVALID_ARGUMENTS` result listing
/// every violation. Generated code checks this way before deserialising; a server without
/// typed inputs (`catalogc serve --mock`) calls it directly.
pub fn check_arguments(shape: &Shape, arguments: &Value) -> Result<(), Box<CallResult>> {
    let violations = check(shape, arguments);
    if violations.is_empty() {
        Ok(())
    } else {
        Err(Box::new(invalid_arguments(violations)))
    }
}

/// The tool error for arguments that break the contract.
pub fn invalid_arguments(violations: Vec<Violation>) -> CallResult {
    CallResult::error(json!({
        "code": "INVALID_ARGUMENTS",
        "class": "invalid-argument",
        "retryable": false,
        "retry": "fix-arguments",
        "next_step": "Fix the arguments named in violations and call again.",
        "message": "the arguments break the tool's input schema",
        "violations": violations,
    }))
}

/// A successful result, or `INVALID_TOOL_OUTPUT` (with nothing of the output) when the
/// output breaks its own schema.
pub fn complete<O: Validate>(output: &O) -> CallResult {
    match serde_json::to_value(output) {
        Ok(v) => complete_json(O::shape(), v),
        Err(e) => invalid_output(vec![Violation {
            path: String::new(),
            reason: format!("the output does not serialize: {e}"),
        }]),
    }
}

/// [`complete`] for an output already in its JSON form, checked against `shape` (what the
/// client will read).
pub fn complete_json(shape: &Shape, output: Value) -> CallResult {
    let violations = check(shape, &output);
    if violations.is_empty() {
        CallResult::structured(output, false)
    } else {
        invalid_output(violations)
    }
}

/// `INVALID_TOOL_OUTPUT`: the model learns only the code; the violations stay in
/// [`CallResult::withheld`] for the operator.
fn invalid_output(violations: Vec<Violation>) -> CallResult {
    let mut result = CallResult::error(json!({
        "code": "INVALID_TOOL_OUTPUT",
        "class": "internal",
        "retryable": false,
        "retry": "never",
        "message": "the tool produced an output that breaks its contract; it was withheld",
    }));
    result.withheld = Some(Box::new(Violations(violations)));
    result
}

/// Why an approval (the answer to a `needs-input` request) was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Answers arrived without a `requestState` the server issued: a forged first call.
    Missing,
    /// The state does not verify: forged, tampered with, or issued to another principal,
    /// session or tenant.
    Invalid,
    /// The state was issued for another tool or another contract of it.
    OtherTool,
    /// The state was issued for other arguments (or another resource version).
    OtherArguments,
    /// The approval timed out: the state's expiry has passed.
    Expired,
    /// The answers do not answer what the server asked.
    Unanswered,
}

impl Refusal {
    /// A short phrase for the operator's log.
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Missing => "input responses without a request state",
            Refusal::Invalid => {
                "request state forged, tampered with or issued to another principal"
            }
            Refusal::OtherTool => "request state issued for another tool or contract",
            Refusal::OtherArguments => "request state issued for other arguments",
            Refusal::Expired => "request state expired",
            Refusal::Unanswered => "input responses do not answer the request",
        }
    }
}

/// The tool error for answers the server cannot trust: the handler did not run. An expired
/// approval is `APPROVAL_EXPIRED`; every other refusal is `APPROVAL_INVALID` (the model
/// cannot tell a forged state from a tampered one, and need not).
pub fn approval_refused(refusal: Refusal) -> CallResult {
    if refusal == Refusal::Expired {
        return CallResult::error(json!({
            "code": "APPROVAL_EXPIRED",
            "class": "precondition-failed",
            "retryable": false,
            "retry": "after-user-action",
            "next_step": "The user's approval timed out and nothing was done. Call the tool again without inputResponses so the user is asked again.",
            "message": "the approval expired before the call; the tool did not run",
        }));
    }
    CallResult::error(json!({
        "code": "APPROVAL_INVALID",
        "class": "permission-denied",
        "retryable": false,
        "retry": "never",
        "next_step": "Nothing was done. Call the tool with exactly the arguments the user should approve and without inputResponses; the server asks the user itself.",
        "message": "the answers are not bound to an approval this server issued for this call; the tool did not run",
    }))
}

/// The final result when the user declines or cancels an input request: the tool did not
/// run, and no other tool should do the same thing behind the user's back.
pub fn approval_declined() -> CallResult {
    CallResult::error(json!({
        "code": "APPROVAL_DECLINED",
        "class": "precondition-failed",
        "retryable": false,
        "retry": "never",
        "next_step": "Tell the user the action was not done because they declined; do not try another tool for the same action.",
        "message": "the user declined; the tool did not run",
    }))
}

/// What is safe after a write that may have acted: ask the status tool, retry with the
/// same key, or check with the user. A retry with the key is no way out when the server
/// enforces the key itself: the key then keeps the unknown outcome
/// (`IDEMPOTENCY_OUTCOME_UNKNOWN`), so the advice is to check with the user.
fn after_write(policy: &Policy<'_>) -> String {
    let on_timeout = policy.on_timeout.filter(|_| policy.idempotency.is_none());
    match (policy.status_tool, on_timeout) {
        (Some(status), _) => format!(
            "The operation may or may not have taken effect. Call {status} to learn its outcome before anything else; do not call this tool again blindly."
        ),
        (None, Some("retry-with-key")) => "The operation may or may not have taken effect. Call this tool again with the same arguments and the same idempotency key; never with a new key.".to_string(),
        _ => "The operation may or may not have taken effect. Tell the user and check its outcome before calling this tool again.".to_string(),
    }
}

/// The tool error for a handler cancelled at its `timeout-ms` deadline. A read may be
/// retried later; a write may have acted, so the next step names the status tool (or the
/// retry with the same key) and the retry policy is never a blind retry.
pub fn timed_out(policy: &Policy<'_>) -> CallResult {
    let ms = policy.timeout_ms.unwrap_or(0);
    let mut m = Map::new();
    m.insert("code".into(), json!("TOOL_TIMEOUT"));
    m.insert("class".into(), json!("unavailable"));
    if policy.writes() {
        m.insert("retryable".into(), json!(false));
        m.insert("retry".into(), json!("never"));
        m.insert("next_step".into(), json!(after_write(policy)));
        if let Some(status) = policy.status_tool {
            m.insert("status_tool".into(), json!(status));
        }
    } else {
        m.insert("retryable".into(), json!(true));
        m.insert("retry".into(), json!("backoff"));
        m.insert(
            "next_step".into(),
            json!("Nothing was changed. Try again later, or ask for less."),
        );
    }
    m.insert(
        "message".into(),
        json!(format!(
            "the tool did not finish within {ms} ms and was cancelled"
        )),
    );
    CallResult::error(Value::Object(m))
}

/// The tool error for a handler that failed unexpectedly (a panic): nothing of the failure
/// reaches the model.
pub fn internal_failure(policy: &Policy<'_>) -> CallResult {
    let mut m = Map::new();
    m.insert("code".into(), json!("INTERNAL_ERROR"));
    m.insert("class".into(), json!("internal"));
    m.insert("retryable".into(), json!(false));
    m.insert("retry".into(), json!("never"));
    let next = if policy.writes() {
        after_write(policy)
    } else {
        "Tell the user the tool failed; do not retry it automatically.".to_string()
    };
    m.insert("next_step".into(), json!(next));
    m.insert("message".into(), json!("the tool failed unexpectedly"));
    CallResult::error(Value::Object(m))
}

/// The tool error for a result larger than `max-result-bytes`: the result was not sent.
pub fn result_too_large(policy: &Policy<'_>) -> CallResult {
    let max = policy.max_result_bytes.unwrap_or(0);
    let mut m = Map::new();
    m.insert("code".into(), json!("RESULT_TOO_LARGE"));
    m.insert("class".into(), json!("internal"));
    m.insert("retryable".into(), json!(false));
    if policy.writes() {
        m.insert("retry".into(), json!("never"));
        m.insert("next_step".into(), json!(after_write(policy)));
    } else {
        m.insert("retry".into(), json!("fix-arguments"));
        m.insert(
            "next_step".into(),
            json!("Ask for less (a smaller page or a narrower filter) and call again."),
        );
    }
    m.insert(
        "message".into(),
        json!(format!(
            "the result is larger than {max} bytes; it was withheld"
        )),
    );
    CallResult::error(Value::Object(m))
}

/// The tool error for an error returned by the handler: a declared one with its detail (the
/// typed detail's JSON object, or the handler's text), or `INTERNAL_ERROR` with nothing of
/// the failure (its detail, or why a typed detail broke its schema, kept in
/// [`CallResult::failure`] for the operator).
pub fn tool_error<E: ToolError + ?Sized>(e: &E) -> CallResult {
    if e.is_internal() {
        let mut result = internal_failure(e.policy());
        result.failure = Some(Box::new(e.detail().unwrap_or(e.message()).to_string()));
        return result;
    }
    let mut m = Map::new();
    m.insert("code".into(), json!(e.code()));
    m.insert("class".into(), json!(e.class()));
    m.insert("retryable".into(), json!(e.retryable()));
    m.insert("retry".into(), json!(e.retry()));
    if let Some(next) = e.next_step() {
        m.insert("next_step".into(), json!(next));
    }
    m.insert("message".into(), json!(e.message()));
    match e.detail_value() {
        Some(Ok(detail)) => {
            m.insert("detail".into(), detail);
        }
        // A detail that breaks its own schema is a server bug: nothing of it is sent.
        Some(Err(violations)) => {
            let mut result = internal_failure(e.policy());
            let failure = format!(
                "the detail of error {} breaks its contract: {violations}",
                e.code()
            );
            result.failure = Some(Box::new(failure));
            return result;
        }
        None => {
            if let Some(detail) = e.detail() {
                m.insert("detail".into(), json!(detail));
            }
        }
    }
    CallResult::error(Value::Object(m))
}

/// The JSON of a typed error detail, checked against its declared schema: what generated
/// [`ToolError::detail_value`] returns.
pub fn error_detail<D: Validate>(detail: &D) -> Result<Value, Violations> {
    detail.checked_value()
}

/// The result for a tool that needs more input from the user. It is an `isError` result:
/// its content is not the tool's output, and a client checks `structuredContent` of a
/// successful result against the `outputSchema`.
pub fn input_required<N: InputRequest + ?Sized>(needs: &N, prompt: &str) -> CallResult {
    let mut result = CallResult::error(json!({
        "code": "INPUT_REQUIRED",
        "class": "precondition-failed",
        "retryable": false,
        "retry": "after-user-action",
        "next_step": prompt,
        "message": prompt,
        "input_required": { "name": needs.name(), "kind": needs.kind(), "prompt": prompt },
    }));
    result.input_required = Some(Box::new(InputNeeded {
        name: needs.name().into(),
        kind: needs.kind().into(),
        prompt: prompt.into(),
        resource_version: None,
    }));
    result
}

/// The approval digest of a `confirm` tool: `sha256:` over the RFC 8785 canonical
/// arguments, or over `{"arguments":…, "resource_version":…}` when the catalog asks for the
/// resource version too.
pub fn approval_digest<T: serde::Serialize + ?Sized>(
    arguments: &T,
    resource_version: Option<&str>,
) -> String {
    let args = serde_json::to_value(arguments).unwrap_or(Value::Null);
    match resource_version {
        None => super::canonical::digest(&args),
        Some(rv) => super::canonical::digest(&json!({ "arguments": args, "resource_version": rv })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::validate::{Bound, FieldRule, NumRule};

    /// A typed detail as generated code declares one: `available_cents`, 0 to 100.
    #[derive(serde::Serialize)]
    struct Funds {
        available_cents: i64,
    }

    impl Validate for Funds {
        fn shape() -> &'static Shape {
            static SHAPE: Shape = Shape::Object(&[FieldRule::new(
                "available_cents",
                true,
                Shape::Integer(&NumRule::ANY.min(Bound::Int(0)).max(Bound::Int(100))),
            )]);
            &SHAPE
        }
    }

    struct Declined(Funds);

    impl ToolError for Declined {
        fn info(&self) -> &'static ErrorInfo {
            static INFO: ErrorInfo = ErrorInfo::new(
                "INSUFFICIENT_FUNDS",
                "business-rejected",
                "never",
                None,
                "not enough money",
            );
            &INFO
        }
        fn detail_value(&self) -> Option<Result<Value, Violations>> {
            Some(error_detail(&self.0))
        }
    }

    #[test]
    fn a_typed_detail_is_sent_as_declared_and_one_out_of_bounds_never() {
        let r = tool_error(&Declined(Funds {
            available_cents: 42,
        }));
        assert_eq!(r.error_code(), Some("INSUFFICIENT_FUNDS"));
        let sc = r.structured_content.as_ref().expect("an error object");
        assert_eq!(sc["detail"], json!({ "available_cents": 42 }));
        assert_eq!(r.failure, None);

        // Out of its declared bounds: a server bug, withheld as the internal error.
        let r = tool_error(&Declined(Funds {
            available_cents: 1000,
        }));
        assert_eq!(r.error_code(), Some("INTERNAL_ERROR"));
        assert!(!r.text().contains("1000"), "{}", r.text());
        let failure = r.failure.as_deref().map(String::as_str).unwrap_or_default();
        assert!(
            failure.starts_with(
                "the detail of error INSUFFICIENT_FUNDS breaks its contract: /available_cents:"
            ),
            "{failure}"
        );
    }
}
