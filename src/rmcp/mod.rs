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
//! - The handler's context is built per call by a function the server author supplies,
//!   from the [`Request`]: its HTTP request head (e.g. an authorization header → tenant)
//!   and the answers to input requests. Returning an error refuses the call.

mod http;
pub mod idempotency;

pub use self::http::serve_http;
/// The SDK types of this module's API, so a server needs no direct `rmcp` dependency.
pub use ::rmcp::{ErrorData, model::CacheScope};

use self::idempotency::{IdempotencyStore, MemoryStore};
use crate::runtime::{CallError, CallResult, Catalog, Content, Idempotency, InputNeeded};
use ::rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ElicitRequest,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema, Implementation,
    InputRequest, InputRequests, InputRequiredResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use ::rmcp::service::{RequestContext, RoleServer};
use ::rmcp::{ServerHandler, ServiceExt};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

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
    /// Calls tool `name`: checks the arguments, runs the tool, encodes the outcome.
    fn call<'a>(
        &'a self,
        ctx: &'a Ctx,
        name: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<CallResult, CallError>>;
    /// Tool `name`'s `idempotency`, which the server enforces around `call`
    /// ([`idempotency`]); `None` for a tool without one.
    fn idempotency(&self, name: &str) -> Option<Idempotency> {
        let _ = name;
        None
    }
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

    fn call<'a>(
        &'a self,
        ctx: &'a C::Context,
        name: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<CallResult, CallError>> {
        Box::pin(C::call(&self.handler, ctx, name, arguments))
    }

    fn idempotency(&self, name: &str) -> Option<Idempotency> {
        C::TOOLS.iter().find(|t| t.name == name)?.idempotency
    }
}

/// The user's answer to one input request.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The user accepted (for a confirmation: confirmed). A decline or cancel is `false`.
    pub accepted: bool,
    /// What the user entered (`{"value": …}` for `text`, `choice` and `credential`),
    /// when accepted.
    pub content: Option<Value>,
}

impl Answer {
    fn from_elicit(result: &ElicitResult) -> Answer {
        let accepted = result.action == ElicitationAction::Accept;
        Answer {
            accepted,
            content: if accepted {
                result.content.clone()
            } else {
                None
            },
        }
    }

    /// An answer as a client sent it in `inputResponses` (an `ElicitResult`); anything else
    /// counts as not accepted.
    fn from_response(value: &Value) -> Answer {
        serde_json::from_value::<ElicitResult>(value.clone())
            .map(|r| Answer::from_elicit(&r))
            .unwrap_or(Answer {
                accepted: false,
                content: None,
            })
    }
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

type ContextFn<Ctx> = dyn Fn(&Request<'_>) -> Result<Ctx, ErrorData> + Send + Sync;

/// How many times one `tools/call` may ask a 2025-era client for input within the call.
const MAX_ELICITATIONS: usize = 8;

/// An MCP server for one [`Service`]: rmcp's `ServerHandler`, plus stdio and Streamable
/// HTTP helpers.
pub struct Server<Ctx> {
    service: Arc<dyn Service<Ctx>>,
    context: Arc<ContextFn<Ctx>>,
    tools: Arc<Vec<Tool>>,
    ttl_ms: u64,
    cache_scope: CacheScope,
    idempotency: Arc<dyn IdempotencyStore>,
    /// Scopes the idempotency keys of a caller that has no other scope
    /// ([`idempotency::default_scope`]): one per stdio connection.
    connection: Arc<str>,
}

impl<Ctx> Clone for Server<Ctx> {
    fn clone(&self) -> Self {
        Server {
            service: Arc::clone(&self.service),
            context: Arc::clone(&self.context),
            tools: Arc::clone(&self.tools),
            ttl_ms: self.ttl_ms,
            cache_scope: self.cache_scope,
            idempotency: Arc::clone(&self.idempotency),
            connection: Arc::clone(&self.connection),
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
            .finish()
    }
}

/// A tool definition the SDK cannot represent (only a corrupt definition is).
#[derive(Debug)]
pub struct DefinitionError {
    tool: String,
    source: serde_json::Error,
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool definition {:?}: {}", self.tool, self.source)
    }
}

impl std::error::Error for DefinitionError {}

impl<Ctx: Send + Sync + 'static> Server<Ctx> {
    /// Serves `service`; `context` builds each call's handler context from its request.
    /// `tools/list` results say `ttlMs` 0 and `cacheScope` public until configured.
    pub fn new<S, F>(service: S, context: F) -> Result<Server<Ctx>, DefinitionError>
    where
        S: Service<Ctx>,
        F: Fn(&Request<'_>) -> Result<Ctx, ErrorData> + Send + Sync + 'static,
    {
        let tools = service
            .definitions()
            .into_iter()
            .map(|def| {
                // The definition is the catalog's published JSON: parsing it (rather than
                // rebuilding it field by field) keeps `tools/list` byte-identical to it.
                serde_json::from_value::<Tool>(def.clone()).map_err(|source| DefinitionError {
                    tool: def["name"].as_str().unwrap_or_default().to_string(),
                    source,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Server {
            service: Arc::new(service),
            context: Arc::new(context),
            tools: Arc::new(tools),
            ttl_ms: 0,
            cache_scope: CacheScope::Public,
            idempotency: Arc::new(MemoryStore::new()),
            connection: idempotency::unique_id().into(),
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

    /// Where the records of idempotency keys live (an in-memory [`MemoryStore`] until set):
    /// a server keeps them in a `SqliteStore`, replicas share a `PostgresStore`.
    pub fn with_idempotency_store(mut self, store: impl IdempotencyStore) -> Server<Ctx> {
        self.idempotency = Arc::new(store);
        self
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
        let running = ServiceExt::serve(self, (read, write))
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
                Transport::Http(addr) => {
                    let listener = tokio::net::TcpListener::bind(addr).await?;
                    let local = listener.local_addr()?;
                    // The one line a script waits for (a port 0 request learns its port).
                    eprintln!("listening on http://{local}/mcp");
                    serve_http(self, listener).await
                }
            }
        })
    }

    fn config(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new(self.service.name(), self.service.version()),
        )
    }

    /// The handler context for one round of a call.
    fn context_for(
        &self,
        tool: &str,
        arguments: &Value,
        answers: &BTreeMap<String, Answer>,
        http: Option<&::http::request::Parts>,
    ) -> Result<Ctx, ErrorData> {
        (self.context)(&Request {
            tool,
            arguments,
            answers,
            http,
        })
    }

    async fn call(
        &self,
        params: CallToolRequestParams,
        rc: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = params.name.to_string();
        let arguments = Value::Object(params.arguments.unwrap_or_default());
        let mut answers: BTreeMap<String, Answer> = params
            .input_responses
            .iter()
            .flatten()
            .map(|(k, v)| (k.clone(), Answer::from_response(v)))
            .collect();
        let http = rc.extensions.get::<::http::request::Parts>();
        let current = rc
            .protocol_version()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
        let mut asked = 0;
        let scope = idempotency::default_scope(http, &self.connection);
        loop {
            let ctx = self.context_for(&name, &arguments, &answers, http)?;
            let result = idempotency::enforce(
                &self.idempotency,
                self.service.idempotency(&name),
                &scope,
                &name,
                &arguments,
                || self.service.call(&ctx, &name, arguments.clone()),
            )
            .await
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
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
            let params = elicitation(&need);
            if current {
                // 2026-07-28 forbids an input request the client did not declare, and
                // requires −32021 when a request cannot proceed without it (HTTP 400).
                if !can_ask {
                    return Err(ErrorData::missing_required_client_capability(
                        form_elicitation(),
                    ));
                }
                let mut requests = InputRequests::new();
                requests.insert(
                    need.name.clone(),
                    InputRequest::Elicitation(ElicitRequest::new(params)),
                );
                return Ok(CallToolResponse::InputRequired(
                    InputRequiredResult::from_input_requests(requests),
                ));
            }
            if !can_ask || asked >= MAX_ELICITATIONS {
                return Ok(CallToolResponse::Complete(to_sdk(result)));
            }
            asked += 1;
            let reply =
                rc.peer.create_elicitation(params).await.map_err(|e| {
                    ErrorData::internal_error(format!("elicitation failed: {e}"), None)
                })?;
            answers.insert(need.name, Answer::from_elicit(&reply));
        }
    }
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
fn elicitation(need: &InputNeeded) -> ElicitRequestParams {
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
        message: need.prompt.clone(),
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
    sdk.structured_content = result.mcp_structured().cloned();
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
        self.call(request, context).await
    }
}
