"""The postings of a whole index counted over arrays (index.py's full build): each distinct raw
word is analysed once into numbered terms (its exact term per position, then each differing
folded one: what pipeline.term_counts counts), each field's word occurrences become (document,
word) counts, those (term, document) frequencies, ordered by term then document. A Python step
per distinct word, per text and per term; none per occurrence or posting."""
from __future__ import annotations

from itertools import chain

from .adjacent import is_section
from .pipeline import WordMemo, _spaceless, _word, _words
from .scoring import FIELDS

CHUNK = 1 << 21   # term occurrences counted at once: bounds the arrays' memory


class Vocab:
    """Raw words and terms numbered as first met: each word's term ids (`flat` between its
    `ends`, `spans` of them) and its positions (`sizes`); `memo` keeps each word's (exact,
    folded) pairs."""

    def __init__(self, memo: WordMemo):
        self.memo = memo
        self.words: dict[str, int] = {}
        self.terms: dict[str, int] = {}
        self.flat: list[int] = []
        self.ends: list[int] = []
        self.spans: list[int] = []
        self.sizes: list[int] = []
        self.texts: dict[str, list] = {}   # recent text -> its word ids (a record's text recurs as context)

    def ids(self, text: str) -> list[int]:
        """The word ids of `text`, in order."""
        hit = self.texts.get(text)
        if hit is not None:
            return hit
        words = _words(text)
        try:
            out = list(map(self.words.__getitem__, words))
        except KeyError:
            self._add(set(words).difference(self.words))
            out = list(map(self.words.__getitem__, words))
        if len(self.texts) >= WordMemo.TEXTS:
            self.texts.clear()
        self.texts[text] = out
        return out

    def _add(self, words) -> None:
        known, number = self.memo.pairs, self.terms
        for word in words:
            terms, pairs = _spaceless(word), None   # most words of such scripts: a sentence, met once
            if terms is None:
                pairs = known.get(word)
                if pairs is None:
                    pairs = known[word] = _word(word)
                terms = [e for e, _ in pairs] + [f for e, f in pairs if f != e]
            fresh = set(terms).difference(number)
            if fresh:
                number.update(zip(fresh, range(len(number), len(number) + len(fresh))))
            self.flat += map(number.__getitem__, terms)
            self.ends.append(len(self.flat))
            self.spans.append(len(terms))
            self.sizes.append(len(terms) if pairs is None else len(pairs))
            self.words[word] = len(self.words)

    def names(self) -> list[str]:
        """The terms by id."""
        return list(self.terms)


class Field:
    """One field's texts as met: word ids, and per text its document, weight and term count."""

    def __init__(self, spans: list[int]):
        self.spans = spans
        self.ids: list[list[int]] = []
        self.docs: list[int] = []
        self.weights: list[int] = []
        self.loads: list[int] = []

    def add(self, doc: int, weight: int, ids: list[int]) -> None:
        load = sum(map(self.spans.__getitem__, ids))
        if load:   # a text of stop words only has neither terms nor length
            self.ids.append(ids)
            self.docs.append(doc)
            self.weights.append(weight)
            self.loads.append(load)


def gather(docs, first: int, memo: WordMemo, weighted: dict) -> tuple[Vocab, list[Field]]:
    """Every field's texts of `docs` (numbered from `first`; None: an unused id) as word ids;
    `weighted`: field → the weight of each of its groups of texts (a field given as groups)."""
    vocab = Vocab(memo)
    fields = [Field(vocab.spans) for _ in FIELDS]
    ids = vocab.ids
    for d, doc in enumerate(docs, first):
        if doc is None:
            continue
        for field, into in zip(FIELDS, fields):
            text = doc.get(field)
            if not text:
                continue
            if isinstance(text, str):
                into.add(d, 1, ids(text))
            else:
                for group, w in zip(text, weighted[field]):
                    for t in group:
                        into.add(d, w, ids(t))
    return vocab, fields


def counted(np, vocab: Vocab, field: Field, ndocs: int, first: int):
    """(term ids, doc ids, frequencies) of one field, by term id then doc (a term's docs
    ascending), and each document's length (positions × weight) as an array by doc id − first."""
    sizes, ends = np.array(vocab.sizes, np.int64), np.array(vocab.ends, np.int64)
    flat = np.array(vocab.flat, np.int64)
    length = np.zeros(ndocs, np.int64)
    out, start = [], 0
    while start < len(field.ids):
        stop, n = start, 0
        while stop < len(field.ids) and (n < CHUNK or stop == start):
            n += field.loads[stop]
            stop += 1
        out.append(_chunk(np, field, start, stop, sizes, ends, flat, length, first))
        start = stop
    if not out:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), length
    return (*(np.concatenate(parts) for parts in zip(*out)), length)


def _chunk(np, field: Field, start: int, stop: int, sizes, ends, flat, length, first: int):
    """counted() of texts [start, stop) of `field`, their lengths added to `length`."""
    seg = np.fromiter(map(len, field.ids[start:stop]), np.int64, stop - start)
    occ = np.fromiter(chain.from_iterable(field.ids[start:stop]), np.int64, int(seg.sum()))
    doc = np.array(field.docs[start:stop], np.int64) - first
    weight = np.array(field.weights[start:stop], np.int64)
    per_text = np.add.reduceat(sizes[occ], np.r_[0, np.cumsum(seg)[:-1]]) * weight
    length += np.bincount(doc, per_text, len(length)).astype(np.int64)
    # (document, word) → occurrences × weight
    key = (np.repeat(doc, seg) << 32) | occ
    order = np.argsort(key, kind="stable")
    key = key[order]
    heads = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    times = np.add.reduceat(np.repeat(weight, seg)[order], heads)
    key = key[heads]
    word, doc = key & 0xFFFFFFFF, key >> 32
    # each (document, word) → its terms, each with the word's count
    span = ends[word] - np.r_[0, ends][word]
    inside = np.arange(int(span.sum()), dtype=np.int64) - np.repeat(np.cumsum(span) - span, span)
    term = flat[np.repeat(ends[word] - span, span) + inside]
    key = (term << 32) | np.repeat(doc, span)
    order = np.argsort(key, kind="stable")
    key = key[order]
    heads = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    tf = np.add.reduceat(np.repeat(times, span)[order], heads)
    key = key[heads]
    return key >> 32, (key & 0xFFFFFFFF) + first, tf


def term_hashes(np, names: list[str]):
    """fnv1a of each name (scoring.fnv1a), over arrays: one step per byte position."""
    data = [t.encode("utf-8", "surrogatepass") for t in names]
    sizes = np.fromiter(map(len, data), np.int64, len(data))
    order = np.argsort(-sizes, kind="stable")
    at = (np.cumsum(sizes) - sizes)[order]
    buf = np.frombuffer(b"".join(data), np.uint8).astype(np.uint64)
    live = sizes[order]
    h = np.full(len(data), 0x811C9DC5, np.uint64)
    for k in range(int(live[0]) if len(live) else 0):
        m = int(np.searchsorted(-live, -k, side="left"))   # names longer than k bytes: a prefix
        h[:m] = ((h[:m] ^ buf[at[:m] + k]) * np.uint64(0x01000193)) & np.uint64(0xFFFFFFFF)
    out = np.empty_like(h)
    out[order] = h
    return out


def postings(np, docs, first: int, memo: WordMemo, weighted: dict):
    """Per field (term ranks, doc ids, frequencies) ordered by term name then doc; the terms by
    name; each field's total length; each document's lengths by field (an array per field); the
    words, the body field, the terms' fnv1a by term id and the term ids in name order met (for
    entries and body_hashes, which hash each term once between them)."""
    vocab, fields = gather(docs, first, memo, weighted)
    names = vocab.names()
    by_name = sorted(range(len(names)), key=names.__getitem__)
    named = np.array(by_name, np.int64)
    rank = np.empty(len(names), np.int64)
    rank[named] = np.arange(len(names), dtype=np.int64)
    per_field, totals, lengths = [], [], []
    for field in fields:
        term, doc, tf, length = counted(np, vocab, field, len(docs), first)
        term = rank[term]
        order = np.argsort(term, kind="stable")   # stable: each term's docs stay ascending
        per_field.append((term[order], doc[order], tf[order]))
        totals.append(int(length.sum()))
        lengths.append(length)
    met = (vocab, fields[FIELDS.index("body")], term_hashes(np, names), named)
    return per_field, list(map(names.__getitem__, by_name)), totals, lengths, met


def runs(np, term):
    """(each run's term, its start, its end) of an array of terms in runs, as lists."""
    heads = np.flatnonzero(np.r_[True, term[1:] != term[:-1]]) if len(term) else np.zeros(0, np.int64)
    starts = heads.tolist()
    return term[heads].tolist(), starts, starts[1:] + [len(term)]


def entries(np, per_field, names: list[str], keep: list[bool], cap: int, met) -> dict:
    """term → (its postings, [[field, doc gaps, tfs], ...] by field, fnv1a(term)) for the
    terms `keep` allows, in name order (index._term_entry's, for every term at once); `met`:
    postings()'s, whose hashes are by term id."""
    out: list[list] = [[] for _ in names]
    count = np.zeros(len(names), np.int64)
    for fi, (term, doc, tf) in enumerate(per_field):
        gap = doc.copy()
        gap[1:] -= doc[:-1]
        which, starts, ends = runs(np, term)
        gap[starts] = doc[starts]
        gaps, tfs = gap.tolist(), np.minimum(tf, cap).tolist()
        for k, a, b in zip(which, starts, ends):
            out[k].append([fi, gaps[a:b], tfs[a:b]])
        count += np.bincount(term, minlength=len(names))
    _, _, by_id, named = met
    hashes = by_id[named].tolist()
    counts = count.tolist()
    return {names[k]: (counts[k], out[k], hashes[k]) for k, ok in enumerate(keep) if ok}


def term_lists(np, per_field, names: list[str], shift: int, cap: int) -> list[dict]:
    """Per field: term → [doc << shift | tf, ...] (index._postings's, kept by a watch build)."""
    out = []
    for term, doc, tf in per_field:
        flat = ((doc << shift) | np.minimum(tf, cap)).tolist()
        which, starts, ends = runs(np, term)
        out.append({names[k]: flat[a:b] for k, a, b in zip(which, starts, ends)})
    return out


def body_hashes(np, docs, first: int, met) -> tuple:
    """(the fnv1a of each exact term of each document's body, in doc order; how many each
    document has, by doc id − first): adjacent.Pairs.all's input, from `met` (postings') words
    rather than the bodies analysed again. A section has none (adjacent.is_section)."""
    vocab, body, hashes, _ = met
    pick = [k for k, d in enumerate(body.docs) if not is_section(docs[d - first])]
    lists = [body.ids[k] for k in pick]
    seg = np.fromiter(map(len, lists), np.int64, len(lists))
    occ = np.fromiter(chain.from_iterable(lists), np.int64, int(seg.sum()))
    ends = np.array(vocab.ends, np.int64)
    span = np.array(vocab.sizes, np.int64)[occ]   # a word's first terms are its exact ones, in order
    inside = np.arange(int(span.sum()), dtype=np.int64) - np.repeat(np.cumsum(span) - span, span)
    term = np.array(vocab.flat, np.int64)[np.repeat(np.r_[0, ends][occ], span) + inside]
    per_text = np.add.reduceat(span, np.r_[0, np.cumsum(seg)[:-1]]) if len(seg) else span
    count = np.zeros(len(docs), np.int64)
    count[np.array([body.docs[k] for k in pick], np.int64) - first] = per_text
    return hashes[term], count
