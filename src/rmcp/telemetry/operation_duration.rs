//! The OpenTelemetry MCP metric `mcp.server.operation.duration`: a histogram, in seconds, of
//! every `tools/call`, exported over OTLP with the call spans.
//!
//! It is read off the call's trace line (the event of target [`TARGET`] that
//! [`crate::rmcp::trace`] writes when a call ends), so a call is measured exactly once, with
//! the duration the trace line holds. Its attributes are the convention's: `mcp.method.name`,
//! `gen_ai.operation.name`, `mcp.protocol.version`, `network.transport` and, on failure,
//! `error.type` and `rpc.response.status_code`; `gen_ai.tool.name` only for a tool of the
//! catalog (a name a client made up would be an attribute value without bound). Nothing else
//! of the line is an attribute: no session, request id, digest or error code.

use crate::rmcp::trace::TARGET;
use opentelemetry::KeyValue;
use opentelemetry::metrics::{Histogram, Meter};
use std::fmt;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, Layer};

/// The metric's name.
pub(super) const NAME: &str = "mcp.server.operation.duration";

/// The metric's description: the convention's brief for it.
const DESCRIPTION: &str = "MCP request or notification duration as observed on the receiver \
                           from the time it was received until the result or ack is sent.";

/// The bucket boundaries, in seconds, that the convention advises for the metric: "This
/// metric SHOULD be specified with `ExplicitBucketBoundaries` of `[ 0.01, 0.02, 0.05, 0.1,
/// 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300 ]`" (OpenTelemetry semantic conventions for MCP,
/// docs/gen-ai/mcp.md, "Metric: `mcp.server.operation.duration`"), given to the SDK as the
/// instrument's advice.
const BOUNDARIES: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];

/// The trace line's fields that are attributes of the metric as they are.
const ATTRIBUTES: [&str; 6] = [
    "mcp.method.name",
    "gen_ai.operation.name",
    "mcp.protocol.version",
    "network.transport",
    "error.type",
    "rpc.response.status_code",
];

/// The `tracing` layer that records each trace line's duration into the histogram.
pub(super) struct OperationDuration {
    histogram: Histogram<f64>,
}

impl OperationDuration {
    /// The histogram, created on `meter`.
    pub(super) fn new(meter: &Meter) -> OperationDuration {
        let histogram = meter
            .f64_histogram(NAME)
            .with_unit("s")
            .with_description(DESCRIPTION)
            .with_boundaries(BOUNDARIES.to_vec())
            .build();
        OperationDuration { histogram }
    }
}

/// What one trace line holds for the metric.
#[derive(Default)]
struct Line {
    seconds: Option<f64>,
    attributes: Vec<KeyValue>,
    tool: Option<String>,
    in_catalog: bool,
}

impl Visit for Line {
    fn record_f64(&mut self, field: &Field, value: f64) {
        if field.name() == NAME {
            self.seconds = Some(value);
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "gen_ai.tool.name" => self.tool = Some(value.to_string()),
            // Only a tool of the catalog has a contract hash.
            "catalogc.contract.hash" => self.in_catalog = true,
            name if ATTRIBUTES.contains(&name) => {
                self.attributes.push(KeyValue::new(name, value.to_string()));
            }
            _ => {}
        }
    }

    fn record_debug(&mut self, _field: &Field, _value: &dyn fmt::Debug) {}
}

impl<S: tracing::Subscriber> Layer<S> for OperationDuration {
    fn on_event(&self, event: &tracing::Event<'_>, _cx: Context<'_, S>) {
        if event.metadata().target() != TARGET {
            return;
        }
        let mut line = Line::default();
        event.record(&mut line);
        let Some(seconds) = line.seconds else {
            return;
        };
        let mut attributes = line.attributes;
        if let Some(tool) = line.tool.filter(|_| line.in_catalog) {
            attributes.push(KeyValue::new("gen_ai.tool.name", tool));
        }
        self.histogram.record(seconds, &attributes);
    }
}
