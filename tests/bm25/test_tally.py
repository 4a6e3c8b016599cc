"""A whole index's postings counted over arrays (builder/bm25/tally.py) are each document's
field_counts (the per-document counting a watch build's update uses), whatever the fields
hold: stop words only, nothing, runs of spaceless scripts, weighted neighbours, texts met
again; and the adjacent pairs read from them are those of the bodies analysed afresh."""
from __future__ import annotations

import random

from builder.bm25 import index as index_mod, tally
from builder.bm25.adjacent import Pairs
from builder.bm25.index import ID, _MASK, field_counts
from builder.bm25.pipeline import WordMemo
from builder.bm25.scoring import FIELDS

WORDS = ["the", "of", "and", "running", "Café", "MALMÖ", "東京タワーに行く", "東", "ёлка", "ΣΑΣ", "straße",
         "مَكتبة", "한국어를", "ﬁne", "x", "42"]


def _docs(seed: int) -> list:
    rng = random.Random(seed)
    text = lambda k: " ".join(rng.choices(WORDS, k=rng.randint(0, k)))   # noqa: E731
    docs = []
    for n in range(40):
        ref = f"n{n:02d}.md"
        docs.append({"ref": ref, "title": text(3), "aliases": text(2), "headings": text(4), "body": text(30)})
        docs += [{"ref": f"{ref}#s{k}", "title": "", "aliases": "", "headings": text(2), "body": text(10)}
                 for k in range(rng.randint(0, 3))]
    shared = text(5)
    docs += [{"ref": f"chat:{k}", "group": "chat", "title": "", "aliases": "", "headings": "", "body": shared,
              "neighbours": [[shared, text(4)], [text(3)]], "conversation": 1} for k in range(5)]
    docs.append({"ref": "z.md", "title": "the of", "aliases": "", "headings": "and", "body": "the the of"})
    return docs + [None]


def _reference(docs) -> tuple[list[dict], list[int], list]:
    post, totals, lens = [{} for _ in FIELDS], [0] * len(FIELDS), []
    for d, doc in enumerate(docs):
        if doc is None:
            lens.append(None)
            continue
        counts = field_counts(doc, WordMemo())
        lens.append(tuple(min(n, _MASK) for _, n in counts))
        for fi, (tfs, n) in enumerate(counts):
            totals[fi] += n
            for term, tf in tfs.items():
                post[fi].setdefault(term, []).append(d << ID | min(tf, _MASK))
    return post, totals, lens


def test_postings_equal_each_documents_counts():
    stop_words_only = [{"ref": "a.md", "title": "the", "aliases": "of", "headings": "", "body": "the and"}]
    for docs in [_docs(seed) for seed in range(5)] + [stop_words_only, []]:
        post, totals, lens, weights, hashes = index_mod._all_postings(docs, WordMemo(), True)
        assert (post, totals, lens) == _reference(docs)
        assert weights == {t: index_mod._term_entry(post, t) for t in sorted(set().union(*post))}
        given, fresh = Pairs(hashes), Pairs()
        assert given.all(docs, WordMemo()) == fresh.all(docs, WordMemo()) and given.ids == fresh.ids


def test_summed_packed_and_not_agree():
    """summed packs its pairs into one sort key when they fit 63 bits, else sorts them by lexsort."""
    import numpy as np
    rng = np.random.default_rng(3)
    a, b, v = (rng.integers(0, 40, 500) for _ in range(3))
    want = {}
    for x, y, z in zip(a.tolist(), b.tolist(), v.tolist()):
        want[x, y] = want.get((x, y), 0) + z
    for shift in (0, 40):   # 40: a's bits and b's no longer fit one key
        got = tally.summed(np, a << shift, b, v)
        assert [(x >> shift, y) for x, y in zip(got[0].tolist(), got[1].tolist())] == sorted(want)
        assert got[2].tolist() == [want[k] for k in sorted(want)]
    ones = tally.summed(np, a, b, None)
    assert ones[2].tolist() == [sum(1 for x, y in zip(a.tolist(), b.tolist()) if (x, y) == k) for k in sorted(want)]


def test_entries_as_text_are_the_lists_bytes(monkeypatch):
    """A build without index state writes each shard entry as its JSON text (tally.entries'
    `upto`); the files are those of a build that keeps lists (a watch build), big terms too."""
    from builder.bm25 import layout
    from builder.bm25.update import IndexState
    for big in (10, 2000):
        monkeypatch.setattr(layout, "BIG_POSTINGS", big)
        for docs in [_docs(seed) for seed in range(3)]:
            docs = [doc for doc in docs if doc is not None]
            text = index_mod.index_files(docs)
            assert text == index_mod.index_files(docs, IndexState())
            assert any(rel.startswith("b/") for rel in text) == (big == 10)


def test_a_notes_body_from_its_sections_words():
    """A note's body is its pieces joined by spaces, and a section's a run of them (nested ones
    too): tally.Vocab.joined takes the sections' words; the postings are each document's
    counts all the same, whatever case or script a part is in, and where a section's text ends
    the note's but not at a space."""
    lead, deep, inner, last = "Lead ĀB running", "東京タワー ёлка", "Deep Café the", "RUNNING cafe x"
    inner_body = f"{inner} {deep}"
    notes = [{"ref": "a.md", "title": "", "aliases": "", "headings": "",
              "body": f"{lead} {inner_body} {last}", "names": ["a"]},
             {"ref": "a.md#i", "title": "", "aliases": "", "headings": "", "body": inner_body},
             {"ref": "a.md#i-d", "title": "", "aliases": "", "headings": "", "body": deep},
             {"ref": "a.md#l", "title": "", "aliases": "", "headings": "", "body": last},
             {"ref": "b.md", "title": "", "aliases": "", "headings": "", "body": "xcafe x"},
             {"ref": "b.md#c", "title": "", "aliases": "", "headings": "", "body": "cafe x"},
             {"ref": "c.md", "title": "", "aliases": "", "headings": "", "body": "cafe x"},
             {"ref": "c.md#c", "title": "", "aliases": "", "headings": "", "body": "cafe x"}]
    post, totals, lens, _, _ = index_mod._all_postings(notes, WordMemo(), True)
    assert (post, totals, lens) == _reference(notes)
