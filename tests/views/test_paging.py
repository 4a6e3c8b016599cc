"""Large exact reads (docs/replies.md#paging-large-reads): pages within 32 KiB as served (the CLI's indent-2 print) even
with the largest `stale`, `notice` and problems a query adds, offsets in UTF-8 bytes on character
boundaries, a 4 KiB first page when headings divide the text, problems capped with a count."""
from __future__ import annotations

import json

import pytest

from builder.brain import load
from builder.query.read import MAX_ADDED_PROBLEMS, finish
from builder.views import compute
from builder.views.paging import BUDGET, PAGE_BYTES, RESERVE, paginate, size
from replies import stored_replies

NOW = "2026-12-02T12:00:00Z"
LONGEST_BRAIN = "b" * 255                 # a brain name names a folder (_bf/NAME/): ≤ 255 bytes
MOST_CHANGED = 10 ** 20 - 1               # `changed` counts files


class StaleSite:
    """What `finish` asks of a site: its build instant and the largest `stale` there can be."""
    as_of = NOW

    def stale(self, brain, paths=()):
        return {"built_at": NOW, "changed": MOST_CHANGED}


def served(reply: dict) -> int:
    """Bytes the CLI prints by default: indent 2, UTF-8, and a newline."""
    return len(json.dumps(reply, sort_keys=True, indent=2, ensure_ascii=False).encode("utf-8")) + 1


def with_most_added(page: dict) -> dict:
    """The page as a query serves it with the largest `stale` + `notice` and problems it can add."""
    return finish(StaleSite(), "b", page, [f"{LONGEST_BRAIN[:-1]}{i}" for i in range(MAX_ADDED_PROBLEMS + 1)])


def check_pages(pages: list[dict], data: bytes, path=("text",)) -> None:
    """The invariants every paged read keeps."""
    def text(p):
        return p[path[0]] if len(path) == 1 else p[path[0]][path[1]]
    assert "".join(text(p) for p in pages).encode("utf-8") == data
    offset = 0
    for i, page in enumerate(pages):
        assert served(page) <= BUDGET and served(with_most_added(page)) <= PAGE_BYTES
        assert page["offset"] == offset and page["total_bytes"] == len(data)
        assert offset == len(data) or (data[offset] & 0xC0) != 0x80      # a character boundary
        offset += len(text(page).encode("utf-8"))
        assert page["next_offset"] == (offset if i < len(pages) - 1 else None)
    assert offset == len(data)


def test_the_reserve_holds_the_most_a_query_adds():
    page = {"page": "note", "brain": "b", "ref": "n.md", "text": "", "problems": [], "total_bytes": 0}
    most = dict(with_most_added(page), problems_omitted=MOST_CHANGED)
    assert len(most["problems"]) == MAX_ADDED_PROBLEMS and most["stale"]["changed"] == MOST_CHANGED
    assert served(most) - served(page) <= RESERVE


def build_views(make_brain, tmp_path, files):
    return {v.ref: v for v in compute(load(make_brain(tmp_path, files)), NOW) if not v.variant}


FILLER = "Plain words with é, 😀 and 日本語 in them, and \"quotes\" and a \\ backslash.\n"


def big_note(n_sections=12, lines=60):
    parts = ["---\ntitle: Big\n---\n"]
    for i in range(n_sections):
        parts.append(f"## Part {i}\n\n" + FILLER * lines + "\n")
    return "".join(parts)


def test_big_note_with_headings_first_page_is_4k_with_outline(make_brain, tmp_path):
    text = big_note()
    data = text.encode("utf-8")
    assert len(data) > 32 * 1024
    views = build_views(make_brain, tmp_path, {"big.md": text})
    pages = views["big.md"].pages
    check_pages(list(pages), data)
    first = pages[0]
    assert len(first["text"].encode("utf-8")) <= 4096 and len(first["text"].encode("utf-8")) > 4000
    assert [o["title"] for o in first["outline"]] == [f"Part {i}" for i in range(12)]
    assert {"claims", "backlinks", "links", "tags", "title"} <= set(first)
    for later in pages[1:]:
        assert set(later) == {"page", "brain", "ref", "uri", "sha256", "modified", "problems",
                              "text", "offset", "next_offset", "total_bytes"}
        assert later["sha256"] == first["sha256"]


def test_big_section_pages_too(make_brain, tmp_path):
    text = "# Title\n\n## Huge\n\n" + FILLER * 600 + "### Inner\n\nend\n"
    views = build_views(make_brain, tmp_path, {"s.md": text})
    pages = list(views["s.md#huge"].pages)
    data = text.encode("utf-8")
    start = data.index(b"## Huge")
    check_pages(pages, data[start:])
    assert [o["title"] for o in pages[0]["outline"]] == ["Inner"]
    assert len(pages[0]["text"].encode("utf-8")) <= 4096


def test_big_note_without_headings_fills_the_first_page(make_brain, tmp_path):
    text = FILLER * 700
    pages = list(build_views(make_brain, tmp_path, {"flat.md": text})["flat.md"].pages)
    check_pages(pages, text.encode("utf-8"))
    assert len(pages) >= 2 and served(pages[0]) > BUDGET - 200   # as much as fits


def test_small_reply_is_one_page(make_brain, tmp_path):
    views = build_views(make_brain, tmp_path, {"a.md": "# A\n\n## B\n\nshort\n"})
    (page,) = views["a.md"].pages
    assert (page["offset"], page["next_offset"], page["total_bytes"]) == (0, None, len(b"# A\n\n## B\n\nshort\n"))


@pytest.mark.parametrize("char", ["é", "😀", "日"])
@pytest.mark.parametrize("shift", [0, 1, 2, 3])
def test_multibyte_character_straddling_the_4k_cut(char, shift):
    head = "## H\n"
    pad = 4096 - len(head) - shift                     # the character starts `shift` bytes before 4096
    text = head + "a" * pad + char * 20 + "\n" + ("z" * 100 + "\n") * 400
    data = text.encode("utf-8")
    reply = {"page": "note", "brain": "b", "ref": "n.md", "text": text, "sha256": "0", "outline": [{"x": 1}]}
    pages = paginate(reply, divided=True)
    check_pages(pages, data)
    first = len(pages[0]["text"].encode("utf-8"))
    assert first <= 4096 and 4096 - first < len(char.encode("utf-8"))


@pytest.mark.parametrize("char", ["é", "😀", "日", '"', "\x01"])
def test_every_later_page_fits_with_any_character(char):
    text = char * 40000
    reply = {"page": "note", "brain": "b", "ref": "n.md", "text": text, "sha256": "0"}
    pages = paginate(reply)
    check_pages(pages, text.encode("utf-8"))
    assert len(pages) >= 2


def test_record_pages_carry_every_field_first(make_brain, tmp_path):
    text = FILLER * 600
    views = build_views(make_brain, tmp_path, {"memories/chat/long.json": json.dumps(
        {"text": text, "title": "Long", "time": "2026-12-01T09:00:00Z", "author": "person:a"})})
    pages = list(views["chat:long"].pages)
    check_pages(pages, text.encode("utf-8"), ("record", "text"))
    assert pages[0]["record"]["author"] == "person:a" and pages[0]["title"] == "Long"
    assert set(pages[1]["record"]) == {"text"} and "title" not in pages[1]


def test_note_with_very_many_backlinks_still_pages(make_brain, tmp_path):
    files = {f"n{i:04d}.md": f"link to [[target]] number {i} " + "word " * 40 for i in range(400)}
    files["target.md"] = FILLER * 10
    pages = list(build_views(make_brain, tmp_path, files)["target.md"].pages)
    check_pages(pages, files["target.md"].encode("utf-8"))
    assert pages[0]["truncated"] == {"backlinks": 400} and 0 < len(pages[0]["backlinks"]) < 400


@pytest.mark.parametrize("char", ["a", "é", "日", "😀"])
def test_note_without_headings_just_over_32k_fits_when_stale(make_brain, tmp_path, char):
    """The defect: such a note's first page was filled to 32 KiB, then `stale` + `notice` pushed
    it over (32,961 bytes as printed)."""
    text = "---\ntitle: Flat\n---\n" + (char * 79 + "\n") * (33_000 // (len(char.encode("utf-8")) * 79 + 1))
    data = text.encode("utf-8")
    assert 32 * 1024 < len(data) < 34 * 1024
    pages = list(build_views(make_brain, tmp_path, {"flat.md": text})["flat.md"].pages)
    check_pages(pages, data)
    assert len(pages) == 2 and "outline" in pages[0] and not pages[0]["outline"]


def test_problems_of_a_paged_read_are_capped_with_a_count(make_brain, tmp_path):
    text = "".join(f"See [[missing note number {i}]].\n" for i in range(400))
    pages = list(build_views(make_brain, tmp_path, {"many.md": text})["many.md"].pages)
    check_pages(pages, text.encode("utf-8"))
    kept = pages[0]["problems"]
    assert 0 < len(kept) < 400 and pages[0]["problems_omitted"] == 400 - len(kept)
    assert {p["kind"] for p in kept} == {"broken_link"}
    assert all(p["problems"] == kept and p["problems_omitted"] == 400 - len(kept) for p in pages[1:])


def test_problems_of_a_whole_read_are_all_kept(make_brain, tmp_path):
    text = "".join(f"See [[missing {i}]].\n" for i in range(10))
    (page,) = build_views(make_brain, tmp_path, {"few.md": text})["few.md"].pages
    assert len(page["problems"]) == 10 and "problems_omitted" not in page


def test_a_query_keeps_the_first_added_problems_and_counts_the_rest():
    page = {"page": "note", "text": "t", "total_bytes": 1, "problems": [{"kind": "broken_link"}], "problems_omitted": 3}
    got = finish(StaleSite(), "b", page, ["x", "y", "z", "w"])
    assert [p.get("brain") for p in got["problems"]] == [None, "x", "y"] and got["problems_omitted"] == 5
    listing = finish(StaleSite(), "b", {"page": "folder", "items": []}, ["x", "y", "z", "w"])
    assert len(listing["problems"]) == 4 and "problems_omitted" not in listing      # not an exact read


def test_size_is_the_served_bytes_of_every_reply(example_site):
    """`size` adds indent=2's layout to the C encoder's compact JSON: equal, byte for byte, to the
    CLI's print of every reply the example site stores, and of awkward values."""
    awkward = [{}, [], {"a": []}, {"a": {"b": [1, {"c": "é\u2028\"\\x"}]}}, [[[]]], {"x": None, "y": [True, 1.5, -0.0]}]
    values = [reply for _, _, reply in stored_replies(example_site)] + awkward
    assert len(values) > 100
    assert [size(v) for v in values] == [served(v) for v in values]


def _nested(rng, depth: int):
    """A JSON value with strings that hold brackets, commas, quotes and backslashes."""
    pick = rng.random()
    if depth > 7 or pick < 0.3:
        return rng.choice(['a "[q]", {b}\\', 7, None, True, False, "ü€", "", 1.5, 1e16, -2.5e-7, 1e-5, 123456789.125,
                           "tab\t\x01\u2028", 2 ** 70])
    if pick < 0.65:
        return [_nested(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {f'k{i}"[,': _nested(rng, depth + 1) for i in range(rng.randint(0, 4))}


def test_within_says_exactly_whether_a_reply_fits():
    """paging.within decides from an upper bound when it can, so it must agree with the served
    size on both sides of the budget, however deep and whatever the strings hold."""
    import random
    from builder.views.paging import within
    rng = random.Random(20)
    for _ in range(2000):
        reply = {"x": _nested(rng, 0)}
        n = served(reply)
        assert within(reply, n) and not within(reply, n - 1)


def test_within_counts_what_the_served_form_writes_longer_than_the_canonical_one():
    """Where the served form is longer than canonical JSON (a space after each key; 1e-07 for
    orjson's 1e-7) and indent=2 adds little beyond the bound's own count."""
    from builder.views.paging import within
    for reply in ({"x": [1e-7] * 300}, {"x": [2.5e-5] * 300}, {"x": {f"k{i}": 1 for i in range(300)}}):
        n = served(reply)
        assert within(reply, n) and not within(reply, n - 1)
