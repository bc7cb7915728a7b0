"""The official Python MCP SDK against catalogc's MCP servers, over stdio, in both protocol eras.

Usage: mcp_sdk.py CATALOGC EXAMPLE_SERVER  (run by .ci/mcp-python from the repository root)

Targets: the example server (examples/billing_server.rs, the billing catalog over in-memory
data) and `catalogc serve --mock catalogs/ --fail invoice_get=INVOICE_NOT_FOUND`. Eras:
`ClientSession.initialize` (2025-11-25) and `Client` in auto mode (server/discover, 2026-07-28).
For each target and era: tools/list equals `catalogc export tools-json` (names, schemas,
annotations, order); a valid call returns structured content the SDK itself validates against
the outputSchema; bad arguments are an isError INVALID_ARGUMENTS result naming every violation;
a failing handler returns its declared error (isError results carry the error object as their
JSON text block, no structuredContent); an unknown tool raises MCPError
-32602; the needs-input tool asks for input (2026: an InputRequiredResult; 2025: an
elicitation within the call) and completes once answered; a client that declared no
elicitation gets MCPError -32021 (2026) or the INPUT_REQUIRED tool error (2025).

What the runtime enforces (docs/runtime.md), per target and era: a declined approval is the
final APPROVAL_DECLINED; a forged first call (answers without a state) is refused on 2026 and
its answers are ignored on 2025; a replay of the state with changed arguments, a tampered
state and (on a second server whose approvals expire after 200 ms) an expired one are
refused, and the handler never runs. Faults (both eras): a panicking handler (the example
with BILLING_SERVER_FAULTS=1) is an INTERNAL_ERROR result and the next call succeeds; a slow
tool (the example's hanging invoice, and the mock's `--delay`) is a TOOL_TIMEOUT within
timeout-ms + 100 ms; an oversized result (the mock of tests/python/limits.kdl) is refused.
The tool with an idempotency key runs once per key: a repeated call returns the first result (on
the example server, invoice_get's reminder_count shows the handler ran once), and the key sent
with other arguments is the IDEMPOTENCY_KEY_REUSED tool error, retry never, the handler not run.
The example keeps its keys in memory here (`--store memory`): each server process starts afresh.
The example's invoice_list reports its progress (notifications/progress) to a call made with a
progress callback, in both eras.
"""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
import traceback
from collections.abc import Awaitable, Callable
from typing import Any

import os
import time

import anyio
import mcp.types as types
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

REMINDER = {"invoice_reference": "INV-1", "idempotency_key": "k-0123456789abcdef"}
BAD_LIST = {"status": "closed", "page_size": 0, "colour": "red"}
BAD_PATHS = ["/status", "/page_size", "/colour"]
NOT_FOUND = {
    "code": "INVOICE_NOT_FOUND",
    "class": "not-found",
    "retryable": False,
    "retry": "never",
    "next_step": "Check the invoice number with the user, or find it with invoice_list.",
    "message": "no invoice with this number is visible to you",
}

results: list[tuple[str, bool]] = []


def check(name: str, ok: bool, detail: Any = "") -> None:
    results.append((name, ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


def exported(catalogc: str, path: str) -> list[dict[str, Any]]:
    out = subprocess.run([catalogc, "export", "tools-json", path], check=True, capture_output=True)
    return json.loads(out.stdout)["tools"]


class Asked:
    """An elicitation callback that accepts and records what it was asked."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.messages.append(params.message)
        return types.ElicitResult(action="accept", content={})


class Declines:
    """An elicitation callback that declines and counts how often it was asked."""

    def __init__(self) -> None:
        self.asked = 0

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked += 1
        return types.ElicitResult(action="decline")


ACCEPT = {"approval": {"action": "accept", "content": {}}}
OTHER_KEY = {**REMINDER, "idempotency_key": "k-fedcba9876543210"}


def code(r: Any) -> Any:
    return tool_error(r).get("code") if isinstance(r, types.CallToolResult) else r


async def common(label: str, list_tools: Callable[[], Awaitable[Any]],
                 call: Callable[[str, dict[str, Any]], Awaitable[types.CallToolResult]],
                 expected: list[dict[str, Any]]) -> None:
    listed = await list_tools()
    got = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools]
    check(f"{label}: tools/list equals export tools-json", got == expected,
          [g.get("name") for g in got])

    # The SDK validates structuredContent against the listed outputSchema, or raises.
    ok = await call("invoice_list", {"status": "overdue"})
    items = (ok.structured_content or {}).get("items")
    check(f"{label}: valid call, structured content validated by the SDK",
          not ok.is_error and isinstance(items, list), ok)

    bad = await call("invoice_list", BAD_LIST)
    sc = tool_error(bad)
    paths = [v.get("path") for v in sc.get("violations", [])]
    check(f"{label}: bad arguments are INVALID_ARGUMENTS with every violation",
          sc.get("code") == "INVALID_ARGUMENTS" and paths == BAD_PATHS, bad)

    failed = await call("invoice_get", {"invoice_reference": "INV-999"})
    check(f"{label}: a failing handler returns its declared error",
          tool_error(failed) == NOT_FOUND, failed)

    try:
        r = await call("invoice_delete", {})
        check(f"{label}: unknown tool is MCPError -32602", False, r)
    except MCPError as e:
        check(f"{label}: unknown tool is MCPError -32602", e.code == -32602, e)


def tool_error(r: types.CallToolResult) -> dict[str, Any]:
    """The error object of an isError result: its JSON text block. An error result carries no
    structuredContent, which MCP reserves for output conforming to the outputSchema."""
    if not r.is_error or r.structured_content is not None or not r.content:
        return {}
    block = r.content[0]
    return json.loads(block.text) if isinstance(block, types.TextContent) else {}


def completed(r: Any) -> bool:
    sc = getattr(r, "structured_content", None) or {}
    return (isinstance(r, types.CallToolResult) and not r.is_error
            and re.fullmatch(r"REM-[0-9]+", sc.get("reminder_reference", "")) is not None)


async def idempotent(label: str, call: Callable[[str, dict[str, Any]], Awaitable[Any]],
                     counted: bool) -> None:
    """A fresh key sent twice with the same arguments, then with other arguments. `counted`:
    the target's invoice_get reports how many reminders its handler really sent."""
    async def sent() -> int | None:
        if not counted:
            return None
        r = await call("invoice_get", {"invoice_reference": "INV-1"})
        return (r.structured_content or {}).get("reminder_count")

    args = {"invoice_reference": "INV-1", "idempotency_key": f"k-{secrets.token_hex(12)}"}
    before = await sent()
    first = await call("invoice_send_reminder", args)
    again = await call("invoice_send_reminder", args)
    after = await sent()
    check(f"{label}: the same key and arguments return the first result",
          completed(first) and isinstance(again, types.CallToolResult)
          and again.structured_content == first.structured_content
          and again.content == first.content, (first, again))
    if counted:
        check(f"{label}: the handler ran once for the key",
              before is not None and after == before + 1, (before, after))
    reused = await call("invoice_send_reminder", {**args, "note": "A second, different reminder."})
    sc = tool_error(reused)
    check(f"{label}: the key with other arguments is IDEMPOTENCY_KEY_REUSED, retry never",
          sc.get("code") == "IDEMPOTENCY_KEY_REUSED" and sc.get("retry") == "never", reused)
    if counted:
        check(f"{label}: a reused key does not run the handler", await sent() == after, after)


async def reports_progress(label: str, call: Callable[..., Awaitable[Any]]) -> None:
    """The example's invoice_list reports one progress step per invoice read to a client that
    sent a progress token (the SDK sends one with a progress callback)."""
    seen: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total, message))

    r = await call("invoice_list", {"status": "overdue"}, progress_callback=on_progress)
    check(f"{label}: progress reaches the client's callback before the result",
          not r.is_error and seen == [(1.0, 1.0, "read INV-1")], (seen, r))


async def legacy(label: str, params: StdioServerParameters, expected: list[dict[str, Any]],
                 expiring: StdioServerParameters) -> None:
    asked = Asked()
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=asked) as session:
            init = await session.initialize()
            check(f"{label}: initialize negotiates 2025-11-25", init.protocol_version == "2025-11-25",
                  init.protocol_version)
            await common(label, session.list_tools, session.call_tool, expected)
            if label.startswith("example"):
                await reports_progress(label, session.call_tool)
            done = await session.call_tool("invoice_send_reminder", REMINDER)
            check(f"{label}: needs-input is elicited within the call, then completes",
                  completed(done) and len(asked.messages) == 1, (asked.messages, done))
            check(f"{label}: the prompt names tool, target and idempotency key",
                  all(part in asked.messages[0] for part in
                      ("Tool: invoice_send_reminder", 'Target: invoice_reference = "INV-1"',
                       'Idempotency key: idempotency_key = "k-0123456789abcdef"')),
                  asked.messages)
            await idempotent(label, session.call_tool, label.startswith("example"))
    declines = Declines()
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, elicitation_callback=declines) as session:
            await session.initialize()
            r = await session.call_tool("invoice_send_reminder", REMINDER)
            sc = tool_error(r)
            check(f"{label}: a declined elicitation is the final APPROVAL_DECLINED",
                  sc.get("code") == "APPROVAL_DECLINED" and sc.get("retry") == "never"
                  and "do not try another tool" in sc.get("next_step", ""), r)
            # A 2025 client's own answers are ignored: the server asks, the user declines.
            r = await session.call_tool("invoice_send_reminder", REMINDER, input_responses=ACCEPT)
            check(f"{label}: inputResponses of a 2025 client are ignored",
                  code(r) == "APPROVAL_DECLINED" and declines.asked == 2, (declines.asked, r))
    # A client that cannot be asked gets the tool's INPUT_REQUIRED result.
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            r = await session.call_tool("invoice_send_reminder", REMINDER)
            sc = tool_error(r)
            check(f"{label}: without elicitation, needs-input is INPUT_REQUIRED",
                  sc.get("code") == "INPUT_REQUIRED"
                  and sc.get("input_required", {}).get("name") == "approval", sc)


async def modern(label: str, params: StdioServerParameters, expected: list[dict[str, Any]],
                 expiring: StdioServerParameters) -> None:
    asked = Asked()
    async with Client(params, elicitation_callback=asked) as client:
        check(f"{label}: auto mode negotiates 2026-07-28", client.protocol_version == "2026-07-28",
              client.protocol_version)
        await common(label, lambda: client.list_tools(), client.call_tool, expected)
        if label.startswith("example"):
            await reports_progress(label, client.call_tool)
        first = await client.session.call_tool("invoice_send_reminder", REMINDER, allow_input_required=True)
        requests = getattr(first, "input_requests", None) or {}
        check(f"{label}: needs-input is an InputRequiredResult asking for approval",
              isinstance(first, types.InputRequiredResult) and list(requests) == ["approval"], first)
        done = await client.call_tool("invoice_send_reminder", REMINDER)
        check(f"{label}: answered, the call completes",
              completed(done) and len(asked.messages) == 1, (asked.messages, done))
        await idempotent(label, client.call_tool, label.startswith("example"))

        session = client.session
        forged = await session.call_tool("invoice_send_reminder", OTHER_KEY, input_responses=ACCEPT)
        check(f"{label}: a forged first call (answers, no state) is refused",
              code(forged) == "APPROVAL_INVALID", forged)
        first = await session.call_tool("invoice_send_reminder", OTHER_KEY, allow_input_required=True)
        state = getattr(first, "request_state", None) or ""
        check(f"{label}: the input request carries a requestState", len(state) > 32, first)
        changed = await session.call_tool("invoice_send_reminder", {**OTHER_KEY, "note": "now"},
                                          input_responses=ACCEPT, request_state=state)
        check(f"{label}: a replay with changed arguments is refused",
              code(changed) == "APPROVAL_INVALID", changed)
        middle = len(state) // 2
        tampered = state[:middle] + ("A" if state[middle] != "A" else "B") + state[middle + 1:]
        r = await session.call_tool("invoice_send_reminder", OTHER_KEY, input_responses=ACCEPT,
                                    request_state=tampered)
        check(f"{label}: a tampered state is refused", code(r) == "APPROVAL_INVALID", r)
        # None of the refused calls ran: the untouched state still completes, once.
        r = await session.call_tool("invoice_send_reminder", OTHER_KEY, input_responses=ACCEPT,
                                    request_state=state)
        check(f"{label}: the untouched state completes its own call", completed(r), r)
    declines = Declines()
    async with Client(params, elicitation_callback=declines) as client:
        r = await client.call_tool("invoice_send_reminder", REMINDER)
        sc = tool_error(r)
        check(f"{label}: a declined input request is the final APPROVAL_DECLINED",
              sc.get("code") == "APPROVAL_DECLINED" and sc.get("retry") == "never"
              and "do not try another tool" in sc.get("next_step", "") and declines.asked == 1, r)
    async with Client(expiring, elicitation_callback=Asked()) as client:
        first = await client.session.call_tool("invoice_send_reminder", REMINDER,
                                               allow_input_required=True)
        await anyio.sleep(0.5)
        r = await client.session.call_tool("invoice_send_reminder", REMINDER, input_responses=ACCEPT,
                                           request_state=getattr(first, "request_state", None))
        sc = tool_error(r)
        check(f"{label}: an expired approval is refused",
              sc.get("code") == "APPROVAL_EXPIRED" and sc.get("retry") == "after-user-action", r)
    # A client that declared no elicitation cannot be asked: MissingRequiredClientCapability.
    async with Client(params) as client:
        try:
            r = await client.call_tool("invoice_send_reminder", REMINDER)
            check(f"{label}: without elicitation, needs-input is MCPError -32021", False, r)
        except MCPError as e:
            check(f"{label}: without elicitation, needs-input is MCPError -32021", e.code == -32021, e)


async def with_session(era: str, params: StdioServerParameters, body: Callable[[Any], Awaitable[None]]) -> None:
    """Runs `body` with the `call_tool` of one session of era `era` with the server `params`."""
    if era == "2025-11-25":
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await body(session.call_tool)
    else:
        async with Client(params) as client:
            await body(client.call_tool)


async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[Any, float]:
    started = time.monotonic()
    r = await call()
    return r, (time.monotonic() - started) * 1000


async def faults(label: str, era: str, example: StdioServerParameters, slow_mock: StdioServerParameters,
                 limits_mock: StdioServerParameters) -> None:
    """A panic, a timeout and an oversized result, each followed by a call that succeeds."""

    async def each(params: StdioServerParameters, body: Callable[[Any], Awaitable[None]]) -> None:
        await with_session(era, params, body)

    async def example_faults(call: Any) -> None:
        r = await call("invoice_get", {"invoice_reference": "INV-500"})
        sc = tool_error(r)
        check(f"{label}: a panicking handler is an INTERNAL_ERROR result",
              sc.get("code") == "INTERNAL_ERROR" and "injected" not in str(r), r)
        r = await call("invoice_list", {"status": "overdue"})
        check(f"{label}: after a panic the next call succeeds", not r.is_error, r)
        r, ms = await timed(lambda: call("invoice_get", {"invoice_reference": "INV-504"}))
        check(f"{label}: a hanging handler is TOOL_TIMEOUT within timeout-ms + 100 ms",
              code(r) == "TOOL_TIMEOUT" and 3000 <= ms < 3100, (ms, r))
        r = await call("invoice_list", {"status": "overdue"})
        check(f"{label}: after a timeout the next call succeeds", not r.is_error, r)

    async def slow(call: Any) -> None:
        r, ms = await timed(lambda: call("invoice_get", {"invoice_reference": "INV-1"}))
        sc = tool_error(r)
        check(f"{label}: mock --delay past timeout-ms is TOOL_TIMEOUT within timeout-ms + 100 ms",
              sc.get("code") == "TOOL_TIMEOUT" and sc.get("retry") == "backoff" and 3000 <= ms < 3100,
              (ms, r))

    async def oversized(call: Any) -> None:
        r = await call("digest_page", {})
        check(f"{label}: a result over max-result-bytes is refused",
              code(r) == "RESULT_TOO_LARGE" and "lorem" not in str(r), r)
        r = await call("digest_line", {})
        check(f"{label}: a result within max-result-bytes is sent", not r.is_error, r)

    await each(example, example_faults)
    await each(slow_mock, slow)
    await each(limits_mock, oversized)


async def main(catalogc: str, example: str) -> None:
    env = dict(os.environ)
    mock = ["serve", "--mock", "catalogs/", "--fail", "invoice_get=INVOICE_NOT_FOUND"]
    targets = [
        ("example", StdioServerParameters(command=example, args=["--store", "memory"]), exported(catalogc, "catalogs/billing.kdl"),
         StdioServerParameters(command=example, args=["--store", "memory"], env={**env, "BILLING_SERVER_APPROVAL_TTL_MS": "200"})),
        ("mock", StdioServerParameters(command=catalogc, args=mock), exported(catalogc, "catalogs/"),
         StdioServerParameters(command=catalogc, args=[*mock, "--approval-ttl-ms", "200"])),
    ]
    for name, params, expected, expiring in targets:
        for era, run in (("2025-11-25", legacy), ("2026-07-28", modern)):
            label = f"{name} {era}"
            try:
                with anyio.fail_after(60):
                    await run(label, params, expected, expiring)
            except Exception:  # one broken target must not hide the others' results
                check(f"{label}: ran to the end", False, traceback.format_exc())
    faulty = StdioServerParameters(command=example, args=["--store", "memory"], env={**env, "BILLING_SERVER_FAULTS": "1"})
    slow_mock = StdioServerParameters(command=catalogc, args=["serve", "--mock", "catalogs/",
                                                              "--delay", "invoice_get=10000"])
    limits_mock = StdioServerParameters(command=catalogc, args=["serve", "--mock", "tests/python/limits.kdl"])
    for era in ("2025-11-25", "2026-07-28"):
        label = f"faults {era}"
        try:
            with anyio.fail_after(60):
                await faults(label, era, faulty, slow_mock, limits_mock)
        except Exception:
            check(f"{label}: ran to the end", False, traceback.format_exc())


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2])
    failed = sum(1 for _, ok in results if not ok)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed or not results else 0)
