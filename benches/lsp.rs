//! `cargo bench --bench lsp`: how long after one keystroke `catalogc lsp` publishes the
//! diagnostics of a synthetic 1,000-tool catalog (target: 100 ms in release).
//!
//! The server runs on an in-memory connection exactly as on stdio; each round sends one
//! `didChange` typing (or deleting) one character in a summary and waits for the
//! `publishDiagnostics` it causes: the time from sending the change to receiving that
//! notification, in this client thread, is the figure. Two editing sessions are timed:
//!
//! - typing into the 1,000-tool catalog, alone in its folder (the target);
//! - typing into `billing.kdl` with the 1,000-tool catalog beside it on disk, not open: the
//!   big catalog is part of the project (cross-catalog findings) but did not change.
//!
//! The re-check alone — analysing the folder from nothing and converting the findings — is
//! also timed.

#[path = "support/timing.rs"]
mod timing;

use catalogc::lsp::{self, analysis::Snapshot, features};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

const TOOLS: usize = 1_000;
const ROUNDS: usize = 15;
const BILLING: &str = include_str!("../catalogs/billing.kdl");

fn main() {
    let text = catalogc::testing::synthetic_catalog("synthetic", TOOLS);
    let root = std::env::temp_dir().join(format!("catalogc-lsp-bench-{}", std::process::id()));
    let (alone, beside) = (root.join("alone"), root.join("beside"));
    let big = "synthetic.kdl";
    let written = [
        (alone.join(big), text.as_str()),
        (beside.join(big), text.as_str()),
        (beside.join("billing.kdl"), BILLING),
    ]
    .iter()
    .try_for_each(|(path, text)| {
        std::fs::create_dir_all(path.parent().unwrap_or(&root))?;
        std::fs::write(path, text)
    });
    if let Err(e) = written {
        eprintln!("cannot write the catalogs below {}: {e}", root.display());
        return;
    }

    let path = alone.join(big);
    let (fastest, median) = timing::fastest_and_median_ms(ROUNDS, || {
        let snap = Snapshot::build(&alone, &path, &|_| Some(text.clone()));
        let view = features::View::new(&snap, &path);
        view.map(|v| features::diagnostics(&v).len())
    });
    println!("{TOOLS} tools, {} bytes", text.len());
    println!("re-check (analysis + conversion): fastest {fastest:.1} ms, median {median:.1} ms");

    for (label, path, text) in [
        ("in the 1,000-tool catalog", path.clone(), text.as_str()),
        (
            "in billing.kdl beside it",
            beside.join("billing.kdl"),
            BILLING,
        ),
    ] {
        match keystrokes(&path, text) {
            Ok(mut times) => {
                times.sort();
                let ms = |d: Duration| d.as_secs_f64() * 1000.0;
                println!(
                    "keystroke → publishDiagnostics, {label}: fastest {:.1} ms, median {:.1} ms",
                    ms(times[0]),
                    ms(times[times.len() / 2]),
                );
            }
            Err(e) => eprintln!("the server stopped: {e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Opens `path` (holding `text`) in a fresh server, then times [`ROUNDS`] keystrokes, each
/// from sending its `didChange` to receiving the `publishDiagnostics` it causes.
fn keystrokes(path: &Path, text: &str) -> Result<Vec<Duration>, String> {
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
    let uri = lsp::path_to_uri(path)
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
    let times = run();
    // On an error the server is still reading: closing the connection ends it.
    drop(client);
    let _ = thread.join();
    times
}
