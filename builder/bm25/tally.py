"""The postings of a whole index counted over arrays (index.py's full build): each distinct raw
word is analysed once into numbered terms (its exact term per position, then each differing
folded one: what pipeline.term_counts counts), each field's word occurrences become (document,
word) counts, those (term, document) frequencies, ordered by term then document. A Python step
per distinct word, per text and per term; none per occurrence or posting."""
from __future__ import annotations

from itertools import chain

from . import shardtext
from .adjacent import is_section
from .pipeline import WordMemo, _spaceless, _word, _words
from .scoring import FIELDS

CHUNK = 1 << 21   # term occurrences counted at once: bounds the arrays' memory


class Numbered(dict):
    """key → its number: a key missing is numbered as met (the count so far) and listed in
    `new`, so numbering a stream of keys is one pass in C and a Python step per new key only."""

    def __init__(self):
        super().__init__()
        self.new: list = []

    def __missing__(self, key):
        n = self[key] = len(self)
        self.new.append(key)
        return n


class Vocab:
    """Raw words and terms numbered as first met: each word's term ids (`flat` between its
    `ends`, `spans` of them) and its positions (`sizes`); `memo` keeps each word's (exact,
    folded) pairs."""

    def __init__(self, memo: WordMemo):
        self.memo = memo
        self.words = Numbered()
        self.terms = Numbered()
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
        out = list(map(self.words.__getitem__, _words(text)))
        if self.words.new:
            self._add(self.words.new)
            self.words.new = []
        if len(self.texts) >= WordMemo.TEXTS:
            self.texts.clear()
        self.texts[text] = out
        return out

    def joined(self, text: str, parts: list[str]) -> list[int]:
        """ids(text) for a text that may end with some of `parts`, each joined by a space: those
        are numbered once (ids() keeps them for their own documents, next), taken from the end,
        the longest first, and only what is left before them is split into words. A space
        separates words, so the words are those of the whole."""
        hit = self.texts.get(text) if parts else None
        if hit is not None or not parts:
            return hit if hit is not None else self.ids(text)
        known = dict(zip(parts, map(self.ids, parts)))
        longest = sorted(known, key=len, reverse=True)
        tail, end = [], len(text)
        while end > 0:
            for part in longest:
                if text.endswith(part, 0, end) and (len(part) == end or text[end - len(part) - 1] == " "):
                    break
            else:
                break
            tail.append(known[part])
            end -= len(part) + 1
        out = self.ids(text[:end]) if end > 0 else []
        out = self.texts[text] = out + list(chain.from_iterable(reversed(tail)))
        return out

    def _add(self, words: list[str]) -> None:
        """Analyse the words just numbered, in their order."""
        known, number, flat = self.memo.pairs, self.terms.__getitem__, self.flat
        for word in words:
            terms, pairs = _spaceless(word), None   # most words of such scripts: a sentence, met once
            if terms is None:
                pairs = known.get(word)
                if pairs is None:
                    pairs = known[word] = _word(word)
                terms = [e for e, _ in pairs] + [f for e, f in pairs if f != e]
            flat += map(number, terms)
            self.ends.append(len(flat))
            self.spans.append(len(terms))
            self.sizes.append(len(terms) if pairs is None else len(pairs))
        self.terms.new = []

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
                into.add(d, 1, vocab.joined(text, _parts(docs, d - first)) if field == "body" else ids(text))
            else:
                for group, w in zip(text, weighted[field]):
                    for t in group:
                        into.add(d, w, ids(t))
    return vocab, fields


PARTS = 256   # sections of a note, at most, whose bodies its body's words are taken from


def _parts(docs, k: int) -> list[str]:
    """The bodies of the sections of note docs[k] (the documents after it whose ref is its ref
    and "#": arrange puts them there), or [] when it is no note (views/documents: a note's body
    is its pieces joined by spaces, and so is each section's, of a run of them)."""
    doc = docs[k]
    if doc.get("group") or "#" in doc["ref"]:
        return []
    prefix, out = doc["ref"] + "#", []
    for other in docs[k + 1:k + 1 + PARTS]:
        if other is None or not other["ref"].startswith(prefix):
            break
        if other.get("body"):
            out.append(other["body"])
    return out


def counted(np, words: tuple, field: Field, ndocs: int, first: int):
    """(term ranks, doc ids, frequencies) of one field, by rank then doc, and each document's
    length (positions × weight) as an array by doc id − first; `words`: arrays() of the vocab."""
    length = np.zeros(ndocs, np.int64)
    out, start = [], 0
    while start < len(field.ids):
        stop, n = start, 0
        while stop < len(field.ids) and (n < CHUNK or stop == start):
            n += field.loads[stop]
            stop += 1
        out.append(_chunk(np, field, start, stop, words, length, first))
        start = stop
    if not out:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), length
    term, doc, tf = out[0] if len(out) == 1 else summed(np, *(np.concatenate(parts) for parts in zip(*out)))
    return term, doc + first, tf, length


def _chunk(np, field: Field, start: int, stop: int, words, length, first: int):
    """counted() of texts [start, stop) of `field` (doc ids − first), their lengths added to
    `length`; `words`: each word's positions, the end of its terms in `flat`, and each term's rank."""
    sizes, ends, flat, rank = words
    seg = np.fromiter(map(len, field.ids[start:stop]), np.int64, stop - start)
    occ = np.fromiter(chain.from_iterable(field.ids[start:stop]), np.int64, int(seg.sum()))
    doc = np.array(field.docs[start:stop], np.int64) - first
    weight = np.array(field.weights[start:stop], np.int64)
    per_text = np.add.reduceat(sizes[occ], np.r_[0, np.cumsum(seg)[:-1]]) * weight
    length += np.bincount(doc, per_text, len(length)).astype(np.int64)
    # (document, word) → occurrences × weight, then each its word's terms with that count
    doc, word, times = summed(np, np.repeat(doc, seg), occ, np.repeat(weight, seg) if weight.max() > 1 else None)
    span = ends[word] - np.r_[0, ends][word]
    inside = np.arange(int(span.sum()), dtype=np.int64) - np.repeat(np.cumsum(span) - span, span)
    term = rank[flat[np.repeat(ends[word] - span, span) + inside]]
    return summed(np, term, np.repeat(doc, span), np.repeat(times, span))


def summed(np, a, b, v):
    """(a, b, the sum of v) of each distinct pair (a, b), ordered by a then b (non-negative
    int64 arrays; v None: all 1). Packed into one key when they fit 63 bits: a plain sort of keys is many
    times faster than a stable argsort and the gathers after it."""
    if not len(a):
        return a, b, v if v is not None else a
    if v is None:   # each pair counted once: its sum is its number of occurrences
        wb = int(b.max()).bit_length()
        if int(a.max()).bit_length() + wb <= 63:
            pair = np.sort((a << wb) | b)
            heads = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]])
            pair, v = pair[heads], np.diff(np.r_[heads, len(pair)])
            return pair >> wb, pair & ((1 << wb) - 1), v
        v = np.ones_like(a)
    wb, wv = int(b.max()).bit_length(), int(v.max()).bit_length()
    if int(a.max()).bit_length() + wb + wv <= 63:
        key = np.sort((a << (wb + wv)) | (b << wv) | v)
        pair, v = key >> wv, key & ((1 << wv) - 1)
        heads = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]])
        pair = pair[heads]
        return pair >> wb, pair & ((1 << wb) - 1), np.add.reduceat(v, heads)
    order = np.lexsort((v, b, a))
    a, b, v = a[order], b[order], v[order]
    heads = np.flatnonzero(np.r_[True, (a[1:] != a[:-1]) | (b[1:] != b[:-1])])
    return a[heads], b[heads], np.add.reduceat(v, heads)


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
    words = (*(np.array(v, np.int64) for v in (vocab.sizes, vocab.ends, vocab.flat)), rank)
    per_field, totals, lengths = [], [], []
    for field in fields:
        term, doc, tf, length = counted(np, words, field, len(docs), first)
        per_field.append((term, doc, tf))
        totals.append(int(length.sum()))
        lengths.append(length)
    met = (words, fields[FIELDS.index("body")], term_hashes(np, names), named)
    return per_field, list(map(names.__getitem__, by_name)), totals, lengths, met


def runs(np, term):
    """(each run's term, its start, its end) of an array of terms in runs, as lists."""
    heads = np.flatnonzero(np.r_[True, term[1:] != term[:-1]]) if len(term) else np.zeros(0, np.int64)
    starts = heads.tolist()
    return term[heads].tolist(), starts, starts[1:] + [len(term)]


def entries(np, per_field, names: list[str], keep: list[bool], cap: int, met, upto: int | None = None) -> dict:
    """term → (its postings, [[field, doc gaps, tfs], ...] by field, fnv1a(term)) for the
    terms `keep` allows, in name order (index._term_entry's, for every term at once); `met`:
    postings()'s, whose hashes are by term id. With `upto`, the entry of a term with at most
    that many postings is its JSON text (shardtext.py), made without a Python int per posting."""
    count = np.zeros(len(names), np.int64)
    fields = []
    for term, doc, tf in per_field:
        count += np.bincount(term, minlength=len(names))
        gap = doc.copy()
        gap[1:] -= doc[:-1]
        heads = np.flatnonzero(np.r_[True, term[1:] != term[:-1]]) if len(term) else np.zeros(0, np.int64)
        gap[heads] = doc[heads]
        fields.append((gap, np.minimum(tf, cap), term[heads], heads, np.r_[heads[1:], len(term)].astype(np.int64)))
    out = shardtext.entries(np, fields, len(names)) if upto is not None else [[] for _ in names]
    lists = np.flatnonzero(count > upto).tolist() if upto is not None else range(len(names))
    for k in lists:
        out[k] = []
    for fi, (gap, tf, which, heads, tails) in enumerate(fields):
        listed = np.ones(len(which), bool) if upto is None else count[which] > upto
        for k, a, b in zip(which[listed].tolist(), heads[listed].tolist(), tails[listed].tolist()):
            out[k].append([fi, gap[a:b].tolist(), tf[a:b].tolist()])
    _, _, by_id, named = met
    hashes = by_id[named].tolist()
    counts = count.tolist()
    if all(keep):
        return dict(zip(names, zip(counts, out, hashes)))
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
    (sizes, ends, flat, _), body, hashes, _ = met
    pick = [k for k, d in enumerate(body.docs) if not is_section(docs[d - first])]
    lists = [body.ids[k] for k in pick]
    seg = np.fromiter(map(len, lists), np.int64, len(lists))
    occ = np.fromiter(chain.from_iterable(lists), np.int64, int(seg.sum()))
    span = sizes[occ]   # a word's first terms are its exact ones, in order
    inside = np.arange(int(span.sum()), dtype=np.int64) - np.repeat(np.cumsum(span) - span, span)
    term = flat[np.repeat(np.r_[0, ends][occ], span) + inside]
    per_text = np.add.reduceat(span, np.r_[0, np.cumsum(seg)[:-1]]) if len(seg) else span
    count = np.zeros(len(docs), np.int64)
    count[np.array([body.docs[k] for k in pick], np.int64) - first] = per_text
    return hashes[term], count
