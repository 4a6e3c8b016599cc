"""Large exact reads (SPEC §6.2): pages of ≤ 32 KiB compact JSON, offsets in UTF-8 bytes on
character boundaries, a 4 KiB first page when headings divide the text."""
from __future__ import annotations

import json

import pytest

from builder.brain import load
from builder.views import compute
from builder.views.paging import PAGE_BYTES, paginate

NOW = "2026-12-02T12:00:00Z"


def compact(page: dict) -> int:
    return len(json.dumps(page, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def check_pages(pages: list[dict], data: bytes, path=("text",)) -> None:
    """The invariants every paged read keeps."""
    def text(p):
        return p[path[0]] if len(path) == 1 else p[path[0]][path[1]]
    assert "".join(text(p) for p in pages).encode("utf-8") == data
    offset = 0
    for i, page in enumerate(pages):
        assert compact(page) <= PAGE_BYTES
        assert page["offset"] == offset and page["total_bytes"] == len(data)
        assert offset == len(data) or (data[offset] & 0xC0) != 0x80      # a character boundary
        offset += len(text(page).encode("utf-8"))
        assert page["next_offset"] == (offset if i < len(pages) - 1 else None)
    assert offset == len(data)


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
        assert set(later) == {"page", "brain", "ref", "uri", "sha256", "modified", "problems", "as_of",
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
    assert len(pages) >= 2 and compact(pages[0]) > PAGE_BYTES - 200   # as much as fits


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
    assert all(compact(p) <= PAGE_BYTES for p in pages)
    assert "".join(p["text"] for p in pages) == files["target.md"]
    assert pages[0]["truncated"] == {"backlinks": 400} and 0 < len(pages[0]["backlinks"]) < 400
