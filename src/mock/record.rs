//! `serve --mock --record FILE`: one JSON line per call the mock's handler ran, for a client's
//! tests to count the calls that reached a tool and to see when each ran.
//!
//! A line is `{"tool": NAME, "arguments": {…}, "start_ms": T0, "end_ms": T1}`: the times are
//! milliseconds since the server started (monotonic clock, microsecond precision); a
//! `sensitive` argument's value is written as `"(sensitive)"`. A call refused before the
//! handler (bad arguments are not: they reach it) writes nothing. Lines are appended whole
//! and flushed at once; a write that fails is reported on the operator log and the call
//! goes on.

use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// Where the mock records its calls.
#[derive(Debug)]
pub struct Recorder {
    started: Instant,
    file: Mutex<std::fs::File>,
}

impl Recorder {
    /// Records into `path`, created or emptied.
    pub fn create(path: &Path) -> std::io::Result<Recorder> {
        Ok(Recorder {
            started: Instant::now(),
            file: Mutex::new(std::fs::File::create(path)?),
        })
    }

    /// Milliseconds since the server started.
    pub fn now_ms(&self) -> f64 {
        (self.started.elapsed().as_micros() as f64) / 1000.0
    }

    /// Records one handler run of `tool` between `start_ms` and now.
    pub fn record(&self, tool: &str, arguments: &Value, sensitive: &[&str], start_ms: f64) {
        let mut shown = arguments.clone();
        if let Value::Object(m) = &mut shown {
            for (k, v) in m.iter_mut() {
                if sensitive.contains(&k.as_str()) {
                    *v = json!("(sensitive)");
                }
            }
        }
        let line = json!({
            "tool": tool,
            "arguments": shown,
            "start_ms": start_ms,
            "end_ms": self.now_ms(),
        });
        let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
            tracing::warn!(error = %e, "cannot record a mock call");
        }
    }
}
