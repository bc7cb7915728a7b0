//! Streamable HTTP: rmcp's tower service on a hyper HTTP/1 connection per client, behind
//! three checks of this module's own.
//!
//! - `Host` must name a loopback host (`localhost`, `127.0.0.1`, `[::1]`) and, when it has a
//!   port, exactly the port the server listens on; anything else (`127.0.0.1:evil.com`, a
//!   rebound `evil.example.com`) is 403. `Origin`, when present, must be `http` or `https` on
//!   a loopback host (any port: a loopback page is no DNS rebinding); anything else, `null`
//!   included, is 403. MCP requires both against DNS rebinding.
//! - A `POST` body is read up to [`MAX_BODY`] (413 beyond) and checked as JSON-RPC before rmcp
//!   sees it ([`super::message`]): a body that is not a message is HTTP 400 with the
//!   JSON-RPC error (−32700, −32600 or −32602) as its JSON body (an empty body, or a
//!   notification that does not parse, is 400 without one).
//! - Sessions (2025-era clients) are capped and expire when idle ([`HttpConfig`]): past the
//!   cap, a new `initialize` closes the session idle the longest.

use super::Server;
use super::message::{self, Checked};
use ::rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use ::rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use ::rmcp::transport::streamable_http_server::session::{
    RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use ::rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use bytes::Bytes;
use futures_core::Stream;
use http_body_util::{BodyExt, Full, Limited, combinators::BoxBody};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;

/// The largest `POST` body accepted, in bytes (rmcp's own default).
pub const MAX_BODY: usize = 4 * 1024 * 1024;

/// Limits of the Streamable HTTP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpConfig {
    /// How many sessions may be open at once; a new one past it closes the session idle
    /// the longest. Default 512.
    pub max_sessions: usize,
    /// A session with no message for this long is closed (its client then gets 404 and
    /// initializes again, as MCP asks). Default 5 minutes.
    pub session_idle: Duration,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            max_sessions: 512,
            session_idle: Duration::from_secs(300),
        }
    }
}

/// Binds `addr`, prints the one line a script waits for (`listening on http://ADDR/mcp`, on
/// stderr: a port 0 request learns its port) and serves `server` there.
pub async fn listen<Ctx: Send + Sync + 'static>(
    server: Server<Ctx>,
    addr: SocketAddr,
    config: HttpConfig,
) -> std::io::Result<()> {
    let listener = TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    eprintln!("listening on http://{local}/mcp");
    serve_http_with(server, listener, config).await
}

/// Serves `server` over Streamable HTTP on `listener` with the default [`HttpConfig`] until
/// the listener fails. Every path answers MCP (`/mcp` by convention): sessions for
/// 2025-era clients, stateless requests for 2026-07-28.
pub async fn serve_http<Ctx: Send + Sync + 'static>(
    server: Server<Ctx>,
    listener: TcpListener,
) -> std::io::Result<()> {
    serve_http_with(server, listener, HttpConfig::default()).await
}

/// [`serve_http`] with explicit limits.
pub async fn serve_http_with<Ctx: Send + Sync + 'static>(
    server: Server<Ctx>,
    listener: TcpListener,
    config: HttpConfig,
) -> std::io::Result<()> {
    let port = listener.local_addr()?.port();
    let sessions = Arc::new(Sessions::new(config));
    // The Host and Origin checks are this module's (rmcp's Host check ignores a port that
    // is not a number); rmcp checks the rest of the request.
    let rmcp_config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .disable_allowed_origins();
    let service =
        StreamableHttpService::new(move || Ok(server.new_session()), sessions, rmcp_config);
    loop {
        let (stream, _) = listener.accept().await?;
        let service = service.clone();
        tokio::spawn(async move {
            let handler = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                let service = service.clone();
                async move { Ok::<_, Infallible>(handle(&service, port, request).await) }
            });
            // A client that drops its connection ends only its own connection.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handler)
                .await;
        });
    }
}

type Response = hyper::Response<BoxBody<Bytes, Infallible>>;

async fn handle<Ctx: Send + Sync + 'static>(
    service: &StreamableHttpService<Server<Ctx>, Sessions>,
    port: u16,
    request: hyper::Request<Incoming>,
) -> Response {
    if let Err(why) = allowed(request.headers(), port) {
        return plain(http::StatusCode::FORBIDDEN, why);
    }
    if request.method() != http::Method::POST {
        return service.handle(request).await;
    }
    let (parts, body) = request.into_parts();
    let body = match Limited::new(body, MAX_BODY).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => {
            return plain(
                http::StatusCode::PAYLOAD_TOO_LARGE,
                "Payload Too Large: the body is over 4 MiB or was cut off",
            );
        }
    };
    match message::check(&body) {
        Checked::Message(_) => {
            service
                .handle(hyper::Request::from_parts(parts, Full::new(body)))
                .await
        }
        Checked::Reply(error) => json(http::StatusCode::BAD_REQUEST, &error),
        // An empty body, or a notification or response that does not parse: JSON-RPC has
        // no answer for it, HTTP still needs a status.
        Checked::Ignore => plain(
            http::StatusCode::BAD_REQUEST,
            "Bad Request: the body is not a JSON-RPC message",
        ),
    }
}

/// Why the `Host` or `Origin` header of a request is refused (DNS rebinding), if it is.
fn allowed(headers: &http::HeaderMap, port: u16) -> Result<(), &'static str> {
    let host = headers
        .get(http::header::HOST)
        .and_then(|h| h.to_str().ok())
        .ok_or("Forbidden: missing or unreadable Host header")?;
    match split_authority(host) {
        Some((name, p)) if is_loopback(name) && p.is_none_or(|p| p == port) => {}
        _ => return Err("Forbidden: Host header is not this server's loopback address"),
    }
    let Some(origin) = headers.get(http::header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin
        .to_str()
        .map_err(|_| "Forbidden: unreadable Origin header")?;
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .ok_or("Forbidden: Origin header is not allowed")?;
    match split_authority(authority) {
        Some((name, _)) if is_loopback(name) => Ok(()),
        _ => Err("Forbidden: Origin header is not allowed"),
    }
}

/// `host[:port]` (the host may be a bracketed IPv6 address) as its host and port; `None`
/// when the port is not a number of at most 65535, or anything follows it.
fn split_authority(s: &str) -> Option<(&str, Option<u16>)> {
    let (host, rest) = if let Some(v6) = s.strip_prefix('[') {
        let end = v6.find(']')?;
        (&s[..end + 2], &v6[end + 1..])
    } else {
        match s.find(':') {
            Some(i) => (&s[..i], &s[i..]),
            None => (s, ""),
        }
    };
    if rest.is_empty() {
        return Some((host, None));
    }
    let digits = rest.strip_prefix(':')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().map(|p| (host, Some(p)))
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1" || host == "[::1]"
}

fn plain(status: http::StatusCode, text: &'static str) -> Response {
    let mut response = hyper::Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

fn json(status: http::StatusCode, message: &ServerJsonRpcMessage) -> Response {
    let body = serde_json::to_vec(message).unwrap_or_default();
    let mut response = hyper::Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("application/json"),
    );
    response
}

/// rmcp's in-memory sessions, capped, with each session's last activity.
pub struct Sessions {
    inner: LocalSessionManager,
    max: usize,
    /// When each open session last received a message.
    active: Mutex<HashMap<SessionId, Instant>>,
}

impl Sessions {
    fn new(config: HttpConfig) -> Sessions {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(config.session_idle);
        Sessions {
            inner,
            max: config.max_sessions.max(1),
            active: Mutex::new(HashMap::new()),
        }
    }

    fn active(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Instant>> {
        self.active.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn touch(&self, id: &SessionId) {
        if let Some(at) = self.active().get_mut(id) {
            *at = Instant::now();
        }
    }
}

impl SessionManager for Sessions {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        loop {
            let oldest = {
                let active = self.active();
                if active.len() < self.max {
                    break;
                }
                active
                    .iter()
                    .min_by_key(|(_, at)| **at)
                    .map(|(id, _)| id.clone())
            };
            let Some(oldest) = oldest else { break };
            self.active().remove(&oldest);
            self.inner.close_session(&oldest).await?;
        }
        let (id, transport) = self.inner.create_session().await?;
        self.active().insert(id.clone(), Instant::now());
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.active().remove(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        _id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        Ok(RestoreOutcome::NotSupported)
    }
}

#[cfg(test)]
mod tests {
    use super::{allowed, split_authority};

    /// Whether a request with these `Host` and `Origin` headers reaches the server on `port`.
    fn passes(host: Option<&str>, origin: Option<&str>, port: u16) -> bool {
        let mut headers = http::HeaderMap::new();
        for (name, value) in [(http::header::HOST, host), (http::header::ORIGIN, origin)] {
            if let Some(v) = value.and_then(|v| http::HeaderValue::from_str(v).ok()) {
                headers.insert(name, v);
            }
        }
        allowed(&headers, port).is_ok()
    }

    #[test]
    fn a_host_with_a_port_that_is_not_a_number_is_refused() {
        for bad in [
            "127.0.0.1:evil.com",
            "127.0.0.1:80x",
            "127.0.0.1:",
            "127.0.0.1:99999",
            "[::1]evil",
            // Another port is another server.
            "127.0.0.1:8081",
            "evil.example.com:8080",
            "evil.example.com",
        ] {
            assert!(!passes(Some(bad), None, 8080), "{bad}");
        }
        assert!(!passes(None, None, 8080));
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(passes(Some(ok), None, 8080), "{ok}");
        }
    }

    #[test]
    fn a_foreign_origin_is_refused() {
        let host = Some("127.0.0.1:8080");
        for bad in [
            "http://evil.example.com",
            "http://evil.example.com:8080",
            "null",
            "file://",
            "http://127.0.0.1.evil.com",
            "http://127.0.0.1:evil",
        ] {
            assert!(!passes(host, Some(bad), 8080), "{bad}");
        }
        for ok in [
            "http://localhost:6274",
            "http://127.0.0.1",
            "https://[::1]:3000",
        ] {
            assert!(passes(host, Some(ok), 8080), "{ok}");
        }
    }

    #[test]
    fn authorities_split_at_the_port() {
        assert_eq!(split_authority("a:1"), Some(("a", Some(1))));
        assert_eq!(split_authority("[::1]:2"), Some(("[::1]", Some(2))));
        assert_eq!(split_authority("a"), Some(("a", None)));
        assert_eq!(split_authority("a:b"), None);
        assert_eq!(split_authority("[::1"), None);
    }
}
