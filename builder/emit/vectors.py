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
                               index's ids: docs sorted by ref)
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

import hashlib
from collections.abc import Sequence
from operator import itemgetter

from .. import vectors
from ..query.vectorstore import FORMAT
from ..kernel.parallel import fork_each
from ..kernel.refs import escape_segment
from ..kernel.text import preview_title
from ..vectors.buckets import buckets, mean_of
from ..vectors.related import related
from .data import hashed_packs
from .writer import Writer, canonical_json

SHARD = 64   # rows per table file: a query reads one per token, ~6 KB packed
PARALLEL_DOCS = 5000  # fewer docs are embedded faster than workers start


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


def _text(doc: dict) -> str:
    return " ".join(doc[f] for f in ("title", "aliases", "headings", "body") if doc.get(f))


def _vector(_, text: str) -> bytes:
    return vectors.doc_vector(text).tobytes()


def _u16(values: list[int]) -> bytes:
    import numpy as np   # lazily, as everywhere the vector arm runs
    return np.asarray(values, dtype="<u2").tobytes()


def _columns(rows: list[bytes]) -> bytes:
    """Equal-length rows stored column by column: every doc's first component, then every
    doc's second… packs 13% smaller (the first, the tokens' common direction, is nearly
    always ±127, and each component's values are alike)."""
    return b"".join(bytes(column) for column in zip(*rows)) if rows else b""


def _write_groups(writer: Writer, base: str, owner: str, refs: list[str], rows: list[bytes], files: list,
                  sections: list, mean: list[int], kept: dict) -> tuple[list, int]:
    """Write each group's centres, bucket map and buckets; ([[group, first, count, buckets,
    listable]…], the packed bytes of the centres and maps). `kept`: each group's buckets by
    what they are a function of, from the last build in this process, left holding this one's."""
    in_section = {i for first, count in sections for i in range(first, first + count)}
    zero, fixed, groups, memo = bytes(len(mean)), 0, [], {}
    for n, (group, first, count) in enumerate(files):
        mine, names = rows[first:first + count], refs[first:first + count]
        key = hashlib.sha256(canonical_json([names, mean]) + b"".join(mine)).digest()
        centres, bucket = memo[key] = kept.get(key) or buckets(names, mine, mean, len(zero))
        fixed += writer.staged_size(writer.write_pack(f"{base}/{n}/c.bin", b"".join(centres), owner))
        fixed += writer.staged_size(writer.write_pack(f"{base}/{n}/m.bin", _u16(bucket), owner))
        held: list[list[bytes]] = [[] for _ in range(max(len(centres), 1))]
        for row, b in zip(mine, bucket):
            held[b].append(row)
        for b, its in enumerate(held):
            writer.write_pack(f"{base}/{n}/{b}.bin", _columns(its), owner)
        listable = sum(first + i not in in_section and row != zero for i, row in enumerate(mine))
        groups.append([group, first, count, len(held), listable])
    kept.clear()
    kept.update(memo)
    return groups, fixed


def emit_doc_vectors(writer: Writer, brain: str, docs: Sequence[dict], known: dict[str, bytes] | None = None,
                     kept: dict | None = None) -> None:
    """`docs`: the brain's index documents (views/documents.documents), in any order. `known`:
    text → vector of the last build (emit/state.py); only other texts are embedded, and it is
    left holding this build's. `kept`: the related notes and buckets of the last build
    (vectors/related.py, vectors/buckets.py)."""
    base, owner, dims = brain_dir(brain), f"vectors:{brain}", vectors.meta()["dims"]
    docs = sorted(docs, key=itemgetter("ref"))
    files, sections = [], []
    for i, doc in enumerate(docs):
        group = str(doc.get("group") or "")
        if files and files[-1][0] == group:
            files[-1][2] += 1
        else:
            files.append([group, i, 1])
        if not group and "#" in doc["ref"]:
            if sections and sum(sections[-1]) == i:
                sections[-1][1] += 1
            else:
                sections.append([i, 1])
    known = {} if known is None else known
    texts = [_text(doc) for doc in docs]
    new = sorted({t for t in texts if t not in known})
    fresh = dict(zip(new, fork_each(_vector, new, None, len(new) > PARALLEL_DOCS)))
    rows = [known.get(t) or fresh[t] for t in texts]
    known.clear()
    known.update(zip(texts, rows))
    mean = mean_of(rows, dims)
    kept = {} if kept is None else kept
    groups, fixed = _write_groups(writer, base, owner, [d["ref"] for d in docs], rows, files, sections, mean,
                                  kept.setdefault("buckets", {}))
    notes = [i for i, doc in enumerate(docs) if "names" in doc]     # only notes have names
    near = related([docs[i]["ref"] for i in notes], [rows[i] for i in notes], dims, kept)
    titles = {docs[i]["ref"]: preview_title(docs[i]["title"]) for i in notes}
    entries = {ref: canonical_json([[r, titles[r]] for r in refs]).decode("utf-8") for ref, refs in near.items() if refs}
    packs = hashed_packs(entries)
    for k, text in enumerate(packs):
        writer.write_pack(f"{base}/related/{k}.json", text.encode("utf-8"), owner)
    writer.write_json(f"{base}/meta.json", {"format": FORMAT, "dims": dims, "groups": groups, "mean": mean,
                                            "fixed": fixed, "sections": sections, "related": len(packs)}, owner)
