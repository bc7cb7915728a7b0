#!/usr/bin/env python3
"""A minimal MCP server over stdio (standard library only) for the `catalogc drift` tests:
it serves the tools of a `tools/list` JSON file, two per page, and answers `ping`. It
stands in for a deployed server; `catalogc serve --mock` on an edited catalog is the other.

Usage: fake_mcp_server.py TOOLS_JSON  (the output of `catalogc export tools-json`)
"""
import json
import sys

PAGE = 2


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        tools = json.load(f)["tools"]
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        if "id" not in msg:
            continue  # a notification
        method = msg.get("method")
        params = msg.get("params") or {}
        if method == "initialize":
            result = {
                "protocolVersion": params.get("protocolVersion", "2025-11-25"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "fake", "version": "0.0.0"},
            }
        elif method == "tools/list":
            start = int(params.get("cursor") or 0)
            result = {"tools": tools[start : start + PAGE]}
            if start + PAGE < len(tools):
                result["nextCursor"] = str(start + PAGE)
        elif method == "ping":
            result = {}
        else:
            reply = {"jsonrpc": "2.0", "id": msg["id"],
                     "error": {"code": -32601, "message": f"no method {method}"}}
            print(json.dumps(reply), flush=True)
            continue
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)


if __name__ == "__main__":
    main()
