"""The stated limits, enforced (issue 9): each over-limit input gets its documented error.

The constants live with the code that enforces them; this test pins the values the README
states, so changing one is a visible decision.
"""
from __future__ import annotations

import json

import pytest

from builder.brain.notes import MAX_NOTE_BYTES
from builder.brain.records import MAX_RECORD_BYTES
from builder.query.read import MAX_REF
from builder.query.recall import MAX_BUDGET
from builder.query.scopes import MAX_SCOPE
from builder.query.search import MAX_LIMIT, MAX_QUERY
from builder.views.paging import FIRST_PAGE_WITH_OUTLINE, PAGE_BYTES


def test_the_stated_values():
    assert (MAX_NOTE_BYTES, MAX_RECORD_BYTES) == (8 * 1024 * 1024, 1024 * 1024)
    assert (MAX_REF, MAX_QUERY, MAX_SCOPE, MAX_LIMIT, MAX_BUDGET) == (4096, 4096, 4096, 50, 1_000_000)
    assert (PAGE_BYTES, FIRST_PAGE_WITH_OUTLINE) == (32 * 1024, 4 * 1024)


def test_files_over_the_size_limits_are_reported_not_built(make_brain, build_site, tmp_path):
    brain = make_brain(tmp_path, {
        "over.md": "---\ntitle: Big\n---\n" + "a" * MAX_NOTE_BYTES,
        "memories/s/over.json": json.dumps({"text": "x" * MAX_RECORD_BYTES}),
        "memories/s/ok.json": json.dumps({"text": "fine"}),
    })
    report = build_site(brain, tmp_path / "site")
    too_large = {p["path"]: p["message"] for p in report.problems if p["kind"] == "too_large"}
    assert set(too_large) == {"over.md", "memories/s/over.json"}
    assert f"the limit is {MAX_NOTE_BYTES}" in too_large["over.md"]
    assert f"the limit is {MAX_RECORD_BYTES}" in too_large["memories/s/over.json"]


def test_size_limits_are_inclusive(make_brain, build_site, tmp_path, monkeypatch):
    """A file of exactly the limit builds; one byte more does not (limits shrunk to stay fast)."""
    import builder.brain as brain_pkg
    from builder.brain import notes, records
    for module, name in ((brain_pkg, "MAX_NOTE_BYTES"), (notes, "MAX_NOTE_BYTES"),
                         (brain_pkg, "MAX_RECORD_BYTES"), (records, "MAX_RECORD_BYTES")):
        monkeypatch.setattr(module, name, 100)
    brain = make_brain(tmp_path, {"at.md": "a" * 100, "over.md": "a" * 101,
                                  "memories/s/at.json": json.dumps({"text": "x" * 88}),
                                  "memories/s/over.json": json.dumps({"text": "x" * 89})})
    assert len((brain / "memories/s/at.json").read_bytes()) == 100
    report = build_site(brain, tmp_path / "site")
    assert {p["path"] for p in report.problems if p["kind"] == "too_large"} == {"over.md", "memories/s/over.json"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from builder.build import build
    root = tmp_path_factory.mktemp("limits")
    brain = root / "brain"
    (brain / "memories/chat").mkdir(parents=True)
    (brain / "long.md").write_text("# Long\n\n" + "\n\n".join(f"## Part {i}\n\n" + "word " * 2000 for i in range(8)),
                                   encoding="utf-8")
    (brain / "memories/chat/m.json").write_text('{"text": "hello", "time": "2026-12-01T09:00:00Z"}', encoding="utf-8")
    build([brain], root / "site", now="2026-12-02T12:00:00Z", pagefind=False)
    return root / "site"


OVER = [
    (["search", "q" * MAX_QUERY], 0, None),
    (["search", "q" * (MAX_QUERY + 1)], 2, "invalid input: query: longer than 4096 characters"),
    (["search", "x", "--limit", "1"], 0, None),
    (["search", "x", "--limit", "50"], 0, None),
    (["search", "x", "--limit", "0"], 2, "invalid input: limit: must be a whole number from 1 to 50"),
    (["search", "x", "--limit", "51"], 2, "invalid input: limit: must be a whole number from 1 to 50"),
    (["search", "x", "--limit", "-1"], 2, "invalid input: "),
    (["search", "x", "--limit", "ten"], 2, "invalid input: flag: "),
    (["search", "x", "--scope", "a" * (MAX_SCOPE + 1)], 2, "invalid input: scope: longer than 4096"),
    (["read", "r" * MAX_REF], 3, "not found: "),
    (["read", "r" * (MAX_REF + 1)], 2, "invalid input: ref: longer than 4096 characters"),
    (["read", "long.md", "--offset", "-1"], 2, "invalid input: offset: must be a whole number"),
    (["read", "long.md", "--offset", "7"], 2, "invalid input: offset: 7 is not a page boundary"),
    (["read", "long.md", "--offset", str(10**30)], 2, "invalid input: offset: "),
    (["read", "memories/chat", "--offset", "1"], 2, "invalid input: offset: "),
    (["read", "366d"], 0, None),
    (["read", "367d"], 2, "invalid input: "),
    (["read", "0d"], 2, "invalid input: "),
    (["recall", "x", "--budget", "1"], 0, None),
    (["recall", "x", "--budget", str(MAX_BUDGET)], 0, None),
    (["recall", "x", "--budget", "0"], 2, "invalid input: budget: must be a whole number from 1 to 1000000"),
    (["recall", "x", "--budget", str(MAX_BUDGET + 1)], 2, "invalid input: budget: "),
]


@pytest.mark.parametrize("argv,code,error", OVER, ids=[" ".join(a)[:40] for a, _, _ in OVER])
def test_query_limits(site, bf, argv, code, error):
    got, out, err = bf(*argv, "--site", site)
    assert got == code, (got, err)
    if error is None:
        assert err == "" and json.loads(out)["as_of"]
    else:
        body = json.loads(err)
        assert body["error"].startswith(error), body
        assert body["code"] == "invalid_input" if code == 2 else body["code"] == "not_found"


def test_large_reads_page_within_the_stated_size(site, bf):
    offset, pages, text = 0, 0, ""
    while offset is not None:
        code, out, err = bf("read", "long.md", "--offset", offset, "--site", site, "--dense")
        assert code == 0, err
        assert len(out.strip().encode("utf-8")) <= PAGE_BYTES
        reply = json.loads(out)
        if pages == 0 and reply.get("outline"):
            assert len(reply["text"].encode("utf-8")) <= FIRST_PAGE_WITH_OUTLINE
        text += reply["text"]
        offset, pages = reply.get("next_offset"), pages + 1
    assert pages > 2
    assert text.encode("utf-8") == (site.parent / "brain/long.md").read_bytes()
