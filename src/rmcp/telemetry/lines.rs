//! The trace file: one JSON line per call trace event (target [`TARGET`]), in
//! tracing-subscriber's JSON layout with the event's fields at the top level
//! (docs/trace-line.schema.json): `timestamp` (RFC 3339, UTC, microseconds), `level`, the
//! event's fields in the order it records them, `target`.
//!
//! The line is written as the event is recorded, each field straight into a buffer the thread
//! keeps (no intermediate value, no allocation per field), and goes to the file, opened once
//! when the server starts, with one `write` call: it is in the file before the call's answer
//! leaves the server, so a client that reads the file after the answer finds it there.

use crate::rmcp::trace::TARGET;
use crate::runtime::canonical::write_string;
use chrono::{Datelike, Timelike};
use std::cell::RefCell;
use std::fmt::{self, Write as _};
use std::fs::File;
use std::io::Write as _;
use std::sync::{Mutex, PoisonError};
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, Layer};

/// The `tracing` layer that appends each trace event to the trace file as one JSON line.
pub(super) struct TraceLines {
    file: Mutex<File>,
}

impl TraceLines {
    /// Appends to `file`.
    pub(super) fn new(file: File) -> TraceLines {
        TraceLines {
            file: Mutex::new(file),
        }
    }
}

thread_local! {
    /// The line being written on this thread, kept between lines for its capacity.
    static LINE: RefCell<String> = const { RefCell::new(String::new()) };
}

impl<S: tracing::Subscriber> Layer<S> for TraceLines {
    fn on_event(&self, event: &tracing::Event<'_>, _cx: Context<'_, S>) {
        let meta = event.metadata();
        if meta.target() != TARGET {
            return;
        }
        LINE.with(|line| {
            // A line being written on this thread already (a field's formatting traced):
            // this one is not written, rather than interleaved.
            let Ok(mut line) = line.try_borrow_mut() else {
                return;
            };
            line.clear();
            line.push_str("{\"timestamp\":\"");
            write_timestamp(&mut line, chrono::Utc::now());
            line.push_str("\",\"level\":\"");
            line.push_str(meta.level().as_str());
            line.push('"');
            event.record(&mut Fields { line: &mut line });
            line.push_str(",\"target\":");
            write_string(&mut line, meta.target());
            line.push_str("}\n");
            // A full disk or a closed file loses the line, never the call's answer.
            let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
            let _ = file.write_all(line.as_bytes());
        });
    }
}

/// `at` as RFC 3339 in UTC with microseconds: `2026-12-04T21:58:25.811045Z`.
fn write_timestamp(out: &mut String, at: chrono::DateTime<chrono::Utc>) {
    let (hour, minute, second) = (at.hour(), at.minute(), at.second());
    // A leap second is carried in the nanoseconds past 1e9.
    let micros = (at.nanosecond() / 1_000).min(999_999);
    let _ = write!(
        out,
        "{:04}-{:02}-{:02}T{hour:02}:{minute:02}:{second:02}.{micros:06}Z",
        at.year(),
        at.month(),
        at.day()
    );
}

/// Writes each field of an event as `,"name":value`.
struct Fields<'a> {
    line: &'a mut String,
}

impl Fields<'_> {
    fn key(&mut self, field: &Field) {
        self.line.push(',');
        write_string(self.line, field.name());
        self.line.push(':');
    }
}

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.key(field);
        write_string(self.line, value);
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.key(field);
        let _ = write!(self.line, "{value}");
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.key(field);
        let _ = write!(self.line, "{value}");
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.key(field);
        self.line.push_str(if value { "true" } else { "false" });
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.key(field);
        // JSON has no NaN or infinity; serde_json writes them as null, and so does this.
        if value.is_finite() {
            let _ = write!(self.line, "{value:?}");
        } else {
            self.line.push_str("null");
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.key(field);
        // The message (`format_args!`) and any other field recorded by its `Debug` form, as
        // a JSON string, as tracing-subscriber writes it.
        let mut text = String::new();
        let _ = write!(text, "{value:?}");
        write_string(self.line, &text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn timestamps_are_rfc3339_utc_with_microseconds() {
        let mut out = String::new();
        let at = chrono::Utc
            .with_ymd_and_hms(2026, 12, 4, 21, 58, 5)
            .single()
            .map(|t| t + chrono::Duration::microseconds(811_045))
            .unwrap_or_default();
        write_timestamp(&mut out, at);
        assert_eq!(out, "2026-12-04T21:58:05.811045Z");
    }

    #[test]
    fn a_line_is_json_with_its_fields_at_the_top_level() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("t.jsonl");
        let file = File::create(&path).unwrap_or_else(|e| panic!("{e}"));
        let subscriber = tracing_subscriber::layer::SubscriberExt::with(
            tracing_subscriber::registry(),
            TraceLines::new(file),
        );
        tracing::subscriber::with_default(subscriber, || {
            tracing::event!(
                target: TARGET,
                tracing::Level::INFO,
                gen_ai.tool.name = "a \"quoted\"\n tool",
                seconds = 0.25_f64,
                count = 3_u64,
                delta = -2_i64,
                flag = true,
                absent = None::<&str>,
                "tools/call"
            );
            tracing::event!(target: "elsewhere", tracing::Level::INFO, "not a trace line");
        });
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1, "{text}");
        let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap_or_default();
        assert_eq!(v["level"], "INFO");
        assert_eq!(v["target"], TARGET);
        assert_eq!(v["message"], "tools/call");
        assert_eq!(v["gen_ai.tool.name"], "a \"quoted\"\n tool");
        assert_eq!(v["seconds"], 0.25);
        assert_eq!(v["count"], 3);
        assert_eq!(v["delta"], -2);
        assert_eq!(v["flag"], true);
        assert!(v.get("absent").is_none());
        assert_eq!(v["timestamp"].as_str().map(str::len), Some(27));
    }
}
