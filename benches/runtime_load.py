"""10,000 mixed `tools/call`s over Streamable HTTP against the example server with injected
faults: 5% panic (`invoice_get` of INV-500), 5% hang until the runtime cancels them at the
tool's `timeout-ms` (INV-504, 3000 ms), the rest succeed (`invoice_list`, `invoice_get`).
Every request must be answered with the result its kind expects; the server's resident
memory is sampled after every 1,000 calls and must stay flat (the last sample within 10% +
4 MiB of the first, after a warm-up of 1,000 calls).

Usage: python benches/runtime_load.py target/debug/examples/billing_server [CALLS] [CONCURRENCY]
(the Python of .ci/venv: it needs httpx2, which the `mcp` SDK brings). Stateless 2026-07-28
requests, each on its own; prints the figures, exits 1 when a request went unanswered or
got the wrong result, or when memory grew.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx

MODERN = "2026-07-28"


def rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
    return int(match.group(1)) if match else 0


def plan(calls: int) -> list[tuple[str, dict, str]]:
    """(tool, arguments, expected outcome) per call, in a fixed shuffled order."""
    kinds = []
    for i in range(calls):
        slot = i % 20
        if slot == 0:
            kinds.append(("invoice_get", {"invoice_reference": "INV-500"}, "INTERNAL_ERROR"))
        elif slot == 1:
            kinds.append(("invoice_get", {"invoice_reference": "INV-504"}, "TOOL_TIMEOUT"))
        elif slot % 2 == 0:
            kinds.append(("invoice_list", {"status": "overdue"}, "ok"))
        else:
            kinds.append(("invoice_get", {"invoice_reference": "INV-1"}, "ok"))
    random.Random(35).shuffle(kinds)
    return kinds


def outcome(body: dict) -> str:
    result = body.get("result")
    if not isinstance(result, dict):
        return f"protocol error {body.get('error')}"
    if not result.get("isError"):
        return "ok"
    try:
        return json.loads(result["content"][0]["text"]).get("code", "?")
    except (KeyError, IndexError, ValueError):
        return "?"


async def call(client: httpx.AsyncClient, url: str, i: int, tool: str, args: dict) -> str:
    body = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
        "name": tool, "arguments": args, "_meta": {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientInfo": {"name": "load", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }}}
    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": MODERN,
               "Mcp-Method": "tools/call", "Mcp-Name": tool}
    if "invoice_reference" in args:
        headers["Mcp-Param-Invoice-Reference"] = args["invoice_reference"]
    r = await client.post(url, json=body, headers=headers)
    for line in r.text.splitlines():
        line = line.removeprefix("data:").strip()
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict) and msg.get("id") == i:
            return outcome(msg)
    return f"unanswered (HTTP {r.status_code})"


async def main(server: str, calls: int, concurrency: int) -> int:
    proc = subprocess.Popen([server, "--http", "127.0.0.1:0"], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, env={"BILLING_SERVER_FAULTS": "1"})
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline().decode()
        url = first.strip().removeprefix("listening on ")
        # The server's operator log goes on; read it so its pipe never fills.
        asyncio.get_running_loop().run_in_executor(None, proc.stderr.read)
        work = plan(calls)
        got: dict[str, int] = {}
        wrong: list[tuple[int, str, str]] = []
        samples: list[tuple[int, int]] = []
        done = 0
        queue: asyncio.Queue[int] = asyncio.Queue()
        for i in range(calls):
            queue.put_nowait(i)
        latencies: dict[str, list[float]] = {}

        async def worker(client: httpx.AsyncClient) -> None:
            nonlocal done
            while not queue.empty():
                i = queue.get_nowait()
                tool, args, expected = work[i]
                started = time.monotonic()
                try:
                    result = await call(client, url, i, tool, args)
                except httpx.HTTPError as e:
                    result = f"unanswered ({type(e).__name__})"
                latencies.setdefault(expected, []).append(time.monotonic() - started)
                got[result] = got.get(result, 0) + 1
                if result != expected:
                    wrong.append((i, expected, result))
                done += 1
                if done % 1000 == 0:
                    samples.append((done, rss_kib(proc.pid)))

        started = time.monotonic()
        limits = httpx.Limits(max_connections=concurrency)
        async with httpx.AsyncClient(timeout=30, limits=limits) as client:
            await asyncio.gather(*(worker(client) for _ in range(concurrency)))
        elapsed = time.monotonic() - started
    finally:
        proc.terminate()
        proc.wait()

    print(f"{calls} calls, concurrency {concurrency}, {elapsed:.1f} s")
    for kind, n in sorted(got.items()):
        print(f"  {kind}: {n}")
    for kind, ls in sorted(latencies.items()):
        ls.sort()
        print(f"  {kind} latency: median {ls[len(ls) // 2] * 1000:.0f} ms, "
              f"max {ls[-1] * 1000:.0f} ms")
    print("  RSS (KiB) after N calls: " + ", ".join(f"{n}: {kib}" for n, kib in samples))
    failed = False
    if wrong:
        print(f"FAIL: {len(wrong)} calls without their expected result, e.g. {wrong[:5]}")
        failed = True
    if len(samples) >= 2:
        base, last = samples[0][1], samples[-1][1]
        if last > base * 1.1 + 4096:
            print(f"FAIL: memory grew from {base} to {last} KiB")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        sys.exit(2)
    n = int(args[1]) if len(args) > 1 else 10_000
    c = int(args[2]) if len(args) > 2 else 100
    sys.exit(asyncio.run(main(args[0], n, c)))
