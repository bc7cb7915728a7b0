//! `serve --mock` over Streamable HTTP (`catalogc::rmcp::serve_http`: the Host and Origin
//! checks, the body check, rmcp): the input is extra header lines, a NUL byte, then a `POST`
//! body. Every request gets an HTTP response (a hang guard of 10 s); a panic in the server
//! ends the connection without one and is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::OnceLock;

#[path = "mock.rs"]
mod mock;

/// The address of a server started once, on its own runtime.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        let server = mock::billing();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("address");
        listener.set_nonblocking(true).expect("nonblocking");
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                let _ = catalogc::rmcp::serve_http(server, listener).await;
            });
        });
        addr
    })
}

fuzz_target!(|data: &[u8]| {
    let addr = server();
    let (head, body) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&[][..], data),
    };
    // Header lines as a client could send them: visible ASCII and spaces, `Name: value`.
    let extra: String = String::from_utf8_lossy(head)
        .lines()
        .filter(|l| {
            l.split_once(':').is_some_and(|(n, _)| {
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            }) && l.bytes().all(|b| (0x20..0x7f).contains(&b))
                && !l.to_ascii_lowercase().starts_with("content-length")
                && !l.to_ascii_lowercase().starts_with("transfer-encoding")
        })
        .map(|l| format!("{l}\r\n"))
        .collect();
    let Ok(mut stream) = std::net::TcpStream::connect(addr) else {
        return;
    };
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(10)));
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    if stream.write_all(request.as_bytes()).is_err() || stream.write_all(body).is_err() {
        return;
    }
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    assert!(
        response.starts_with(b"HTTP/1.1 "),
        "no HTTP response: {:?}",
        String::from_utf8_lossy(&response)
    );
});
