"""Update an index in place when few documents changed (bf serve --watch): the build state of one index.

Postings hold only doc ids and term frequencies (FORMAT.md; a document's lengths are in its l/
file), so an edit changes exactly the postings of the terms whose frequency in the changed
documents changed: those are patched, their term entries re-encoded and put in their shards (or
b/ files), and only the files they are in are dumped and packed again, from each shard term's
JSON kept between updates. Doc ids are layout.arrange's: by group, each group with room after
it, ref order within. A record added at the end of its source's refs (a new chat message, named
by its time) takes a free id and moves none. A document added or removed elsewhere in its group
shifts the later ids of that group only (and, when a group outgrows its room, every later
group): the postings of removed documents are taken out first, then every later entry is moved
by its run's shift (ids keep their order, so lists stay sorted), and the terms holding a moved
entry are re-encoded too — cheaper than analysing every text again. The result is, by
construction and by tests/bm25/test_index_update.py, the bytes index_files gives from scratch.
"""
from __future__ import annotations

from bisect import bisect_left, insort
from itertools import compress
from operator import ne

from ..kernel.canon import canonical_json
from ..kernel.packs import pack_all
from ..kernel.parallel import Spread
from .adjacent import Pairs, is_section
from .index import _MASK, ID, PARALLEL_DOCS, _term_entry, field_counts, fnv1a, lengths, stored_name
from .layout import (_LONE_SURROGATE, PER_DOC_DIRS, big_file, deprecated, doc_files, file_bytes, length_chunk, length_file,
                     meta, term_files, term_plan)
from .pipeline import WordMemo
from .scoring import FIELDS

PER_DOC = ("names", "facets", "conversation", "group", "placed")   # what doc_files reads of a document beside its ref


class IndexState:
    """The last index of one brain: its documents, postings, term entries and files."""

    def __init__(self):
        self.refs: list[str] | None = None
        self.arranged: dict = {}   # layout.arrange's last order

    def keep(self, docs, refs, post, totals, lens, weights, files, stored, memo: WordMemo, facets: dict, pairs: Pairs) -> None:
        self.docs, self.refs, self.post, self.totals, self.lens = docs, refs, post, list(totals), lens
        self.weights, self.files, self.stored, self.memo = weights, files, stored, memo
        self.plan = term_plan(weights)
        self.json: dict[str, bytes] = {}      # term -> its `"term":value` in its shard's JSON
        self.keys: dict[str, str] = {}        # name -> its name key (index._names)
        self.facets = facets                  # layout._facets' memo, kept: making it costs an update a pass over every doc
        self.pairs = pairs                    # the adjacent pairs' (adjacent.py)

    def update(self, docs, refs: list, groups: list, spread: Spread) -> dict[str, bytes]:
        """The index of `docs` (by doc id, `refs` theirs and `groups` their spans: layout.arrange),
        re-weighing over the workers `spread` allows."""
        try:
            return self._update(docs, refs, groups, spread)
        except BaseException:   # half patched: the next build indexes from scratch
            self.refs = None
            raise

    def _update(self, docs, refs: list, groups: list, spread: Spread) -> dict[str, bytes]:
        touched: set[str] = set()
        moved = refs != self.refs
        shifted: dict[str, list] = {}   # term -> where its entries moved (_realign)
        olds, gone, shift = self._realign(docs, refs, touched, shifted) if moved else (self.docs, {}, False)
        per_doc = moved
        measured = set()   # l/ files holding a changed length
        changed = set(gone)   # ids whose document changed, came or went
        named = any("names" in doc for doc in gone.values())
        faceted = any(doc.get("facets") for doc in gone.values())
        bodied = {d: (doc, None) for d, doc in gone.items()}   # id → (last, this document) whose body changed
        for d, (old, new) in enumerate(zip(olds, docs)):
            if old is new:
                continue
            if old is None or new is None or old.get("body") != new.get("body") or is_section(old) != is_section(new):
                bodied[d] = (bodied[d][0] if d in bodied else old, new)
            if old is None:
                self._patch(d, None, new, touched)
                changed.add(d)
                named = named or "names" in new
                faceted = faceted or bool(new.get("facets"))
            elif old != new:
                if any(old.get(f) != new.get(f) for f in FIELDS):   # else its postings are unchanged
                    if self._patch(d, old, new, touched):
                        measured.add(length_file(d))
                        changed.add(d)
                if any(old.get(k) != new.get(k) for k in PER_DOC):
                    per_doc, named = True, named or old.get("names") != new.get("names")
                    faceted = faceted or old.get("facets") != new.get("facets")
                    changed.add(d)
        self.refs = refs
        self._reweigh(touched, shifted, spread)
        files = dict(self.files)
        todo = self._terms(files, touched | shifted.keys())
        if not per_doc:
            for rel in measured:
                files[rel] = length_chunk(self.lens, int(rel[2:-5]))
            todo |= measured
        else:
            made = doc_files(docs, refs, self.lens, self.memo, self.keys, None if shift else (self.files, changed, named, faceted),
                             self.facets)
            for rel in [rel for rel in files if rel[:2] in PER_DOC_DIRS and rel not in made]:
                del files[rel]
            todo |= {rel for rel, value in made.items() if files.get(rel) != value}
            files.update(made)
        if shift:   # ids moved: every document's pairs again
            todo |= self.pairs.again(docs, self.memo, files)
        else:
            todo |= self.pairs.update(bodied, self.memo, files)
        gone = deprecated(docs) if faceted or shift else self.files["meta.json"]["deprecated"]   # else none moved
        files["meta.json"] = meta(refs, self.totals, self.weights, self.plan, files, groups, gone)
        todo.add("meta.json")
        rels = sorted(todo)
        dumped = dict(zip(rels, self._dump(files, rels)))
        stored = {stored_name(rel): dumped[rel] if rel in dumped else self.stored[stored_name(rel)] for rel in sorted(files)}
        self.docs, self.files, self.stored = docs, files, stored
        return stored

    def _reweigh(self, touched: set[str], shifted: dict[str, list], spread: Spread) -> None:
        """The weights of the `touched` terms encoded again, of those only `shifted` moved."""
        added = False
        live = sorted(t for t in touched if not _LONE_SURROGATE.search(t) and any(t in pf for pf in self.post))
        for term in touched - set(live):
            self.weights.pop(term, None)
        for term, spans in shifted.items():   # only moved: no need to encode it again
            if term not in touched and term in self.weights:
                self.weights[term] = _shifted(self.weights[term], spans)
        for term, entry in zip(live, spread.each(_term_entry, live, self.post, worth=len(live) > PARALLEL_DOCS)):
            added |= term not in self.weights
            self.weights[term] = entry
        if added:    # term_plan numbers big terms in term order
            self.weights = {t: self.weights[t] for t in sorted(self.weights)}

    def _terms(self, files: dict, touched: set[str]) -> set[str]:
        """Put the touched terms' entries in `files` (its t/ and b/ files replaced, never
        mutated: they are the last index's too); return the files changed."""
        plan = term_plan(self.weights)
        if plan != self.plan:   # shards or big numbers moved: lay every term out again
            self.plan, self.json = plan, {}
            made = term_files(self.weights, *plan)
            for rel in [rel for rel in files if rel[:2] in ("t/", "b/") and rel not in made]:
                del files[rel]
            changed = {rel for rel, value in made.items() if files.get(rel) != value}
            files.update(made)
            return changed
        shards, big = plan
        changed = set()
        for term in touched:
            self.json.pop(term, None)
            count, entry, h = self.weights.get(term) or (0, None, fnv1a(term))
            rel = f"t/{h & (shards - 1)}.json"
            k = big.get(term)
            if k is not None:   # its shard holds its number, unchanged
                files[big_file(k)] = entry
                changed.add(big_file(k))
                continue
            if rel not in changed:
                files[rel] = dict(files[rel])
                changed.add(rel)
            if entry is None:
                files[rel].pop(term, None)
            else:
                files[rel][term] = entry
        return changed

    def _dump(self, files: dict, rels: list[str]) -> list[bytes]:
        """The stored bytes of `rels` (index.dump_file's): shards from their terms' kept JSON."""
        data = [self._shard_json(files[rel]) if rel.startswith("t/") else file_bytes(rel, files[rel]) for rel in rels]
        todo = [i for i, rel in enumerate(rels) if rel != "meta.json"]
        for i, p in zip(todo, pack_all([data[i] for i in todo], numbers=True)):
            data[i] = p
        return data

    def _shard_json(self, table: dict) -> bytes:
        """canonical_json(table), from each term's JSON (made once until its entry changes)."""
        kept = self.json
        terms = sorted(table)
        if sum(term not in kept for term in terms) > 16:
            # a shard first touched since the full index: one dumps, cut into its terms' parts (a
            # term's value holds only numbers and a term no quote, so `,"` parts terms), rather
            # than a dumps per term (the first new record re-encodes ~100 shards)
            data = canonical_json(table)
            cut = data[1:-1].split(b',"')
            if len(cut) == len(terms):
                kept.update(zip(terms, [cut[0]] + [b'"' + part for part in cut[1:]]))
                return data
        parts = []
        for term in terms:
            part = kept.get(term)
            if part is None:
                part = kept[term] = canonical_json(term) + b":" + canonical_json(table[term])
            parts.append(part)
        return b"{" + b",".join(parts) + b"}"

    def _realign(self, docs: list, refs: list, touched: set[str], shifted: dict[str, list]) -> tuple:
        """Renumber the kept postings for `docs` (by id; `refs` theirs): take out the documents
        no longer there or now in another group (put in again as new: the others keep their
        order), move every later entry by its run's shift. Returns (the kept document, or None,
        at each new id; {old id: document} of those taken out; whether any kept id moved).
        Terms whose entries went are added to `touched`, those whose entries moved to `shifted`
        with [(field, first, end position, shift), ...]."""
        size = max(len(refs), len(self.refs))
        was, now = self.refs + [None] * (size - len(self.refs)), refs + [None] * (size - len(refs))
        diff = list(compress(range(size), map(ne, was, now)))
        came = {now[d] for d in diff} - {None}
        if all(was[d] is None or was[d] not in came for d in diff):   # documents came or went, none moved
            gone = {d: self.docs[d] for d in diff if was[d] is not None}
            for d in reversed(diff):    # from the end: a removal moves no id before it
                if d in gone:
                    self._patch(d, gone[d], None, touched)
            olds, lens = (self.docs + [None] * size)[:len(refs)], (self.lens + [None] * size)[:len(refs)]
            for d in diff:
                if d < len(refs):
                    olds[d] = lens[d] = None
            self.lens = lens   # a new doc's are put in by _patch; None at an unused id
            return olds, gone, False
        at = {ref: i for i, ref in enumerate(refs) if ref is not None}
        for d, ref in enumerate(self.refs):
            if ref in at and _group(docs[at[ref]]) != _group(self.docs[d]):
                del at[ref]
        gone = {d: doc for d, (doc, ref) in enumerate(zip(self.docs, self.refs)) if ref is not None and ref not in at}
        for d in reversed(gone):    # from the end: a removal moves no id before it
            self._patch(d, gone[d], None, touched)
        olds: list = [None] * len(refs)
        lens: list = [None] * len(refs)
        runs: list[list[int]] = []                    # [first old id, end, shift] of kept ids
        for d, ref in enumerate(self.refs):
            new = at.get(ref)
            if new is None:
                continue
            olds[new], lens[new] = self.docs[d], self.lens[d]
            if runs and runs[-1][2] == new - d and runs[-1][1] == d:
                runs[-1][1] = d + 1
            else:
                runs.append([d, d + 1, new - d])
        self.lens = lens   # a new doc's are put in by _patch; None at an unused id
        moves = [(lo << ID, hi << ID, shift) for lo, hi, shift in runs if shift]
        if moves:
            first = moves[0][0]
            for fi, pf in enumerate(self.post):
                for term, entries in pf.items():
                    if entries[-1] < first:
                        continue
                    # every run's place first: a run moved up may pass the old ids of the next
                    spans = [(bisect_left(entries, lo), bisect_left(entries, hi), shift) for lo, hi, shift in moves]
                    for i, j, shift in spans:
                        if i < j:
                            entries[i:j] = [e + (shift << ID) for e in entries[i:j]]
                            shifted.setdefault(term, []).append((fi, i, j, shift))
        return olds, gone, bool(moves)

    def _patch(self, d: int, old, new, touched: set[str]) -> bool:
        """Move doc `d`'s postings from those of `old` to those of `new` (None: no document),
        adding the terms whose frequency changed to `touched`; whether its lengths changed."""
        before = field_counts(old, self.memo) if old is not None else None
        after = field_counts(new, self.memo) if new is not None else None
        empty = ({}, 0)
        for fi, pf in enumerate(self.post):
            was, n0 = before[fi] if before else empty
            now, n1 = after[fi] if after else empty
            self.totals[fi] += n1 - n0
            for term, tf in was.items():
                if now.get(term) != tf:
                    entries = pf[term]
                    del entries[bisect_left(entries, d << ID)]
                    if not entries:
                        del pf[term]
                    touched.add(term)
            for term, tf in now.items():
                if was.get(term) != tf:
                    insort(pf.setdefault(term, []), d << ID | min(tf, _MASK))
                    touched.add(term)
        if after is None:   # removed: _realign drops its lengths
            return True
        had, self.lens[d] = self.lens[d], lengths(after)
        return had != self.lens[d]


def _group(doc) -> str:
    return str(doc.get("group") or "")


def _shifted(weight, spans):
    """A term's entry (index._term_entry) once its docs moved by `spans` (_realign's): a gap
    changes where a run of moved docs starts (+ its shift) or ends (- its shift)."""
    count, out, h = weight
    out = [[fi, list(gaps), tfs] for fi, gaps, tfs in out]
    place = {fi: k for k, (fi, _, _) in enumerate(out)}
    for fi, i, j, shift in spans:
        gaps = out[place[fi]][1]
        gaps[i] += shift
        if j < len(gaps):
            gaps[j] -= shift
    return count, out, h
