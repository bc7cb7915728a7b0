"""Session budgets and the resource policy through the official Python MCP SDK, in both protocol eras.

Usage: guard_sdk.py CATALOGC  (run by .ci/mcp-python from the repository root)

Target: `catalogc serve --mock tests/python/guard.kdl --trace FILE` over stdio, with a
`guard { … }` written per case into its own catalogc.kdl (`--config`). The trace file has
one line per call, written before its answer; a call whose handler ran has the handler's
start and end (`catalogc.handler.start_us`, `catalogc.handler.end_us`), so each check counts
what reached a tool and when it ran, on the server's side. Per era (ClientSession at
2025-11-25, Client in auto mode at 2026-07-28):
- max-calls 3: the fourth call is BUDGET_EXCEEDED naming max-calls and 3, retry never; the
  handler ran 3 times;
- max-same-failure 2: a third identical failing call is refused and does not run; other
  arguments still run;
- max-concurrent 2: of three overlapping calls one is refused at once; the handler ran twice;
- max-session-ms 400: a call after 500 ms is refused and does not run;
- resource: two overlapping renames of one note run one after the other (no overlap of their
  handler intervals); renames of two notes overlap;
- out-of-order completion: a slow call sent first finishes after a fast one sent second, and
  each result is its own tool's (rmcp matches them by request id).

Over Streamable HTTP (`serve --mock … --http 127.0.0.1:0`, max-calls 3, one server per era):
- 2025-11-25: an HTTP session (every call carries its `Mcp-Session-Id`) is refused its fourth
  call, BUDGET_EXCEEDED naming max-calls and 3, the handler count staying at 3; a second
  session of the same caller runs its calls;
- 2026-07-28: requests carry no session id, so the budget is the caller's (its
  `Authorization`): the fourth call is refused and does not run, a new connection of the same
  caller is still refused, and another caller's calls run.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_sdk import check, results, tool_error, with_session

CATALOG = "tests/python/guard.kdl"
def traced(trace: Path) -> list[dict[str, Any]]:
    """Every trace line, in the order the calls ended."""
    if not trace.exists():
        return []
    return [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]


def runs(trace: Path) -> list[dict[str, Any]]:
    """The trace lines of the calls whose handler ran, in the order they ended."""
    return [line for line in traced(trace) if "catalogc.handler.start_us" in line]


class Target:
    """One mock process per case: its guard, its trace file, its delays and failures."""

    def __init__(self, catalogc: str, tmp: Path, case: str, guard: str, extra: list[str]) -> None:
        self.config = tmp / f"{case}.catalogc.kdl"
        self.config.write_text(f"guard {{ {guard} }}\n")
        self.trace = tmp / f"{case}.jsonl"
        self.params = StdioServerParameters(command=catalogc, args=[
            "serve", "--mock", CATALOG, "--config", str(self.config), "--trace", str(self.trace), *extra])


def refused(r: Any, budget: str, limit: int) -> bool:
    e = tool_error(r)
    return (e.get("code") == "BUDGET_EXCEEDED" and e.get("budget") == budget and e.get("limit") == limit
            and e.get("retry") == "never" and e.get("retryable") is False)


async def budgets(label: str, era: str, catalogc: str, tmp: Path) -> None:
    one = {"note_reference": "NOTE-1"}

    t = Target(catalogc, tmp, f"{era}-calls", "max-calls 3", [])

    async def calls(call: Any) -> None:
        for _ in range(3):
            await call("note_get", one)
        r = await call("note_get", one)
        ran = len(runs(t.trace))
        check(f"{label}: the call past max-calls is BUDGET_EXCEEDED and does not run",
              refused(r, "max-calls", 3) and ran == 3, (ran, r))
        r = await call("note_history", one)
        check(f"{label}: past max-calls every tool is refused", refused(r, "max-calls", 3) and len(runs(t.trace)) == 3, r)
        last = traced(t.trace)[-1]
        check(f"{label}: the trace line records the guard's decision, its budget and limit",
              (last.get("catalogc.budget"), last.get("catalogc.budget.name"), last.get("catalogc.budget.limit"))
              == ("exceeded", "max-calls", 3), last)

    await with_session(era, t.params, calls)

    t2 = Target(catalogc, tmp, f"{era}-same", "max-same-failure 2", ["--fail", "note_get=NOTE_NOT_FOUND"])

    async def same(call: Any) -> None:
        for _ in range(2):
            r = await call("note_get", one)
            assert tool_error(r).get("code") == "NOTE_NOT_FOUND", r
        r = await call("note_get", one)
        ran = len(runs(t2.trace))
        check(f"{label}: a third identical failing call is BUDGET_EXCEEDED and does not run",
              refused(r, "max-same-failure", 2) and ran == 2, (ran, r))
        r = await call("note_get", {"note_reference": "NOTE-2"})
        check(f"{label}: the same tool with other arguments still runs",
              tool_error(r).get("code") == "NOTE_NOT_FOUND" and len(runs(t2.trace)) == 3, r)

    await with_session(era, t2.params, same)

    t3 = Target(catalogc, tmp, f"{era}-concurrent", "max-concurrent 2", ["--delay", "note_history=400"])

    async def concurrent(call: Any) -> None:
        got: list[Any] = []

        async def one_call() -> None:
            got.append(await call("note_history", one))

        async with anyio.create_task_group() as tg:
            for _ in range(3):
                tg.start_soon(one_call)
        over = [r for r in got if refused(r, "max-concurrent", 2)]
        ok = [r for r in got if not r.is_error]
        ran = len(runs(t3.trace))
        check(f"{label}: of three calls in flight under max-concurrent 2 one is refused and does not run",
              len(over) == 1 and len(ok) == 2 and ran == 2, (ran, got))
        r = await call("note_history", one)
        check(f"{label}: once the calls in flight finish, the next call runs", not r.is_error, r)

    await with_session(era, t3.params, concurrent)

    t4 = Target(catalogc, tmp, f"{era}-time", "max-session-ms 400", [])

    async def timed(call: Any) -> None:
        r = await call("note_get", one)
        first = not r.is_error
        await anyio.sleep(0.5)
        r = await call("note_get", one)
        ran = len(runs(t4.trace))
        check(f"{label}: a call after max-session-ms is BUDGET_EXCEEDED and does not run",
              first and refused(r, "max-session-ms", 400) and ran == 1, (ran, r))

    await with_session(era, t4.params, timed)


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    start, end = "catalogc.handler.start_us", "catalogc.handler.end_us"
    return a[start] < b[end] and b[start] < a[end]


async def resources(label: str, era: str, catalogc: str, tmp: Path) -> None:
    t = Target(catalogc, tmp, f"{era}-resource", "max-concurrent 8",
               ["--delay", "note_rename=300", "--delay", "note_history=400", "--delay", "note_get=50"])

    async def body(call: Any) -> None:
        async def pair(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
            before = len(runs(t.trace))
            async with anyio.create_task_group() as tg:
                tg.start_soon(call, "note_rename", a)
                tg.start_soon(call, "note_rename", b)
            return runs(t.trace)[before:]

        same = await pair({"note_reference": "NOTE-1", "title": "a"}, {"note_reference": "NOTE-1", "title": "b"})
        check(f"{label}: two writes on one resource run one after the other (handler times)",
              len(same) == 2 and not overlap(same[0], same[1]), same)
        other = await pair({"note_reference": "NOTE-1", "title": "a"}, {"note_reference": "NOTE-2", "title": "b"})
        check(f"{label}: writes on two resources overlap (handler times)",
              len(other) == 2 and overlap(other[0], other[1]), other)

        got: dict[str, Any] = {}

        async def slow() -> None:
            got["history"] = await call("note_history", {"note_reference": "NOTE-1"})

        async def fast() -> None:
            await anyio.sleep(0.05)
            got["get"] = await call("note_get", {"note_reference": "NOTE-1"})

        before = len(runs(t.trace))
        async with anyio.create_task_group() as tg:
            tg.start_soon(slow)
            tg.start_soon(fast)
        done = [r["gen_ai.tool.name"] for r in runs(t.trace)[before:]]
        h, g = got.get("history"), got.get("get")
        matched = (h is not None and g is not None and h.structured_content == {"changes": 7}
                   and g.structured_content == {"title": "from note_get"})
        check(f"{label}: results complete out of order and each reaches its own request",
              done == ["note_get", "note_history"] and matched, (done, got))

    await with_session(era, t.params, body)


class HttpTarget:
    """One mock process on a free loopback port, with max-calls 3 and its trace file."""

    def __init__(self, catalogc: str, tmp: Path, case: str) -> None:
        config = tmp / f"{case}.catalogc.kdl"
        config.write_text("guard { max-calls 3 }\n")
        self.trace = tmp / f"{case}.jsonl"
        self.log = tmp / f"{case}.stderr"
        with self.log.open("w") as err:
            self.proc = subprocess.Popen(
                [catalogc, "serve", "--mock", CATALOG, "--config", str(config), "--trace", str(self.trace),
                 "--http", "127.0.0.1:0"], stdin=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 20
        while not (found := re.search(r"listening on (http://\S+)", self.log.read_text())):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start: {self.log.read_text()!r}")
            time.sleep(0.05)
        self.url = found.group(1)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


class Caller:
    """An HTTP client with its own `Authorization`, noting the session id of each tools/call."""

    def __init__(self, token: str) -> None:
        self.token = token
        self.session_ids: list[str | None] = []

    def http(self) -> Any:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {self.token}"})

        async def note(request: Any) -> None:
            if request.method == "POST" and b'"tools/call"' in request.content:
                self.session_ids.append(request.headers.get("mcp-session-id"))

        http.event_hooks["request"].append(note)
        return http

    async def session(self, era: str, url: str, body: Any) -> None:
        """Runs `body` with the `call_tool` of one connection of era `era`."""
        async with self.http() as http:
            if era == "2025-11-25":
                async with streamable_http_client(url, http_client=http) as (read, write):
                    async with ClientSession(read, write) as session:
                        await session.initialize()
                        await body(session.call_tool)
            else:
                async with Client(streamable_http_client(url, http_client=http)) as client:
                    check(f"guard {era} http: the client speaks {era}", client.protocol_version == era,
                          client.protocol_version)
                    await body(client.call_tool)


async def http_budgets(label: str, era: str, catalogc: str, tmp: Path) -> None:
    """max-calls over Streamable HTTP: per HTTP session (2025-11-25), per caller (2026-07-28)."""
    one = {"note_reference": "NOTE-1"}
    t = HttpTarget(catalogc, tmp, f"{era}-http")
    try:
        first = Caller("alice")

        async def spend(call: Any) -> None:
            for _ in range(3):
                r = await call("note_get", one)
                assert not r.is_error, r
            r = await call("note_get", one)
            ran = len(runs(t.trace))
            check(f"{label}: the call past max-calls is BUDGET_EXCEEDED and does not run",
                  refused(r, "max-calls", 3) and ran == 3, (ran, r))

        await first.session(era, t.url, spend)
        ids = set(first.session_ids)
        if era == "2025-11-25":
            check(f"{label}: every call carried the one HTTP session id",
                  len(first.session_ids) == 4 and len(ids) == 1 and None not in ids, first.session_ids)
        else:
            check(f"{label}: the calls carried no HTTP session id", ids == {None}, first.session_ids)

        def runs_once(what: str) -> Any:
            async def body(call: Any) -> None:
                before = len(runs(t.trace))
                r = await call("note_get", one)
                check(f"{label}: {what} is not affected", not r.is_error and len(runs(t.trace)) == before + 1, r)

            return body

        if era == "2025-11-25":
            second = Caller("alice")
            await second.session(era, t.url, runs_once("a second session of the same caller"))
            check(f"{label}: the second session has its own id",
                  second.session_ids and second.session_ids[0] not in ids, (ids, second.session_ids))
        else:
            async def still_refused(call: Any) -> None:
                r = await call("note_get", one)
                check(f"{label}: a new connection of the same caller is still refused (the caller's budget)",
                      refused(r, "max-calls", 3) and len(runs(t.trace)) == 3, r)

            await Caller("alice").session(era, t.url, still_refused)
            await Caller("bob").session(era, t.url, runs_once("another caller"))
    finally:
        t.stop()


async def main(catalogc: str) -> None:
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for era in ("2025-11-25", "2026-07-28"):
            for part in (budgets, resources, http_budgets):
                label = f"guard {era} {part.__name__}"
                try:
                    with anyio.fail_after(60):
                        await part(label, era, catalogc, tmp)
                except Exception:  # one broken part must not hide the others' results
                    check(f"{label}: ran to the end", False, traceback.format_exc())


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
    failed = sum(1 for _, ok in results if not ok)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed or not results else 0)
