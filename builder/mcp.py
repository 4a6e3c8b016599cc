"""bf mcp: a stdio MCP server (official `mcp` SDK) with the tools search, read and recall (docs/replies.md#mcp).

Each tool is a thin call into query/, the same call the CLI makes, and returns the CLI's JSON
value twice: as text and as structuredContent. Each tool publishes its reply schema
(schemas/*.schema.json, its $defs inlined: schema.inlined) as outputSchema.

Arguments are checked in two steps. The SDK validates them against the input schema first
(pydantic, from the signatures below) and answers with its own message: `limit: 0`, a string
where a number belongs. Integral numbers such as 5.0 count as integers; true/false do not.
Values the engine rejects later answer `invalid input: ARGUMENT: reason`, the CLI's message,
scrubbed like the CLI's stderr (control characters escaped, <brain> and ~ for paths).

The site stays loaded between calls (indexes and files read once); before each call the
server looks at the manifest and reopens the site when a rebuild changed its build_id.
"""
from __future__ import annotations

import gc
import json
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BeforeValidator, Field

from . import __version__, schema
from .scrub import scrub
from .bm25 import postings as _postings
from .kernel.errors import BfError
from .query.site import LiveSite, find_site


def _integral(value):
    """5.0 → 5 (JSON has one number type); booleans are not numbers here."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _count(lo: int, hi: int | None, default: int, doc: str):
    return Annotated[int, Field(default, ge=lo, le=hi, strict=True, description=doc), BeforeValidator(_integral)]


Limit = _count(1, 50, 10, "how many items, 1–50")
Offset = _count(0, None, 0, "byte offset of a later page (a reply's next_offset), or item offset of a listing")
Budget = _count(1, 1_000_000, 16000, "characters the packed memories may take")
Query = Annotated[str, Field(description="prose; a double-quoted span demands those words in that order")]
Scope = Annotated[str | None, Field(None, description="folder, note, memories, memories/SOURCE, identity, "
                                                      "tags/TAG, a period, or SCOPE/PERIOD")]
TypeFilter = Annotated[str | None, Field(None, description="keep items whose type equals this")]
PathFilter = Annotated[str | None, Field(None, description="keep items whose path starts with this")]
Mode = Annotated[Literal["hybrid", "lexical", "semantic"] | None,
                 Field(None, description="arms to rank by; default hybrid on a site built with vectors, else lexical")]
Brains = Annotated[list[str] | None, Field(None, description="select brains of a multi-brain site")]


def _roots(live: LiveSite) -> list[str]:
    """The brain folders of the open site: error text shows them as <brain>."""
    return [b.get("root", "") for b in live.site.brains] if live.site else []


def _result(session: LiveSite, call) -> CallToolResult:
    try:
        reply = call(session.current())
    except BfError as exc:
        return CallToolResult(content=[TextContent(type="text", text=scrub(exc.message, _roots(session)))],
                              is_error=True)
    text = json.dumps(reply, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    # What a call read (index shards, packs, postings) stays for the session's next calls: the
    # collector leaves it alone from now on, where each full or middle collection walked it all
    # again and freed nothing (tens of ms, every few calls).
    gc.freeze()
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=reply)


def tools(session: LiveSite) -> list[Tool]:
    async def search(query: Query, scope: Scope = None, type: TypeFilter = None, path: PathFilter = None,
                     limit: Limit = 10, brain: Brains = None, mode: Mode = None) -> CallToolResult:
        """Search the brain: ranked notes, sections and records with excerpts, and source coverage."""
        from .query.search import search as run
        return _result(session, lambda site: run(site, query, scope=scope, type=type, path=path,
                                                 limit=limit, brains=brain, mode=mode))

    async def read(ref: Annotated[str, Field(description="a ref or bf:// address; '' or 'home' for home")],
                   rel: Annotated[str | None, Field(None, description="list items linking to ref through this relation")] = None,
                   offset: Offset = 0, brain: Brains = None) -> CallToolResult:
        """Read a note, section, record, folder, tag, source, identity, period, relation page or home."""
        from .query.read import read as run
        return _result(session, lambda site: run(site, ref, rel=rel, offset=offset, brains=brain))

    async def recall(query: Query, budget: Budget = 16000, scope: Scope = None, type: TypeFilter = None,
                     path: PathFilter = None, brain: Brains = None, mode: Mode = None) -> CallToolResult:
        """Search, then quote the best matches' bodies within a character budget; the rest as index lines."""
        from .query.recall import recall as run
        return _result(session, lambda site: run(site, query, budget=budget, scope=scope, type=type,
                                                 path=path, brains=brain, mode=mode))

    async def similar(ref: Annotated[str, Field(description="a note, section or record: ref or bf:// address")],
                      limit: Limit = 10, scope: Scope = None, brain: Brains = None) -> CallToolResult:
        """The notes and records nearest an item by meaning (the vector arm), itself excluded."""
        from .query.similar import similar as run
        return _result(session, lambda site: run(site, ref, limit=limit, scope=scope, brains=brain))

    out = []
    for fn, kind in ((search, "search-reply"), (read, "read-reply"), (recall, "recall-reply"),
                     (similar, "search-reply")):
        tool = Tool.from_function(fn, annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
        # The published schema (its $defs inlined) is the contract; the SDK advertises it and
        # leaves the value alone.
        tool.fn_metadata.output_schema = schema.inlined(kind)
        out.append(tool)
    return out


def preload(session: LiveSite) -> None:
    """Read at startup, before the first call, what a session's searches would each read
    afresh, and keep it: each brain's per-doc index chunks, meta chunks, the texts' bytes and
    vectors, and the token table; and import what a search runs (numpy). A session's first
    searches then read only their words' postings (docs/decisions.md#bf-mcp-reads-its-hot-files-at-startup).
    A missing site, brain or readable index is left for the calls to report."""
    from .query.search import open_stores
    from .query.vectorstore import brain_vectors, table
    try:
        site = session.current()
        stores, _ = open_stores(site, None)
    except BfError:
        return
    _postings.load_numpy()
    if all(brain_vectors(site, s).ok() for s in stores.values()):
        table(site).preload()
    for store in stores.values():
        try:
            store.preload()
            brain_vectors(site, store).preload()
        except (OSError, ValueError):   # an older or damaged index: its calls will say so
            continue
    gc.collect()
    gc.freeze()   # kept for the session: no collection walks it again


def server(site: str | None) -> MCPServer:
    session = LiveSite(find_site(site))
    preload(session)
    return MCPServer("bf", version=__version__, tools=tools(session), log_level="WARNING",
                     instructions="Search, read and recall a brain built by `bf build`. Replies follow "
                                  "the JSON Schemas published as each tool's outputSchema.")


def serve(site: str | None) -> int:
    """Run until the client closes stdin. A missing site is no reason not to start: each call
    then answers "index missing … run bf build first"."""
    server(site).run("stdio")
    return 0
