//! `serve --mock` over stdio (`catalogc::rmcp::LineTransport` in front of rmcp): the input is
//! what a client writes on the server's stdin, after a valid `initialize`. Whatever it holds
//! (invalid JSON, bad UTF-8, deep nesting, hostile arguments for the billing catalog's
//! patterns and bounds), the server answers and ends when the input does: a panic or a hang
//! is a finding.
#![no_main]

use catalogc::rmcp::Server;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const INIT: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"0\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

#[path = "mock.rs"]
mod mock;

/// The billing catalog's mock, built once.
fn server() -> Server<mock::Ctx> {
    static SERVER: OnceLock<Server<mock::Ctx>> = OnceLock::new();
    SERVER.get_or_init(mock::billing).clone()
}

fuzz_target!(|data: &[u8]| {
    let mut input = INIT.to_vec();
    input.extend_from_slice(data);
    let server = server();
    let done = runtime().block_on(async move {
        tokio::time::timeout(
            std::time::Duration::from_secs(5),
            server.serve_io(std::io::Cursor::new(input), tokio::io::sink()),
        )
        .await
    });
    assert!(done.is_ok(), "the server did not end with its input");
});
