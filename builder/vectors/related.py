"""Related notes (issue 17, item 3): each note's RELATED nearest other notes by the vector arm's
similarity, for the "Related" list of its page.

similarity = dot / (sqrt(aa) * sqrt(bb)) over the int8 document vectors, as query/vector.py
scores (every dot is an exact integer in a float64, so the order of the sums does not matter);
notes with a zero vector relate to nothing. Order: similarity descending, then ref — as
`bf similar REF` ranks notes (doc ids are refs in order).

A process that builds again (bf serve --watch) keeps the lists: a changed or new note's list is
computed again, and so is any list that held a changed or removed note; every other list is
merged with the changed notes' similarities, which gives the list a full computation gives (the
others' similarities to it are unchanged, and all ranked below its last item).
"""
from __future__ import annotations

RELATED = 5
BLOCK = 512           # rows scored at once: BLOCK × notes float64s
FULL_SHARE = 0.05     # more changed notes than this share: compute every list again


def _matrix(rows: list[bytes], dims: int):
    import numpy as np   # lazily, as everywhere the vector arm runs
    x = np.frombuffer(b"".join(rows), dtype=np.int8).reshape(len(rows), dims).astype(np.float64)
    return x, np.sqrt((x * x).sum(axis=1))


def _best(sims, refs: list[str], skip: int) -> list[tuple[float, str]]:
    """The RELATED best (similarity, ref) of one row of similarities, leaving out index `skip`."""
    import numpy as np
    sims = sims.copy()
    sims[skip] = -np.inf
    valid = np.isfinite(sims)
    if not valid.any():
        return []
    k = min(RELATED, int(valid.sum()))
    floor = np.partition(sims[valid], -k)[-k]
    picked = [(float(sims[i]), refs[i]) for i in np.flatnonzero(sims >= floor)]
    return sorted(picked, key=lambda p: (-p[0], p[1]))[:RELATED]


def _rows_of(x, norms, which: list[int]):
    """Similarities of the notes `which` to every note (a zero vector's are -inf: none)."""
    import numpy as np
    with np.errstate(divide="ignore", invalid="ignore"):
        sims = (x[which] @ x.T) / (norms[which][:, None] * norms[None, :])
    sims[~np.isfinite(sims)] = -np.inf
    return sims


def related(refs: list[str], rows: list[bytes], dims: int, kept: dict | None = None) -> dict[str, list[str]]:
    """{note ref: its related note refs} for notes `refs` (sorted) with vectors `rows`. `kept`:
    what the last call in this process left (its refs' rows and lists), left holding this one's."""
    if not refs:
        return {}
    x, norms = _matrix(rows, dims)
    at = {ref: i for i, ref in enumerate(refs)}
    old_rows, old_lists = (kept or {}).get("rows", {}), (kept or {}).get("lists", {})
    changed = [r for r, row in zip(refs, rows) if old_rows.get(r) != row]
    gone = set(old_rows) - set(at) | set(changed)
    lists: dict[str, list[tuple[float, str]]] = {}
    if old_lists and len(changed) + len(set(old_rows) - set(at)) <= FULL_SHARE * len(refs):
        against = _rows_of(x, norms, [at[c] for c in changed]) if changed else None
        todo = list(changed)
        for ref in refs:
            if ref in lists or ref in changed:
                continue
            old = old_lists.get(ref, [])
            if any(r in gone for _, r in old):
                todo.append(ref)
                continue
            i = at[ref]
            extra = [(float(against[j, i]), c) for j, c in enumerate(changed) if against[j, i] != float("-inf")]
            lists[ref] = sorted(old + extra, key=lambda p: (-p[0], p[1]))[:RELATED]
    else:
        todo = list(refs)
    for start in range(0, len(todo), BLOCK):
        block = [at[r] for r in todo[start:start + BLOCK]]
        sims = _rows_of(x, norms, block)
        for n, i in enumerate(block):
            lists[refs[i]] = _best(sims[n], refs, i) if norms[i] else []
    if kept is not None:
        kept["rows"], kept["lists"] = dict(zip(refs, rows)), lists
    return {ref: [r for _, r in lists[ref]] for ref in refs}
