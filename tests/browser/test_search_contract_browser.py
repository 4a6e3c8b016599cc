"""The search contract of tests/query/test_search_contract.py in Chromium: the same replies as
Python (so the same phrase, deprecated, score, strong-item and named-person rules) for every mode."""
from __future__ import annotations

from pathlib import Path

import pytest

from builder import MODES
from builder.build import build
from builder.query.search import search
from builder.query.site import open_site

BRAIN = Path(__file__).resolve().parents[1] / "fixtures" / "contract"
QUERIES = ['"explanation clear"', '"clear explanation"', "zebra crossing", '"zebra crossing" school',
           "budget review meeting", "Did Dana fix the garage door?", "did dana fix the garage door"]
RUN = """async (calls) => {
  const out = []
  for (const [q, o] of calls) {
    try { out.push(await window.bf.search(q, o)) } catch (e) { out.push({uncaught: String(e)}) }
  }
  return out
}"""


@pytest.fixture(scope="module")
def contract_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("contract") / "site"
    build([BRAIN], out, now="2026-12-02T12:00:00Z", pagefind=False)
    return out


def test_browser_keeps_the_search_contract(contract_dir, serve_site, page):
    page.goto(serve_site(contract_dir) + "search.html")
    page.wait_for_function("typeof window.bf === 'object'")
    calls = [(q, {"mode": m}) for q in QUERIES for m in MODES]
    got = page.evaluate(RUN, [[q, o] for q, o in calls])
    site = open_site(contract_dir)
    for (q, o), reply in zip(calls, got):
        want = search(site, q, **o)
        assert [(i["ref"], i["score"]) for i in reply["items"]] == [(i["ref"], i["score"]) for i in want["items"]], (q, o)
        assert reply["total"] == want["total"] and reply["arms"] == want["arms"]
    by = {(q, o["mode"]): r for (q, o), r in zip(calls, got)}
    assert all(by['"explanation clear"', m]["items"] == [] for m in MODES)
    for m in MODES:
        refs = [i["ref"] for i in by["zebra crossing", m]["items"]]
        assert refs[-1] == "zebra-old.md"
    assert all(i["score"] <= 1 / 61 for i in by["zebra crossing", "hybrid"]["items"])
