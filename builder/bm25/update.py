"""Update an index in place when few documents changed (issue 15): the build state of one index.

Doc ids are positions in ref order, and postings hold only integers per document (FORMAT.md), so
an edit changes exactly the postings of the terms the changed documents held before or hold now:
those are patched, their term entries re-encoded, and only the files whose JSON value differs
are dumped and packed again. A document added or removed (a new record, a deleted or renamed
note) also shifts the ids after it: the postings of removed documents are taken out first, then
every later entry is moved by its run's shift (ids keep their order, so lists stay sorted), and
the terms holding a moved entry are re-encoded too — cheaper than analysing every text again.
The result is, by construction and by tests/bm25/test_index_update.py, the bytes index_files
gives from scratch.
"""
from __future__ import annotations

from bisect import bisect_left, insort

from ..kernel.parallel import fork_each
from .index import (_LONE_SURROGATE, _MASK, PARALLEL_DOCS, _term_entry, dump_file, entry_base, field_counts, layout,
                    stored_name)
from .pipeline import WordMemo

PARALLEL_FILES = 200   # files dumped again: fewer are dumped faster than workers start


class IndexState:
    """The last index of one brain: its documents, postings, term entries and files."""

    def __init__(self):
        self.refs: list[str] | None = None

    def keep(self, docs, refs, post, totals, weights, files, stored, memo: WordMemo) -> None:
        self.docs, self.refs, self.post, self.totals = docs, refs, post, list(totals)
        self.weights, self.files, self.stored, self.memo = weights, files, stored, memo

    def update(self, docs, refs: list[str]) -> dict[str, bytes]:
        """The index of `docs` (sorted by ref; `refs` their refs)."""
        try:
            return self._update(docs, refs)
        except BaseException:   # half patched: the next build indexes from scratch
            self.refs = None
            raise

    def _update(self, docs, refs: list[str]) -> dict[str, bytes]:
        touched: set[str] = set()
        olds = self.docs if refs == self.refs else self._realign(refs, touched)
        for d, (old, new) in enumerate(zip(olds, docs)):
            if old is None:
                self._patch(d, new, +1, touched)
            elif old != new:
                self._patch(d, old, -1, touched)
                self._patch(d, new, +1, touched)
        self.refs = refs
        added = False
        live = sorted(t for t in touched if not _LONE_SURROGATE.search(t) and any(t in pf for pf in self.post))
        for term in touched - set(live):
            self.weights.pop(term, None)
        for term, entry in zip(live, fork_each(_term_entry, live, self.post, len(live) > PARALLEL_DOCS)):
            added |= term not in self.weights
            self.weights[term] = entry
        if added:    # layout numbers big terms in term order
            self.weights = {t: self.weights[t] for t in sorted(self.weights)}
        files = layout(docs, self.refs, self.totals, self.weights, self.memo)
        todo = [rel for rel in sorted(files) if not (stored_name(rel) in self.stored and self.files.get(rel) == files[rel])]
        dumped = dict(zip(todo, fork_each(dump_file, todo, files, len(todo) > PARALLEL_FILES)))
        stored = {stored_name(rel): dumped[rel] if rel in dumped else self.stored[stored_name(rel)] for rel in sorted(files)}
        self.docs, self.files, self.stored = docs, files, stored
        return stored

    def _realign(self, refs: list[str], touched: set[str]) -> list:
        """Renumber the kept postings for `refs`: take out the documents no longer there, move
        every later entry by its run's shift; returns the kept document (or None) at each new id.
        Terms whose entries moved or went are added to `touched`."""
        at = {ref: i for i, ref in enumerate(refs)}
        for d in reversed(range(len(self.refs))):    # from the end: a removal moves no id before it
            if self.refs[d] not in at:
                self._patch(d, self.docs[d], -1, touched)
        olds: list = [None] * len(refs)
        runs: list[list[int]] = []                    # [first old id, end, shift] of kept ids
        for d, ref in enumerate(self.refs):
            new = at.get(ref)
            if new is None:
                continue
            olds[new] = self.docs[d]
            if runs and runs[-1][2] == new - d and runs[-1][1] == d:
                runs[-1][1] = d + 1
            else:
                runs.append([d, d + 1, new - d])
        moves = [(lo << 48, hi << 48, shift << 48) for lo, hi, shift in runs if shift]
        if moves:
            first = moves[0][0]
            for pf in self.post:
                for term, entries in pf.items():
                    if entries[-1] < first:
                        continue
                    # every run's place first: a run moved up may pass the old ids of the next
                    spans = [(bisect_left(entries, lo), bisect_left(entries, hi), shift) for lo, hi, shift in moves]
                    for i, j, shift in spans:
                        if i < j:
                            entries[i:j] = [e + shift for e in entries[i:j]]
                            touched.add(term)
        return olds

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
