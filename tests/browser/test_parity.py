"""bf.js answers like Python: every precomputed read of the example site, computed reads,
errors, the ref → file mapping and periods in several time zones (docs/site.md#ref--file, docs/replies.md#python-and-the-browser).

The browser never sees the brain folder, so it never reports `stale`; Python's `stale` and
`notice` are dropped before comparing (the example brain may be edited while tests run).
"""
from __future__ import annotations

import json
import random
from datetime import datetime, timezone
from pathlib import Path

import pytest

from builder import BUNDLE_VERSION
from builder.kernel import refs
from builder.kernel.errors import BfError
from builder.kernel.periods import parse_period
from builder.query.read import read
from builder.query.site import open_site
from replies import stored_replies

pytestmark = [pytest.mark.browser, pytest.mark.parity]

READ_ALL = """async (calls) => {
  const out = []
  for (const [ref, options] of calls) {
    try { out.push(await window.bf.read(ref, options)) } catch (e) { out.push(e.toJSON ? e.toJSON() : {uncaught: String(e)}) }
  }
  return out
}"""


def python_read(site, ref, options: dict) -> dict:
    try:
        reply = read(site, ref, **options)
    except BfError as exc:
        return exc.to_json()
    reply = dict(reply)
    reply.pop("stale", None)
    reply.pop("notice", None)
    return reply


def reply_calls(site_dir: Path) -> list[tuple[str, dict]]:
    """(ref, options) for every stored reply page: reply files and the compact data."""
    return [(ref, options) for ref, options, _ in stored_replies(site_dir)]


EXTRA_CALLS = [
    ("", {}), ("home", {}), ("/", {}), ("  projects/  ", {}), ("projects/", {}), ("projects", {}),
    ("bf://brain/projects/new-website.md", {}), ("bf://brain/projects/new-website.md#", {}),
    ("bf://nope/projects/new-website.md", {}), ("bf://brain/", {}),
    ("projects/new-website.md#", {}), ("#", {}), ("projects/new-website.md#no-such-section", {}),
    ("projects/nope.md", {}), ("nope", {}), ("memories/nope", {}), ("person:nobody", {}),
    ("2026-13", {}), ("2026-00", {}), ("2026-W54", {}), ("2026-W00", {}), ("2026-02-30", {}), ("0d", {}),
    ("367d", {}), ("07d", {}), ("366d", {}), ("2031", {}), ("2031-01", {}), ("2031-W01", {}), ("2031-01-05", {}),
    ("2020-W53", {}), ("2021-W53", {}), ("9999", {}), ("0000", {}), ("2026-1", {}), ("12345d", {}),
    ("٣d", {}), ("２０３１", {}), ("yesterday", {}), ("today", {}),
    ("memories/chat/2026-11-19", {}), ("memories/chat/2026-W47", {}), ("memories/chat/2026-01-01", {}),
    ("memories/email/2026-01", {}), ("memories/chat/2026-13", {}), ("memories/chat/7d", {}),
    ("memories/nope/2026-11-19", {}), ("memories/chat/2026-11-19", {"offset": 50}), ("memories/brief/2026", {}),
    ("projects/new-website.md", {"rel": "nope"}), ("projects/new-website.md", {"rel": "it's"}),
    ("projects/new-website.md", {"rel": "a\x00b"}), ("projects/new-website.md", {"rel": 5}),
    ("projects/new-website.md", {"rel": "cites"}), ("projects/new-website.md", {"rel": "superseded-by", "offset": 50}),
    ("projects/new-website.md", {"offset": 7}), ("projects/new-website.md", {"offset": -1}),
    ("projects/new-website.md", {"offset": 1.5}), ("projects/new-website.md", {"offset": True}),
    ("projects/new-website.md", {"offset": "3"}), ("2031-01", {"offset": 50}), ("nope.md", {"offset": 50}),
    ("projects/new-website.md", {"brains": ["nope"]}), ("projects/new-website.md", {"brains": ["brain"]}),
    (5, {}), (None, {}), ("x" * 4097, {}), ("a\nb", {}), ("a\x7fb", {}),
]


@pytest.fixture(scope="module")
def served(example_site):
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
    from httpserver import StaticServer
    with StaticServer(example_site, "/my-repo/") as server:
        yield server


@pytest.fixture
def bf_page(page, served):
    page.goto(served.url("brain/home.html"))
    page.wait_for_function("window.bf !== undefined")
    return page


def compare(site_dir: Path, bf_page, calls) -> list:
    site = open_site(site_dir)
    expected = [python_read(site, ref, options) for ref, options in calls]
    got = bf_page.evaluate(READ_ALL, [[ref, options] for ref, options in calls])
    return [(call, want, have) for call, want, have in zip(calls, expected, got) if want != have]


def test_every_precomputed_read_equals_python(example_site, bf_page):
    calls = reply_calls(example_site)
    assert len(calls) > 300, "the example site should hold hundreds of replies"
    mismatches = compare(example_site, bf_page, calls)
    assert mismatches == [], mismatches[:3]


def test_computed_reads_and_errors_equal_python(example_site, bf_page):
    mismatches = compare(example_site, bf_page, EXTRA_CALLS)
    assert mismatches == [], mismatches[:3]
    got = bf_page.evaluate(READ_ALL, [["projects/new-website.md#", {}], ["2026-13", {}]])
    assert got == [{"error": "invalid input: ref: ends with a bare '#': name a section after it, or drop it",
                    "code": "invalid_input"},
                   {"error": "invalid input: ref: invalid period: 2026-13", "code": "invalid_input"}]


def _random_segments(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    alphabet = "abcXYZ019.-_ #?%:/~é漢😀\u00a0"
    out = ["", ".", ".x", "x.", "a" * 121, "A" * 40, "é" * 30, "x" * 120]
    for _ in range(n):
        out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60))))
    return out


def test_ref_mapping_and_addresses_equal_python(bf_page):
    texts = _random_segments(7, 300)
    got = bf_page.evaluate("""async (texts) => {
      const r = await import(window.bf.root + '_bf/engine/refs.js')
      return texts.map((t) => [r.refFile('brain', t, 'r', t, 'o50'), r.uri('b', t), r.splitAddress('bf://b/' + t),
                               r.normalize(t), r.isRecordLike(t), r.isPeriodLike(t), r.dataKey('brain', t, 'r', t),
                               r.packOf(t, 1), r.packOf(t, 7), r.packOf(r.dataKey('b', t), 4096)])
    }""", texts)
    want = [[refs.ref_file("brain", t, "r", t, "o50"), refs.uri("b", t), list(refs.split_address("bf://b/" + t)),
             refs.normalize(t), refs.is_record_like(t), refs.is_period_like(t), refs.data_key("brain", t, "r", t),
             refs.pack_of(t, 1), refs.pack_of(t, 7), refs.pack_of(refs.data_key("b", t), 4096)] for t in texts]
    assert [g for g, w in zip(got, want) if g != w] == []
    assert got == want


PERIODS = ["today", "yesterday", "1d", "7d", "366d", "2026", "2026-03", "2026-10", "2026-W13", "2026-W44",
           "2026-03-29", "2026-10-25", "2026-11-01", "2026-03-08", "2020-W53", "2026-02-29", "2024-02-29", "x"]
ZONES = ["UTC", "Europe/Berlin", "America/Santiago", "America/Sao_Paulo", "Asia/Beirut", "Pacific/Apia",
         "Australia/Lord_Howe", "Asia/Kolkata", "America/St_Johns"]
INSTANTS = ["2026-12-02T12:00:00Z", "2026-03-29T00:30:00Z", "2026-09-06T03:59:59Z", "2026-01-01T00:00:00Z"]


def test_periods_equal_python_in_every_zone(bf_page):
    calls = [(ref, tz, at) for ref in PERIODS for tz in ZONES for at in INSTANTS]
    got = bf_page.evaluate("""async (calls) => {
      const p = await import(window.bf.root + '_bf/engine/periods.js')
      return calls.map(([ref, tz, at]) => {
        try {
          const r = p.parsePeriod(ref, tz, new Date(at))
          return r && [r[0], r[1].toISOString(), r[2].toISOString(), r[3]]
        } catch (e) { return e.toJSON() }
      })
    }""", [list(c) for c in calls])
    want = []
    for ref, tz, at in calls:
        try:
            r = parse_period(ref, tz, datetime.fromisoformat(at.replace("Z", "+00:00")))
            want.append(r and [r[0], r[1].astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z"),
                               r[2].astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z"), r[3]])
        except BfError as exc:
            want.append(exc.to_json())
    assert [(c, g, w) for c, g, w in zip(calls, got, want) if g != w] == []


def test_bundle_version_matches_python(bf_page):
    assert bf_page.evaluate("async () => (await import(window.bf.root + '_bf/engine/site.js')).BUNDLE_VERSION") == BUNDLE_VERSION


# ---- search and recall ---------------------------------------------------------------------

RUN_ALL = """async ([name, calls]) => {
  const out = []
  for (const [query, options] of calls) {
    try { out.push(await window.bf[name](query, options)) } catch (e) { out.push(e.toJSON ? e.toJSON() : {uncaught: String(e)}) }
  }
  return out
}"""
ODD = ["it's", "type:name", "-leading", "star*", "ti~lde", "a:b", "car^et", "+plus", "the of and", "", "   ", "\"\"", "\"unclosed"]


def same(a, b, path="") -> list[str]:
    """Differences between two replies; floats (scores) may differ by 1e-9."""
    if isinstance(a, float) or isinstance(b, float):
        ok = isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= 1e-9
        return [] if ok else [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, dict) and isinstance(b, dict):
        out = [f"{path}.{k}: missing on one side" for k in a.keys() ^ b.keys()]
        return out + [d for k in a.keys() & b.keys() for d in same(a[k], b[k], f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in same(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {str(a)[:120]!r} != {str(b)[:120]!r}"]


def python_call(site, fn, query, options):
    try:
        reply = dict(fn(site, query, **options))
    except BfError as exc:
        return exc.to_json()
    reply.pop("stale", None)
    reply.pop("notice", None)
    return reply


def generated_queries(words: list[str], phrases: list[str], scopes: list, seed: int, n: int) -> list[tuple]:
    rng = random.Random(seed)
    limits = [1, 3, 10, 10, 50]
    calls = []
    for i in range(n):
        k = rng.choice((1, 1, 2, 2, 3))
        query = " ".join(rng.choice(words) for _ in range(k))
        if i % 7 == 0 and phrases:
            query = f'"{rng.choice(phrases)}"' + (" " + rng.choice(words) if i % 2 else "")
        if i % 11 == 0:
            query = rng.choice(ODD) + " " + query
        options = {"limit": rng.choice(limits)}
        scope = rng.choice(scopes)
        if scope is not None:
            options["scope"] = scope
        if i % 13 == 0:
            options["limit"] = rng.choice((0, 51, "3", 2.5))
        calls.append((query, options))
    return calls


def compare_calls(site_dir: Path, page, name: str, calls) -> tuple[int, list]:
    from builder.query.recall import recall
    from builder.query.search import search
    from builder.query.similar import similar
    fn = {"search": search, "recall": recall, "similar": similar}[name]
    site = open_site(site_dir)
    if name == "recall":
        calls = [(q, {k: v for k, v in o.items() if k != "limit"}) for q, o in calls]
    want = [python_call(site, fn, q, o) for q, o in calls]
    got = page.evaluate(RUN_ALL, [name, [[q, o] for q, o in calls]])
    bad = [(call, same(w, g)[:5]) for call, w, g in zip(calls, want, got) if same(w, g)]
    return len(calls), bad


def example_words(site_dir: Path) -> list[str]:
    words = set()
    for path in sorted((site_dir / "brain").glob("*.json"))[:80]:
        reply = json.loads(path.read_bytes())
        words.update(str(reply.get("title", "")).lower().split())
    return sorted(w for w in words if w.isalpha())


EXAMPLE_SCOPES = [None, None, None, "projects", "actions", "memories", "memories/brief", "memories/chat",
                  "memories/chat/7d", "memories/brief/undated", "tags/website", "7d", "30d", "today", "2026-11",
                  "2026-W48", "person:alice", "repo:github.com/example/new-website",
                  "repo:github.com/example/new-website/30d", "projects/new-website.md", "tags/website/2026-11",
                  "bf://brain/projects/new-website.md", "memories/breif", "7d/2026-12", "memories/brief/x",
                  "memories/brief#x", "projects/new-website.md#decision", "bf://brain/projects", "nope/folder",
                  "home", "2026-13", "memories/brief/undated/7d", "brief:2026-12-01-standup"]


def test_search_and_recall_equal_python_on_the_example(example_site, bf_page):
    words = example_words(example_site) + ["pricing", "logo", "launch", "deploy", "review", "sitemap"]
    calls = generated_queries(words, ["pricing page", "launch checklist", "new website"], EXAMPLE_SCOPES, 3, 240)
    n, bad = compare_calls(example_site, bf_page, "search", calls)
    assert n >= 200 and bad == [], bad[:3]
    n, bad = compare_calls(example_site, bf_page, "recall", calls[:60] + [("pricing", {"budget": 0}),
                                                                          ("pricing", {"budget": 500})])
    assert bad == [], bad[:3]


def test_every_search_mode_equals_python_in_chromium(example_site, bf_page):
    """The vector arm (site/engine/vector.js, wordpiece.js) in Chromium: hybrid, semantic and
    lexical replies equal Python's, unscoped and scoped, and recall's hybrid ranking too."""
    mismatch = Path(__file__).resolve().parents[1] / "fixtures" / "mismatch.json"
    queries = [q["query"] for q in json.loads(mismatch.read_text("utf-8"))["queries"]] + ["pricing tiers", "東京", "What did Carol say about the logo?"]
    calls = [(q, {"mode": m}) for q in queries for m in ("hybrid", "semantic", "lexical")]
    calls += [(q, {"mode": "hybrid", "scope": s}) for q in queries[::4] for s in ("memories", "memories/chat", "projects")]
    n, bad = compare_calls(example_site, bf_page, "search", calls)
    assert n > 150 and bad == [], bad[:3]
    n, bad = compare_calls(example_site, bf_page, "recall", calls[:30])
    assert bad == [], bad[:3]


def test_similar_equals_python_in_chromium(example_site, bf_page):
    """window.bf.similar (site/engine/similar.js): the neighbours of every note, section and
    record of the example, some scoped or limited, and its errors, equal Python's."""
    from builder.query.store import open_store
    reader = open_store(open_site(example_site), "brain").reader
    every = [reader.ref(d) for _, first, count in reader.meta["groups"] for d in range(first, first + count)]
    scopes = [None, "projects", "memories", "memories/chat", "tags/website", "30d", "person:alice", "memories/breif"]
    calls = [(ref, {"limit": (10, 3, 50)[k % 3]} | ({"scope": scopes[k % len(scopes)]} if k % 2 else {}))
             for k, ref in enumerate(every)]
    calls += [("bf://brain/concepts/pricing-tiers.md", {}), ("nope.md", {}), ("projects/new-website.md#", {}),
              ("concepts/pricing-tiers.md", {"limit": 0})]
    n, bad = compare_calls(example_site, bf_page, "similar", calls)
    assert n > 100 and bad == [], bad[:3]
    from builder.query.similar import similar
    assert all(similar(open_site(example_site), ref)["items"] for ref in every[::7])   # not vacuous


@pytest.fixture(scope="module")
def generated_site(tmp_path_factory):
    from bench.gen import generate
    from builder.build import build
    root = tmp_path_factory.mktemp("gen")
    corpus = generate(root / "brain", 1000, records_per_note=1, seed=11)
    out = root / "site"
    build([root / "brain"], out, now="2026-12-02T12:00:00Z", pagefind=False)
    return out, corpus


@pytest.mark.slow
def test_search_equals_python_on_a_generated_brain_of_1000_notes(generated_site, page, serve_site):
    out, corpus = generated_site
    base = serve_site(out)
    page.goto(base + "index.html")
    page.wait_for_function("window.bf !== undefined")
    folders = sorted({n["folder"] for n in corpus.notes})
    scopes = [None, None, None, "memories", "7d", "30d", "2026-11", "memories/chat", "memories/issues/30d",
              "memories/mail/undated"] + folders + [f"tags/{t}" for t in corpus.tags[:5]] + \
             [f"person:{p}" for p in corpus.people[:3]] + [corpus.notes[0]["ref"], "memories/chta"]
    vocab = [w for w in corpus.vocab[40:400]]
    calls = generated_queries(vocab, corpus.phrases, scopes, 5, 220)
    n, bad = compare_calls(out, page, "search", calls)
    assert n >= 200 and bad == [], bad[:3]

    # What a first scoped search downloads, on a fresh page (page load excluded).
    fresh = page.context.new_page()
    fresh.goto(base + "index.html")
    fresh.wait_for_function("window.bf !== undefined")
    responses = []
    fresh.on("response", lambda r: responses.append(r))
    reply = fresh.evaluate("async (q) => window.bf.search(q, {scope: 'memories/chat'})", vocab[0])
    fetched = [(r.url, len(r.body()) if r.ok and r.request.method == "GET" else 0) for r in responses]
    assert reply["scope"] == "memories/chat"
    total = sum(size for _, size in fetched)
    report = {"queries_compared": n, "first_scoped_search_bytes": total, "requests": len(fetched)}
    from crawl import ARTIFACTS
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "search-parity.json").write_text(json.dumps(report, indent=2) + "\n")
    print(report)
    assert total < 2_000_000, fetched


@pytest.mark.slow
def test_filtered_search_equals_python_on_a_generated_brain(generated_site, page, serve_site):
    """--type and --path (a note's path, a record's memories/SOURCE/ID.json, cut anywhere), alone
    and with scopes: both runtimes filter them from the index (scopes.admits_doc, _path_spans)."""
    from builder.query.search import open_stores
    out, corpus = generated_site
    page.goto(serve_site(out) + "index.html")
    page.wait_for_function("window.bf !== undefined")
    store = open_stores(open_site(out), None)[0]["bench"]
    records = [store.reader.ref(first) for name, first, _ in store.reader.meta["groups"] if name]
    paths = ["memories/", "m", sorted({n["folder"] for n in corpus.notes})[0], corpus.notes[3]["ref"][:-2]]
    for ref in records:
        source, _, rid = ref.partition(":")
        paths += [f"memories/{source}/{rid[:3]}", f"memories/{source}/{rid}.js", f"memories/{source}/{rid}.jsonx"]
    types = sorted({n["type"] for n in corpus.notes if n["type"]})[:2] + ["no-such-type"]
    rng = random.Random(9)
    calls = [(" ".join(rng.sample(corpus.vocab[40:400], rng.choice((1, 2)))),
              {"limit": 10} | rng.choice([{"type": rng.choice(types)}, {"path": rng.choice(paths)}])
              | rng.choice([{}, {"scope": "30d"}, {"scope": f"tags/{corpus.tags[0]}"}, {"scope": "memories"}]))
             for _ in range(80)]
    n, bad = compare_calls(out, page, "search", calls)
    assert n == 80 and bad == [], bad[:3]


def test_a_first_hybrid_search_fetches_the_files_python_opens(generated_site, serve_site, page):
    """The browser's first search fetches exactly the search and vector files a fresh Python
    search opens ranking as the browser does (the engines are twins file for file: both rank
    without phrases through rankedTop; Python by block bounds here, bench/view.as_browser), so
    the benchmark's search_first_download_* (bench/view.py, measured in Python) is the browser's; and its vector files are the lexical candidates' rows and the
    probed buckets, not every bucket."""
    import bench.view as bv
    from builder.query.search import search
    out, corpus = generated_site
    base = serve_site(out)
    prefix = base.rstrip("/") + "/"
    root = str(out.resolve()) + "/"
    part = lambda files: {f for f in files if f.startswith(("_bf/search/", "_bf/vectors/"))}
    every = sum(1 for f in (out / "_bf/search").rglob("*.bin.gz") if f.name[0].isdigit())
    calls = [("how do we plan the next release", None), (corpus.vocab[45], None),
             (" ".join(corpus.vocab[100:103]), None), (corpus.vocab[60], "memories/chat")]
    for query, scope in calls:
        fresh = page.context.new_page()
        fresh.goto(base + "index.html")
        fresh.wait_for_function("window.bf !== undefined")
        urls = []
        fresh.on("request", lambda r: urls.append(r.url))
        reply = fresh.evaluate("async ([q, s]) => window.bf.search(q, s ? {scope: s} : {})", [query, scope])
        fresh.close()
        assert reply["arms"] == ["lexical", "vector"] and reply["items"], query
        opened = bv.opened_files(lambda: bv.as_browser(lambda: search(open_site(out), query, scope=scope)))
        fetched = part(u[len(prefix):] for u in urls if u.startswith(prefix))
        assert fetched == part(p[len(root):] for p in opened if p.startswith(root) and Path(p).is_file()), query
        buckets = {f for f in fetched if f.startswith("_bf/search/") and f.endswith(".bin.gz") and f.split("/")[-1][0].isdigit()}
        assert len(buckets) < every, query
        if any(it["lexical_score"] is not None for it in reply["items"]):   # lexical candidates: their rows
            assert any(f.endswith("/rows.bin") for f in fetched), query
        if query.startswith("how"):   # words missed: the arm probes for its own candidates
            assert len(buckets) >= 16


@pytest.fixture(scope="module")
def chat_site(tmp_path_factory):
    from bench.conv import generate
    from builder.build import build
    root = tmp_path_factory.mktemp("chats")
    questions, _ = generate(root / "brain")
    build([root / "brain"], root / "site", now="2026-12-02T12:00:00Z", pagefind=False)
    return root / "site", questions


def test_search_and_recall_equal_python_on_chats(chat_site, page, serve_site):
    """Records with neighbour fields, results spread across days and threads (issue 16)."""
    out, questions = chat_site
    page.goto(serve_site(out) + "index.html")
    page.wait_for_function("window.bf !== undefined")
    calls = [(q["query"], {"scope": f"memories/{q['chat']}"} if k % 3 else {"limit": 50})
             for k, q in enumerate(questions[::4])]
    n, bad = compare_calls(out, page, "search", calls)
    assert n >= 80 and bad == [], bad[:3]
    n, bad = compare_calls(out, page, "recall", calls[:30])
    assert bad == [], bad[:3]
