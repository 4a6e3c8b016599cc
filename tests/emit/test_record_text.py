"""A record's text renders as a note's does (emit/recordtext.py): Markdown, and [[wikilinks]]
made links to what they name, labelled by its title."""
from __future__ import annotations

import json

RECORD = {"text": "Talked **about** [[site]] and [[Nobody Here]].\n\nSee [[site|the plan]] too.",
          "time": "2026-11-12T09:00:00Z"}
FILES = {
    "brain.toml": 'name = "brain"\ntimezone = "UTC"\n',
    "projects/site.md": "---\ntitle: New website\n---\nThe plan.\n",
    "memories/chat/2026-11-12-a.json": json.dumps(RECORD),
}


def test_record_links_render_as_note_links_on_day_pages(make_brain, build_site, tmp_path):
    out = tmp_path / "site"
    build_site(make_brain(tmp_path, FILES), out)
    page = (out / "brain/memories/chat/2026-11-12.html").read_text()
    assert "[[" not in page
    assert 'Talked <strong>about</strong> <a class="internal" href="../../projects/site.html">New website</a>' in page
    assert '<span class="link-broken" title="broken: nothing has this name">Nobody Here</span>' in page
    assert '<a class="internal" href="../../projects/site.html">the plan</a>' in page
    assert page.count('<p>') >= 2   # paragraphs stay paragraphs


def test_record_text_holds_no_raw_html(make_brain, build_site, tmp_path):
    out = tmp_path / "site"
    files = FILES | {"memories/chat/2026-11-12-a.json": json.dumps(RECORD | {"text": "<script>x()</script> [[site]]"})}
    build_site(make_brain(tmp_path, files), out)
    page = (out / "brain/memories/chat/2026-11-12.html").read_text()
    assert "<script>x()" not in page and "&lt;script&gt;" in page


def test_plain_lines_skip_markdown_with_its_output():
    """A line PLAIN accepts renders as Markdown renders it; lines near the edge of PLAIN too."""
    import random

    from builder.emit.recordtext import MARKDOWN, PLAIN
    rng = random.Random(4)
    allowed, other = "aZ09 ,.\ue000\ue001", "*_`[]<>&\\!#-+=~|()\t\n:;'\"/?"
    lines = ["".join(rng.choice(allowed if rng.random() < 0.97 else other) for _ in range(rng.randint(1, 12)))
             for _ in range(20000)]
    lines += ["Hello world.", "A. b", "a  b", "I. Then", "x.", "Z\ue0000\ue001", "1. list", "ab ", " ab"]
    plain = [line for line in lines if PLAIN.fullmatch(line)]
    assert len(plain) > 100
    for line in plain:
        assert MARKDOWN.render(line) == f"<p>{line}</p>\n", repr(line)
