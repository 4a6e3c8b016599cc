"""Update an index in place when few documents changed (issue 15): the build state of one index.

Doc ids are positions in ref order, and postings hold only integers per document (FORMAT.md), so
when the set of refs is unchanged an edit changes exactly the postings of the terms the changed
documents held before or hold now: those are patched, their term entries re-encoded, and only
the files whose JSON value differs are dumped and packed again. Any other change (a document
added, removed or renamed shifts every later id) indexes from scratch. The result is, by
construction and by tests/bm25/test_index_update.py, the bytes index_files gives from scratch.
"""
from __future__ import annotations

from bisect import bisect_left, insort

from .index import _LONE_SURROGATE, _MASK, _term_entry, dump_file, entry_base, field_counts, layout, stored_name
from .pipeline import WordMemo


class IndexState:
    """The last index of one brain: its documents, postings, term entries and files."""

    def __init__(self):
        self.refs: list[str] | None = None

    def keep(self, docs, refs, post, totals, weights, files, stored, memo: WordMemo) -> None:
        self.docs, self.refs, self.post, self.totals = docs, refs, post, list(totals)
        self.weights, self.files, self.stored, self.memo = weights, files, stored, memo

    def update(self, docs) -> dict[str, bytes]:
        """The index of `docs` (sorted by ref, the same refs as the kept index)."""
        try:
            return self._update(docs)
        except BaseException:   # half patched: the next build indexes from scratch
            self.refs = None
            raise

    def _update(self, docs) -> dict[str, bytes]:
        touched: set[str] = set()
        for d, (old, new) in enumerate(zip(self.docs, docs)):
            if old != new:
                self._patch(d, old, -1, touched)
                self._patch(d, new, +1, touched)
        added = False
        for term in touched:
            if _LONE_SURROGATE.search(term):
                continue
            if any(term in pf for pf in self.post):
                added |= term not in self.weights
                self.weights[term] = _term_entry(self.post, term)
            else:
                self.weights.pop(term, None)
        if added:    # layout numbers big terms in term order
            self.weights = {t: self.weights[t] for t in sorted(self.weights)}
        files = layout(docs, self.refs, self.totals, self.weights, self.memo)
        stored = {}
        for rel in sorted(files):
            name = stored_name(rel)
            same = name in self.stored and self.files.get(rel) == files[rel]
            stored[name] = self.stored[name] if same else dump_file(files, rel)
        self.docs, self.files, self.stored = docs, files, stored
        return stored

    def _patch(self, d: int, doc, sign: int, touched: set[str]) -> None:
        """Take doc `d`'s postings out (sign -1, `doc` its old value) or put them in (+1)."""
        for fi, (counts, n) in enumerate(field_counts(doc, self.memo)):
            if not n:
                continue
            self.totals[fi] += sign * n
            pf = self.post[fi]
            at = entry_base(d, fi, n)
            for term, tf in counts.items():
                touched.add(term)
                if sign > 0:
                    insort(pf.setdefault(term, []), at | min(tf, _MASK))
                    continue
                entries = pf[term]
                del entries[bisect_left(entries, d << 48)]
                if not entries:
                    del pf[term]
