"""Files per item (docs/site.md#pages): a record has no page of its own and is shown in full exactly once,
on its source's day page (or undated page), under a heading whose id is its anchor; listings
have HTML for their first page only; relation lists live on their target's page. And the
anchor/unescape rules of builder/kernel/refs.py equal their twins in site/engine/refs.js."""
from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from builder.kernel import refs
from builder.brain import load
from builder.build import build
from builder.emit.urls import record_page_ref
from builder.kernel.pageurls import page_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "brain"
NOW = "2026-12-02T12:00:00Z"
SHOWN = re.compile(r'<article class="record"><h2 [^>]*\bid="([^"]+)">')


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    out = tmp_path_factory.mktemp("records") / "site"
    build([EXAMPLE], out, now=NOW, pagefind=False)
    return load(EXAMPLE), out


def shown_records(site: Path) -> Counter:
    """(page, anchor) of every record shown in full in the site's HTML."""
    seen = Counter()
    for path in site.rglob("*.html"):
        for anchor in SHOWN.findall(path.read_text(encoding="utf-8")):
            seen[(path.relative_to(site).as_posix(), anchor)] += 1
    return seen


def test_each_record_is_shown_once_on_its_day_page(example):
    brain, site = example
    seen = shown_records(site)
    want = {(page_file("brain", record_page_ref(rec, brain.config.timezone)), refs.record_anchor(ref))
            for ref, rec in brain.records.items()}
    assert len(want) == len(brain.records) > 40
    assert set(seen) == want and set(seen.values()) == {1}
    assert any(page.endswith("/undated.html") for page, _ in want)      # records with neither time
    assert all(re.fullmatch(r"brain/memories/[a-z]+/(\d{4}-\d{2}-\d{2}|undated)\.html", page) for page, _ in want)


def test_day_pages_place_records_in_the_brains_timezone(example):
    """Two records at 02:30 local time on the night the clocks go back (Europe/Berlin) are on 25 Oct;
    one at 22:30Z the evening before is on 25 Oct too (00:30 local)."""
    brain, site = example
    assert brain.config.timezone == "Europe/Berlin"
    day = (site / "brain/memories/chat/2026-10-25.html").read_text(encoding="utf-8")
    for rid in ("2026-10-25-staging-0230-cet", "2026-10-25-staging-0230-cest", "2026-10-24-late-deploy-note"):
        assert f' id="chat~3a{rid}">' in day


def test_a_record_is_headed_by_its_own_title_else_by_its_time_and_author(example):
    """A title made from the text's first words would repeat the text right below it."""
    brain, site = example
    day = (site / "brain/memories/chat/2026-10-25.html").read_text(encoding="utf-8")
    assert not brain.records["chat:2026-10-25-staging-0230-cet"].own_title
    assert ('<h2 class="meta" id="chat~3a2026-10-25-staging-0230-cet"><time datetime="2026-10-25T01:30:00Z">02:30</time>'
            ' · <a href="../../person/bob.html">person:bob</a></h2>') in day
    assert day.count("Staging deploy started (02:30, winter time)") == 1
    titled = brain.records["brief:2026-11-23"]
    assert titled.own_title == titled.title == "Morning brief 23 Nov"
    brief = (site / "brain/memories/brief/2026-11-23.html").read_text(encoding="utf-8")
    assert '<h2 id="brief~3a2026-11-23">Morning brief 23 Nov</h2><p class="meta"><time' in brief


def test_no_record_offset_or_relation_pages(example):
    brain, site = example
    pages = [p.relative_to(site).as_posix() for p in site.rglob("*.html")]
    assert not [p for p in pages if "~~o" in p or "~~r~~" in p]
    assert not [p for p in pages if re.match(r"brain/[a-z]+~3a", p) and p.split("~3a")[0][6:] in brain.sources]
    assert not [p for p in map(str, site.rglob("*.json")) if "~~" in p and ".md~~o" not in p]   # notes' later pages only


def test_record_links_point_at_their_anchor(example):
    """Every link to a record, on any page, is its day page's anchor, and that anchor exists."""
    brain, site = example
    anchors = {page: set(re.findall(r' id="([^"]+)"', (site / page).read_text(encoding="utf-8")))
               for page in {p for p, _ in shown_records(site)}}
    checked = 0
    for path in site.rglob("*.html"):
        for href in re.findall(r'href="([^"#]+\.html)#([^"]+)"', path.read_text(encoding="utf-8")):
            target = (path.parent / href[0]).resolve().relative_to(site.resolve()).as_posix()
            if target in anchors:
                assert href[1] in anchors[target], (path, href)
                checked += 1
    assert checked > 50


def test_listing_pages_show_their_first_page_and_offer_the_rest(example):
    _, site = example
    html = (site / "brain/2026.html").read_text(encoding="utf-8")
    main = html[html.index('<ul class="items">'):]
    assert main[:main.index("</ul>")].count('<li><a href=') == 50
    assert 'data-bf-more="bf://brain/2026" data-next="50"' in html
    identity = (site / "brain/person/bob.html").read_text(encoding="utf-8")
    assert '<a href="#rel~author">author</a>' in identity and '<h2 id="rel~author">' in identity


def test_day_pages_offer_their_reply_through_bf_js(example):
    _, site = example
    html = (site / "brain/memories/chat/2026-10-25.html").read_text(encoding="utf-8")
    assert 'data-bf-json="bf://brain/memories/chat/2026-10-25"' in html
    assert 'type="application/json"' not in html


NAMES = ["chat:who?", "a", "brief:2026-12-01-standup", "Projects/X", ".hidden", "日本:😀", "a~b", "x" * 200,
         "chat:2026-11-20 Würße aus Köln", "issues:new-website#12", "tags/a b", ""]
ESCAPED = ["x.md~~o50", "~zz", "~ff", "A", "~2", "~e6~97", "chat~3A", "."]


def test_unescape_segment_inverts_escape_segment():
    assert refs.unescape_segment("~41") == "A" and refs.unescape_segment("a~7e") == "a~"
    for name in NAMES:
        escaped = refs.escape_segment(name)
        assert refs.unescape_segment(escaped) == (name if "~~" not in escaped else None), name
        assert refs.record_anchor(name) == escaped
    # not the escape of any segment: variants, bad hex, upper case, a shortened name, torn UTF-8
    assert [refs.unescape_segment(text) for text in ESCAPED] == [None] * len(ESCAPED)


def test_js_twins_agree(node):
    script = f"""
import {{ escapeSegment, unescapeSegment, recordAnchor }} from '{(ROOT / "site/engine/refs.js").as_uri()}'
const names = {json.dumps(NAMES)}, escaped = {json.dumps(ESCAPED)}
const out = names.map((n) => [escapeSegment(n), unescapeSegment(escapeSegment(n)), recordAnchor(n)])
console.log(JSON.stringify([out, escaped.map(unescapeSegment)]))
"""
    proc = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    got, bad = json.loads(proc.stdout)
    want = [[refs.escape_segment(n), refs.unescape_segment(refs.escape_segment(n)), refs.record_anchor(n)] for n in NAMES]
    assert got == want
    assert bad == [refs.unescape_segment(t) for t in ESCAPED]
