"""Issue 13 in Chromium: the browser's analysis equals Python's token for token on a corpus of
every script (and on every word character), bf.search on the multilingual test brain replies
exactly as Python does, with known items first, and pagefind's full-text search from an English
page finds notes of other languages (pages declare theirs; pagefind indexes each apart)."""
from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "bm25"))
sys.path.insert(0, str(ROOT / "tests" / "query"))

from builder.kernel.pageurls import page_file  # noqa: E402
from builder.bm25 import analyze_pairs, analyze_query_word, unitable  # noqa: E402
from builder.query.excerpt import excerpt  # noqa: E402
from builder.query.site import open_site  # noqa: E402
from builder.query.search import search  # noqa: E402
from bm25_corpus import MULTILINGUAL  # noqa: E402
from test_analysis_parity import CORPUS  # noqa: E402
from test_multilingual import BRAIN, NOW, known_items, mixed_queries  # noqa: E402
from test_search_store import excerpt_cases  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.parity]

ANALYZE = """async (strings) => {
  const m = {...await import(window.bf.root + '_bf/engine/bm25/pipeline.js'), ...await import(window.bf.root + '_bf/engine/bm25/unitable.js')}
  const every = []
  for (const [a, b] of m.decode(m.WORD_TABLE)) for (let cp = a; cp <= b; cp++) every.push(m.analyzePairs(String.fromCodePoint(cp)))
  return { pairs: strings.map((s) => m.analyzePairs(s)), every }
}"""
EXCERPT = """async (cases) => {
  const m = await import(window.bf.root + '_bf/engine/excerpt.js')
  return cases.map(([text, terms]) => m.excerpt(text, new Set(terms), 'FALLBACK', 40))
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
    build([BRAIN], out, now=NOW, pagefind=True)
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


def test_chromium_excerpts_equal_python(ml_page):
    """Excerpts of texts of every script, with the letters the analysis folds (full-width,
    ligatures, final sigma, İ) and every separator: the same window, cut and words in both."""
    cases = [(text, sorted({analyze_query_word(w) for w in words} - {""})) for text, words in excerpt_cases(300, 11)]
    want = [excerpt(text, set(terms), "FALLBACK", 40) for text, terms in cases]
    assert ml_page.evaluate(EXCERPT, cases) == want
    assert sum(w != "FALLBACK" for w in want) > 200     # most texts hold a query word


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


# A word of each note's body (not of its title or aliases), in the note's own language.
BODY_WORDS = [("仓库", "zh/备份.md"), ("شريط", "ar/عدد-الكلمات.md"), ("хранилище", "ru/синхронизация.md")]


def full_text_results(page, base: str, query: str) -> list[str]:
    """The site paths of the pagefind UI's results for `query` on the search page."""
    page.goto(base + "search.html?q=" + query)
    # the count is shown once every index has answered; then each card loads its page's data
    page.wait_for_function("/results? for/i.test(document.querySelector('.pagefind-ui__message')?.textContent)"
                           " && !document.querySelector('.pagefind-ui__result .pagefind-ui__loading')", timeout=15_000)
    links = page.eval_on_selector_all(".pagefind-ui__result-link", "els => els.map(a => a.pathname)")
    return [unquote(link).removeprefix("/my-repo/") for link in links]   # a pathname is percent-encoded


@pytest.mark.parametrize("word, ref", BODY_WORDS)
def test_full_text_search_from_an_english_page_finds_other_languages(ml_page, ml_site, word, ref):
    base = ml_page.url.rsplit("/", 1)[0] + "/"
    found = full_text_results(ml_page, base, word)
    assert ml_page.evaluate("document.documentElement.lang") == "en"     # the search page's
    assert page_file("multi", ref) in found, found


def test_pages_declare_their_language_and_filters_span_every_language(ml_page, ml_site):
    base = ml_page.url.rsplit("/", 1)[0] + "/"
    for ref, lang in [("zh/备份.md", "zh"), ("ar/عدد-الكلمات.md", "ar"), ("en/sync.md", "en")]:
        ml_page.goto(base + page_file("multi", ref))
        assert ml_page.evaluate("document.documentElement.lang") == lang
    full_text_results(ml_page, base, "Android")   # a word in notes of many languages
    # every note is tagged with its language: the tag filter offers the tags of every language index
    # (the merged indexes add their filters as each loads: wait for them, then read them)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout   # as conftest: only once a browser runs
    wanted = ["en", "zh", "ar", "ru", "ko"]
    try:
        ml_page.wait_for_function("tags => tags.every(t => document.querySelector(`input[name=tag][value='${t}']`))",
                                  arg=wanted, timeout=15_000)
    except PlaywrightTimeout:
        pass   # the assertion below names what is missing
    tags = ml_page.eval_on_selector_all("input[name=tag]", "els => els.map(e => e.value)")
    assert set(wanted) <= set(tags), tags
    ml_page.locator(".pagefind-ui__filter-name", has_text="Tag").click()
    ml_page.check("#tag-ru")
    ml_page.wait_for_function("/^2 results/.test(document.querySelector('.pagefind-ui__message')?.textContent)")
    ml_page.wait_for_function("!document.querySelector('.pagefind-ui__result .pagefind-ui__loading')")
    links = [unquote(a) for a in ml_page.eval_on_selector_all(".pagefind-ui__result-link", "els => els.map(a => a.pathname)")]
    assert set(links) == {"/my-repo/" + page_file("multi", ref)     # sub-results link their page again
                          for ref in ["ru/синхронизация.md", "ru/устранение-неполадок.md"]}
