"""An index updated in place (builder/bm25/update.py) is byte for byte the index built from scratch,
through random sequences of edits: bodies, titles, names, neighbours, conversations, groups,
facets and placed instants changed, fields emptied, a word made frequent enough to move to a big-term file and back, and
documents added, removed or renamed (their later ids shift), one to three edits per build."""
from __future__ import annotations

import random

from bm25_corpus import make_docs

from builder.bm25 import index_files
from builder.bm25 import index as index_mod
from builder.bm25 import layout as layout_mod
from builder.bm25.update import IndexState

all_postings = index_mod._all_postings


def _edit(rng: random.Random, docs: list[dict], vocab: list[str]) -> str:
    doc = rng.choice(docs)
    kind = rng.choice(["body", "body", "title", "names", "neighbours", "conversation", "group", "empty", "frequent",
                       "facets", "placed", "add", "remove", "rename"])
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
    elif kind == "facets":
        doc["facets"] = sorted(set(rng.sample(["deprecated", "tag:a", "tag:a/b", "type:x", "entity:person:p"], rng.randint(0, 3))))
    elif kind == "placed":
        doc["placed"] = rng.choice([None, rng.randint(-10**9, 2 * 10**9)])
    elif kind == "group":
        doc["group"] = rng.choice(["chat", "mail", ""])
    elif kind == "empty":
        doc.update(title="", aliases="", headings="", body="")
    elif kind == "frequent":   # one word in many documents: crosses BIG_POSTINGS (patched small below)
        word = rng.choice(["zebraword", "quartzword"])
        for other in rng.sample(docs, min(len(docs), rng.randint(1, 12))):
            other["body"] = (other.get("body") or "") + (f" {word}" if rng.random() < 0.7 else "")
    elif kind == "add":
        docs.append({"ref": f"{rng.choice(['a', 'm', 'new', 'z'])}/{rng.randint(0, 10**6)}.md", "title": words(2), "body": words(20)})
    elif kind == "remove" and len(docs) > 5:
        docs.remove(doc)
    elif kind == "rename":
        doc["ref"] = f"{rng.choice(['a', 'm', 'z'])}/{rng.randint(0, 10**6)}.md"
    return kind


def test_updates_equal_a_build_from_scratch(monkeypatch):
    monkeypatch.setattr(layout_mod, "BIG_POSTINGS", 8)   # so an edit moves terms in and out of b/ files
    docs, vocab = make_docs(60, words=60, seed=7)
    rng = random.Random(15)
    state = IndexState()
    index_files([dict(d) for d in docs], state)
    scratch = []
    monkeypatch.setattr(index_mod, "_all_postings", lambda *a: scratch.append(1) or all_postings(*a))
    for step in range(120):
        kinds = [_edit(rng, docs, vocab) for _ in range(rng.choice((1, 1, 2, 3)))]
        fresh = index_files([dict(d) for d in docs])
        assert index_files([dict(d) for d in docs], state) == fresh, f"step {step}: {kinds}"
    assert len(scratch) == 120   # the fresh builds only: every update took the in-place path


def test_unchanged_files_keep_their_bytes_objects():
    docs, _ = make_docs(40, words=40, seed=3)
    state = IndexState()
    before = index_files([dict(d) for d in docs], state)
    docs[5]["body"] += " onlyhereword"
    after = index_files([dict(d) for d in docs], state)
    redone = [name for name in after if after[name] is not before[name]]
    assert "meta.json" in redone and len(redone) < len(after) / 2, redone
