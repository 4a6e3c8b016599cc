"""Write the vector arm's files (SPEC §5); `bf build --no-embeddings` writes none of them.

  _bf/vectors/table.json       {format, dims, rows, shard, vocab: [token…]} (token id = index)
  _bf/vectors/t/K.bin.gz       rows [K·shard, (K+1)·shard) of the package's int8 token table:
                               the browser fetches only the shards of its query's tokens
  _bf/search/BRAIN/vectors/meta.json
                               {format, dims, groups: [[group, first doc id, count, buckets,
                                listable]…], mean, sections: [[first doc id, count]…],
                                fixed: bytes, related: packs}
  _bf/search/BRAIN/vectors/N/c.bin.gz
                               the int8 vectors (dims bytes each) of group N's bucket centres
                               (vectors/buckets.py), in bucket order
  _bf/search/BRAIN/vectors/N/m.bin.gz
                               each doc's bucket, uint16 little-endian, in doc id order (the lunr
                               index's ids: bm25/layout.arrange)
  _bf/search/BRAIN/vectors/N/B.bin.gz
                               the int8 vectors of the docs of group N's bucket B, in doc id order,
                               stored column by column (every doc's first component, then…)
  _bf/search/BRAIN/vectors/related/K.json.gz
                               {NOTE_REF: [[REF, TITLE]…]}: each note's related notes
                               (vectors/related.py), for the "Related" list of its page
                               (site/related.js); K = refs.pack_of(NOTE_REF, meta's `related`)
A group is a run of an index group's docs (records: their source), so a search scoped to a
source reads only that source's files; `listable` counts its docs the arm may list (a non-zero
vector, not a section); `mean` is the integer mean the buckets are centred on; `fixed` is the packed bytes of every c and m file, which an unscoped
search reads before any bucket. A search reads the buckets of its lexical candidates and the
PROBE buckets nearest its query (query/vectorstore.py): ~5 KB each, so its first download stays
under a megabyte at 60,000 docs instead of every vector. Every .bin file is a pack
(kernel/packs.py: gzip, which the browser inflates), as the rows compress to ~57%: the first
component, the tokens' common direction, is nearly always ±127 and the others are small.
`sections` lists the runs of section docs: the vector arm's own candidates are notes and
records, one item per note as lexical search gives.
"""
from __future__ import annotations

from collections.abc import Sequence

from .. import vectors
from ..bm25.layout import arrange
from ..query.vectorstore import FORMAT
from ..kernel.refs import escape_segment
from ..kernel.text import preview_title
from ..vectors.buckets import buckets
from ..vectors.related import related
from ..vectors.rows import doc_rows
from .hashpacks import HashedPacks
from .writer import Writer, canonical_json

SHARD = 64   # rows per table file: a query reads one per token, ~6 KB packed


def table_dir() -> str:
    return "_bf/vectors"


def brain_dir(brain: str) -> str:
    return f"_bf/search/{escape_segment(brain)}/vectors"


def emit_table(writer: Writer) -> None:
    meta, rows = vectors.meta(), vectors.table()
    writer.write_json(f"{table_dir()}/table.json", {"format": FORMAT, "dims": meta["dims"], "rows": meta["rows"],
                                                    "shard": SHARD, "vocab": vectors.vocab()}, "vectors")
    for k in range(0, len(rows), SHARD):
        writer.write_pack(f"{table_dir()}/t/{k // SHARD}.bin", rows[k:k + SHARD].tobytes(), "vectors")


def _u16(values: list[int]) -> bytes:
    import numpy as np   # lazily, as everywhere the vector arm runs
    return np.asarray(values, dtype="<u2").tobytes()


def _bucket_files(rows: list[bytes], centres: list[bytes], bucket: list[int], dims: int) -> list[tuple[str, bytes]]:
    """(name, bytes) of a group's centres, bucket map and buckets; each bucket's vectors stored
    column by column (every doc's first component, then every doc's second…), which packs 13%
    smaller (the first, the tokens' common direction, is nearly always ±127, and each
    component's values are alike)."""
    import numpy as np
    x = np.frombuffer(b"".join(rows), dtype=np.int8).reshape(len(rows), dims)
    order = np.argsort(np.asarray(bucket, dtype=np.int64), kind="stable")   # doc order within a bucket
    ends = np.cumsum(np.bincount(bucket, minlength=max(len(centres), 1))).tolist()
    files = [("c", b"".join(centres)), ("m", _u16(bucket))]
    for b, (start, end) in enumerate(zip([0] + ends, ends)):
        files.append((str(b), x[order[start:end]].T.tobytes()))
    return files


def _layout(docs: list[dict], refs: list[str], kept: dict) -> tuple[list, list]:
    """([[group, first doc id, count]…], [[first doc id, count]…] of the runs of sections) of
    `docs` by doc id (bm25 arrange: None at an unused id); the last call's (in `kept`) while the
    refs and groups are the same."""
    groups = [str(doc.get("group") or "") if doc is not None else None for doc in docs]
    old = kept.get("layout")
    if old is not None and old[0] == refs and old[1] == groups:
        return old[2], old[3]
    files, sections = [], []
    for i, (ref, group) in enumerate(zip(refs, groups)):
        if group is None:
            continue
        if files and files[-1][0] == group:
            files[-1][2] += 1
        else:
            files.append([group, i, 1])
        if not group and "#" in ref:
            if sections and sum(sections[-1]) == i:
                sections[-1][1] += 1
            else:
                sections.append([i, 1])
    kept["layout"] = (refs, groups, files, sections)
    return files, sections


def _write_groups(writer: Writer, base: str, owner: str, refs: list[str], rows: list[bytes], files: list,
                  sections: list, mean: list[int], kept: dict) -> tuple[list, int]:
    """Write each group's centres, bucket map and buckets; ([[group, first, count, buckets,
    listable]…], the packed bytes of the centres and maps). `kept`: each group's files by its
    first ref, from the last build in this process, left holding this one's; a group whose
    refs, vectors and mean are the same keeps them (its buckets are a function of those)."""
    dims, in_section = len(mean), None
    zero, fixed, groups, memo = bytes(dims), 0, [], {}
    for n, (group, first, count) in enumerate(files):
        mine, names = rows[first:first + count], refs[first:first + count]
        old = kept.get(names[0])
        if old is None or old[0] != names or old[1] != mine or old[2] != mean:
            if in_section is None:
                in_section = {i for start, size in sections for i in range(start, start + size)}
            listable = sum(first + i not in in_section and row != zero for i, row in enumerate(mine))
            old = (names, mine, mean, _bucket_files(mine, *buckets(names, mine, mean, dims), dims), listable, None)
        paths = [writer.write_pack(f"{base}/{n}/{name}.bin", data, owner) for name, data in old[3]]
        size = old[5] if old[5] is not None else sum(writer.staged_size(p) for p in paths[:2])
        memo[names[0]] = old[:5] + (size,)
        fixed += size
        groups.append([group, first, count, len(old[3]) - 2, old[4]])
    kept.clear()
    kept.update(memo)
    return groups, fixed


def _related_packs(near: dict[str, list[str]], titles: dict[str, str], kept: dict) -> list[str]:
    """The packs of each note's related notes with their titles. The packs are kept between the
    builds of a process (`kept`, emit/hashpacks.py): an entry whose list (the same object:
    vectors/related.py) and titles are what they were last time is not serialized again, and
    only the packs holding a changed entry are joined again."""
    old_titles, old_shown = kept.get("titles", {}), kept.get("shown", {})
    packs = kept.setdefault("packs", HashedPacks())
    retitled = set() if titles == old_titles else {r for r in titles.keys() | old_titles.keys()
                                                   if titles.get(r) != old_titles.get(r)}
    shown = {ref: refs for ref, refs in near.items() if refs}
    for ref, refs in shown.items():
        if old_shown.get(ref) is not refs or not retitled.isdisjoint(refs):
            packs.set(ref, canonical_json([[r, preview_title(titles[r])] for r in refs]).decode("utf-8"))
    for ref in old_shown.keys() - shown.keys():
        packs.drop(ref)
    kept["titles"], kept["shown"] = titles, shown
    return packs.packs()


def emit_doc_vectors(writer: Writer, brain: str, docs: Sequence[dict], known: dict | None = None,
                     kept: dict | None = None) -> None:
    """`docs`: the brain's index documents (views/documents.documents), in any order. `known`:
    each doc's vector and the brain's mean from the last build (vectors/rows.py); only docs
    whose fields changed are embedded again, and it is left holding this build's. `kept`: the
    layout, buckets and related notes of the last build (vectors/buckets.py, vectors/related.py)."""
    base, owner, dims = brain_dir(brain), f"vectors:{brain}", vectors.meta()["dims"]
    kept = {} if kept is None else kept
    slots, id_refs, _ = arrange(docs)   # the lunr index's doc ids: None at an unused id
    docs = [doc for doc in slots if doc is not None]
    refs = [doc["ref"] for doc in docs]
    rows, mean = doc_rows(docs, refs, dims, known)
    by_id = iter(rows)
    id_rows = [next(by_id) if doc is not None else None for doc in slots]
    files, sections = _layout(slots, id_refs, kept)
    groups, fixed = _write_groups(writer, base, owner, id_refs, id_rows, files, sections, mean,
                                  kept.setdefault("buckets", {}))
    notes = [i for i, doc in enumerate(docs) if "names" in doc]     # only notes have names
    note_refs = [refs[i] for i in notes]
    near = related(note_refs, [rows[i] for i in notes], dims, kept)
    packs = _related_packs(near, dict(zip(note_refs, (docs[i]["title"] for i in notes))), kept)
    for k, text in enumerate(packs):
        writer.write_pack(f"{base}/related/{k}.json", text.encode("utf-8"), owner)
    meta = {"format": FORMAT, "dims": dims, "groups": groups, "mean": mean, "fixed": fixed, "sections": sections,
            "related": len(packs)}
    old = kept.get("meta")
    kept["meta"] = old = old if old is not None and old[0] == meta else (meta, canonical_json(meta))
    writer.write(f"{base}/meta.json", old[1], owner)   # its JSON kept: the sections list is long
