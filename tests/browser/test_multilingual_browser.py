"""Issue 13 in Chromium: the browser's analysis equals Python's token for token on a corpus of
every script (and on every word character), and bf.search on the multilingual test brain replies
exactly as Python does, with known items first."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "lunrjs"))

from builder.lunrjs import analyze_pairs, unitable  # noqa: E402
from builder.query.site import open_site  # noqa: E402
from builder.query.search import search  # noqa: E402
from lunrjs_corpus import MULTILINGUAL  # noqa: E402
from test_analysis_parity import CORPUS  # noqa: E402
from test_multilingual import BRAIN, NOW, known_items, mixed_queries  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.parity]

ANALYZE = """async (strings) => {
  const m = await import(window.bf.root + '_bf/engine/lunrindex.js')
  const every = []
  for (const [a, b] of m.decodeTable(m.WORD_TABLE)) for (let cp = a; cp <= b; cp++) every.push(m.analyzePairs(String.fromCodePoint(cp)))
  return { pairs: strings.map(m.analyzePairs), every }
}"""
SEARCH = """async (calls) => {
  const out = []
  for (const [q, o] of calls) {
    try { out.push(await window.bf.search(q, o)) } catch (e) { out.push(e.toJSON ? e.toJSON() : {uncaught: String(e)}) }
  }
  return out
}"""


@pytest.fixture(scope="module")
def ml_site(tmp_path_factory):
    from builder.build import build
    out = tmp_path_factory.mktemp("ml") / "site"
    build([BRAIN], out, now=NOW, pagefind=False)
    return out


@pytest.fixture
def ml_page(page, ml_site, serve_site):
    base = serve_site(ml_site, "/my-repo/")
    page.goto(base + "index.html")
    page.wait_for_function("window.bf !== undefined")
    return page


def test_chromium_tokens_equal_python(ml_page):
    strings = CORPUS + [t for row in MULTILINGUAL for t in row]
    got = ml_page.evaluate(ANALYZE, strings)
    assert got["pairs"] == [[list(p) for p in analyze_pairs(s)] for s in strings]
    every = [[list(p) for p in analyze_pairs(chr(cp))]
             for a, b in unitable.decode(unitable.WORD) for cp in range(a, b + 1)]
    bad = [(p, j) for p, j in zip(every, got["every"]) if p != j]
    assert len(got["every"]) == len(every) and not bad, bad[:5]


def test_chromium_search_equals_python_and_finds_known_items(ml_page, ml_site):
    queries, ambiguous = known_items()
    calls = [(q, {"limit": 3}) for q, _ in queries] + [("cafe malmo", {}), ("仓库", {}), ("Android", {"limit": 10})]
    calls += mixed_queries()
    site = open_site(ml_site)
    want = []
    for q, o in calls:
        reply = dict(search(site, q, **o))
        reply.pop("stale", None)
        reply.pop("notice", None)
        want.append(reply)
    got = ml_page.evaluate(SEARCH, [[q, o] for q, o in calls])
    assert got == want
    firsts = [r["items"][0]["ref"] if r["items"] else None for r in got[:len(queries)]]
    misses = [(q, ref, first) for (q, ref), first in zip(queries, firsts) if first != ref]
    rate = 1 - len(misses) / len(queries)
    print(f"\nchromium: rank-1 {rate:.3f} over {len(queries)} title/alias queries; misses {misses}")
    assert rate >= 0.95
