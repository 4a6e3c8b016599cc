"""Related notes (docs/site.md#reading-aids): each note's RELATED nearest other notes by the vector arm's
similarity, for the "Related" list of its page.

similarity = dot / (sqrt(aa) * sqrt(bb)) over the int8 document vectors, as query/vector.py
scores. The dots are a float32 matrix product: every partial sum is an integer below
dims × 127² < 2^24, exact in a float32 whatever the order of the sums, and the division is in
float64 as the query's;
notes with a zero vector relate to nothing. Order: similarity descending, then ref — as
`bf similar REF` ranks notes (doc ids are refs in order).

A process that builds again (bf serve --watch) keeps the lists: a changed or new note's list is
computed again, and so is any list that held a changed or removed note; every other list is
merged with the changed notes' similarities, which gives the list a full computation gives (the
others' similarities to it are unchanged, and all ranked below its last item).
"""
from __future__ import annotations

RELATED = 5
BLOCK = 512           # rows scored at once: BLOCK × notes float32s
CHUNKS = 64           # column chunks whose maxima bound a row's RELATED-th best from below
FULL_SHARE = 0.05     # more changed notes than this share: compute every list again
SCREEN = 1e-4         # the float32 screen's margin, in units of the row's norm


def _matrix(rows: list[bytes], dims: int):
    """The vectors as float32 (exact dots, see above) and their norms in float64."""
    import numpy as np   # lazily, as everywhere the vector arm runs
    assert dims * 127 * 127 < 1 << 24, "float32 dots are exact only below 2^24"
    x = np.frombuffer(b"".join(rows), dtype=np.int8).reshape(len(rows), dims).astype(np.float32)
    return x, np.sqrt((x * x).sum(axis=1).astype(np.float64))


def _scaled(x, norms):
    """The screen's operands: the indices of the nonzero vectors, and those vectors divided by
    their norms (float32)."""
    import numpy as np
    live = np.flatnonzero(norms > 0)
    return live, (x[live] / norms[live, None]).astype(np.float32)


def _block_lists(x, norms, scaled, block: list[int], refs: list[str]) -> dict[int, list[tuple[float, str]]]:
    """{index: the RELATED best (similarity, ref)} of each note of `block` with a nonzero vector,
    leaving out the note itself.
    A float32 screen (the note's vector · each other's divided by its norm: the note's own norm
    does not change the order) keeps every note within SCREEN × the note's norm of its RELATED-th
    best — far more than the screen's rounding (at most dims float32 ulps of that norm) — and only
    those get the exact dot, the float64 similarity and the sort."""
    import numpy as np
    live, unit = scaled
    k = min(RELATED, len(live) - 1)
    block = [i for i in block if norms[i]]          # a zero vector relates to nothing
    if k < 1 or not block:
        return {}
    screen = x[block] @ unit.T
    screen[np.arange(len(block)), np.searchsorted(live, block)] = -np.inf
    floor = _floor(screen, k) - SCREEN * norms[block]
    rows, cols = np.nonzero(screen >= floor[:, None])
    cols = live[cols]
    mine = np.asarray(block)[rows]
    dots = (x[mine] * x[cols]).sum(axis=1).astype(np.float64)
    sims = dots / (norms[mine] * norms[cols])
    out = {i: [] for i in block}
    for i, j, sim in zip(mine.tolist(), cols.tolist(), sims.tolist()):
        out[i].append((sim, refs[j]))
    return {i: sorted(picked, key=lambda p: (-p[0], p[1]))[:RELATED] for i, picked in out.items()}


def _floor(screen, k: int):
    """A lower bound of each row's k-th largest value: the k-th largest of its column chunks'
    maxima (k chunks' maxima are k distinct entries at least that large). One pass of maxima
    instead of a partition of every row: the screen then keeps a few more notes, each scored
    exactly, and the lists are the same."""
    import numpy as np
    step = max(1, screen.shape[1] // CHUNKS)    # at least min(columns, CHUNKS) > k chunks
    maxima = np.maximum.reduceat(screen, np.arange(0, screen.shape[1], step), axis=1)
    return np.partition(maxima, -k, axis=1)[:, -k]


def _rows_of(x, norms, which: list[int], y=None, y_norms=None):
    """Similarities of the notes `which` (or of the vectors `y`, norms `y_norms`) to every note
    (a zero vector's are -inf: none)."""
    import numpy as np
    if y is None:
        y, y_norms = x[which], norms[which]
    with np.errstate(divide="ignore", invalid="ignore"):
        sims = (y @ x.T).astype(np.float64) / (y_norms[:, None] * norms[None, :])
    sims[~np.isfinite(sims)] = -np.inf
    return sims


def _kept_lists(refs, x, norms, dims, changed, went: list[bytes], old_lists: dict) -> tuple[dict, list[str]]:
    """The lists that need no full computation after the notes `changed` changed or came and
    notes with the vectors `went` went or changed, and the refs whose lists do. A list holding a
    note that changed or went is computed again: its old similarity to that note is at least its
    floor (its last item's; -inf for a short list), which finds those lists with a few dots. Any
    other list gains at most the changed notes whose similarity reaches its floor; the rest keep
    their list as it is."""
    import numpy as np
    floor = np.array([l[-1][0] if len(l) == RELATED else -np.inf for l in map(old_lists.get, refs, [()] * len(refs))])
    at = {ref: i for i, ref in enumerate(refs)}
    todo = set(changed)
    if went:
        old, old_norms = _matrix(went, dims)
        sims = _rows_of(x, norms, [], old, old_norms)
        gone = set(old_lists) - set(at) | todo
        for i in np.flatnonzero((sims >= floor[None, :] - 1e-9).any(axis=0)).tolist():
            if any(r in gone for _, r in old_lists.get(refs[i], ())):
                todo.add(refs[i])
    lists = {ref: old_lists[ref] for ref in refs if ref not in todo}
    if changed:
        against = _rows_of(x, norms, [at[c] for c in changed])
        reach = np.isfinite(against) & (against >= floor[None, :])
        for i in np.flatnonzero(reach.any(axis=0)).tolist():
            ref = refs[i]
            if ref not in todo:
                extra = [(float(against[j, i]), c) for j, c in enumerate(changed) if reach[j, i]]
                lists[ref] = sorted(lists[ref] + extra, key=lambda p: (-p[0], p[1]))[:RELATED]
    return lists, [ref for ref in refs if ref in todo]


def related(refs: list[str], rows: list[bytes], dims: int, kept: dict | None = None) -> dict[str, list[str]]:
    """{note ref: its related note refs} for notes `refs` (sorted) with vectors `rows`. `kept`:
    what the last call in this process left (its refs' rows and lists), left holding this one's;
    a list that did not change is the same object as the last call's."""
    if not refs:
        return {}
    x, norms = _matrix(rows, dims)
    at = {ref: i for i, ref in enumerate(refs)}
    old_rows, old_lists, old_out = (kept or {}).get("rows", {}), (kept or {}).get("lists", {}), (kept or {}).get("out", {})
    changed = [r for r, row in zip(refs, rows) if old_rows.get(r) != row]
    removed = old_rows.keys() - at.keys()
    if old_lists and len(changed) + len(removed) <= FULL_SHARE * len(refs):
        went = [old_rows[r] for r in changed if r in old_rows] + [old_rows[r] for r in sorted(removed)]
        lists, todo = _kept_lists(refs, x, norms, dims, changed, went, old_lists)
    else:
        lists, todo = {}, list(refs)
    scaled = _scaled(x, norms) if todo else None
    for start in range(0, len(todo), BLOCK):
        block = [at[r] for r in todo[start:start + BLOCK]]
        best = _block_lists(x, norms, scaled, block, refs)
        for i in block:
            lists[refs[i]] = best.get(i, [])
    out = {ref: old_out[ref] if lists[ref] is old_lists.get(ref) else [r for _, r in lists[ref]] for ref in refs}
    if kept is not None:
        kept["rows"], kept["lists"], kept["out"] = dict(zip(refs, rows)), lists, out
    return out
