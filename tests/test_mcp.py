"""bf mcp (docs/replies.md#mcp), driven by the SDK's own stdio client against a server subprocess."""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from builder import schema

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-12-02T12:00:00Z"


def session_run(site: Path, steps, env: dict | None = None):
    """Start `bf mcp --site SITE`, initialize, run `await steps(session)`, return its result."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "builder", "mcp", "--site", str(site)],
                                   cwd=str(ROOT), env=env)
    out = {}

    async def main():
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    out["value"] = await steps(session)
    anyio.run(main)
    return out["value"]


def text_of(result) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


@pytest.fixture(scope="module")
def calls(example_site):
    """Every call the tests below look at, made in one server session."""
    requests = {
        "list": None,
        "search": ("search", {"query": "website", "scope": "projects"}),
        "search_float": ("search", {"query": "website", "limit": 3.0}),
        "search_memories": ("search", {"query": "launch", "scope": "memories"}),
        "read": ("read", {"ref": "projects/new-website.md"}),
        "read_later": ("read", {"ref": "concepts/style-guide.md", "offset": 1043.0}),
        "read_home": ("read", {"ref": ""}),
        "recall": ("recall", {"query": "pricing page", "budget": 3000}),
        "similar": ("similar", {"ref": "concepts/pricing-tiers.md", "limit": 5, "scope": "projects"}),
        "limit0": ("search", {"query": "website", "limit": 0}),
        "limit_bool": ("search", {"query": "website", "limit": True}),
        "limit_frac": ("search", {"query": "website", "limit": 2.5}),
        "no_query": ("search", {}),
        "budget0": ("recall", {"query": "x", "budget": 0}),
        "bad_period": ("read", {"ref": "2026-13"}),
        "bad_ref": ("read", {"ref": "projects/new-website.md#"}),
        "bad_rel": ("read", {"ref": "projects/new-website.md", "rel": "nope"}),
        "bad_offset": ("read", {"ref": "projects/new-website.md", "offset": 7}),
        "bad_scope": ("search", {"query": "x", "scope": "memories/breif"}),
        "period_scope": ("search", {"query": "x", "scope": "7d/2026-12"}),
        "long_query": ("search", {"query": "x" * 4097}),
        "not_found": ("read", {"ref": "a\u200bb\u202e.md"}),
    }

    async def steps(session):
        got = {"list": await session.list_tools()}
        for name, (tool, args) in ((k, v) for k, v in requests.items() if v):
            got[name] = await session.call_tool(tool, args)
        return got
    return session_run(example_site, steps)


def test_tools_publish_their_reply_schemas(calls):
    tools = {t.name: t for t in calls["list"].tools}
    assert set(tools) == {"search", "read", "recall", "similar"}
    for name, kind in (("search", "search-reply"), ("read", "read-reply"), ("recall", "recall-reply"),
                       ("similar", "search-reply")):
        assert tools[name].output_schema == schema.inlined(kind)   # tests/test_schemas.py: judges alike
    assert tools["search"].input_schema["properties"]["limit"]["maximum"] == 50
    assert tools["read"].input_schema["required"] == ["ref"]


@pytest.mark.parametrize("name,cli", [
    ("search", ("search", "website", "--scope", "projects")),
    ("search_float", ("search", "website", "--limit", "3")),
    ("search_memories", ("search", "launch", "--scope", "memories")),
    ("read", ("read", "projects/new-website.md")),
    ("read_later", ("read", "concepts/style-guide.md", "--offset", "1043")),
    ("read_home", ("read", "")),
    ("recall", ("recall", "pricing page", "--budget", "3000")),
    ("similar", ("similar", "concepts/pricing-tiers.md", "--limit", "5", "--scope", "projects")),
])
def test_text_and_structured_content_equal_the_cli(calls, bf, example_site, name, cli):
    result = calls[name]
    assert result.is_error is False
    code, out, _ = bf(*cli, "--site", example_site)
    assert code == 0
    assert json.loads(text_of(result)) == result.structured_content == json.loads(out)


def test_integral_floats_count_as_integers(calls):
    assert len(calls["search_float"].structured_content["items"]) == 3
    assert calls["read_later"].structured_content["offset"] == 1043


@pytest.mark.parametrize("name,field", [("limit0", "limit"), ("limit_bool", "limit"), ("limit_frac", "limit"),
                                        ("no_query", "query"), ("budget0", "budget")])
def test_arguments_outside_the_input_schema_get_the_sdk_message(calls, name, field):
    result = calls[name]
    text = text_of(result)
    assert result.is_error is True and result.structured_content is None
    assert "validation error" in text and f"\n{field}\n" in text


@pytest.mark.parametrize("name,message", [
    ("bad_period", "invalid input: ref: invalid period: 2026-13"),
    ("bad_ref", "invalid input: ref: ends with a bare '#'"),
    ("bad_rel", "invalid input: rel: unknown relation 'nope' (valid: author, cites, depends-on, links, part-of, superseded-by)"),
    ("bad_offset", "invalid input: offset: "),
    ("bad_scope", "invalid input: scope: unknown source: memories/breif (did you mean memories/brief?)"),
    ("period_scope", "invalid input: scope: "),
    ("long_query", "invalid input: query: longer than 4096 characters"),
    ("not_found", "not found: a\\u200bb\\u202e.md"),
])
def test_values_rejected_later_carry_the_cli_message(calls, bf, example_site, name, message):
    result = calls[name]
    assert result.is_error is True and text_of(result).startswith(message)
    tool_args = {"bad_period": ("read", "2026-13"), "bad_rel": ("read", "projects/new-website.md", "--rel", "nope"),
                 "bad_scope": ("search", "x", "--scope", "memories/breif")}
    if name in tool_args:
        _, _, err = bf(*tool_args[name], "--site", example_site)
        assert json.loads(err)["error"] == text_of(result)


def test_error_text_shows_home_as_tilde(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path))

    async def steps(session):
        return await session.call_tool("read", {"ref": "home"})
    result = session_run(tmp_path / "no-site", steps, env)
    assert result.is_error is True
    assert text_of(result) == "index missing for site '~/no-site' — run bf build first"


def test_a_rebuilt_site_is_noticed_without_restart(tmp_path, example_site, build_site):
    site = tmp_path / "site"
    shutil.copytree(example_site, site)

    async def steps(session):
        before = await session.call_tool("read", {"ref": "home"})
        build_site(ROOT / "examples" / "brain", site, now="2026-12-03T12:00:00Z")
        after = await session.call_tool("read", {"ref": "home"})
        return before, after
    before, after = session_run(site, steps)
    assert before.structured_content["as_of"] == NOW
    assert after.structured_content["as_of"] == "2026-12-03T12:00:00Z"


def test_the_startup_preload_changes_no_reply(example_site):
    """mcp.preload (docs/decisions.md#bf-mcp-reads-its-hot-files-at-startup) only reads early:
    a preloaded site answers as one read on demand."""
    from builder.mcp import preload
    from builder.query.search import search
    from builder.query.site import LiveSite
    cold, warm = LiveSite(example_site), LiveSite(example_site)
    preload(warm)
    for query, scope, mode in (("pricing", None, None), ("website launch", None, None), ("pricing", "memories", None),
                               ('"new website"', None, None), ("pricing", None, "lexical"), ("pricing", None, "semantic")):
        assert search(warm.current(), query, scope=scope, mode=mode) == search(cold.current(), query, scope=scope, mode=mode)


def test_a_site_whose_index_is_another_format_starts_and_says_so(tmp_path, example_site):
    site = tmp_path / "site"
    shutil.copytree(example_site, site)
    for meta in site.glob("_bf/search/*/index/meta.json"):
        meta.write_text(json.dumps(dict(json.loads(meta.read_text()), format="bf-lunr-0")))

    async def steps(session):
        return await session.call_tool("search", {"query": "pricing"})
    result = session_run(site, steps)
    assert result.is_error is True
    assert "bf-lunr-0" in text_of(result)
