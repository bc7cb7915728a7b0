//! `cargo bench --bench lsp`: how long after one keystroke `catalogc lsp` publishes the
//! diagnostics of a synthetic 1,000-tool catalog (target: 100 ms in release).
//!
//! The server runs on an in-memory connection exactly as on stdio; each round sends one
//! `didChange` typing (or deleting) one character in a summary and waits for the
//! `publishDiagnostics` it causes. That end-to-end time includes the debounce
//! ([`catalogc::lsp::DEBOUNCE`]); the re-check itself — analysing the folder and converting
//! the findings — is also timed alone.

// The allocator the `catalogc` binary (and so its language server) runs with.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/timing.rs"]
mod timing;

use catalogc::lsp::{self, analysis::Snapshot, features};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const TOOLS: usize = 1_000;
const ROUNDS: usize = 15;

fn main() {
    let text = catalogc::testing::synthetic_catalog("synthetic", TOOLS);
    let dir = std::env::temp_dir().join(format!("catalogc-lsp-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        return;
    }
    let path = dir.join("synthetic.kdl");

    let (fastest, median) = timing::fastest_and_median_ms(ROUNDS, || {
        let snap = Snapshot::build(&dir, &path, &|_| Some(text.clone()));
        let view = features::View::new(&snap, &path);
        view.map(|v| features::diagnostics(&v).len())
    });
    println!("{TOOLS} tools, {} bytes", text.len());
    println!("re-check (analysis + conversion): fastest {fastest:.1} ms, median {median:.1} ms");

    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || lsp::serve(&server));
    let send = |m: Message| client.sender.send(m).map_err(|e| e.to_string());
    let wait_diagnostics = || -> Result<usize, String> {
        loop {
            let m = client
                .receiver
                .recv_timeout(Duration::from_secs(60))
                .map_err(|e| e.to_string())?;
            if let Message::Notification(n) = m
                && n.method == "textDocument/publishDiagnostics"
            {
                return Ok(n.params["diagnostics"].as_array().map_or(0, Vec::len));
            }
        }
    };
    let uri = lsp::path_to_uri(&path)
        .map(|u| u.as_str().to_string())
        .unwrap_or_default();
    let run = || -> Result<Vec<Duration>, String> {
        send(
            Request::new(
                RequestId::from(1),
                "initialize".into(),
                json!({"capabilities": {}}),
            )
            .into(),
        )?;
        loop {
            if let Message::Response(_) = client.receiver.recv().map_err(|e| e.to_string())? {
                break;
            }
        }
        send(Notification::new("initialized".into(), json!({})).into())?;
        send(Notification::new(
            "textDocument/didOpen".into(),
            json!({"textDocument": {"uri": uri, "languageId": "kdl", "version": 1, "text": text}}),
        )
        .into())?;
        wait_diagnostics()?;
        let at = text.find("summary \"").map_or(0, |i| i + 9);
        let line = text[..at].matches('\n').count();
        let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
        let mut times = Vec::new();
        for round in 0..ROUNDS {
            // Type one character, then delete it: the text stays the same size.
            let change: Value = if round % 2 == 0 {
                json!({"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col}}, "text": "x"})
            } else {
                json!({"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": ""})
            };
            let start = Instant::now();
            send(Notification::new(
                "textDocument/didChange".into(),
                json!({"textDocument": {"uri": uri, "version": round + 2}, "contentChanges": [change]}),
            )
            .into())?;
            wait_diagnostics()?;
            times.push(start.elapsed());
        }
        send(Request::new(RequestId::from(2), "shutdown".into(), Value::Null).into())?;
        send(Notification::new("exit".into(), Value::Null).into())?;
        Ok(times)
    };
    match run() {
        Ok(mut times) => {
            times.sort();
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            println!(
                "keystroke → publishDiagnostics: fastest {:.1} ms, median {:.1} ms (debounce {} ms included)",
                ms(times[0]),
                ms(times[times.len() / 2]),
                lsp::DEBOUNCE.as_millis()
            );
        }
        Err(e) => eprintln!("the server stopped: {e}"),
    }
    let _ = thread.join();
    let _ = std::fs::remove_dir_all(&dir);
}
