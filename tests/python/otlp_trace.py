"""Traces and the operation-duration metric over OTLP, received by a collector built on the
official OpenTelemetry protobuf definitions (opentelemetry-proto), and the sensitive-value
grep over everything the servers wrote.

Usage: otlp_trace.py CATALOGC EXAMPLE_SERVER  (both built with `--features otlp`; run by
.ci/otlp from the repository root)

A receiver (OTLP/HTTP protobuf, POST /v1/traces and /v1/metrics, in this process) decodes
each export with `ExportTraceServiceRequest` or `ExportMetricsServiceRequest`. Two servers send to it over OTEL_EXPORTER_OTLP_ENDPOINT and
write their JSON trace lines: the example server (billing, over stdio) and `catalogc serve
--mock tests/python/traced.kdl` (a tool with a sensitive input field). A 2025-11-25 client
makes valid, invalid, approved and declined calls, one of them with W3C trace context in
`params._meta`. Asserted: one SERVER span per call named `tools/call TOOL` with the MCP
attribute names (mcp.method.name, mcp.session.id, mcp.protocol.version, jsonrpc.request.id,
gen_ai.tool.name, gen_ai.operation.name = execute_tool), the service name, the client's
trace continued (same trace id, the client's span as parent); one trace line per call; the
histogram `mcp.server.operation.duration` (unit `s`, the convention's bucket boundaries)
counting every call once per tool and outcome, with the convention's attributes only
(mcp.method.name, gen_ai.operation.name, mcp.protocol.version, network.transport, error.type
and rpc.response.status_code on failure, gen_ai.tool.name for a tool of the catalog: a call
of an unknown tool is counted without it); and no sensitive value sent (nor the sensitive output field's value the example returned) in the
servers' stdout, stderr, trace files or OTLP payloads.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import (
    ExportMetricsServiceRequest,
    ExportMetricsServiceResponse,
)
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.common.v1.common_pb2 import KeyValue
from opentelemetry.proto.metrics.v1.metrics_pb2 import AggregationTemporality, HistogramDataPoint
from opentelemetry.proto.trace.v1.trace_pb2 import Span

TRACE_ID = "0af7651916cd43dd8448eb211c80319c"
PARENT_ID = "b7ad6b7169203331"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_ID}-01"
SECRET = "hunter2-correct-horse-battery"
SHORT_SECRET = "zq7#Lx"
MCP_ATTRIBUTES = [
    "mcp.method.name",
    "mcp.session.id",
    "mcp.protocol.version",
    "jsonrpc.request.id",
    "gen_ai.tool.name",
    "gen_ai.operation.name",
]
DURATION = "mcp.server.operation.duration"
# The bucket boundaries (seconds) the convention advises for the metric.
BOUNDARIES = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]
METRIC_ATTRIBUTES = {
    "mcp.method.name",
    "gen_ai.operation.name",
    "mcp.protocol.version",
    "network.transport",
    "error.type",
    "rpc.response.status_code",
    "gen_ai.tool.name",
}

bodies: list[bytes] = []
requests: list[ExportTraceServiceRequest] = []
metric_exports: list[ExportMetricsServiceRequest] = []
lock = threading.Lock()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        kinds = {
            "/v1/traces": (ExportTraceServiceRequest, ExportTraceServiceResponse, requests),
            "/v1/metrics": (ExportMetricsServiceRequest, ExportMetricsServiceResponse, metric_exports),
        }
        kind = kinds.get(self.path)
        ok = kind is not None and self.headers.get("Content-Type") == "application/x-protobuf"
        reply = b""
        if kind is not None and ok:
            request_type, response_type, received = kind
            request = request_type()
            request.ParseFromString(body)
            with lock:
                bodies.append(body)
                received.append(request)
            reply = response_type().SerializeToString()
        self.send_response(200 if ok else 400)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args: object) -> None:
        pass


class Client:
    """A 2025-11-25 MCP client over the server's stdio, keeping every byte it wrote."""

    def __init__(self, cmd: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        self.stdout = b""
        self.next_id = 0
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"elicitation": {"form": {}}},
            "clientInfo": {"name": "otlp_trace", "version": "1"}}})
        self.recv()
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def recv(self) -> dict:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        self.stdout += line
        return json.loads(line)

    def call(self, tool: str, arguments: dict, answer: str = "accept", meta: dict | None = None) -> dict:
        self.next_id += 1
        params: dict = {"name": tool, "arguments": arguments}
        if meta:
            params["_meta"] = meta
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call", "params": params})
        message = self.recv()
        while message.get("method") == "elicitation/create":
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": {"action": answer, "content": {}}})
            message = self.recv()
        assert message.get("id") == self.next_id, message
        return message

    def close(self) -> tuple[bytes, bytes]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        rest = self.proc.stdout.read()
        self.stdout += rest
        stderr = self.proc.stderr.read() if self.proc.stderr else b""
        code = self.proc.wait(timeout=60)
        assert code == 0, (code, stderr.decode(errors="replace"))
        return self.stdout, stderr


def attributes(item: Span | HistogramDataPoint) -> dict[str, object]:
    return values(item.attributes)


def values(kvs: list[KeyValue]) -> dict[str, object]:
    out: dict[str, object] = {}
    for kv in kvs:
        which = kv.value.WhichOneof("value")
        out[kv.key] = getattr(kv.value, which) if which else None
    return out


def spans_of(service: str) -> list[Span]:
    found = []
    with lock:
        for request in requests:
            for rs in request.resource_spans:
                names = [kv.value.string_value for kv in rs.resource.attributes if kv.key == "service.name"]
                if names != [service]:
                    continue
                for ss in rs.scope_spans:
                    found.extend(ss.spans)
    return found


def check_spans(service: str, tools: list[str], trace_file: str) -> list[Span]:
    spans = spans_of(service)
    names = sorted(s.name for s in spans)
    assert names == sorted(f"tools/call {t}" for t in tools), (service, names)
    for span in spans:
        attrs = attributes(span)
        missing = [a for a in MCP_ATTRIBUTES if a not in attrs]
        assert not missing, (span.name, missing, attrs)
        assert span.kind == Span.SPAN_KIND_SERVER, span
        assert attrs["mcp.method.name"] == "tools/call", attrs
        assert attrs["gen_ai.operation.name"] == "execute_tool", attrs
        assert f"tools/call {attrs['gen_ai.tool.name']}" == span.name, attrs
        assert attrs["mcp.protocol.version"] == "2025-11-25", attrs
    with open(trace_file, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    assert sorted(line["gen_ai.tool.name"] for line in lines) == sorted(tools), lines
    return spans


def duration_points(service: str) -> list[HistogramDataPoint]:
    """The data points of the service's last export of the duration histogram (cumulative:
    the last export holds every call), after checking the metric's name, unit and bounds."""
    found = []
    with lock:
        for request in metric_exports:
            for rm in request.resource_metrics:
                if values(rm.resource.attributes).get("service.name") != service:
                    continue
                for sm in rm.scope_metrics:
                    found.extend(m for m in sm.metrics if m.name == DURATION)
    assert found, (service, "no", DURATION)
    metric = found[-1]
    assert metric.unit == "s", metric
    assert metric.WhichOneof("data") == "histogram", metric
    h = metric.histogram
    assert h.aggregation_temporality == AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE, h
    for point in h.data_points:
        assert list(point.explicit_bounds) == BOUNDARIES, point
        assert sum(point.bucket_counts) == point.count and point.sum > 0, point
    return list(h.data_points)


def check_durations(service: str, expected: dict[tuple[str | None, str | None], int]) -> None:
    """One histogram point per (tool, error.type), counting that many calls, with the
    convention's attributes and nothing else."""
    got: dict[tuple[object, object], int] = {}
    for point in duration_points(service):
        attrs = attributes(point)
        assert set(attrs) <= METRIC_ATTRIBUTES, (service, sorted(set(attrs) - METRIC_ATTRIBUTES))
        assert attrs["mcp.method.name"] == "tools/call", attrs
        assert attrs["gen_ai.operation.name"] == "execute_tool", attrs
        assert attrs["mcp.protocol.version"] == "2025-11-25", attrs
        assert attrs["network.transport"] == "pipe", attrs
        key = (attrs.get("gen_ai.tool.name"), attrs.get("error.type"))
        assert key not in got, (service, key)
        got[key] = point.count
    assert got == expected, (service, got, expected)


def grep(what: str, blobs: dict[str, bytes], needles: list[str]) -> None:
    for name, blob in blobs.items():
        for needle in needles:
            assert needle.encode() not in blob, f"{what}: {name} holds the sensitive value {needle!r}"


def run_example(example: str, endpoint: str, tmp: str) -> None:
    trace_file = os.path.join(tmp, "example.jsonl")
    env = dict(os.environ, OTEL_EXPORTER_OTLP_ENDPOINT=endpoint, CATALOGC_TRACE_FILE=trace_file)
    client = Client([example, "--store", "memory"], env)
    got = client.call("invoice_get", {"invoice_reference": "INV-1"}, meta={"traceparent": TRACEPARENT, "tracestate": "vendor=1"})
    names = [got["result"]["structuredContent"]["invoice"]["customer_display_name"]]
    client.call("invoice_list", {"status": "closed"})
    client.call("invoice_send_reminder", {"invoice_reference": "INV-1", "note": "please pay", "idempotency_key": "k-0123456789abcdef"})
    stdout, stderr = client.close()
    spans = check_spans("billing_server", ["invoice_get", "invoice_list", "invoice_send_reminder"], trace_file)
    check_durations("billing_server", {("invoice_get", None): 1, ("invoice_list", "tool_error"): 1,
                                       ("invoice_send_reminder", None): 1})
    traced = [s for s in spans if s.name == "tools/call invoice_get"]
    assert traced[0].trace_id.hex() == TRACE_ID, traced[0]
    assert traced[0].parent_span_id.hex() == PARENT_ID, traced[0]
    others = [s for s in spans if s.name != "tools/call invoice_get"]
    assert all(s.trace_id.hex() != TRACE_ID and not s.parent_span_id for s in others), others
    # The sensitive output field reaches the client (stdout) and nothing else.
    assert names[0].encode() in stdout
    with open(trace_file, "rb") as f:
        grep("example server", {"stderr": stderr, "trace file": f.read(), "OTLP": b"".join(bodies)}, names)


def run_mock(catalogc: str, endpoint: str, tmp: str) -> None:
    trace_file = os.path.join(tmp, "mock.jsonl")
    env = dict(os.environ, OTEL_EXPORTER_OTLP_ENDPOINT=endpoint)
    client = Client([catalogc, "serve", "--mock", "tests/python/traced.kdl", "--trace", trace_file], env)
    valid = {"label": "ci-token", "secret": SECRET, "idempotency_key": "k-0123456789abcdef"}
    client.call("secret_store", valid)
    client.call("secret_store", valid)
    client.call("secret_store", {"label": "Bad!", "secret": SHORT_SECRET, "idempotency_key": "k-fedcba9876543210"})
    client.call("secret_store", {"label": "other", "secret": SECRET, "idempotency_key": "k-aaaaaaaaaaaaaaaa"}, answer="decline")
    unknown = client.call("no_such_tool", {"secret": SECRET})
    assert unknown["error"]["code"] == -32602, unknown
    stdout, stderr = client.close()
    check_spans("catalogc-serve-mock", ["secret_store"] * 4 + ["no_such_tool"], trace_file)
    # The replay is a success; the invalid and declined calls are tool errors; the unknown
    # tool is a protocol error, counted without its made-up name.
    check_durations("catalogc-serve-mock", {("secret_store", None): 2, ("secret_store", "tool_error"): 2,
                                            (None, "-32602"): 1})
    with lock:
        exported = b"".join(r.SerializeToString() for r in metric_exports)
    assert b"no_such_tool" not in exported, "a tool name the client made up is a metric attribute"
    with open(trace_file, "rb") as f:
        blobs = {"stdout": stdout, "stderr": stderr, "trace file": f.read(), "OTLP": b"".join(bodies)}
    grep("serve --mock", blobs, [SECRET, SHORT_SECRET])


def main() -> int:
    catalogc, example = sys.argv[1], sys.argv[2]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{server.server_address[1]}"
    with tempfile.TemporaryDirectory() as tmp:
        run_example(example, endpoint, tmp)
        run_mock(catalogc, endpoint, tmp)
    server.shutdown()
    count = sum(len(ss.spans) for r in requests for rs in r.resource_spans for ss in rs.scope_spans)
    print(f"otlp: {len(requests)} trace exports, {count} spans, {len(metric_exports)} metric exports "
          f"received and checked; no sensitive value written")
    print("2 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
