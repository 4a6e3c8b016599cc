"""What the browser downloads for one cold search of a frequent word (docs/performance.md#targets):
the stored bytes of the files the engine fetches (of a file read by Range, the bytes asked), on a generated brain where that word's
posting is a binary b/ file (builder/bm25/FORMAT.md, Big postings). The ranking's part (the
index files: shards, the b/ file, lengths, refs, owners) is held to 300 KB; the whole first
download (with the engine's modules, the vector arm and the texts the excerpts are cut from) to
the 1 MB the docs aim at."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from builder.bm25 import IndexReader, analyze

pytestmark = pytest.mark.browser

INDEX_MAX = 300_000     # the index files one cold frequent-word search fetches
DOWNLOAD_MAX = 1_000_000   # all it fetches (docs/performance.md#targets: a first download's aim)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    from bench.gen import generate
    from builder.build import build
    root = tmp_path_factory.mktemp("bytes")
    generate(root / "brain", 1000, records_per_note=1, seed=11)
    out = root / "site"
    build([root / "brain"], out, now="2026-12-02T12:00:00Z", pagefind=False)
    return out


def _frequent(site: Path) -> str:
    """The most frequent word of the index (one that analyses to itself, as bench/mix.py draws)."""
    from bench.mix import _term_counts
    reader = IndexReader(next((site / "_bf" / "search").iterdir()) / "index")
    assert reader.meta["big"] > 0
    counts = _term_counts(reader)
    return max((t for t in counts if analyze(t) == [t]), key=lambda t: (counts[t], t))


def test_a_cold_frequent_word_search_fetches_at_most_300_kb_of_index(generated, serve_site, page):
    word = _frequent(generated)
    base = serve_site(generated)
    page.goto(base + "index.html")
    page.wait_for_function("window.bf !== undefined")
    asked = []   # (url, the bytes a Range request asks for, or None: the whole file)
    page.on("request", lambda r: asked.append((r.url, r.headers.get("range"))))
    reply = page.evaluate("async (q) => window.bf.search(q)", word)
    assert reply["items"] and reply["total"] > 100, reply.get("total")
    sizes: dict[str, int] = {}
    for url, ranged in asked:   # a texts' file or a vector group's rows: the members or rows asked
        rel = url[len(base):]
        if not url.startswith(base) or not (generated / rel).is_file():
            continue
        first, _, last = (ranged or "").removeprefix("bytes=").partition("-")
        sizes[rel] = sizes.get(rel, 0) + int(last) - int(first) + 1 if ranged else (generated / rel).stat().st_size
    assert any("/index/b/" in rel for rel in sizes), rels   # the posting came from a binary b/ file
    total = sum(sizes.values())
    index = sum(size for rel, size in sizes.items() if "/index/" in rel)
    from crawl import ARTIFACTS
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    kinds: dict[str, int] = {}   # per folder (file kind): what to cut next
    for rel, size in sizes.items():
        kinds[rel.rpartition("/")[0]] = kinds.get(rel.rpartition("/")[0], 0) + size
    (ARTIFACTS / "search-bytes.json").write_text(json.dumps({"word": word, "bytes": total, "index_bytes": index,
                                                             "kinds": dict(sorted(kinds.items(), key=lambda kv: -kv[1])),
                                                             "files": sizes}, indent=2) + "\n")
    largest = sorted(sizes.items(), key=lambda kv: -kv[1])[:10]
    assert index <= INDEX_MAX, largest
    assert total <= DOWNLOAD_MAX, largest
