"""The benchmark's MCP round trip (SPEC §11: warm MCP search p50 ≤ 10 ms): `bf mcp --site SITE`
started as an agent starts it, driven by the official SDK's stdio client, each `search` call
timed from the client's request to its parsed result — the server's work, the JSON-RPC framing
and both pipes. One untimed pass warms the server, as for the in-process figure.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def mcp_times(site: Path, queries: list[tuple[str, str | None]], reps: int, warm: bool = True) -> tuple[list[float], int]:
    """(the ms of each timed `search` tool call over MCP, how many queries found nothing).
    `warm` False: a fresh session asks each query once, timed, as an agent does."""
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "builder", "mcp", "--site", str(site)],
                                   env=dict(os.environ))
    times: list[float] = []
    empty: list[int] = [0]

    def arguments(query: str, scope: str | None) -> dict:
        return {"query": query, **({"scope": scope} if scope else {})}

    async def main():
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for query, scope in queries:
                        start = time.perf_counter()
                        result = await session.call_tool("search", arguments(query, scope))
                        if not warm:
                            times.append((time.perf_counter() - start) * 1000)
                        if result.is_error:
                            raise RuntimeError(f"bf mcp search {query!r} failed: {result.content}")
                        empty[0] += not (result.structured_content or {}).get("items")
                    if not warm:
                        return
                    for _ in range(reps):
                        for query, scope in queries:
                            start = time.perf_counter()
                            await session.call_tool("search", arguments(query, scope))
                            times.append((time.perf_counter() - start) * 1000)
    anyio.run(main)
    return times, empty[0]
