"""The index's adjacent-pair filter (FORMAT.md a/): which documents hold two terms one right
after the other, by hashed pair, so a phrase search (SPEC §5) reads the text of only the hits
that may hold its phrase rather than of every hit holding its words (issue 17: up to 6.8 MB).

A pair of exact terms (a, b) falls in bucket ((fnv1a(a) * MIX) ^ fnv1a(b)) mod BUCKETS (integer
arithmetic, the same in site/engine/bm25/adjacent.js). A document's buckets are those of each two
adjacent positions of its body (the text a phrase is checked against); a section has none of
its own: its text is a run of its note's, so it is filtered as its note (o/). A bucket may hold
other pairs too: the filter only drops hits that cannot hold the phrase, the text check stays."""
from __future__ import annotations

from bisect import insort
from itertools import chain, islice, repeat
from operator import and_, mul, xor

from .pipeline import WordMemo, _words, analyze_pairs
from .scoring import fnv1a

BUCKETS = 1 << 13          # ~2.5% of hits holding a note's words pass without its phrase (10k notes)
MIX = 0x01000193
SHARD_TARGET = 48 * 1024   # aimed JSON bytes per a/N.json: a new record rewrites the ~40 shards of its pairs


def phrase_buckets(terms: list[str], buckets: int) -> list[int]:
    """The buckets of each two adjacent terms of a phrase (its exact terms), ascending."""
    hs = [fnv1a(t) for t in terms]
    return sorted({(a * MIX ^ b) & (buckets - 1) for a, b in zip(hs, hs[1:])})


def is_section(doc: dict) -> bool:
    """A section (group "", a ref with "#": layout._owner_offsets) is filtered as its note."""
    return not doc.get("group") and "#" in doc["ref"]


class Pairs:
    """The buckets of each document and the documents of each bucket, kept between builds (a
    watch build's index state): `by_doc` doc id → its buckets, `ids` bucket → doc ids ascending,
    `words` word → the fnv1a of its exact terms (analysed once)."""

    def __init__(self):
        self.by_doc: dict[int, frozenset] = {}
        self.ids: dict[int, list[int]] = {}
        self.words: dict[str, tuple] = {}

    def buckets(self, doc: dict | None, memo: WordMemo) -> frozenset:
        if doc is None or is_section(doc) or not doc.get("body"):
            return frozenset()
        words = _words(doc["body"])
        known = self.words
        for w in set(words).difference(known):
            known[w] = tuple(fnv1a(e) for e, _ in analyze_pairs(w, memo))
        hs = list(chain.from_iterable(map(known.__getitem__, words)))
        return frozenset(map(and_, map(xor, map(mul, hs, repeat(MIX)), islice(hs, 1, None)), repeat(BUCKETS - 1)))

    def all(self, docs, memo: WordMemo) -> dict[str, dict]:
        """The a/ files of `docs` (by doc id, None at an unused id), every document looked at."""
        self.by_doc, self.ids = {}, {}
        for d, doc in enumerate(docs):
            got = self.buckets(doc, memo)
            if got:
                self.by_doc[d] = got
                for b in got:
                    self.ids.setdefault(b, []).append(d)
        return self._files(range(self.shards()))

    def update(self, docs, changed, memo: WordMemo, files: dict) -> set[str]:
        """Look again at the documents of ids `changed` (no other id moved); put the a/ files
        that changed in `files`, returns their names."""
        moved = set()
        for d in sorted(changed):
            old = self.by_doc.pop(d, frozenset())
            new = self.buckets(docs[d] if d < len(docs) else None, memo)
            if new:
                self.by_doc[d] = new
            for b in old ^ new:
                ids = self.ids.setdefault(b, [])
                if b in old:
                    ids.remove(d)
                    if not ids:
                        del self.ids[b]
                else:
                    insort(ids, d)
                moved.add(b)
        shards = self.shards()
        if shards != sum(rel.startswith("a/") for rel in files):   # the shard count stepped
            for rel in [rel for rel in files if rel.startswith("a/")]:
                del files[rel]
            made = self._files(range(shards))
        else:
            made = self._files(sorted({b & (shards - 1) for b in moved}))
        files.update(made)
        return set(made)

    def shards(self) -> int:
        est = sum(8 + 6 * len(ids) for ids in self.ids.values())
        shards = 1
        while shards * SHARD_TARGET < est:
            shards *= 2
        return shards

    def _files(self, which) -> dict[str, dict]:
        shards = self.shards()
        tables: dict[int, dict] = {k: {} for k in which}
        for b, ids in self.ids.items():
            table = tables.get(b & (shards - 1))
            if table is not None and ids:
                table[str(b)] = [ids[0]] + [y - x for x, y in zip(ids, ids[1:])]
        return {f"a/{k}.json": table for k, table in tables.items()}
