"""Each index doc's vector and the brain's mean of its sample's (buckets.py), kept between the
builds of one process (bf serve --watch): a doc whose fields are what they were keeps its
vector, and the mean is kept as its integer sums, moved by the sample's vectors that changed, so
a rebuild embeds and sums only those (the integers a full sum gives: the mean is exactly
mean_of's over the sample). The mean is the sample's so that a doc outside it moves no centre."""
from __future__ import annotations

from contextlib import nullcontext
from itertools import chain, compress
from operator import itemgetter

from .. import vectors
from ..kernel.parallel import SERIAL, Spread
from ..kernel.stretch import differing
from .buckets import in_sample, rounded_mean, sampled, sums

FIELDS = itemgetter("title", "aliases", "headings", "body")   # what a doc's vector reads
PARALLEL_DOCS = 5000  # fewer docs are embedded faster than workers start
BATCH = 256           # texts embedded at once: their token rows, ~8 MB at most


def _text(fields: tuple) -> str:
    return " ".join(f for f in fields if f)


def _vectors(memo: vectors.Chunks, texts: list[str]) -> list[bytes]:
    return vectors.doc_vectors(texts, memo)


def _batches(texts: list[str]) -> list[list[str]]:
    """`texts` in runs of BATCH, each embedded by one call (vectors.doc_vectors)."""
    return [texts[at:at + BATCH] for at in range(0, len(texts), BATCH)]


def begin_rows(docs, spread: Spread = SERIAL):
    """The vectors of all `docs` (any order), begun in workers beside the caller's next steps when
    there are enough to be worth them: a kernel/parallel.Begun to enter and hand to doc_rows, or
    a nullcontext of None."""
    # in doc order: a note and its sections, which hold its text's pieces, fall in one batch, so
    # in one worker's memo (vectors.Chunks)
    texts = list(dict.fromkeys(_text(FIELDS(doc)) for doc in docs))
    if len(texts) <= PARALLEL_DOCS or not spread.forks:
        return nullcontext(None)
    vectors.table()   # loaded (and numpy imported) once, before the fork: the workers share it
    return spread.begin(_vectors, _batches(texts), vectors.Chunks())


def doc_rows(docs: list[dict], refs: list[str], dims: int, kept: dict | None = None, spread: Spread = SERIAL,
             begun=None) -> tuple[list[bytes], list[int]]:
    """(each doc's int8 vector bytes, the mean of the sample's) for `docs` with refs `refs`. `kept`:
    what the last call in this process left ("docs": ref → (fields, vector), "sums": the mean's
    totals and count, "seq": its docs, refs and rows), left holding this call's. A watch build
    keeps an unchanged document's dict, so only the stretch of `docs` holding other objects
    (kernel/stretch.py) is looked at; the docs around it keep their rows. `begun`: begin_rows'
    Begun: the vectors of its texts are not computed again."""
    kept = {} if kept is None else kept
    old = kept.get("docs", {})
    last_docs, last_refs, last_rows = kept.get("seq", ((), (), ()))
    head, new_end, old_end = differing(docs, last_docs) if "sums" in kept else (0, len(docs), len(last_docs))
    mine = refs[head:new_end]
    fields = list(map(FIELDS, docs[head:new_end]))
    olds = list(map(old.get, mine))
    todo = [i for i, (o, f) in enumerate(zip(olds, fields)) if o is None or o[0] != f]   # in the stretch
    texts = {i: _text(fields[i]) for i in todo}
    fresh = dict(zip(chain.from_iterable(begun.items), chain.from_iterable(begun.get()))) if begun is not None else {}
    new = [t for t in dict.fromkeys(texts.values()) if t not in fresh]   # in doc order, as begin_rows'
    made = spread.each(_vectors, _batches(new), vectors.Chunks(), worth=len(new) > PARALLEL_DOCS)
    fresh.update(zip(new, chain.from_iterable(made)))
    rows = [o[1] if o is not None else b"" for o in olds]
    for i in todo:
        rows[i] = fresh[texts[i]]
    went = set(last_refs[head:old_end]) - set(mine)
    if "sums" in kept:   # move the sums by the vectors that changed, came and went
        total, count = kept["sums"]
        gone = [olds[i][1] for i in todo if olds[i] is not None and in_sample(mine[i])]
        gone += [old[ref][1] for ref in went if in_sample(ref)]
        came = [rows[i] for i in todo if in_sample(mine[i])]
        (out, n_out), (came, n_came) = sums(gone, dims), sums(came, dims)
        total, count = total - out + came, count - n_out + n_came
    else:
        total, count = sums(list(compress(rows, sampled(mine))), dims)
    docs_kept = kept.setdefault("docs", {})
    for ref in went:
        docs_kept.pop(ref, None)
    docs_kept.update((mine[i], (fields[i], rows[i])) for i in todo)
    rows = [*last_rows[:head], *rows, *last_rows[old_end:]]
    kept["sums"], kept["seq"] = (total, count), (tuple(docs), tuple(refs), rows)   # copies: a caller may reuse its lists
    return rows, rounded_mean(total, count, dims)
