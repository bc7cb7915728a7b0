//! Where a server's `tracing` output goes: the operator log to stderr, the call trace lines
//! ([`super::trace`]) to a JSON lines file, and with the `otlp` feature the call spans and
//! the `mcp.server.operation.duration` histogram to an OpenTelemetry collector over
//! OTLP/HTTP (protobuf).
//!
//! A trace line is tracing-subscriber's JSON layout with the event's fields at the top level
//! (docs/trace-line.schema.json), written by [`lines`]. Each layer sees only what it is for: the operator log never
//! the call spans, the trace file only the trace lines, the span exporter only the spans, the
//! metric only the trace lines; a server that exports no spans pays for none (the operator log
//! takes events, not the spans around them).

mod lines;
#[cfg(feature = "otlp")]
mod operation_duration;

use super::trace::TARGET;
use std::fs::File;
use std::path::PathBuf;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::{LevelFilter, filter_fn};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// What a server records besides its operator log.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Telemetry {
    /// Appends one JSON line per `tools/call` to this file.
    pub trace_file: Option<PathBuf>,
    /// Exports the call spans and the `mcp.server.operation.duration` histogram over
    /// OTLP/HTTP to this collector (e.g. `http://127.0.0.1:4318`; the spans go to
    /// `/v1/traces` below it, the metric to `/v1/metrics`). Needs the `otlp` feature.
    pub otlp_endpoint: Option<String>,
    /// The `service.name` of the exported spans and metric.
    pub service_name: String,
}

impl Telemetry {
    /// Read from the environment: `CATALOGC_TRACE_FILE` and the OpenTelemetry SDKs'
    /// `OTEL_EXPORTER_OTLP_ENDPOINT`; `service_name` as given.
    pub fn from_env(service_name: &str) -> Telemetry {
        let var = |name| std::env::var(name).ok().filter(|v: &String| !v.is_empty());
        Telemetry {
            trace_file: var("CATALOGC_TRACE_FILE").map(PathBuf::from),
            otlp_endpoint: var("OTEL_EXPORTER_OTLP_ENDPOINT"),
            service_name: service_name.to_string(),
        }
    }

    /// Installs the process's `tracing` subscriber: the operator log on stderr, plus what
    /// this asks for. Keep the guard until the server stops: dropping it sends the spans
    /// not yet exported. An error is a trace file that cannot be opened, or an exporter
    /// that cannot be built (or is not built in).
    pub fn install(&self) -> std::io::Result<TelemetryGuard> {
        // The operator log: stderr, never stdout (the stdio transport). A closed or full
        // stderr loses log lines but never a response: the writer's errors are not
        // reported (reporting them would write to stderr again, and panic there).
        let operator = tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .log_internal_errors(false)
            // Events only: a span no layer wants is never built, and rmcp instruments every
            // request's tasks with its `serve_inner` span.
            .with_filter(filter_fn(|m| m.is_event() && m.target() != TARGET))
            .with_filter(LevelFilter::INFO);
        let lines = match &self.trace_file {
            None => None,
            Some(path) => {
                let file = File::options().create(true).append(true).open(path)?;
                Some(
                    lines::TraceLines::new(file)
                        .with_filter(filter_fn(|m| m.is_event() && m.target() == TARGET)),
                )
            }
        };
        let (spans, guard) = self.exporter()?;
        // A second install (a test, an embedding) keeps the first subscriber.
        let _ = tracing_subscriber::registry()
            .with(operator)
            .with(lines)
            .with(spans)
            .try_init();
        Ok(guard)
    }

    #[cfg(not(feature = "otlp"))]
    fn exporter(
        &self,
    ) -> std::io::Result<(Option<tracing_subscriber::layer::Identity>, TelemetryGuard)> {
        match self.otlp_endpoint {
            None => Ok((None, TelemetryGuard {})),
            Some(_) => Err(std::io::Error::other(
                "OTLP export needs catalogc built with the `otlp` feature",
            )),
        }
    }

    #[cfg(feature = "otlp")]
    fn exporter<S>(&self) -> std::io::Result<(Option<impl Layer<S>>, TelemetryGuard)>
    where
        S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    {
        use opentelemetry::metrics::MeterProvider;
        use opentelemetry::trace::TracerProvider;
        use opentelemetry_otlp::{Protocol, WithExportConfig};
        let Some(endpoint) = &self.otlp_endpoint else {
            return Ok((
                None,
                TelemetryGuard {
                    provider: None,
                    meters: None,
                },
            ));
        };
        let endpoint = endpoint.trim_end_matches('/');
        let resource = opentelemetry_sdk::Resource::builder()
            .with_service_name(self.service_name.clone())
            .build();
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(format!("{endpoint}/v1/traces"))
            .build()
            .map_err(std::io::Error::other)?;
        let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource.clone())
            .build();
        let metrics = opentelemetry_otlp::MetricExporter::builder()
            .with_http()
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(format!("{endpoint}/v1/metrics"))
            .build()
            .map_err(std::io::Error::other)?;
        let meters = opentelemetry_sdk::metrics::SdkMeterProvider::builder()
            .with_periodic_exporter(metrics)
            .with_resource(resource)
            .build();
        let spans = tracing_opentelemetry::layer()
            .with_tracer(provider.tracer("catalogc"))
            .with_filter(filter_fn(|m| m.is_span() && m.target() == TARGET));
        let durations = operation_duration::OperationDuration::new(&meters.meter("catalogc"))
            .with_filter(filter_fn(|m| m.is_event() && m.target() == TARGET));
        Ok((
            Some(spans.and_then(durations)),
            TelemetryGuard {
                provider: Some(provider),
                meters: Some(meters),
            },
        ))
    }
}

/// Keeps the exporters running; dropping it exports the spans still buffered and the
/// metric's last figures.
#[derive(Debug)]
#[must_use = "dropping the guard stops the span and metric export"]
pub struct TelemetryGuard {
    #[cfg(feature = "otlp")]
    provider: Option<opentelemetry_sdk::trace::SdkTracerProvider>,
    #[cfg(feature = "otlp")]
    meters: Option<opentelemetry_sdk::metrics::SdkMeterProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        #[cfg(feature = "otlp")]
        if let Some(provider) = self.provider.take()
            && let Err(e) = provider.shutdown()
        {
            eprintln!("catalogc: OTLP export: {e}");
        }
        #[cfg(feature = "otlp")]
        if let Some(meters) = self.meters.take()
            && let Err(e) = meters.shutdown()
        {
            eprintln!("catalogc: OTLP metric export: {e}");
        }
    }
}

/// Continues the trace the client sent in the request's `_meta` (`traceparent`,
/// `tracestate`, W3C Trace Context): the call's span becomes a child of the client's.
#[cfg(feature = "otlp")]
pub(super) fn continue_trace(
    span: &tracing::Span,
    params: Option<&::rmcp::model::RequestMetaObject>,
    context: &::rmcp::model::RequestMetaObject,
) {
    use opentelemetry::propagation::TextMapPropagator;
    use tracing_opentelemetry::OpenTelemetrySpanExt;
    let field = |name: &str| {
        params
            .and_then(|m| m.get(name))
            .or_else(|| context.get(name))
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    let Some(parent) = field("traceparent") else {
        return;
    };
    let mut carrier = std::collections::HashMap::new();
    carrier.insert("traceparent".to_string(), parent);
    if let Some(state) = field("tracestate") {
        carrier.insert("tracestate".to_string(), state);
    }
    let cx = opentelemetry_sdk::propagation::TraceContextPropagator::new().extract(&carrier);
    let _ = span.set_parent(cx);
}
