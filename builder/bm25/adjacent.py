"""The index's adjacent-pair filter (FORMAT.md a/): which documents hold two terms one right
after the other, by hashed pair, so a phrase search (docs/replies.md#matching-and-ranking) reads the text of
only the hits that may hold its phrase rather than of every hit holding its words
(docs/decisions.md#phrase-searches-read-the-text-of-hits-that-may-hold-the-phrase-bf-lunr-9-bundle-9).

A pair of exact terms (a, b) falls in bucket ((fnv1a(a) * MIX) ^ fnv1a(b)) mod BUCKETS (integer
arithmetic, the same in site/engine/bm25/adjacent.js). A document's buckets are those of each two
adjacent positions of its body (the text a phrase is checked against); a section has none of
its own: its text is a run of its note's, so it is filtered as its note (o/). A bucket may hold
other pairs too: the filter only drops hits that cannot hold the phrase, the text check stays."""
from __future__ import annotations

from bisect import insort
from itertools import chain

from .pipeline import WordMemo, _words, analyze_pairs
from .postings import gaps
from .scoring import fnv1a

BUCKETS = 1 << 13          # ~2.5% of hits holding a note's words pass without its phrase (10k notes)
MIX = 0x01000193
SHARD_TARGET = 256 * 1024  # aimed bytes per a/N.json as shards() counts them: few files (only
                           # phrases read them), and a new record rewrites only the shards of its pairs


def phrase_buckets(terms: list[str], buckets: int) -> list[int]:
    """The buckets of each two adjacent terms of a phrase (its exact terms), ascending."""
    hs = [fnv1a(t) for t in terms]
    return sorted({(a * MIX ^ b) & (buckets - 1) for a, b in zip(hs, hs[1:])})


def is_section(doc: dict) -> bool:
    """A section (group "", a ref with "#": layout._owner_offsets) is filtered as its note."""
    return not doc.get("group") and "#" in doc["ref"]


class Pairs:
    """The documents of each bucket (`ids`: bucket → doc ids ascending), kept between builds (a
    watch build's index state); `words`: word → the fnv1a of its exact terms (analysed once); `hashes`: term → its fnv1a.
    `given`: all()'s documents' hashes, when their analysis made them (tally.body_hashes)."""

    def __init__(self, given: tuple | None = None):
        self.given = given
        self.ids: dict[int, list[int]] = {}
        self.words: dict[str, tuple] = {}
        self.hashes: dict[str, int] = {}   # exact term -> its fnv1a

    def _hashes(self, doc: dict | None, memo: WordMemo) -> list[int]:
        """The fnv1a of each exact term of a document's body, in order ([] for a section)."""
        if doc is None or is_section(doc) or not doc.get("body"):
            return []
        words = _words(doc["body"])
        known, hashes = self.words, self.hashes
        for w in set(words).difference(known):
            terms = [e for e, _ in analyze_pairs(w, memo)]
            for t in set(terms).difference(hashes):   # a run of a spaceless script is a word of its own
                hashes[t] = fnv1a(t)
            known[w] = tuple(map(hashes.__getitem__, terms))
        return list(chain.from_iterable(map(known.__getitem__, words)))

    def buckets(self, doc: dict | None, memo: WordMemo) -> set[int]:
        hs = self._hashes(doc, memo)
        return {(a * MIX ^ b) & (BUCKETS - 1) for a, b in zip(hs, hs[1:])}

    def all(self, docs, memo: WordMemo) -> dict[str, dict]:
        """The a/ files of `docs` (by doc id, None at an unused id), every document looked at:
        the pairs of all of them in arrays (a Python loop per pair is far slower at 10k notes)."""
        import numpy as np   # the build's only: a query reads phrase_buckets, and numpy costs a cold search ~50 ms
        if self.given is not None and len(self.given[1]) == len(docs):
            hs, sizes = self.given
        else:
            seqs = [self._hashes(doc, memo) for doc in docs]
            sizes = np.fromiter(map(len, seqs), dtype=np.int64, count=len(seqs))
            hs = np.fromiter(chain.from_iterable(seqs), dtype=np.uint64, count=int(sizes.sum()))
        self.given = None
        owner = np.repeat(np.arange(len(sizes), dtype=np.uint64), sizes)
        inside = owner[1:] == owner[:-1]   # two positions of one document
        bucket = ((hs[:-1] * np.uint64(MIX)) ^ hs[1:]) & np.uint64(BUCKETS - 1)
        keys = np.sort((bucket[inside] << np.uint64(32)) | owner[:-1][inside])   # by bucket, then doc
        keys = keys[np.r_[True, keys[1:] != keys[:-1]]] if len(keys) else keys   # (np.unique hashed: 13x slower)
        which, ids = (keys >> np.uint64(32)).astype(np.int64), (keys & np.uint64(0xFFFFFFFF)).astype(np.int64)
        starts = np.flatnonzero(np.r_[True, which[1:] != which[:-1]]) if len(keys) else np.zeros(0, np.int64)
        self.ids = {int(which[s]): run for s, run in zip(starts, map(np.ndarray.tolist, np.split(ids, starts[1:])))}
        gaps = np.r_[ids[:1], ids[1:] - ids[:-1]]
        gaps[starts] = ids[starts]   # a bucket's first id as is
        return self._files(range(self.shards()), dict(zip(self.ids, map(np.ndarray.tolist, np.split(gaps, starts[1:])))))

    def update(self, changed: dict[int, tuple], memo: WordMemo, files: dict) -> set[str]:
        """Look again at the documents `changed` (doc id → (its last document, its document),
        either None; no other id moved); put the a/ files that changed in `files`, returns their
        names."""
        moved = set()
        for d, (was, now) in sorted(changed.items()):
            old, new = self.buckets(was, memo), self.buckets(now, memo)
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
            return _swap(files, self._files(range(shards)))
        made = self._files(sorted({b & (shards - 1) for b in moved}))
        files.update(made)
        return set(made)

    def again(self, docs, memo: WordMemo, files: dict) -> set[str]:
        """all(docs) in place of the a/ files in `files` (an update whose ids moved); returns the
        names of those that changed."""
        return _swap(files, self.all(docs, memo))

    def shards(self) -> int:
        est = sum(8 + 6 * len(ids) for ids in self.ids.values())
        shards = 1
        while shards * SHARD_TARGET < est:
            shards *= 2
        return shards

    def _files(self, which, gapped: dict | None = None) -> dict[str, dict]:
        """The a/ shards numbered `which`; `gapped`: each bucket's ids as gaps, when made already."""
        shards = self.shards()
        tables: dict[int, dict] = {k: {} for k in which}
        for b, ids in sorted(self.ids.items()):
            table = tables.get(b & (shards - 1))
            if table is not None:
                table[str(b)] = gapped[b] if gapped is not None else gaps(ids)
        return {f"a/{k}.json": table for k, table in tables.items()}


def _swap(files: dict, made: dict) -> set[str]:
    """Put the a/ files `made` in `files` instead of its a/ files; the names whose value changed."""
    old = {rel: files.pop(rel) for rel in [rel for rel in files if rel.startswith("a/")]}
    files.update(made)
    return {rel for rel, value in made.items() if old.get(rel) != value}
