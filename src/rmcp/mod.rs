//! Serving a catalog over MCP through the official Rust SDK (`rmcp`).
//!
//! [`Server`] implements rmcp's `ServerHandler` over one dynamic interface, [`Service`]: the
//! tool definitions and an async `call` that returns the runtime's [`CallResult`]. A
//! generated catalog and its handler are a `Service` through [`Generated`]; `catalogc serve
//! --mock` implements it over a catalog loaded at run time. Either way every call takes the
//! same path: arguments are checked by the runtime, the outcome is encoded by the runtime,
//! and this module only translates it to the protocol.
//!
//! What the translation decides, once for every catalog:
//! - `tools/list` is the catalog's definitions in declaration order, unchanged (the bytes of
//!   `catalogc export tools-json`), with the configured `ttlMs` and `cacheScope`.
//! - An unknown tool is a JSON-RPC error −32602 (invalid params); everything that reached a
//!   tool, a failure included, is a `CallToolResult`. A tool error (`isError`) is its error
//!   object as the JSON text block, without `structuredContent`: MCP requires
//!   `structuredContent` to conform to the `outputSchema`, and clients check that.
//! - A `needs-input` answer becomes an input request the client answers: on protocol
//!   2026-07-28 an `InputRequiredResult` (one form elicitation per need, keyed by its
//!   name) that the client answers by calling again with `inputResponses` — never a request
//!   of the server's own on the response stream; on earlier versions an `elicitation/create`
//!   request within the call, when the client declared form elicitation. The answers reach
//!   the handler through its context ([`Request::answers`]). A 2026-07-28 client that did
//!   not declare form elicitation gets the JSON-RPC error −32021 (missing required client
//!   capability, HTTP 400) naming it; an earlier client that cannot be asked, or one whose
//!   answer did not satisfy the tool, gets the runtime's `INPUT_REQUIRED` tool error.
//! - A tool with an `idempotency` key runs once per key within the caller's scope: a repeat
//!   receives the first result, the key with other arguments a conflict error
//!   ([`idempotency`], records in the store [`Server::with_idempotency_store`] sets).
//! - The server never logs to the client (`notifications/message`): it declares no
//!   `logging` capability, so no request can ask for a log level.
//! - The handler's context is built per call by a function the server author supplies
//!   (sync, or async with [`Server::catalog_async`]), from the [`Request`]: its HTTP request
//!   head (e.g. an authorization header → tenant), the answers to input requests, the
//!   call's deadline and cancellation token. Returning an error refuses the call.
//! - Beside that context every handler method receives a [`Call`]: the request id, the
//!   deadline, a cancellation signal (the deadline, or the client's
//!   `notifications/cancelled`), a progress reporter that sends `notifications/progress`
//!   when the client sent a `progressToken`, the protocol era, and the verified answers,
//!   typed as the tool declares them.
//!
//! What every call is held to (docs/runtime.md):
//! - An answer to an input request counts only when it is bound to this exact call. On
//!   2026-07-28 the `InputRequiredResult` carries a signed, expiring `requestState`
//!   binding the tool, its contract, the arguments' approval digest and the
//!   principal ([`Server::with_principal`]); a retry whose state is missing, forged,
//!   tampered with, expired or issued for other arguments or another principal is refused
//!   with a tool error and the handler never runs. On earlier versions only the answer to
//!   the server's own `elicitation/create` counts; `inputResponses` are ignored. A declined
//!   or cancelled request is the final `APPROVAL_DECLINED` result.
//! - `timeout-ms`: the handler is cancelled at its deadline (`TOOL_TIMEOUT`, which tells a
//!   write's caller to query the status tool rather than retry).
//! - A handler that panics or returns its `Error::Internal` yields `INTERNAL_ERROR`; the
//!   server keeps serving.
//! - Session budgets (`guard { … }`, [`Server::with_guard`]): a call past a cap is the
//!   `BUDGET_EXCEEDED` tool error and does not run; writes naming one `resource` value run
//!   one at a time ([`guard`]). Under a profile ([`Server::with_profile`]) disabled tools are
//!   neither listed nor callable.
//! - `max-result-bytes`: a larger encoded result is withheld (`RESULT_TOO_LARGE`).
//! - Refused approvals, withheld outputs (each violation), panics, internal errors and
//!   timeouts are logged for the operator through `tracing`; the model sees only the error
//!   code.

mod approval;
mod call;
pub mod guard;
mod http;
pub mod idempotency;
mod message;
mod size;
mod stdio;
#[cfg(feature = "cli")]
mod telemetry;
mod trace;
mod unwind;

pub use self::approval::DEFAULT_APPROVAL_TTL;
pub use self::http::{HttpConfig, MAX_BODY, listen, serve_http, serve_http_with};
pub use self::stdio::{LineTransport, MAX_LINE};
#[cfg(feature = "cli")]
pub use self::telemetry::{Telemetry, TelemetryGuard};
pub use self::trace::error_kind;
/// What a handler learns of its call ([`crate::runtime::Call`]), and the user's answer to
/// an input request.
pub use crate::runtime::{Answer, Call, Era, RequestId};
/// The SDK types of this module's API, so a server needs no direct `rmcp` dependency.
pub use ::rmcp::{ErrorData, model::CacheScope};
/// The token a context function may watch to stop work at the call's deadline
/// ([`Request::cancel`]).
pub use tokio_util::sync::CancellationToken;

use self::approval::{Approvals, Verdict};
use self::idempotency::{IdempotencyStore, MemoryStore};
use self::trace::CallTrace;
use crate::runtime::call::{
    approval_declined, approval_refused, internal_failure, result_too_large, timed_out,
};
use crate::runtime::guard::{SessionBudget, budget_exceeded};
use crate::runtime::{
    BudgetDecision, CallError, CallResult, Catalog, Content, Guard, InputNeeded, Refusal, ToolInfo,
};
use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ElicitRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, Implementation,
    InputRequest, InputRequests, InputRequiredResult, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use ::rmcp::service::{RequestContext, RoleServer};
use ::rmcp::{ServerHandler, ServiceExt};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tracing::Instrument;

/// Sends the server's operator log (`tracing` events: refused approvals, withheld outputs,
/// panics, timeouts) to stderr, never stdout, which the stdio transport owns. A closed or
/// full stderr loses log lines but never a response: the writer's errors are not reported
/// (reporting them would write to stderr again, and panic there).
#[cfg(feature = "cli")]
pub fn init_operator_log() {
    let _ = Telemetry::default().install();
}

/// A boxed future, as [`Service::call`] returns it (the trait stays object safe).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A catalog as the MCP server sees it: its identity, its tool definitions and `call`.
pub trait Service<Ctx>: Send + Sync + 'static {
    /// The server name reported to clients (the catalog name).
    fn name(&self) -> &str;
    /// The server version reported to clients (the catalog version).
    fn version(&self) -> &str;
    /// Every tool definition (an entry of `tools/list`), in the order to list them.
    fn definitions(&self) -> Vec<Value>;
    /// The published contract and run-time policy of tool `name`.
    fn info(&self, name: &str) -> Option<ToolInfo>;
    /// The session budgets the catalog's project declares (`guard { … }` in
    /// `catalogc.kdl`), when it does.
    fn guard(&self) -> Option<Guard> {
        None
    }
    /// Calls tool `name`: checks the arguments, runs the tool with `ctx` and what it learns
    /// of the call (`call`), encodes the outcome.
    fn call<'a>(
        &'a self,
        ctx: &'a Ctx,
        call: &'a Call,
        name: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<CallResult, CallError>>;
}

/// A generated catalog `C` served by handler `H`, as a [`Service`].
pub struct Generated<C, H> {
    handler: H,
    catalog: PhantomData<fn() -> C>,
}

impl<C, H> Generated<C, H> {
    /// Serves catalog `C` with `handler`.
    pub fn new(handler: H) -> Generated<C, H> {
        Generated {
            handler,
            catalog: PhantomData,
        }
    }
}

impl<C, H> Service<C::Context> for Generated<C, H>
where
    C: Catalog<H> + 'static,
    C::Context: Sized + Send + Sync,
    H: Send + Sync + 'static,
{
    fn name(&self) -> &str {
        C::NAME
    }

    fn version(&self) -> &str {
        C::VERSION
    }

    fn definitions(&self) -> Vec<Value> {
        C::TOOLS
            .iter()
            .map(crate::runtime::ToolInfo::definition)
            .collect()
    }

    fn info(&self, name: &str) -> Option<ToolInfo> {
        C::TOOLS.iter().find(|t| t.name == name).copied()
    }

    fn guard(&self) -> Option<Guard> {
        C::GUARD
    }

    fn call<'a>(
        &'a self,
        ctx: &'a C::Context,
        call: &'a Call,
        name: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<CallResult, CallError>> {
        Box::pin(C::call(&self.handler, ctx, call, name, arguments))
    }
}

/// The answer of an `elicitation/create` result.
fn answer_from_elicit(result: &ElicitResult) -> Answer {
    let accepted = result.action == ElicitationAction::Accept;
    Answer {
        accepted,
        content: if accepted {
            result.content.clone()
        } else {
            None
        },
        resource_version: None,
    }
}

/// An answer as a client sent it in `inputResponses` (an `ElicitResult`); anything else
/// counts as not accepted.
fn answer_from_response(value: &Value) -> Answer {
    serde_json::from_value::<ElicitResult>(value.clone())
        .map(|r| answer_from_elicit(&r))
        .unwrap_or_default()
}

/// What the context function sees of one `tools/call`.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// The tool called.
    pub tool: &'a str,
    /// The arguments as received (not yet checked against the contract).
    pub arguments: &'a Value,
    /// Answers to the tool's `needs-input` requests, by need name.
    pub answers: &'a BTreeMap<String, Answer>,
    /// The HTTP request head, over Streamable HTTP; `None` over stdio.
    pub http: Option<&'a ::http::request::Parts>,
    /// When the handler is cancelled (`limits timeout-ms=`); `None` without a limit.
    pub deadline: Option<Instant>,
    /// Cancelled when the call ends before the handler does (its deadline passed, or the
    /// client went away): work the handler started elsewhere should stop then. The
    /// handler's own future is dropped at that point.
    pub cancel: &'a CancellationToken,
}

impl Request<'_> {
    /// A request header as text, when present and visible ASCII.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.http?.headers.get(name)?.to_str().ok()
    }

    /// Whether the user accepted input request `name`.
    pub fn accepted(&self, name: &str) -> bool {
        self.answers.get(name).is_some_and(|a| a.accepted)
    }
}

type ContextFn<Ctx> =
    dyn Fn(&Request<'_>) -> BoxFuture<'static, Result<Ctx, ErrorData>> + Send + Sync;
type PrincipalFn<Ctx> = dyn Fn(&Ctx) -> Option<String> + Send + Sync;

/// How many times one `tools/call` may ask a 2025-era client for input within the call.
const MAX_ELICITATIONS: usize = 8;

/// An MCP server for one [`Service`]: rmcp's `ServerHandler`, plus stdio and Streamable
/// HTTP helpers.
pub struct Server<Ctx> {
    service: Arc<dyn Service<Ctx>>,
    context: Arc<ContextFn<Ctx>>,
    principal: Arc<PrincipalFn<Ctx>>,
    tools: Arc<Vec<Tool>>,
    infos: Arc<HashMap<String, ToolInfo>>,
    approvals: Arc<Approvals>,
    ttl_ms: u64,
    cache_scope: CacheScope,
    idempotency: Arc<dyn IdempotencyStore>,
    /// Scopes the idempotency keys of a caller that has no other scope
    /// ([`idempotency::default_scope`]): one per stdio connection.
    connection: Arc<str>,
    /// The session budgets and resource locks of the server ([`guard`]).
    guards: Arc<guard::Guards>,
    /// This session's spending: one per stdio connection and per HTTP session.
    session: Arc<SessionBudget>,
}

impl<Ctx> Clone for Server<Ctx> {
    fn clone(&self) -> Self {
        Server {
            service: Arc::clone(&self.service),
            context: Arc::clone(&self.context),
            principal: Arc::clone(&self.principal),
            tools: Arc::clone(&self.tools),
            infos: Arc::clone(&self.infos),
            approvals: Arc::clone(&self.approvals),
            ttl_ms: self.ttl_ms,
            cache_scope: self.cache_scope,
            idempotency: Arc::clone(&self.idempotency),
            connection: Arc::clone(&self.connection),
            guards: Arc::clone(&self.guards),
            session: Arc::clone(&self.session),
        }
    }
}

impl<Ctx: 'static> fmt::Debug for Server<Ctx> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("name", &self.service.name())
            .field("version", &self.service.version())
            .field("tools", &self.tools.len())
            .field("ttl_ms", &self.ttl_ms)
            .field("cache_scope", &self.cache_scope)
            .field("approval_ttl", &self.approvals.ttl())
            .finish()
    }
}

/// Why a server cannot be built: a tool definition the SDK cannot represent (only a
/// corrupt definition is), or no secret to sign approvals with (no system randomness, or a
/// configured secret shorter than 32 bytes).
#[derive(Debug)]
pub struct DefinitionError {
    tool: String,
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tool.is_empty() {
            write!(f, "approval secret: {}", self.source)
        } else {
            write!(f, "tool definition {:?}: {}", self.tool, self.source)
        }
    }
}

impl DefinitionError {
    fn secret(source: impl std::error::Error + Send + Sync + 'static) -> DefinitionError {
        DefinitionError {
            tool: String::new(),
            source: Box::new(source),
        }
    }
}

impl std::error::Error for DefinitionError {}

/// Why a server refuses to start under a profile ([`Server::with_profile`]): every way its
/// catalog breaks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileError {
    /// The profile's name.
    pub profile: String,
    /// Each violation, with its rule.
    pub violations: Vec<crate::runtime::profile::Violation>,
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the catalog breaks profile `{}` ({} violations)",
            self.profile,
            self.violations.len()
        )?;
        for v in &self.violations {
            write!(f, "\n  {}: {} (help: {})", v.rule.id(), v.message, v.help)?;
        }
        Ok(())
    }
}

impl std::error::Error for ProfileError {}

impl<Ctx: Send + Sync + 'static> Server<Ctx> {
    /// Serves `service`; `context` builds each call's handler context from its request.
    /// `tools/list` results say `ttlMs` 0 and `cacheScope` public until configured;
    /// approvals are signed with a random per-server secret and expire after
    /// [`DEFAULT_APPROVAL_TTL`]; the principal is the session.
    pub fn new<S, F>(service: S, context: F) -> Result<Server<Ctx>, DefinitionError>
    where
        S: Service<Ctx>,
        F: Fn(&Request<'_>) -> Result<Ctx, ErrorData> + Send + Sync + 'static,
    {
        Server::new_async(service, move |r: &Request<'_>| {
            std::future::ready(context(r))
        })
    }

    /// As [`Server::new`], with an async context function: it reads what it needs of the
    /// borrowed [`Request`] and returns a future that builds the context (a database or
    /// identity lookup, say). The future runs under the tool's deadline: past it, the call
    /// is `TOOL_TIMEOUT`.
    pub fn new_async<S, F, Fut>(service: S, context: F) -> Result<Server<Ctx>, DefinitionError>
    where
        S: Service<Ctx>,
        F: Fn(&Request<'_>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Ctx, ErrorData>> + Send + 'static,
    {
        let context: Arc<ContextFn<Ctx>> =
            Arc::new(move |r: &Request<'_>| Box::pin(context(r)) as BoxFuture<'static, _>);
        let tools = service
            .definitions()
            .into_iter()
            .map(|def| {
                // The definition is the catalog's published JSON: parsing it (rather than
                // rebuilding it field by field) keeps `tools/list` byte-identical to it.
                serde_json::from_value::<Tool>(def.clone()).map_err(|source| DefinitionError {
                    tool: def["name"].as_str().unwrap_or_default().to_string(),
                    source: Box::new(source),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let infos = tools
            .iter()
            .filter_map(|t| Some((t.name.to_string(), service.info(&t.name)?)))
            .collect();
        let secret = approval::random_secret().map_err(DefinitionError::secret)?;
        let approvals =
            Approvals::new(secret, DEFAULT_APPROVAL_TTL).map_err(DefinitionError::secret)?;
        let declared = service.guard();
        let guards = guard::Guards::new(declared.unwrap_or_default(), declared.is_some());
        Ok(Server {
            service: Arc::new(service),
            context,
            principal: Arc::new(|_: &Ctx| None),
            tools: Arc::new(tools),
            infos: Arc::new(infos),
            approvals: Arc::new(approvals),
            ttl_ms: 0,
            cache_scope: CacheScope::Public,
            idempotency: Arc::new(MemoryStore::new()),
            connection: idempotency::unique_id().into(),
            guards: Arc::new(guards),
            session: SessionBudget::new(),
        })
    }

    /// Serves generated catalog `C` with `handler`:
    /// `Server::catalog::<billing::Catalog, _, _>(handler, context)`.
    pub fn catalog<C, H, F>(handler: H, context: F) -> Result<Server<Ctx>, DefinitionError>
    where
        C: Catalog<H, Context = Ctx> + 'static,
        H: Send + Sync + 'static,
        F: Fn(&Request<'_>) -> Result<Ctx, ErrorData> + Send + Sync + 'static,
    {
        Server::new(Generated::<C, H>::new(handler), context)
    }

    /// Serves generated catalog `C` with `handler` and an async context function
    /// ([`Server::new_async`]): `Server::catalog_async::<billing::Catalog, _, _, _>(handler,
    /// context)`.
    pub fn catalog_async<C, H, F, Fut>(
        handler: H,
        context: F,
    ) -> Result<Server<Ctx>, DefinitionError>
    where
        C: Catalog<H, Context = Ctx> + 'static,
        H: Send + Sync + 'static,
        F: Fn(&Request<'_>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Ctx, ErrorData>> + Send + 'static,
    {
        Server::new_async(Generated::<C, H>::new(handler), context)
    }

    /// How long a client may cache `tools/list` (`ttlMs`).
    pub fn with_ttl_ms(mut self, ttl_ms: u64) -> Server<Ctx> {
        self.ttl_ms = ttl_ms;
        self
    }

    /// Who may cache `tools/list` (`cacheScope`).
    pub fn with_cache_scope(mut self, scope: CacheScope) -> Server<Ctx> {
        self.cache_scope = scope;
        self
    }

    /// Names the caller: `principal` reads it from the handler context (a user, or a
    /// tenant). The principal is who an approval is issued to (an approval one principal
    /// gave is refused for any other) and the scope of the caller's idempotency keys (the
    /// same key from another principal is another record). `None`, and the default, is
    /// [`idempotency::default_scope`]: the SHA-256 of the request's `Authorization` header,
    /// else the `Mcp-Session-Id` of a Streamable HTTP session, else the connection the
    /// server serves (one per stdio connection). To check a retry's answers before the
    /// handler sees them, the server builds one context without answers and reads its
    /// principal.
    pub fn with_principal<P>(mut self, principal: P) -> Server<Ctx>
    where
        P: Fn(&Ctx) -> Option<String> + Send + Sync + 'static,
    {
        self.principal = Arc::new(principal);
        self
    }

    /// How long a user has to answer an input request before the answer is refused
    /// (`APPROVAL_EXPIRED`; a timeout is a denial). Default [`DEFAULT_APPROVAL_TTL`].
    pub fn with_approval_ttl(self, ttl: Duration) -> Server<Ctx> {
        Server {
            approvals: Arc::new(self.approvals.with_ttl(ttl)),
            ..self
        }
    }

    /// Signs approvals with `secret` (at least 32 random bytes) instead of a random
    /// per-server one: replicas that share it accept each other's approvals.
    pub fn with_approval_secret(self, secret: &[u8]) -> Result<Server<Ctx>, DefinitionError> {
        let approvals = Approvals::new(secret.to_vec(), self.approvals.ttl())
            .map_err(DefinitionError::secret)?;
        Ok(Server {
            approvals: Arc::new(approvals),
            ..self
        })
    }

    /// Where the records of idempotency keys live (an in-memory [`MemoryStore`] until set):
    /// a server keeps them in a `SqliteStore`, replicas share a `PostgresStore`.
    pub fn with_idempotency_store(mut self, store: impl IdempotencyStore) -> Server<Ctx> {
        self.idempotency = Arc::new(store);
        self
    }

    /// Caps every session at `guard` instead of the catalog's `guard { … }` (or
    /// [`Guard::DEFAULT`] without one); see docs/runtime.md.
    pub fn with_guard(mut self, guard: Guard) -> Server<Ctx> {
        self.guards = Arc::new(guard::Guards::new(guard, true));
        self
    }

    /// Serves under `profile` (`profile "NAME" { … }` in `catalogc.kdl`; a generated catalog
    /// states its project's profiles as `Catalog::PROFILES`): refused, naming every
    /// violation, when the catalog breaks it ([`crate::runtime::profile::violations`]);
    /// otherwise its disabled tools are neither listed nor callable (a call is an unknown
    /// tool). Set the guard ([`Server::with_guard`]) first: `require-guard` checks it.
    pub fn with_profile(
        mut self,
        profile: &crate::runtime::Profile<'_>,
    ) -> Result<Server<Ctx>, ProfileError> {
        let facts: Vec<(String, ToolInfo)> = self
            .tools
            .iter()
            .filter_map(|t| Some((t.name.to_string(), *self.infos.get(t.name.as_ref())?)))
            .collect();
        let definitions: Vec<String> = self
            .tools
            .iter()
            .map(|t| serde_json::to_string(t).unwrap_or_default())
            .collect();
        let tools: Vec<crate::runtime::profile::ToolFacts<'_>> = facts
            .iter()
            .zip(&definitions)
            .map(
                |((name, info), definition)| crate::runtime::profile::ToolFacts {
                    name,
                    policy: &info.policy,
                    definition,
                },
            )
            .collect();
        let violations =
            crate::runtime::profile::violations(profile, &tools, self.guards.declared, false);
        if !violations.is_empty() {
            return Err(ProfileError {
                profile: profile.name.to_string(),
                violations,
            });
        }
        self.tools = Arc::new(
            self.tools
                .iter()
                .filter(|t| !profile.disables(&t.name))
                .cloned()
                .collect(),
        );
        self.infos = Arc::new(
            self.infos
                .iter()
                .filter(|(name, _)| !profile.disables(name))
                .map(|(n, i)| (n.clone(), *i))
                .collect(),
        );
        Ok(self)
    }

    /// The session budgets this server holds every session to.
    pub fn guard(&self) -> Guard {
        self.guards.guard
    }

    /// The same server for a new session: a fresh budget, everything else shared.
    pub(crate) fn new_session(&self) -> Server<Ctx> {
        Server {
            session: SessionBudget::new(),
            ..self.clone()
        }
    }

    /// The tool definitions as served, in order.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Serves one client over this process's stdin and stdout until it disconnects.
    pub async fn serve_stdio(self) -> std::io::Result<()> {
        let (stdin, stdout) = ::rmcp::transport::stdio();
        self.serve_io(stdin, stdout).await
    }

    /// Serves one client over a byte stream (newline-delimited JSON-RPC, as on stdio) until
    /// it closes: a pipe, a socket, or an in-memory duplex in tests.
    pub async fn serve_io<R, W>(mut self, read: R, write: W) -> std::io::Result<()>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        self.connection = idempotency::unique_id().into();
        self.session = SessionBudget::new();
        let running = ServiceExt::serve(self, LineTransport::new(read, write))
            .await
            .map_err(std::io::Error::other)?;
        running.waiting().await.map_err(std::io::Error::other)?;
        Ok(())
    }

    /// Runs the server on a new Tokio runtime until stdio closes or, for HTTP, forever.
    pub fn run(self, transport: Transport) -> std::io::Result<()> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()?;
        runtime.block_on(async move {
            match transport {
                Transport::Stdio => self.serve_stdio().await,
                Transport::Http(addr) => listen(self, addr, HttpConfig::default()).await,
            }
        })
    }

    fn config(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new(self.service.name(), self.service.version()),
        )
    }

    /// The handler context for one round of a call.
    async fn context_for(
        &self,
        round: &Round<'_>,
        answers: &BTreeMap<String, Answer>,
        deadline: Option<Instant>,
        cancel: &CancellationToken,
    ) -> Result<Ctx, ErrorData> {
        let context = (self.context)(&Request {
            tool: round.tool,
            arguments: round.arguments,
            answers,
            http: round.http,
            deadline,
            cancel,
        });
        context.await
    }

    /// Who the caller in `ctx` is: the configured principal, else the request's default
    /// scope ([`idempotency::default_scope`]). An approval is bound to it, and it scopes the
    /// caller's idempotency keys.
    fn principal_of(&self, ctx: &Ctx, http: Option<&::http::request::Parts>) -> String {
        (self.principal)(ctx)
            .map(|p| format!("principal:{p}"))
            .unwrap_or_else(|| idempotency::default_scope(http, &self.connection))
    }

    /// Runs one round of tool `info` with `answers`. In order: builds the context and reads
    /// the principal; then, under the tool's idempotency key ([`idempotency::enforce`]: a
    /// replay returns the kept result and the handler does not run), runs the handler in
    /// the call's task with its panics caught ([`unwind`]) under the tool's deadline, reduces
    /// a panic, a timeout or an oversized result to its tool error, and keeps the final
    /// result for the key. Returns the result and the round's principal.
    async fn run_round(
        &self,
        info: &ToolInfo,
        round: &Round<'_>,
        answers: &BTreeMap<String, Answer>,
    ) -> Result<(CallResult, String), ErrorData> {
        let policy = &info.policy;
        let limit = policy.timeout_ms.map(Duration::from_millis);
        // A child of the request's token: the client's `notifications/cancelled` reaches
        // the handler through it.
        let cancel = round.request.ct.child_token();
        // The deadline is set before the context is built and before the idempotency wait,
        // so a slow context function, or a call waiting for an earlier one with its key,
        // is held to the same limit as its own handler.
        let deadline = limit.map(|l| Instant::now() + l);
        let context = self.context_for(round, answers, deadline, &cancel);
        let ctx = match deadline {
            Some(at) => match tokio::time::timeout_at(at.into(), context).await {
                Ok(ctx) => ctx?,
                Err(_) => {
                    tracing::warn!(tool = info.name, "context function timed out");
                    let principal = idempotency::default_scope(round.http, &self.connection);
                    return Ok((timed_out(policy), principal));
                }
            },
            None => context.await?,
        };
        let principal = self.principal_of(&ctx, round.http);
        let _resource = self.guards.hold(policy, round.arguments).await;
        round.trace.reached_store();
        let result = idempotency::enforce(
            &self.idempotency,
            policy,
            &principal,
            round.tool,
            round.arguments,
            || async {
                round.trace.handler_started();
                let call = call::call_of(round.request, deadline, &cancel, answers);
                let result = self
                    .run_handler(info, ctx, call, round, deadline, cancel)
                    .await;
                round.trace.handler_ended();
                result
            },
        )
        .await
        .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        Ok((result, principal))
    }

    /// Runs the handler of tool `info` with `ctx` and `call` in the call's task, its panics
    /// caught, until `deadline`, and reduces a panic, a timeout or an oversized result to
    /// its tool error.
    async fn run_handler(
        &self,
        info: &ToolInfo,
        ctx: Ctx,
        call: Call,
        round: &Round<'_>,
        deadline: Option<Instant>,
        cancel: CancellationToken,
    ) -> Result<CallResult, CallError> {
        let policy = &info.policy;
        let handler = self
            .service
            .call(&ctx, &call, round.tool, round.arguments.clone());
        let running = unwind::CatchUnwind::new(handler);
        // Dropped with this future (the client went away), at the deadline or after a
        // panic: the handler's future is dropped and its token says so.
        let mut stop = Stop {
            cancel,
            armed: true,
        };
        let joined = match deadline {
            Some(at) => tokio::time::timeout_at(at.into(), running).await,
            None => Ok(running.await),
        };
        let result = match joined {
            Err(_) => {
                let ms = policy.timeout_ms.unwrap_or_default();
                tracing::warn!(
                    tool = info.name,
                    timeout_ms = ms,
                    "tool timed out; cancelled"
                );
                timed_out(policy)
            }
            Ok(Err(panic)) => {
                let what = panic_message(panic);
                tracing::error!(tool = info.name, panic = %what, "tool failed");
                internal_failure(policy)
            }
            Ok(Ok(Err(e))) => return Err(e),
            Ok(Ok(Ok(result))) => {
                stop.armed = false;
                result
            }
        };
        for v in result.withheld.iter().flat_map(|w| &w.0) {
            tracing::warn!(tool = info.name, pointer = %v.path, reason = %v.reason, "output breaks its contract; withheld");
        }
        if let Some(failure) = &result.failure {
            tracing::error!(tool = info.name, failure = %failure, "tool reported an internal failure");
        }
        Ok(match policy.max_result_bytes {
            Some(max) if result.input_required.is_none() => {
                let size = size::encoded_len(&result);
                if size > max {
                    tracing::warn!(
                        tool = info.name,
                        size,
                        max_result_bytes = max,
                        "result too large; withheld"
                    );
                    result_too_large(policy)
                } else {
                    result
                }
            }
            _ => result,
        })
    }

    /// The verified answers of a 2026-07-28 retry that carries `inputResponses` or a
    /// `requestState`; `Err` is the final result refusing it.
    async fn verified_answers(
        &self,
        info: &ToolInfo,
        round: &Round<'_>,
        params: &CallToolRequestParams,
    ) -> Result<Result<BTreeMap<String, Answer>, CallResult>, ErrorData> {
        // The principal comes from a context built without any answer.
        let principal = self.probed_principal(info, round).await?;
        let verdict = self.approvals.verify(
            info,
            round.arguments,
            &principal,
            params.request_state.as_deref(),
            params.input_responses.as_ref(),
        );
        Ok(match verdict {
            Ok(Verdict::Accepted(answers)) => {
                round.trace.approval_granted();
                Ok(answers)
            }
            Ok(Verdict::Declined) => {
                round.trace.approval_declined();
                tracing::info!(tool = info.name, "input request declined by the user");
                Err(approval_declined())
            }
            Err(refusal) => {
                round.trace.approval_refused();
                log_refusal(info.name, refusal);
                Err(approval_refused(refusal))
            }
        })
    }

    /// The budget of the session a call belongs to: the server instance's own (a stdio
    /// connection, an HTTP session), else, for a request without a session, its principal's.
    async fn budget_of(
        &self,
        info: &ToolInfo,
        round: &Round<'_>,
    ) -> Result<Arc<SessionBudget>, ErrorData> {
        match round.http {
            Some(http) if !http.headers.contains_key("mcp-session-id") => {
                let principal = self.probed_principal(info, round).await?;
                Ok(self.guards.stateless(&principal))
            }
            _ => Ok(Arc::clone(&self.session)),
        }
    }

    /// The principal of a context built without any answer, before the call runs; the
    /// context function is held to the tool's `timeout-ms` here too.
    async fn probed_principal(
        &self,
        info: &ToolInfo,
        round: &Round<'_>,
    ) -> Result<String, ErrorData> {
        let cancel = CancellationToken::new();
        let limit = info.policy.timeout_ms.map(Duration::from_millis);
        let deadline = limit.map(|l| Instant::now() + l);
        let none = BTreeMap::new();
        let context = self.context_for(round, &none, deadline, &cancel);
        let probe = match deadline {
            Some(at) => tokio::time::timeout_at(at.into(), context)
                .await
                .map_err(|_| {
                    cancel.cancel();
                    ErrorData::internal_error(
                        "the context function did not finish within the tool's timeout-ms",
                        None,
                    )
                })??,
            None => context.await?,
        };
        Ok(self.principal_of(&probe, round.http))
    }

    /// One `tools/call`: admitted by the session's budget ([`guard::Guards::admit`]; a
    /// refused call is the `BUDGET_EXCEEDED` result and does not run), then run; its
    /// outcome is recorded against the budget.
    async fn call(
        &self,
        mut params: CallToolRequestParams,
        rc: RequestContext<RoleServer>,
        trace: &CallTrace,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = params.name.to_string();
        let Some(info) = self.infos.get(&name).copied() else {
            return Err(ErrorData::invalid_params(
                CallError::UnknownTool(name).to_string(),
                None,
            ));
        };
        let arguments = Value::Object(params.arguments.take().unwrap_or_default());
        let round = Round {
            tool: &name,
            arguments: &arguments,
            http: rc.extensions.get::<::http::request::Parts>(),
            request: &rc,
            trace,
        };
        let budget = self.budget_of(&info, &round).await?;
        // A 2026-07-28 retry carrying an input request's state is another call than the
        // first round with the same arguments: it fails or succeeds on its own.
        let retry = params
            .request_state
            .as_ref()
            .map(|state| serde_json::json!({"arguments": &arguments, "requestState": state}));
        let admission = match (&retry, trace.whole_arguments_digest()) {
            (None, Some(digest)) => self.guards.admit_digest(&budget, &name, digest),
            _ => self
                .guards
                .admit(&budget, &name, retry.as_ref().unwrap_or(&arguments)),
        };
        trace.budget(admission.decision);
        let (BudgetDecision::Admitted, Some(permit)) = (admission.decision, admission.permit)
        else {
            let refusal = match admission.decision {
                BudgetDecision::Exceeded { budget, limit } => budget_exceeded(budget, limit),
                BudgetDecision::Admitted => internal_failure(&info.policy),
            };
            return Ok(CallToolResponse::Complete(to_sdk(refusal)));
        };
        let response = self.call_admitted(info, &round, params, &rc).await;
        match &response {
            Ok(CallToolResponse::Complete(result)) => permit.finish(error_code(result).as_deref()),
            // Waiting for the user, or a protocol error: neither a success nor a failure.
            _ => drop(permit),
        }
        response
    }

    async fn call_admitted(
        &self,
        info: ToolInfo,
        round: &Round<'_>,
        params: CallToolRequestParams,
        rc: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let (name, arguments, trace) = (round.tool, round.arguments, round.trace);
        let current = call::era(rc) == Era::Current;
        // Only a 2026-07-28 retry answers with `inputResponses`; an earlier client's are
        // ignored: there only the answer to the server's own elicitation counts.
        let mut answers = BTreeMap::new();
        if current && (params.input_responses.is_some() || params.request_state.is_some()) {
            match self.verified_answers(&info, round, &params).await? {
                Ok(verified) => answers = verified,
                Err(refused) => return Ok(CallToolResponse::Complete(to_sdk(refused))),
            }
        }
        let mut asked = 0;
        loop {
            let (result, principal) = self.run_round(&info, round, &answers).await?;
            let Some(need) = result.input_required.as_deref().cloned() else {
                return Ok(CallToolResponse::Complete(to_sdk(result)));
            };
            // Asked again for what was answered: the answer did not satisfy the tool.
            if answers.contains_key(&need.name) {
                return Ok(CallToolResponse::Complete(to_sdk(result)));
            }
            let can_ask = rc
                .client_capabilities()
                .and_then(|c| c.elicitation)
                .is_some_and(|e| e.form.is_some() || e.url.is_none());
            let tool = self.tools.iter().find(|t| t.name == name);
            let params = elicitation(&need, &prompt(tool, &info, &need, arguments));
            if current {
                // 2026-07-28 forbids an input request the client did not declare, and
                // requires −32021 when a request cannot proceed without it (HTTP 400).
                if !can_ask {
                    return Err(ErrorData::missing_required_client_capability(
                        form_elicitation(),
                    ));
                }
                let state = self
                    .approvals
                    .issue(
                        &info,
                        arguments,
                        need.resource_version.as_deref(),
                        &principal,
                        &need.name,
                        &answers,
                    )
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                let mut requests = InputRequests::new();
                requests.insert(
                    need.name.clone(),
                    InputRequest::Elicitation(ElicitRequest::new(params)),
                );
                trace.approval_asked();
                return Ok(CallToolResponse::InputRequired(InputRequiredResult::new(
                    Some(requests),
                    Some(state),
                )));
            }
            if !can_ask || asked >= MAX_ELICITATIONS {
                return Ok(CallToolResponse::Complete(to_sdk(result)));
            }
            asked += 1;
            trace.approval_asked();
            // A user who does not answer within the approval TTL has declined.
            let ttl = self.approvals.ttl();
            let Ok(reply) = tokio::time::timeout(ttl, rc.peer.create_elicitation(params)).await
            else {
                trace.approval_refused();
                log_refusal(info.name, Refusal::Expired);
                return Ok(CallToolResponse::Complete(to_sdk(approval_refused(
                    Refusal::Expired,
                ))));
            };
            let reply = reply
                .map_err(|e| ErrorData::internal_error(format!("elicitation failed: {e}"), None))?;
            let answer = Answer {
                resource_version: need.resource_version.clone(),
                ..answer_from_elicit(&reply)
            };
            if !answer.accepted {
                trace.approval_declined();
                tracing::info!(tool = info.name, "input request declined by the user");
                return Ok(CallToolResponse::Complete(to_sdk(approval_declined())));
            }
            trace.approval_granted();
            answers.insert(need.name, answer);
        }
    }
}

/// What every round of one call shares.
struct Round<'a> {
    tool: &'a str,
    arguments: &'a Value,
    http: Option<&'a ::http::request::Parts>,
    /// The request as rmcp received it: its id, `_meta`, cancellation token and peer.
    request: &'a RequestContext<RoleServer>,
    /// What the call's trace records of its decisions.
    trace: &'a CallTrace,
}

/// Cancels a handler's token when dropped while armed: the call ended before the handler
/// finished.
struct Stop {
    cancel: CancellationToken,
    armed: bool,
}

impl Drop for Stop {
    fn drop(&mut self) {
        if self.armed {
            self.cancel.cancel();
        }
    }
}

/// A panic's message, for the operator's log only.
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

fn log_refusal(tool: &str, refusal: Refusal) {
    tracing::warn!(
        tool,
        reason = refusal.reason(),
        "approval refused; the tool did not run"
    );
}

/// The error code of a tool error as sent (its JSON text block's `code`); `None` for a
/// success.
fn error_code(result: &CallToolResult) -> Option<String> {
    if result.is_error != Some(true) {
        return None;
    }
    let text = result.content.first()?.as_text()?;
    let value: Value = serde_json::from_str(&text.text).ok()?;
    Some(value.get("code")?.as_str()?.to_string())
}

/// How much of one argument's value a prompt shows.
const PROMPT_VALUE_CHARS: usize = 200;

/// What the user is asked: the handler's prompt, then the tool, its expected side effect,
/// the target (the first required argument), the other arguments and the idempotency key.
/// A sensitive argument's value is never shown.
fn prompt(tool: Option<&Tool>, info: &ToolInfo, need: &InputNeeded, arguments: &Value) -> String {
    let policy = &info.policy;
    let mut lines = vec![need.prompt.clone(), String::new()];
    lines.push(match tool.and_then(|t| t.title.as_deref()) {
        Some(title) => format!("Tool: {} ({title})", info.name),
        None => format!("Tool: {}", info.name),
    });
    let summary = tool
        .and_then(|t| t.description.as_deref())
        .and_then(|d| d.lines().next())
        .unwrap_or_default();
    lines.push(format!("Effect: {}. {summary}", policy.effect));
    let show = |field: &str, value: &Value| {
        if policy.is_sensitive(field) {
            format!("{field} = (sensitive, not shown)")
        } else {
            let text = value.to_string();
            match text.char_indices().nth(PROMPT_VALUE_CHARS) {
                Some((cut, _)) => format!("{field} = {}…", &text[..cut]),
                None => format!("{field} = {text}"),
            }
        }
    };
    let empty = serde_json::Map::new();
    let args = arguments.as_object().unwrap_or(&empty);
    let key = policy.idempotency.map(|i| i.key);
    let target = tool
        .and_then(|t| t.input_schema.get("required")?.as_array().cloned())
        .into_iter()
        .flatten()
        .filter_map(|r| r.as_str().map(str::to_string))
        .find(|r| Some(r.as_str()) != key && args.contains_key(r));
    if let Some((field, value)) = target.as_deref().and_then(|t| args.get_key_value(t)) {
        lines.push(format!("Target: {}", show(field, value)));
    }
    let others: Vec<String> = args
        .iter()
        .filter(|(f, _)| Some(f.as_str()) != key && Some(f.as_str()) != target.as_deref())
        .map(|(f, v)| show(f, v))
        .collect();
    if !others.is_empty() {
        lines.push(format!("Arguments: {}", others.join(", ")));
    }
    if let Some((field, value)) = key.and_then(|k| args.get_key_value(k)) {
        lines.push(format!("Idempotency key: {}", show(field, value)));
    }
    lines.join("\n")
}

/// Where [`Server::run`] serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// This process's stdin and stdout.
    Stdio,
    /// Streamable HTTP on this address (use a loopback address: the server accepts only
    /// loopback `Host` headers, against DNS rebinding).
    Http(SocketAddr),
}

/// The client capability every `needs-input` request needs: form elicitation.
fn form_elicitation() -> ClientCapabilities {
    serde_json::from_value(serde_json::json!({"elicitation": {"form": {}}})).unwrap_or_default()
}

/// The form a client shows for one `needs-input`: a confirmation is the accept/decline
/// choice itself; the other kinds ask for one string, `value`.
fn elicitation(need: &InputNeeded, message: &str) -> ElicitRequestParams {
    let schema = if need.kind == "confirmation" {
        ElicitationSchema::new(BTreeMap::new())
    } else {
        ElicitationSchema::builder()
            .required_string("value")
            .description(need.kind.clone())
            .build()
            .unwrap_or_else(|_| ElicitationSchema::new(BTreeMap::new()))
    };
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: message.to_string(),
        requested_schema: schema,
    }
}

/// The runtime's result as the SDK's: the same content block and `isError`;
/// `structuredContent` only on success ([`CallResult::mcp_structured`]: a tool error is its
/// text block).
fn to_sdk(result: CallResult) -> CallToolResult {
    let mut sdk = if result.is_error {
        CallToolResult::error(Vec::new())
    } else {
        CallToolResult::success(Vec::new())
    };
    // Moved rather than cloned: what `CallResult::mcp_structured` sends.
    if !result.is_error {
        sdk.structured_content = result.structured_content;
    }
    sdk.content = vec![match result.content {
        Content::Text(text) => ::rmcp::model::ContentBlock::text(text),
        Content::Image(image) => ::rmcp::model::ContentBlock::image(image.data, image.mime_type),
    }];
    sdk
}

impl<Ctx: Send + Sync + 'static> ServerHandler for Server<Ctx> {
    fn get_info(&self) -> ServerConfig {
        self.config()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec())
            .with_ttl_ms(self.ttl_ms)
            .with_cache_scope(self.cache_scope))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let info = self.infos.get(request.name.as_ref());
        let trace = CallTrace::start(info, &request, &context, &self.connection);
        let span = trace.span().clone();
        let outcome = self.call(request, context, &trace).instrument(span).await;
        trace.finish(&outcome);
        outcome
    }
}
