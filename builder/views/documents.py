"""What search needs from a brain, computed once at build time (docs/replies.md#bf-search). Pure: no I/O.

Two products:
- `documents`: one index document per note, per section and per record, with the fields
  title, aliases, headings and body (builder/bm25 weighs them), and a record's source
  as its index `group` (notes and sections: none); a record also has `neighbours` (the texts
  around it in its conversation, views/conversations.py) and its conversation's number. Notes
  and records carry their `facets` (the keys the query engine filters on: note_facets,
  record_facets) and every document its `placed` instant in whole seconds (a section its
  note's), so a scoped search filters its hits from the index (bm25/FORMAT.md f/ and p/).
  A section's own heading goes in its
  headings field, not its title: only a note's title and aliases (and a record's given title)
  name an item. A note's `names` (title, each alias, file stem) feed the index's name table,
  which puts the note first for a query that is one of them. Refs are the items' own
  refs (`x.md`, `x.md#id`, `SOURCE:ID`), never integer-like.
- `store`: the compact document store the query engine filters, ranks and excerpts from
  (builder/query/store.py reads it; site/engine reads the same files). Small metadata is
  kept apart from text, and records are split by source, so a scoped search loads only
  what it needs. See `builder/emit/search_index.py` for the files.

Text of a note is kept once, in *pieces*: piece 0 is the lead (body before the first
heading, without the H1 that titles the note), then one piece per section from its heading
line to the next heading of any level. A section's text is the join of pieces
[first, end) — its own piece and those of the sections nested in it. Pieces are joined
with one space, empty ones skipped (`builder.kernel.text.join_pieces`, shared with the query engine).
"""
from __future__ import annotations

from itertools import chain, compress
from operator import attrgetter, itemgetter, ne

from ..bm25.scoring import PARAMS
from ..kernel.model import Brain, Note, Record
from ..kernel.parallel import SERIAL, Spread
from .conversations import Neighbourhood
from ..kernel.times import parse_instant, rfc3339, seconds
from .coverage import all_coverage
from .graph import changed_runs
from .lists import placed
from .memo import Memos, changed_keys, model_changes
from ..kernel.text import join_pieces, plain, preview_title


def note_pieces(note: Note) -> list[str]:
    data = note.text.encode("utf-8")
    starts = [s.start for s in note.sections]
    lead = data[note.body_offset:starts[0] if starts else len(data)].decode("utf-8")
    if note.title_from_h1:
        lines = lead.lstrip().splitlines()
        lead = "\n".join(lines[1:]) if lines and lines[0].startswith("#") else lead
    bounds = zip(starts, starts[1:] + [len(data)])
    return [plain(lead)] + [plain(data[a:b].decode("utf-8")) for a, b in bounds]


def section_spans(note: Note) -> list[tuple[int, int]]:
    """[first, end) piece indexes of each section: itself and the sections nested in it."""
    spans = []
    for k, s in enumerate(note.sections):
        end = len(note.sections)
        for j in range(k + 1, len(note.sections)):
            if note.sections[j].start >= s.end:
                end = j
                break
        spans.append((k + 1, end + 1))
    return spans


def _linked_identities(brain: Brain, ref: str, links_by_source: dict) -> list[str]:
    return sorted({l.ref for l in links_by_source.get(ref, ()) if l.status == "resolved" and l.ref in brain.identities})


def _entities(brain: Brain, ref: str, own: tuple[str, ...], links_by_source: dict) -> list[str]:
    """Identities an item names: those it claims (in order), then those it links to (sorted)."""
    out = list(own)
    out += [i for i in _linked_identities(brain, ref, links_by_source) if i not in out]
    return out


def _compact(entry: dict) -> dict:
    """Drop empty values: readers default a missing key to null / [] / {} / false."""
    return {k: v for k, v in entry.items() if v not in (None, "", [], {}, False)}


PARALLEL_NOTES = 1000  # fewer notes are cut faster than workers start


def _pieces(brain: Brain, ref: str) -> list[str]:
    return note_pieces(brain.notes[ref])


def index_input(brain: Brain, known: dict | None = None, changes=model_changes,
                spread: Spread = SERIAL) -> tuple[dict, list[dict]]:
    """({note ref: its pieces}, the index documents): pieces are cut once, for the index, the
    store and the vectors. `known`: what the last build of this brain in this process made, left
    holding this build's: a note object unchanged since keeps its pieces and documents, a record
    object whose neighbourhood is unchanged its document (the same dict: the index and the
    vectors pass it by identity); only the notes and records that changed, and the records
    whose neighbourhood was made again, are looked at. `changes`: memo.model_changes, or a
    memo.Changes the store asks too. `spread`: the workers the runner allows (kernel/parallel.py)."""
    known = {} if known is None else known
    notes = known.get("notes", {})   # note ref → (note, its pieces, its documents)
    changed = changes(brain.notes, known.get("note_objects", {}))
    todo = [ref for ref in sorted(changed) if ref in brain.notes]
    cut = dict(zip(todo, spread.each(_pieces, todo, brain, worth=len(todo) > PARALLEL_NOTES)))
    made = dict(notes)   # in ref order but for the notes added since: the index sorts it (bm25 arrange) cheaply
    # an item's facets also change with its links (entities), the identities and a note's
    # modification time (placed): those items are looked at again
    identities = frozenset(brain.identities)
    linked, relinked = _relinked(brain.links, known.get("links"), known.get("linked"))
    if identities != known.get("identities"):
        relinked |= brain.notes.keys() | brain.records.keys()
    again = changed | (relinked & notes.keys())
    again |= {ref for ref in changed_keys(brain.modified, known.get("modified", {}), ne) if ref in notes}
    for ref in sorted(again):
        note = brain.notes.get(ref)
        if note is None:
            made.pop(ref, None)
            continue
        facets = (note_facets(brain, note, linked), seconds(note.event or brain.modified[ref]))
        old = notes.get(ref)
        if ref in changed or old is None or old[3] != facets:
            pieces = cut[ref] if ref in cut else old[1]
            made[ref] = (note, pieces, _note_documents(note, pieces, facets), facets)
    around = _neighbourhood(brain, known, changes)
    records = known.get("records", {})   # record ref → (record, its neighbourhood, its document)
    kept = dict(records)
    todo = changes(brain.records, known.get("record_objects", {})) | known["around"].redone | (relinked & records.keys())
    shared = shared_titles(brain.records)
    if shared != known.get("shared_titles", frozenset()):   # a title came to be shared, or no longer is
        todo |= {ref for ref, rec in records.items() if (rec[0].source, rec[0].own_title) in shared ^ known.get("shared_titles", frozenset())}
    for ref in sorted(todo):
        rec = brain.records.get(ref)
        if rec is None:
            kept.pop(ref, None)
            continue
        near, old = around[ref], records.get(ref)
        facets = record_facets(brain, rec, linked)
        named = (rec.source, rec.own_title) not in shared
        kept[ref] = (old if old is not None and old[0] is rec and old[1] == near and (old[2]["facets"], old[2]["placed"]) == facets
                     and old[2]["title"] == (rec.own_title if named else "")
                     else (rec, near, _record_document(rec, near, facets, named)))
    known.update(notes=made, records=kept, note_objects=brain.notes, record_objects=brain.records,   # the model's: never mutated
                 shared_titles=shared,
                 modified=brain.modified, identities=identities, linked=linked, links=brain.links)
    docs = list(chain.from_iterable(map(itemgetter(2), made.values())))
    docs += map(itemgetter(2), kept.values())
    return dict(zip(made, map(itemgetter(1), made.values()))), docs


def _neighbourhood(brain: Brain, known: dict, changes) -> dict:
    """The records' conversations.Neighbourhood, kept in `known`: only what a changed record
    reaches is made again."""
    if "around" not in known:
        known["around"] = Neighbourhood(len(PARAMS["neighbours"]["weights"]))
    return known["around"].update(brain, changes)


def _identities(brain: Brain, ref: str, own: tuple[str, ...], linked: dict) -> list[str]:
    return [f"entity:{e}" for e in _entities(brain, ref, own, linked)]


def note_facets(brain: Brain, note: Note, linked: dict) -> tuple[str, ...]:
    """What a search filters a note on (scopes.admits, search --type): each tag and each of its
    ancestors (`a/b`: tag:a/b and tag:a, as a tag scope admits), each entity, its type and
    whether it is deprecated; sorted. `linked`: link source ref → its links."""
    keys = set(_identities(brain, note.ref, note.entities, linked))
    for tag in note.tags:
        keys.update(f"tag:{tag[:i]}" for i, c in enumerate(tag) if c == "/")
        keys.add(f"tag:{tag}")
    if note.type is not None:
        keys.add(f"type:{note.type}")
    if note.deprecated:
        keys.add("deprecated")
    return tuple(sorted(keys))


def record_facets(brain: Brain, rec: Record, linked: dict) -> tuple[tuple[str, ...], int | None]:
    """(a record's facets: each entity, `undated` without an event time; its placed seconds)."""
    keys = _identities(brain, rec.ref, (), linked) + (["undated"] if rec.time is None else [])
    return tuple(sorted(keys)), seconds(rec.placed)


def _note_documents(note: Note, pieces: list[str], facets: tuple) -> list[dict]:
    """The index documents of a note and of its sections; `facets`: (note_facets, placed seconds)."""
    stem = note.ref.rsplit("/", 1)[-1].removesuffix(".md")
    keys, when = facets
    docs = [{"ref": note.ref, "title": note.title, "aliases": " ".join(note.aliases),
             "headings": " ".join(s.heading for s in note.sections), "body": join_pieces(pieces),
             "names": [note.title, *note.aliases, stem], "facets": keys, "placed": when}]
    for s, (first, end) in zip(note.sections, section_spans(note)):
        nested = note.sections[first - 1:end - 1]   # this section and those nested in it
        docs.append({"ref": s.ref, "title": "", "aliases": "", "placed": when,
                     "headings": " ".join(n.heading for n in nested), "body": join_pieces(pieces[first:end])})
    return docs


def shared_titles(records: dict) -> frozenset[tuple[str, str]]:
    """(source, title) of every title its file gives that two or more records of the source
    carry ("Caroline, session 3" on each of her messages that day): it names none of them."""
    seen, shared = set(), set()
    for rec in records.values():
        if title := rec.own_title:
            key = (rec.source, title)
            (shared if key in seen else seen).add(key)
    return frozenset(shared)


def _record_document(rec: Record, around: tuple[int, list], facets: tuple, named: bool = True) -> dict:
    """A record's index document. Its title is the one its file gives (a title made from the
    text would count the text twice, ten times over); a title its source's records share
    (`named` false: shared_titles) is no name, so it is left out: weighed as a title, ten
    times the text, it outweighed what each message says
    (docs/decisions.md#a-semantic-arm-that-earns-its-place)."""
    number, near = around
    # group: the index knows each hit's source without its ref, so a scoped search drops hits early
    return {"ref": rec.ref, "title": rec.own_title if named else "", "aliases": "", "headings": "", "body": rec.text,
            "group": rec.source, "neighbours": near, "conversation": number, "facets": facets[0], "placed": facets[1]}


def _record_metas(brain: Brain, last, links: tuple, changes) -> tuple[dict, dict]:
    """({record ref: ((record, its links), its meta)}, {source: {ref: meta}} in ref order);
    `last`: the last store's ((records, their links), these), whose entries an unchanged record
    with unchanged links keeps; `links`: the records' links (brain.links after the notes').
    Only the records that changed or whose links changed (the stretch of `links` that differs
    by identity) are looked at, and only their sources' dicts are made again."""
    old_metas, old_records = last[1] if last else ({}, {})
    if last is not None:   # the records that changed, and those whose links did
        todo = changes(brain.records, last[0][0]) | changed_runs(links, last[0][1])[0]
    else:
        todo = set(brain.records)
    links_by_source = _by_source(_links_of(brain, todo))
    metas = dict(old_metas)
    for ref in todo:
        rec = brain.records.get(ref)
        if rec is None:
            metas.pop(ref, None)
            continue
        own = tuple(links_by_source.get(ref, ()))
        old = metas.get(ref)
        if old is None or old[0] != (rec, own):
            metas[ref] = ((rec, own), _compact({
                "id": rec.id, "title": preview_title(rec.title), "time": rfc3339(rec.time),
                "observed": rfc3339(rec.observed), "modified": rfc3339(rec.modified), "placed": rfc3339(rec.placed),
                "entities": _entities(brain, ref, (), links_by_source),
            }))
    redo: dict[str, set] = {}   # source -> its refs that changed, came or went
    for m in (metas, old_metas):
        for ref in todo & m.keys():
            redo.setdefault(m[ref][0][0].source, set()).add(ref)
    records: dict[str, dict] = {name: {} for name in brain.sources}
    records.update((name, metas_) for name, metas_ in old_records.items() if name not in redo)
    for source, refs in redo.items():
        mine = sorted((old_records.get(source, {}).keys() | refs) & metas.keys())
        if mine or source in records:
            records[source] = {ref: metas[ref][1] for ref in mine}
    return metas, records


def _links_of(brain: Brain, items) -> tuple:
    """The brain's links held by `items` (refs: its notes, its records…), picked at C speed."""
    return tuple(compress(brain.links, map(items.__contains__, map(attrgetter("source"), brain.links))))


def _relinked(links: tuple, old: tuple | None, old_linked: dict | None) -> tuple[dict, set]:
    """(link source ref → its links, the sources whose links differ from the last build's): the
    last build's map with only the sources in the stretch of brain.links that holds other objects
    grouped again (graph.changed_runs)."""
    if old is None:
        linked = _by_source(links)
        return linked, set(linked)
    sources, lo, hi = changed_runs(links, old)
    if len(sources) > len(old_linked) // 8:   # many: as quick to group them all
        linked = _by_source(links)
        return linked, changed_keys(linked, old_linked, ne)
    linked = dict(old_linked)
    for source in sources:
        linked.pop(source, None)
    linked.update(_by_source(links[lo:hi]))
    return linked, {source for source in sources if linked.get(source) != old_linked.get(source)}


def _by_source(links) -> dict:
    """Link source ref → its links."""
    out: dict = {}
    for link in links:
        out.setdefault(link.source, []).append(link)
    return out


def _note_entries(brain: Brain, pieces_of: dict | None, memos: Memos, links_by_source: dict) -> tuple:
    """(notes' meta, their text, {type: count}), each note's entries kept while unchanged."""
    notes, note_text, types = {}, {}, {}
    for ref in sorted(brain.notes):
        note = brain.notes[ref]
        if note.type is not None:
            types[note.type] = types.get(note.type, 0) + 1
        links = tuple(links_by_source.get(ref, ()))
        notes[ref] = memos["note meta"](ref, (note, brain.modified[ref], links), lambda: _compact({
            "title": preview_title(note.title), "type": note.type, "tags": list(note.tags),
            "fields": dict(note.fields), "entities": _entities(brain, ref, note.entities, links_by_source),
            "modified": rfc3339(brain.modified[ref]), "placed": rfc3339(placed(brain, ref)),
            "deprecated": note.deprecated,
            "sections": [[s.id, preview_title(s.title), first, end] for s, (first, end) in zip(note.sections, section_spans(note))],
        }))
        pieces = pieces_of[ref] if pieces_of is not None else note_pieces(note)
        note_text[ref] = memos["note text"](ref, (note, pieces), lambda: _compact({"summary": note.summary, "pieces": pieces}))
    return notes, note_text, dict(sorted(types.items()))


def store(brain: Brain, as_of: str, pieces_of: dict | None = None, memos: Memos | None = None,
          changes=model_changes) -> dict:
    """{"notes": {ref: meta}, "note_text": {ref: {summary, pieces}},
        "records": {source: {ref: meta}},
        "sources": {source: coverage}, "types": {type: count}}
    `pieces_of`: {note ref: its pieces} (index_input's) when the caller has them; `memos`: what the last store in this process made (memo.py):
    an item's entries are the same objects while what they are made of is unchanged; `changes`:
    memo.model_changes, or the memo.Changes index_input asked."""
    memos = memos or Memos(None, ())
    # every note's entries at once while no note, time, note link or pieces changed (a new record)
    family = memos["notes"]
    stamp = (brain.notes, brain.modified, brain.links[:brain.note_links], pieces_of and dict(pieces_of))
    if family.last.get("all", (None,))[0] == stamp:
        memos["note meta"].carry(())
        memos["note text"].carry(())
    # a note's entries read only its own links: the notes' links, grouped when one is made again
    notes, note_text, types = family("all", stamp, lambda: _note_entries(brain, pieces_of, memos, _by_source(stamp[2])))
    # every record's meta at once while no record and no record's link changed (most edits)
    family, recs = memos["records"], brain.records
    stamp = (recs, brain.links[brain.note_links:])
    last = family.last.get("all")
    records = family("all", stamp, lambda: _record_metas(brain, last, stamp[1], changes))[1]
    coverage = memos["coverage"]("all", (as_of, recs, tuple(sorted(brain.sources.items()))),
                                 lambda: all_coverage(brain, parse_instant(as_of), memos["source coverage"]))
    return {"notes": notes, "note_text": note_text, "records": records,
            "sources": coverage, "types": types}
