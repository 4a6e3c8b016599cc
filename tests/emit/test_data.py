"""Compact data (docs/data.md): listings as header + card ids, cards once, record replies in
packs, sections computed from their note's reply; the query engine computes every page from it, equal to the pages the views made."""
from __future__ import annotations

import gzip
import json
import random

import pytest

from builder.kernel import refs
from builder.emit.cardids import STRIDE, CardIds
from builder.emit.data import DataMemo
from builder.kernel.errors import InvalidInput
from builder.kernel.listing import paged
from builder.query.read import read
from builder.query.site import open_site


def card(n: int, timed: bool = False) -> tuple[bytes, tuple[str, bool]]:
    ref = f"folder/n{n:04d}.md"
    return json.dumps({"ref": ref, "placed": timed}).encode("utf-8"), (ref, timed)


def test_pages_of_another_shape_are_kept_whole():
    item = {"ref": "n1.md", "title": "N1", "kind": "note"}
    odd = ({"page": "folder", "ref": "x", "items": [item], "total": 9, "offset": 0, "next_offset": None},)
    assert json.loads(DataMemo().listing(odd).text) == {"pages": list(odd)}
    listing = DataMemo().listing(tuple(paged({"page": "folder", "ref": "x"}, [item] * 60)))
    assert listing.base == {"page": "folder", "ref": "x"} and len(listing.cards) == 60


def test_card_ids_are_a_function_of_the_cards_alone():
    """Whatever was added and removed before, the same cards get the same ids and chunks."""
    cards = dict(card(n, timed) for n in range(3000) for timed in (False, True) if n % 7 or timed)
    once = CardIds()
    once.update(cards, set())
    steps, rng = CardIds(), random.Random(15)
    steps.update(dict(card(n) for n in range(4000, 4600)), set())
    steps.update({t: i for t, i in cards.items() if rng.random() < 0.9}, set())
    steps.update({}, {t for t in steps.keys if b"n4" in t[:20] and rng.random() < 0.95})
    for _ in range(30):
        gone = {t for t in list(steps.keys) if rng.random() < 0.01}
        steps.update({t: i for t, i in cards.items() if t not in steps.keys and rng.random() < 0.3}, gone)
    steps.update({t: i for t, i in cards.items() if t not in steps.keys}, set(steps.keys) - set(cards))
    assert steps.ids == once.ids and steps.chunks == once.chunks
    assert len(set(once.ids.values())) == len(cards)
    assert all(len(json.loads(c)) <= STRIDE for c in once.chunks.values())


def test_a_new_card_or_a_removed_one_moves_no_other():
    ids = CardIds()
    ids.update(dict(card(n) for n in range(0, 3000, 2)), set())
    before = dict(ids.ids)
    text, info = card(1001)
    assert ids.update({text: info}, set()) == set()
    assert {t: n for t, n in ids.ids.items() if t != text} == before
    assert ids.update({}, {text, card(1000)[0]}) == set()
    assert ids.ids == {t: n for t, n in before.items() if t != card(1000)[0]}


@pytest.fixture(scope="module")
def long_site(tmp_path_factory):
    from builder.build import build
    root = tmp_path_factory.mktemp("data")
    brain = root / "b"
    for i in range(120):
        (brain / "many").mkdir(parents=True, exist_ok=True)
        link = "\n[[n005#Part]]\n" if i == 0 else ""
        (brain / "many" / f"n{i:03d}.md").write_text(f"---\ntags: [t{i % 3}]\n---\n# N{i}\n{link}\n## Part\n\nx\n")
        (brain / "memories" / "chat").mkdir(parents=True, exist_ok=True)
        (brain / "memories" / "chat" / f"m{i:03d}.json").write_text(json.dumps(
            {"text": f"message {i}", "time": f"2026-11-{1 + i % 28:02d}T10:{i % 60:02d}:00Z"}))
    build([brain], root / "site", now="2026-12-02T12:00:00Z", pagefind=False)
    return root / "site"


def test_only_notes_and_home_have_reply_files(long_site):
    names = sorted(p.relative_to(long_site / "b").as_posix() for p in (long_site / "b").rglob("*.json"))
    assert names == ["home.json"] + [f"many/n{i:03d}.md.json" for i in range(120)]


def test_every_offset_of_a_long_listing_is_computed(long_site):
    site = open_site(long_site)
    pages = [read(site, "memories/chat", offset=o) for o in (0, 50, 100)]
    assert [len(p["items"]) for p in pages] == [50, 50, 20]
    assert [p["next_offset"] for p in pages] == [50, 100, None]
    listed = [i["ref"] for p in pages for i in p["items"]]
    assert sorted(listed) == sorted(f"chat:m{i:03d}" for i in range(120))
    for bad in (25, 150):
        with pytest.raises(InvalidInput):
            read(site, "memories/chat", offset=bad)


def test_records_read_from_their_packs(long_site):
    site = open_site(long_site)
    assert read(site, "chat:m007")["record"]["text"] == "message 7"
    meta = json.loads((long_site / "_bf/b/data/meta.json").read_bytes())
    assert set(meta["packs"]) == {"lists", "sections", "records/chat"}
    key = refs.data_key("b", "chat:m007")
    path = long_site / f"_bf/b/data/records/chat/{refs.pack_of(key, meta['packs']['records/chat'])}.json.gz"
    pack = json.loads(gzip.decompress(path.read_bytes()))   # a pack file is gzip'd JSON (docs/data.md)
    assert pack[key][0]["record"]["text"] == "message 7"


def test_sections_are_computed_from_their_note_unless_linked_to(long_site):
    """Only the section someone links to (its backlinks are not in the note's reply) is kept; the
    other 119 are computed from their note's reply (query/sections.py), text and all."""
    site = open_site(long_site)
    section = read(site, "many/n007.md#part")
    assert (section["page"], section["text"], section["title"]) == ("section", "## Part\n\nx\n", "N7 — Part")
    assert section["backlinks"] == []
    assert [b["ref"] for b in read(site, "many/n005.md#part")["backlinks"]] == ["many/n000.md"]
    meta = json.loads((long_site / "_bf/b/data/meta.json").read_bytes())
    kept = {}
    for i in range(meta["packs"]["sections"]):
        kept |= json.loads(gzip.decompress((long_site / f"_bf/b/data/sections/{i}.json.gz").read_bytes()))
    assert list(kept) == [refs.data_key("b", "many/n005.md#part")]
    with pytest.raises(InvalidInput):
        read(site, "many/n007.md#part", offset=3)


def test_a_site_of_the_old_bundle_is_refused(long_site, tmp_path, bf):
    import shutil
    old = tmp_path / "old"
    shutil.copytree(long_site, old)
    manifest = json.loads((old / "_bf/manifest.json").read_bytes())
    (old / "_bf/manifest.json").write_text(json.dumps(manifest | {"bundle_version": 1}))
    code, out, err = bf("read", "memories/chat", "--site", old)
    assert code == 5 and json.loads(err)["code"] == "index_missing"


def test_relative_periods_are_computed_from_the_timeline(long_site, tmp_path, monkeypatch):
    """A period with no stored reply is computed from the timeline rows; computing one that the
    build did store (7d, 30d, with every page) gives the stored reply; a recent period reads the
    newest chunks only."""
    from builder.build import build
    from builder.emit import data
    from builder.query.listings import period_reply
    monkeypatch.setattr(data, "TIMELINE_CHUNK", 16)
    out = build([long_site.parent / "b"], tmp_path / "site", now="2026-12-02T12:00:00Z", pagefind=False).out
    site = open_site(out)
    for ref, offset in (("7d", 0), ("30d", 0), ("30d", 50), ("30d", 100)):
        assert period_reply(site, "b", ref, offset) == site.reply("b", ref, *((f"o{offset}",) if offset else ()))
    site = open_site(out)
    page = read(site, "10d")
    assert page["items"] and all(i["time"] >= page["start"] for i in page["items"])
    data_ = site.brain_data("b")
    last = data_.meta["timelineChunks"] - 1
    chunks = {k for k in data_.loaded if k.startswith("timeline/")}
    assert last >= 2 and "timeline/0.json" in chunks and f"timeline/{last}.json" not in chunks
