"""Two example servers (examples/billing_server.rs) on one PostgreSQL idempotency store, spoken
to by the official Python MCP SDK over Streamable HTTP.

Usage: postgres_replicas.py EXAMPLE_SERVER POSTGRES_CONFIG  (run by .ci/postgres)

The same idempotency key sent to both servers at once, then again to each, runs the reminder
handler once in all: each server's invoice_get reports how many reminders its own handler
sent, and the counts add up to one. Every call gets the first call's result. The same key
from another tenant is that tenant's own call, never the first tenant's result.
"""

from __future__ import annotations

import re
import secrets
import subprocess
import sys
import traceback
from contextlib import AsyncExitStack
from typing import Any

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

results: list[tuple[str, bool]] = []


def check(name: str, ok: bool, detail: Any = "") -> None:
    results.append((name, ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), flush=True)


async def accept(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
    return types.ElicitResult(action="accept", content={})


def start(example: str, store: str) -> tuple[subprocess.Popen[str], str]:
    """A server on a free loopback port, and its URL (the line it prints when listening)."""
    proc = subprocess.Popen([example, "--http", "127.0.0.1:0", "--store", f"postgres:{store}"],
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    line = proc.stderr.readline()
    found = re.search(r"listening on (http://\S+)", line)
    if not found:
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return proc, found.group(1)


async def session(stack: AsyncExitStack, url: str, tenant: str) -> ClientSession:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {tenant}"})
    await stack.enter_async_context(http)
    read, write = await stack.enter_async_context(streamable_http_client(url, http_client=http))
    s = await stack.enter_async_context(ClientSession(read, write, elicitation_callback=accept))
    await s.initialize()
    return s


async def sent(s: ClientSession) -> int:
    r = await s.call_tool("invoice_get", {"invoice_reference": "INV-1"})
    return int((r.structured_content or {}).get("reminder_count", -1))


async def main(example: str, store: str) -> None:
    servers = [start(example, store), start(example, store)]
    try:
        with anyio.fail_after(120):
            await replicas([url for _, url in servers])
    finally:
        for proc, _ in servers:
            proc.terminate()
            proc.wait(timeout=10)


async def replicas(urls: list[str]) -> None:
    async with AsyncExitStack() as stack:
        a = await session(stack, urls[0], "acme")
        b = await session(stack, urls[1], "acme")
        args = {"invoice_reference": "INV-1", "idempotency_key": f"k-{secrets.token_hex(12)}"}
        answers: dict[str, types.CallToolResult] = {}

        async def send(name: str, s: ClientSession) -> None:
            answers[name] = await s.call_tool("invoice_send_reminder", args)

        async with anyio.create_task_group() as tg:
            tg.start_soon(send, "a", a)
            tg.start_soon(send, "b", b)
        await send("a again", a)
        await send("b again", b)
        first = answers["a"]
        check("the key's first call completes",
              not first.is_error and "reminder_reference" in (first.structured_content or {}),
              first)
        same = all(r.structured_content == first.structured_content and not r.is_error
                   for r in answers.values())
        check("every call with the key, on either server, gets the first result", same, answers)
        counts = [await sent(a), await sent(b)]
        check("the handler ran once across both servers", sum(counts) == 1, counts)

        other = await session(stack, urls[1], "other")
        theirs = await other.call_tool("invoice_send_reminder",
                                       {**args, "invoice_reference": "INV-3"})
        after = [await sent(a), await sent(b)]
        check("the same key from another tenant is that tenant's own call",
              not theirs.is_error and sum(after) == 2, (theirs, after))


if __name__ == "__main__":
    try:
        anyio.run(main, sys.argv[1], sys.argv[2])
    except Exception:
        check("ran to the end", False, traceback.format_exc())
    failed = sum(1 for _, ok in results if not ok)
    print(f"{len(results) - failed} passed, {failed} failed")
    sys.exit(1 if failed or not results else 0)
