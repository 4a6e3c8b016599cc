"""An index updated in place (builder/bm25/update.py) is byte for byte the index built from scratch,
through random sequences of edits: bodies, titles, names, neighbours, conversations and groups
changed, fields emptied, a word made frequent enough to move to a big-term file and back, and
documents added or removed (which index from scratch)."""
from __future__ import annotations

import random

from bm25_corpus import make_docs

from builder.bm25 import index_files
from builder.bm25 import index as index_mod
from builder.bm25.update import IndexState


def _edit(rng: random.Random, docs: list[dict], vocab: list[str]) -> str:
    doc = rng.choice(docs)
    kind = rng.choice(["body", "body", "title", "names", "neighbours", "conversation", "group", "empty", "frequent",
                       "add", "remove"])
    words = lambda k: " ".join(rng.choices(vocab[:200], k=k))   # noqa: E731 — a few common words
    if kind == "body":
        doc["body"] = words(rng.randint(0, 80))
    elif kind == "title":
        doc["title"] = words(rng.randint(1, 4)).title()
    elif kind == "names":
        doc["names"] = [words(2), doc["title"]]
    elif kind == "neighbours":
        doc["neighbours"] = [[words(5)], [words(3), words(2)]]
    elif kind == "conversation":
        doc["conversation"] = rng.randint(1, 4)
    elif kind == "group":
        doc["group"] = rng.choice(["chat", "mail", ""])
    elif kind == "empty":
        doc.update(title="", aliases="", headings="", body="")
    elif kind == "frequent":   # one word in many documents: crosses BIG_POSTINGS (patched small below)
        word = rng.choice(["zebraword", "quartzword"])
        for other in rng.sample(docs, min(len(docs), rng.randint(1, 12))):
            other["body"] = (other.get("body") or "") + (f" {word}" if rng.random() < 0.7 else "")
    elif kind == "add":
        docs.append({"ref": f"new/{rng.randint(0, 10**6)}.md", "title": words(2), "body": words(20)})
    elif kind == "remove" and len(docs) > 5:
        docs.remove(doc)
    return kind


def test_updates_equal_a_build_from_scratch(monkeypatch):
    monkeypatch.setattr(index_mod, "BIG_POSTINGS", 8)   # so an edit moves terms in and out of b/ files
    docs, vocab = make_docs(60, words=60, seed=7)
    rng = random.Random(15)
    state = IndexState()
    index_files([dict(d) for d in docs], state)
    updated = 0
    for step in range(120):
        kind = _edit(rng, docs, vocab)
        fresh = index_files([dict(d) for d in docs])
        patched_in_place = state.refs == sorted(d["ref"] for d in docs)
        assert index_files([dict(d) for d in docs], state) == fresh, f"step {step}: {kind}"
        updated += patched_in_place
    assert updated > 60   # most steps took the in-place path, not a rebuild from scratch


def test_unchanged_files_keep_their_bytes_objects():
    docs, _ = make_docs(40, words=40, seed=3)
    state = IndexState()
    before = index_files([dict(d) for d in docs], state)
    docs[5]["body"] += " onlyhereword"
    after = index_files([dict(d) for d in docs], state)
    redone = [name for name in after if after[name] is not before[name]]
    assert "meta.json" in redone and len(redone) < len(after) / 2, redone
