//! Streamable HTTP: rmcp's tower service on a hyper HTTP/1 connection per client.

use super::Server;
use ::rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use ::rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use tokio::net::TcpListener;

/// Serves `server` over Streamable HTTP on `listener` until the listener fails. Every path
/// answers MCP (`/mcp` by convention). rmcp's defaults hold: only loopback `Host` headers
/// are accepted (against DNS rebinding), sessions for 2025-era clients, stateless requests
/// for 2026-07-28.
pub async fn serve_http<Ctx: Send + Sync + 'static>(
    server: Server<Ctx>,
    listener: TcpListener,
) -> std::io::Result<()> {
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    loop {
        let (stream, _) = listener.accept().await?;
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            // A client that drops its connection ends only its own connection.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
