"""Property tests: hostile refs, relations, offsets and brains given to `bf read` (docs/limits.md#queries).

Every call ends in a reply or a BfError with its exit code — never another exception — and
opens nothing outside the site (the brain folder is only listed, for the staleness check).
"""
from __future__ import annotations

import contextlib
import io
import json
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from builder.cli import main
from builder.kernel.errors import BfError
from builder.query.read import read
from builder.query.site import open_site

EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
EXIT = {"invalid_input": 2, "not_found": 3, "incomplete": 4, "index_missing": 5}

ATOMS = [
    "", ".", "..", "../", "../../", "..\\", "%2e%2e/", "%2E%2E%2F", "%252e%252e%252f", "..%2f", "%00",
    "/", "//", "/etc/passwd", "/proc/self/environ", "C:\\Windows\\win.ini", "\\\\server\\share", "~", "~/",
    "$HOME", "file:///etc/passwd", "bf://", "bf:///", "bf://brain", "bf://brain/", "bf://brain/../../",
    "bf://brain/%2e%2e/%2e%2e/etc/passwd", "bf://../", "bf://brain%2f..", "BF://brain/", "bf:/brain/",
    "bf://other/", "\x00", "\x01", "\x1b[31m", "\x7f", "\u202e", "\u200f", "\u200b", "\ufeff", "\ud7ff",
    "\U0001f600", "é", "ß", "İ", "#", "##", "?", "%23", "%3F", "%25", "%", "~2e", "~23", "~~o50", "~~r",
    ":", "evil:", "evil:a", "evil:A", "evil:x#1", "evil:who?", "person:", "memories", "memories/",
    "memories/evil", "memories/evil/undated", "memories/evil/x", "tags/", "tags/ok/nested", "odd/",
    "odd/with space.md", "odd/hash#tag.md", "hostile/long.md", "hostile/long.md#part-3", "index.md",
    "index.md#", "home", "today", "yesterday", "7d", "0d", "366d", "367d", "99999999999999999999d",
    "2026", "2026-12", "2026-13", "2026-00", "2026-W49", "2026-W99", "2026-12-02", "2026-02-30",
    "0000", "9999-12-31", "<script>window.__pwned=1</script>", "\"", "'", "`", "*", "\n", "\r\n", "\t", " ",
]
atoms = st.sampled_from(ATOMS)
joined = st.lists(st.one_of(atoms, st.text(max_size=6)), max_size=8).map("".join)
repeated = st.builds(lambda a, n: a * n, st.sampled_from([a for a in ATOMS if a]), st.integers(1, 5000))
refs = st.one_of(joined, st.text(max_size=40), repeated, atoms)
rels = st.one_of(st.none(), atoms, st.text(max_size=20), st.sampled_from(["links", "cites", "depends-on", "../../etc",
                                                                           "<script>window.__pwned=1</script>"]),
                 repeated, st.integers(), st.lists(st.text(max_size=3), max_size=2))
offsets = st.one_of(st.integers(-3, 5), st.integers(-2**70, 2**70), st.sampled_from([0, 4096, 32768, 50, 100]),
                    st.booleans(), st.none(), st.floats(allow_nan=True), st.text(max_size=4))
brains = st.one_of(st.none(), st.lists(st.one_of(atoms, st.sampled_from(["brain", "other"]), st.text(max_size=5)),
                                       max_size=3))


def _check_reply(reply):
    assert isinstance(reply, dict)
    json.dumps(reply, ensure_ascii=False)   # serializable: no bytes, no sets, no datetimes
    assert reply.get("as_of")


@EXAMPLES
@given(ref=refs, rel=rels, offset=offsets, chosen=brains)
def test_read_in_process_never_escapes(hostile, opened, ref, rel, offset, chosen):
    site = open_site(hostile["site"])
    with opened.record() as seen:
        try:
            _check_reply(read(site, ref, rel=rel, offset=offset, brains=chosen))
        except BfError as exc:
            assert exc.code in EXIT and exc.exit == EXIT[exc.code], exc
            assert exc.message.startswith(exc.code.replace("_", " ")), exc.message
    assert opened.outside(seen, [hostile["site"]], [hostile["brain"]]) == []
    assert not any(str(hostile["outside"]) in p for _, p in seen)
    # The brain folder is listed (fingerprint), never opened.
    assert not any(e == "open" and p.startswith(str(hostile["brain"]) + "/") for e, p in seen)


def _printable(text: str) -> bool:
    return not any(unicodedata.category(c) in ("Cc", "Cf") for c in text)


FLAGS = {"read": ("--rel", "--offset", "--brain"), "search": ("--scope", "--limit", "--type", "--path", "--brain"),
         "recall": ("--scope", "--budget", "--type", "--path", "--brain")}


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(command=st.sampled_from(sorted(FLAGS)), ref=refs, dense=st.booleans(),
       flags=st.lists(st.tuples(st.sampled_from(sorted({f for fs in FLAGS.values() for f in fs})),
                                st.one_of(atoms, st.text(max_size=12), st.integers(-5, 2**66).map(str))), max_size=3))
def test_cli_exit_codes(hostile, opened, command, ref, dense, flags):
    argv = [command, ref, "--site", str(hostile["site"])]
    for flag, value in flags:
        if flag in FLAGS[command]:
            argv += [flag, value]
    argv += ["--dense"] if dense else []
    out, err = io.StringIO(), io.StringIO()
    with opened.record() as seen, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert opened.outside(seen, [hostile["site"]], [hostile["brain"]]) == []
    if code == 0:
        assert err.getvalue() == ""
        _check_reply(json.loads(out.getvalue()))
        return
    assert out.getvalue() == ""
    lines = err.getvalue().splitlines()
    assert len(lines) == 1, err.getvalue()
    body = json.loads(lines[0])
    assert set(body) == {"error", "code"} and EXIT[body["code"]] == code, (code, body)
    assert _printable(body["error"]), body["error"]
    assert "Traceback" not in err.getvalue()


def test_cli_sample_of_known_refs(hostile, bf):
    """Every built note and record answers its own ref through the CLI (hostile names included)."""
    expected = hostile["expected"]
    for ref in expected["notes"] + expected["records"]:
        code, out, err = bf("read", "--site", hostile["site"], "--dense", "--", ref)
        assert code == 0, (ref, err)
        assert json.loads(out)["ref"] == ref


QUERY_ATOMS = ["*", "~", "^", "+", "-", ":", "'", '"', '""', '"a', "title:x", "type:name", "-foo", "+bar", "a~2",
               "b^10", "\\", "(", ")", "[", "]", "{", "}", "AND", "OR", "NOT", "the", "script", "pwned", "window",
               "<script>window.__pwned=1</script>", "\u0000", "\u202e", "é", "İ", "ß", "\U0001f600", " ", "\n"]
queries = st.one_of(st.text(max_size=60), st.lists(st.sampled_from(QUERY_ATOMS + ATOMS), max_size=10).map(" ".join),
                    st.builds(lambda a, n: a * n, st.sampled_from(QUERY_ATOMS[:30]), st.integers(1, 5000)),
                    st.none(), st.integers())
limits = st.one_of(st.integers(-3, 60), st.integers(-2**70, 2**70), st.booleans(), st.none(), st.floats(),
                   st.text(max_size=3))
texts = st.one_of(st.none(), atoms, st.text(max_size=12), st.integers())


def _call_query(opened, hostile, fn):
    with opened.record() as seen:
        try:
            reply = fn()
        except BfError as exc:
            assert exc.code in EXIT and exc.exit == EXIT[exc.code], exc
            reply = None
    assert opened.outside(seen, [hostile["site"]], [hostile["brain"]]) == []
    assert not any(e == "open" and p.startswith(str(hostile["brain"]) + "/") for e, p in seen)
    if reply is not None:
        _check_reply(reply)
    return reply


@EXAMPLES
@given(query=queries, scope=st.one_of(st.none(), refs), limit=limits, type_=texts, path=texts, chosen=brains)
def test_search_in_process_never_escapes(hostile, opened, query, scope, limit, type_, path, chosen):
    from builder.query.search import search
    reply = _call_query(opened, hostile, lambda: search(open_site(hostile["site"]), query, scope=scope, limit=limit,
                                                        type=type_, path=path, brains=chosen))
    if reply is not None:
        assert isinstance(limit, int) and not isinstance(limit, bool) and 1 <= limit <= 50
        assert len(reply["items"]) <= limit


@EXAMPLES
@given(query=queries, scope=st.one_of(st.none(), refs),
       budget=st.one_of(st.integers(-3, 3000), st.integers(-2**70, 2**70), st.none(), st.floats(), st.text(max_size=3)))
def test_recall_in_process_never_escapes(hostile, opened, query, scope, budget):
    from builder.query.recall import recall
    reply = _call_query(opened, hostile, lambda: recall(open_site(hostile["site"]), query, budget=budget, scope=scope))
    if reply is not None:
        assert reply["spent_chars"] <= reply["budget"] == budget


PREFIXES = ("invalid input: ", "not found: ", "incomplete: ", "index missing ")
values = st.one_of(st.none(), atoms, refs, st.integers(-2**70, 2**70), st.floats(), st.booleans(),
                   st.lists(atoms, max_size=2), st.dictionaries(st.text(max_size=3), atoms, max_size=2))


@pytest.fixture(scope="module")
def mcp_call(hostile):
    """Calls a tool of an in-process MCP server on an event loop of its own thread (Playwright's
    sync API may already run a loop in this one)."""
    from anyio.from_thread import start_blocking_portal
    from builder.mcp import server
    srv = server(str(hostile["site"]))
    with start_blocking_portal() as portal:
        yield lambda tool, args: portal.call(srv.call_tool, tool, args)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(tool=st.sampled_from(["search", "read", "recall"]),
       args=st.dictionaries(st.sampled_from(["query", "ref", "rel", "offset", "scope", "type", "path", "limit",
                                             "budget", "brain", "extra"]), values, max_size=6),
       ref=refs, query=queries)
def test_mcp_tools_answer_or_refuse(hostile, opened, mcp_call, tool, args, ref, query):
    """In-process MCP calls: a reply, an error result with the CLI's message, or the SDK's
    argument error (ToolError) — never another exception, never a file outside the site."""
    from mcp.server.mcpserver.exceptions import ToolError
    args = dict(args)
    args.setdefault("ref" if tool == "read" else "query", ref if tool == "read" else query)
    with opened.record(all_threads=True) as seen:
        try:
            result = mcp_call(tool, args)
        except ToolError:
            result = None
    assert opened.outside(seen, [hostile["site"]], [hostile["brain"]]) == []
    if result is None:
        return
    text = result.content[0].text
    if result.is_error:
        assert text.startswith(PREFIXES), text
        assert all(ord(c) >= 32 for c in text), text
    else:
        assert json.loads(text) == result.structured_content
        _check_reply(result.structured_content)
