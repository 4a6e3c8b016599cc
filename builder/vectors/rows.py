"""Each index doc's vector, the brain's token weights (weights.py) and the mean of its sample's
vectors (buckets.py), kept between the builds of one process (bf serve --watch): a doc whose
fields are what they were keeps its vector unless it holds a token whose weight changed, the
weights are kept as the documents' frequencies, moved by the docs that changed, came and went,
and the mean is kept as its integer sums, moved by the sample's vectors that changed, so a
rebuild tokenizes, embeds and sums only those (the integers a full build gives: the weights
are a function of the frequencies, and the mean is exactly mean_of's over the sample). The
mean is the sample's so that a doc outside it moves no centre.
"""
from __future__ import annotations

from contextlib import nullcontext
from itertools import chain, compress
from operator import itemgetter

from .. import vectors
from ..kernel.parallel import SERIAL, Spread
from ..kernel.stretch import differing
from .buckets import in_sample, rounded_mean, sampled, sums
from .weights import frequencies, listed, sixteenths

FIELDS = itemgetter("title", "aliases", "headings", "body")   # what a doc's vector reads
PARALLEL_DOCS = 5000  # fewer docs are embedded faster than workers start
BATCH = 256           # texts embedded at once: their token rows, ~8 MB at most


def _text(fields: tuple) -> str:
    return " ".join(f for f in fields if f)


def _tokens(memo: vectors.Chunks, texts: list[str]) -> list[tuple[bytes, bytes]]:
    """Each text's (token ids, the distinct ones): what its vector sums and its document holds."""
    return vectors.token_ids(texts, memo)


def _vectors(weighed, tokens: list[bytes]) -> list[bytes]:
    return vectors.doc_vectors(tokens, weighed)


def _batches(texts: list) -> list[list]:
    """`texts` in runs of BATCH, each tokenized or embedded by one call."""
    return [texts[at:at + BATCH] for at in range(0, len(texts), BATCH)]


def begin_rows(docs, spread: Spread = SERIAL):
    """The tokens of all `docs` (any order), begun in workers beside the caller's next steps when
    there are enough to be worth them: a kernel/parallel.Begun to enter and hand to doc_rows, or
    a nullcontext of None. Their vectors wait for the brain's weights, which need every doc's."""
    # in doc order: a note and its sections, which hold its text's pieces, fall in one batch, so
    # in one worker's memo (vectors.Chunks)
    texts = list(dict.fromkeys(_text(FIELDS(doc)) for doc in docs))
    if len(texts) <= PARALLEL_DOCS or not spread.forks:
        return nullcontext(None)
    vectors.wordpiece()   # made once, before the fork: the workers share it
    return spread.begin(_tokens, _batches(texts), vectors.Chunks())


def doc_rows(docs: list[dict], refs: list[str], dims: int, kept: dict | None = None, spread: Spread = SERIAL,
             begun=None) -> tuple[list[bytes], list[int], tuple[list[int], list[int]]]:
    """(each doc's int8 vector bytes, the mean of the sample's, the brain's token weights as the
    site lists them: weights.listed) for `docs` with refs `refs`. `kept`: what the last
    call in this process left ("docs": ref → (fields, vector, distinct tokens), "df": the tokens'
    document frequencies, "weights", "sums": the mean's totals and count, "seq": its docs, refs
    and rows), left holding this call's. A watch build keeps an unchanged document's dict, so
    only the stretch of `docs` holding other objects (kernel/stretch.py) is looked at; the docs
    around it keep their rows, unless they hold a token whose weight changed. `begun`:
    begin_rows' Begun: the tokens of its texts are not computed again."""
    kept = {} if kept is None else kept
    old = kept.get("docs", {})
    last_docs, last_refs, last_rows = kept.get("seq", ((), (), ()))
    head, new_end, old_end = differing(docs, last_docs) if "sums" in kept else (0, len(docs), len(last_docs))
    mine = refs[head:new_end]
    fields = list(map(FIELDS, docs[head:new_end]))
    olds = list(map(old.get, mine))
    todo = [i for i, (o, f) in enumerate(zip(olds, fields)) if o is None or o[0] != f]   # in the stretch
    texts = {i: _text(fields[i]) for i in todo}
    got = dict(zip(chain.from_iterable(begun.items), chain.from_iterable(begun.get()))) if begun is not None else {}
    _tokenize(got, texts.values(), spread)
    went = set(last_refs[head:old_end]) - set(mine)
    df, weights, stepped = _weights(kept, [got[texts[i]][1] for i in todo],
                                    [olds[i][2] for i in todo if olds[i] is not None] + [old[ref][2] for ref in went],
                                    len(docs))
    redo = _holders(old, stepped, went | {mine[i] for i in todo})
    again = {ref: _text(old[ref][0]) for ref in redo}   # the same fields: their texts' tokens, again
    _tokenize(got, again.values(), spread)
    embed = list(dict.fromkeys(chain(texts.values(), again.values())))
    made = spread.each(_vectors, _batches([got[t][0] for t in embed]), vectors.weighed_table(weights),
                       worth=len(embed) > PARALLEL_DOCS)
    fresh = dict(zip(embed, chain.from_iterable(made)))
    rows = [o[1] if o is not None else b"" for o in olds]
    for i in todo:
        rows[i] = fresh[texts[i]]
    redone = {ref: fresh[text] for ref, text in again.items()}
    if "sums" in kept:   # move the sums by the vectors that changed, came and went
        gone = [olds[i][1] for i in todo if olds[i] is not None and in_sample(mine[i])]
        gone += [old[ref][1] for ref in chain(went, redo) if in_sample(ref)]
        came = [rows[i] for i in todo if in_sample(mine[i])] + [redone[ref] for ref in redo if in_sample(ref)]
        total, count = _moved(kept["sums"], gone, came, dims)
    else:
        total, count = sums(list(compress(rows, sampled(mine))), dims)
    docs_kept = kept.setdefault("docs", {})
    for ref in went:
        docs_kept.pop(ref, None)
    docs_kept.update((mine[i], (fields[i], rows[i], got[texts[i]][1])) for i in todo)
    docs_kept.update((ref, (old[ref][0], vector, old[ref][2])) for ref, vector in redone.items())
    rows = [*last_rows[:head], *rows, *last_rows[old_end:]]
    if redone:   # the docs around the stretch that hold a token whose weight changed
        at = {ref: i for i, ref in enumerate(refs)}
        for ref, vector in redone.items():
            rows[at[ref]] = vector
    kept["sums"], kept["seq"] = (total, count), (tuple(docs), tuple(refs), rows)   # copies: a caller may reuse its lists
    kept["df"], kept["weights"] = df, weights
    return rows, rounded_mean(total, count, dims), listed(weights)


def _tokenize(got: dict, texts, spread: Spread) -> None:
    """Add to `got` (text → _tokens') the tokens of each of `texts` it lacks, in their order (as
    begin_rows')."""
    new = [t for t in dict.fromkeys(texts) if t not in got]
    made = spread.each(_tokens, _batches(new), vectors.Chunks(), worth=len(new) > PARALLEL_DOCS)
    got.update(zip(new, chain.from_iterable(made)))


def _weights(kept: dict, came: list[bytes], went: list[bytes], n: int) -> tuple:
    """(the documents' frequencies, the brain's weights, the ids of the tokens whose weight is
    not the last call's): the frequencies `kept` holds ("df", none at first), moved by the
    distinct tokens of the docs that `came` and `went`, and the weights of `n` docs."""
    import numpy as np   # lazily, as everywhere the vector arm runs
    rows = vectors.meta()["rows"]
    df = kept.get("df", np.zeros(rows, dtype=np.int64)) + frequencies(came, rows)
    if went:
        df = df - frequencies(went, rows)
    weights, last = sixteenths(df, n), kept.get("weights")
    return df, weights, (np.flatnonzero(weights != last) if last is not None else [])


def _moved(kept_sums: tuple, gone: list[bytes], came: list[bytes], dims: int) -> tuple:
    """The mean's (totals, count) `kept_sums`, less the vectors that are `gone`, plus those that `came`."""
    total, count = kept_sums
    (out, n_out), (into, n_in) = sums(gone, dims), sums(came, dims)
    return total - out + into, count - n_out + n_in


def _holders(old: dict, stepped, but: set[str]) -> list[str]:
    """The refs of `old` (ref → (fields, vector, distinct tokens)) but those of `but` whose docs
    hold a token of `stepped` (token ids), in `old`'s order."""
    import numpy as np
    if not len(stepped):
        return []
    refs = [ref for ref in old if ref not in but]
    held = [old[ref][2] for ref in refs]
    mask = np.zeros(vectors.meta()["rows"], dtype=bool)
    mask[stepped] = True
    doc = np.repeat(np.arange(len(refs)), [len(h) // 2 for h in held])
    hit = np.unique(doc[mask[np.frombuffer(b"".join(held), dtype=np.uint16)]])
    return [refs[i] for i in hit.tolist()]
