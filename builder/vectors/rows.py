"""Each index doc's vector and the brain's mean of its sample's (buckets.py), kept between the
builds of one process (bf serve --watch): a doc whose fields are what they were keeps its
vector, and the mean is kept as its integer sums, moved by the sample's vectors that changed, so
a rebuild embeds and sums only those (the integers a full sum gives: the mean is exactly
mean_of's over the sample). The mean is the sample's so that a doc outside it moves no centre."""
from __future__ import annotations

from operator import itemgetter

from .. import vectors
from ..kernel.parallel import fork_each
from .buckets import in_sample, rounded_mean, sums

FIELDS = itemgetter("title", "aliases", "headings", "body")   # what a doc's vector reads
PARALLEL_DOCS = 5000  # fewer docs are embedded faster than workers start


def _text(fields: tuple) -> str:
    return " ".join(f for f in fields if f)


def _vector(_, text: str) -> bytes:
    return vectors.doc_vector(text).tobytes()


def doc_rows(docs: list[dict], refs: list[str], dims: int, kept: dict | None = None) -> tuple[list[bytes], list[int]]:
    """(each doc's int8 vector bytes, the mean of the sample's) for `docs` with refs `refs`. `kept`:
    what the last call in this process left ("docs": ref → (fields, vector), "sums": the mean's
    totals and count), left holding this call's."""
    kept = {} if kept is None else kept
    fields = list(map(FIELDS, docs))
    old = kept.get("docs", {})
    olds = list(map(old.get, refs))
    todo = [i for i, (o, f) in enumerate(zip(olds, fields)) if o is None or o[0] != f]
    texts = {i: _text(fields[i]) for i in todo}
    new = sorted(set(texts.values()))
    fresh = dict(zip(new, fork_each(_vector, new, None, len(new) > PARALLEL_DOCS)))
    rows = [o[1] if o is not None else b"" for o in olds]
    for i in todo:
        rows[i] = fresh[texts[i]]
    matched = len(refs) - sum(olds[i] is None for i in todo)
    if "sums" in kept:   # move the sums by the vectors that changed, came and went
        total, count = kept["sums"]
        gone = [olds[i][1] for i in todo if olds[i] is not None and in_sample(refs[i])]
        if matched < len(old):
            present = set(refs)
            gone += [row for ref, (_, row) in old.items() if ref not in present and in_sample(ref)]
        came = [rows[i] for i in todo if in_sample(refs[i])]
        (out, n_out), (came, n_came) = sums(gone, dims), sums(came, dims)
        total, count = total - out + came, count - n_out + n_came
        if matched < len(old):
            kept["docs"] = {ref: old[ref] for ref in refs if ref in old}
    else:
        total, count = sums([row for ref, row in zip(refs, rows) if in_sample(ref)], dims)
    docs_kept = kept.setdefault("docs", {})
    docs_kept.update((refs[i], (fields[i], rows[i])) for i in todo)
    kept["sums"] = (total, count)
    return rows, rounded_mean(total, count, dims)
