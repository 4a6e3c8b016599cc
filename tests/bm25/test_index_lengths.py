"""Postings hold term frequencies and l/ files the documents' field lengths (builder/bm25/FORMAT.md,
bf-lunr-6): a body edit that keeps a term's frequency keeps its posting."""
from __future__ import annotations

import json

from builder.bm25 import index_files
from builder.bm25.update import IndexState
from builder.kernel.packs import unpack


def _json(files, rel):
    return json.loads(unpack(files[rel + ".gz"]))


def test_postings_hold_frequencies_and_l_files_lengths():
    docs = [{"ref": "a.md", "title": "Zebra", "body": "quartz " * 20 + "lemon"},
            {"ref": "b.md", "title": "", "body": "lemon lemon", "neighbours": [["quartz"], []]}]
    files = index_files(docs)
    shard = _json(files, "t/0.json")
    assert shard["quartz"] == [[3, [0], [20]], [4, [1], [2]]]   # neighbours at distance 1: tf * scale
    assert shard["lemon"] == [[3, [0, 1], [1, 2]]]
    meta = json.loads(files["meta.json"])
    assert meta["lengthChunks"] == 1 and meta["lengths"]["body"] == 23
    assert _json(files, "l/0.json") == [[1, 0], [0, 0], [0, 0], [21, 2], []]   # neighbours: b 0, left out


def test_a_longer_body_rewrites_its_l_file_not_the_postings_of_its_other_terms():
    docs = [{"ref": f"n{i}.md", "title": f"Note {i}", "body": f"shared words here number{i}"} for i in range(30)]
    state = IndexState()
    before = index_files([dict(d) for d in docs], state)
    docs[7]["body"] += " onlyhereword"
    after = index_files([dict(d) for d in docs], state)
    assert after == index_files([dict(d) for d in docs])
    redone = {name for name in after if after[name] is not before[name]}
    pairs = {name for name in redone if name.startswith("a/")}   # the shard of its new adjacent pair
    assert {"meta.json", "l/0.json.gz"} <= redone and len(pairs) == 1 and len(redone - pairs) <= 3, redone   # and the new word's shard
