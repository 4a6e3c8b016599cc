"""Each term's posting as the JSON text its t/ shard holds (layout.term_files), for a full build
(tally.entries): `[[field, gaps, tfs], ...]` cut from orjson's dump of each field's arrays and
joined by C loops (map over slices and joins), so no Python int or step per posting, nor a
Python step per term but for those held in several fields. canonical_json writes an
orjson.Fragment as its bytes: the shard is the bytes the lists would give."""
from __future__ import annotations

from itertools import repeat

import orjson

def numbers(np, values) -> tuple[bytes, object]:
    """(the JSON text of the non-negative int64 array `values`, where each value starts in it):
    values[i:j] are text[at[i]:at[j] - 1]. The commas of the text part the values."""
    text = orjson.dumps(values, option=orjson.OPT_SERIALIZE_NUMPY)
    at = np.empty(len(values) + 1, np.int64)
    at[-1] = len(text)
    at[1:-1] = np.flatnonzero(np.frombuffer(text, np.uint8) == ord(",")) + 1
    at[0] = 1
    return text, at


def _cuts(text: bytes, at, heads, tails) -> list[bytes]:
    """The slices of `text` holding the values of each run [heads[i], tails[i])."""
    return list(map(text.__getitem__, map(slice, at[heads].tolist(), (at[tails] - 1).tolist())))


def entries(np, fields: list[tuple], size: int) -> list:
    """Per term id (`size` of them), its entry's JSON text as an orjson.Fragment; `fields`: per
    field (gaps, tfs, runs' terms, starts, ends) as arrays, each field's runs by term."""
    gap_cuts, tf_cuts, run_terms, run_fields = [], [], [], []
    for fi, (gap, tf, which, heads, tails) in enumerate(fields):
        (gtext, gat), (ttext, tat) = numbers(np, gap), numbers(np, tf)
        gap_cuts += _cuts(gtext, gat, heads, tails)
        tf_cuts += _cuts(ttext, tat, heads, tails)
        run_terms.append(which)
        run_fields.append(np.full(len(which), fi, np.int64))
    term, field = np.concatenate(run_terms), np.concatenate(run_fields)
    order = np.argsort(term, kind="stable")   # by term, then field
    term, field = term[order], field[order]
    first = np.r_[True, term[1:] != term[:-1]] if len(term) else np.zeros(0, bool)
    last = np.r_[term[1:] != term[:-1], True] if len(term) else np.zeros(0, bool)
    nf = len(fields)
    opens = [b"%s[%d,[" % (b"[" if start else b",", fi) for start in (False, True) for fi in range(nf)]
    order = order.tolist()
    pieces = list(map(b"".join, zip(map(opens.__getitem__, (first * nf + field).tolist()),
                                     map(gap_cuts.__getitem__, order), repeat(b"],["),
                                     map(tf_cuts.__getitem__, order),
                                     map((b"]]", b"]]]").__getitem__, last.tolist()))))
    heads = np.flatnonzero(first)
    made = list(map(pieces.__getitem__, heads.tolist()))
    ends = np.r_[heads[1:], len(pieces)]
    for j in np.flatnonzero(ends - heads > 1).tolist():   # a term held in several fields
        made[j] = b"".join(pieces[heads[j]:ends[j]])
    out = [b"[]"] * size
    if len(heads) == size:
        out = made
    else:
        for k, text in zip(term[heads].tolist(), made):
            out[k] = text
    return list(map(orjson.Fragment, out))
