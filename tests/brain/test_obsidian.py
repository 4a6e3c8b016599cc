"""Obsidian syntax (docs/brain.md#obsidian-syntax) and Obsidian's link resolution (docs/brain.md#links), unit by unit.
The whole test vault (tests/fixtures/obsidian) is built in tests/emit/test_obsidian_vault.py
and shown in Chromium in tests/browser/test_obsidian_browser.py."""
from __future__ import annotations

import hashlib

import pytest

from builder.brain import load
from builder.brain.notes import parse_note
from builder.brain.obsidian import CALLOUTS, strip_comments
from builder.kernel.embeds import embeddable
from builder.brain.resolve import PathIndex, nearest
from builder.kernel.config import BrainConfig


CFG = BrainConfig(name="brain", title="brain", timezone="UTC", base_url="/", fields=())


def note(text: str, ref: str = "n.md"):
    return parse_note(ref, text.encode("utf-8"), CFG)


def body(text: str) -> str:
    return note(text).html


# --- %% comments %% -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, want", [
    ("a %% secret %% b", "a  b"),
    ("a %%secret%%b %%more%% c", "a b  c"),
    ("one\n%%\nsecret\nlines\n%%\ntwo\n", "one\n\n\n\n\ntwo\n"),            # line breaks kept
    ("x %% starts\nends %% y\n", "x \n y\n"),
    ("keep `%% code %%` here", "keep `%% code %%` here"),
    ("```\n%% fenced %%\n```\nout %% gone %%\n", "```\n%% fenced %%\n```\nout \n"),
    ("~~~~\n%% a\n~~~\nstill code %%\n~~~~\n", "~~~~\n%% a\n~~~\nstill code %%\n~~~~\n"),
    ("text %% never closed\nsecret\n# heading\n", "text \n\n\n"),           # runs to the end
    ("a `unclosed %% secret %% b", "a `unclosed  b"),                   # a lone ` is text
    ("``a ` %% b`` %% c %%", "``a ` %% b`` "),
    ("crlf %% x %%\r\nnext\r\n", "crlf \r\nnext\r\n"),
    ("no comment at all 100% sure", "no comment at all 100% sure"),
])
def test_strip_comments(text, want):
    assert strip_comments(text) == want
    assert strip_comments(text).count("\n") == text.count("\n")


def test_comments_leave_text_html_excerpt_tasks_and_sections():
    text = ("---\ntitle: T\n---\nLead %% zqxlead %% words.\n\n%%\nzqxblock\n%%\n\n"
            "## Part %% zqxhead %%\n\n- [ ] task %% zqxtask %% due:2026-12-10\n")
    n = note(text)
    for part in (n.text, n.html, n.excerpt, repr(n.sections), repr(n.tasks), repr(n.links)):
        assert "zqx" not in part
    assert n.text.count("\n") == text.count("\n")            # lines are the file's
    assert n.tasks[0].line == 12 and n.tasks[0].text == "task" and n.tasks[0].due == "2026-12-10"
    assert [s.id for s in n.sections] == ["part"]
    assert n.text.encode("utf-8")[n.sections[0].start:].startswith(b"## Part")
    assert n.sha256 == hashlib.sha256(n.text.encode("utf-8")).hexdigest()   # of the published text
    plain = note("no comments here\n")
    assert plain.sha256 == hashlib.sha256(b"no comments here\n").hexdigest()   # = the file's


def test_links_and_tags_inside_comments_do_not_exist():
    n = note("see %% [[Secret note]] #secret-tag %% [[Public]]\n")
    assert [l.target for l in n.links] == ["Public"] and n.tags == ()


# --- highlight, block ids, math, code, Mermaid, callouts ----------------------------------------

def test_highlight():
    assert body("a ==marked **bold**== b\n") == "<p>a <mark>marked <strong>bold</strong></mark> b</p>\n"
    assert body("a == b == c\n") == "<p>a == b == c</p>\n"          # spaces inside: not a highlight


def test_block_ids_become_anchors_and_are_not_shown():
    n = note("Para one. ^p1\n\n- item\n- marked ^li-2\n\n| a |\n| - |\n| 1 |\n\n^tbl\n\n> quote\n\n^q\n")
    assert '<p id="^p1">Para one.</p>' in n.html
    assert '<li id="^li-2">marked</li>' in n.html
    assert '<table id="^tbl">' in n.html and '<blockquote id="^q">' in n.html
    assert "^" not in n.html.replace('id="^', "")
    assert {k for k in n.fragments if k.startswith("^")} == {"^p1", "^li-2", "^tbl", "^q"}
    s, e = n.fragments["^li-2"]
    assert embeddable(n.html[s:e]) == "<ul>\n<li>marked</li>\n</ul>\n"


def test_section_fragments_run_to_the_next_heading_of_the_same_level():
    n = note("# Title\n\n## A\n\ntext a\n\n### A1\n\nsub\n\n## B\n\ntext b\n")
    s, e = n.fragments["a"]
    assert embeddable(n.html[s:e]) == "<h2>A</h2>\n<p>text a</p>\n<h3>A1</h3>\n<p>sub</p>\n"


def test_math_is_mathml_typeset_at_build_time():
    html = body("Inline $x^2$ and $$\\sum_i i$$ here; costs $5 and $10.\n\n$$\n\\frac{1}{2}\n$$\n")
    assert '<span class="math math-inline"><math><msup><mi>x</mi><mn>2</mn></msup></math></span>' in html
    assert '<span class="math math-display"><math display="block"><munder><mo lspace="0">∑</mo><mi>i</mi></munder><mi>i</mi></math></span>' in html
    assert "costs $5 and $10." in html
    assert '<div class="math math-display"><math display="block"><mfrac><mn>1</mn><mn>2</mn></mfrac></math></div>' in html


def test_math_that_does_not_convert_is_shown_as_written_with_its_error():
    html = body("Broken $\\nosuchcommand{<b>}$ here.\n")
    assert '<span class="math math-inline math-error" title="' in html
    assert '>\\nosuchcommand{&lt;b&gt;}</span>' in html
    assert "<b>" not in html


def test_mermaid_and_highlighted_code():
    html = body("```mermaid\ngraph TD\n  A-->B\n```\n\n```python\nx = 1\n```\n\n```nosuchlang\nplain <b>\n```\n")
    assert '<pre class="mermaid">graph TD\n  A--&gt;B\n</pre>' in html
    assert '<pre class="highlight"><code class="language-python"><span class="n">x</span>' in html
    assert '<pre><code class="language-nosuchlang">plain &lt;b&gt;\n</code></pre>' in html


@pytest.mark.parametrize("written, kind", [(k, k) for k in CALLOUTS] + [
    ("summary", "abstract"), ("tldr", "abstract"), ("hint", "tip"), ("important", "tip"),
    ("check", "success"), ("done", "success"), ("help", "question"), ("faq", "question"),
    ("caution", "warning"), ("attention", "warning"), ("fail", "failure"), ("missing", "failure"),
    ("error", "danger"), ("cite", "quote"), ("whatever", "note"), ("NOTE", "note")])
def test_every_callout_type(written, kind):
    html = body(f"> [!{written}] Title here\n> Body.\n")
    assert html.startswith(f'<blockquote class="callout callout-{kind}" data-callout="{written.lower()}">')
    assert '<span class="callout-title-inner">Title here</span>' in html and html.endswith("</blockquote>\n")


def test_folding_callouts():
    closed = body("> [!faq]- Why?\n> Because.\n")
    assert closed.startswith('<details class="callout callout-question" data-callout="faq"><summary class="callout-title">')
    assert closed.endswith("</details>\n") and " open>" not in closed
    opened = body("> [!tip]+\n> Shown.\n")
    assert opened.startswith('<details class="callout callout-tip" data-callout="tip" open><summary') and "Tip</span>" in opened


# --- resolution ---------------------------------------------------------------------------------

def test_path_index_case_suffix_nearest_and_tie():
    idx = PathIndex(["en/Plugins/Backlinks.md", "en/Sync/Security.md", "en/Publish/Security.md",
                     "en/Start.md", "fr/Start.md", "Security.md"])
    assert idx.find("x.md", "backlinks") == ("resolved", "en/Plugins/Backlinks.md")
    assert idx.find("x.md", "PLUGINS/backlinks.md") == ("resolved", "en/Plugins/Backlinks.md")
    assert idx.find("x.md", "Sync/Security") == ("resolved", "en/Sync/Security.md")
    assert idx.find("en/Publish/a.md", "Security") == ("resolved", "Security.md")      # the whole path wins
    assert idx.find("fr/Guide/a.md", "start") == ("resolved", "fr/Start.md")
    assert idx.find("de/a.md", "Start") == ("ambiguous", None)
    assert idx.find("x.md", "lugins/Backlinks") is None          # a suffix is whole folders
    assert nearest("a/b/c.md", ["a/x.md", "a/b/y.md", "z.md"]) == ("resolved", "a/b/y.md")


def test_resolution_order_in_a_brain(make_brain, tmp_path):
    root = make_brain(tmp_path, {
        "src/from.md": "[[notes/deep/Thing]] [[thing]] [[Shared]] [[Named]] [[person:bob]] [[pic.PNG]] [[manual.pdf]]",
        "notes/deep/Thing.md": "x", "src/Shared.md": "x", "other/Shared.md": "x",
        "titled.md": "---\ntitle: Named\n---\n", "img/pic.png": b"\x89PNG", "docs/manual.pdf": b"%PDF"})
    brain = load(root)
    got = {l.target: (l.status, l.ref) for l in brain.links if l.source == "src/from.md"}
    assert got == {"notes/deep/Thing": ("resolved", "notes/deep/Thing.md"), "thing": ("resolved", "notes/deep/Thing.md"),
                   "Shared": ("resolved", "src/Shared.md"), "Named": ("resolved", "titled.md"),
                   "person:bob": ("resolved", "person:bob"), "pic.PNG": ("resolved", "img/pic.png"),
                   "manual.pdf": ("resolved", "docs/manual.pdf")}
    assert not [p for p in brain.problems if p.kind == "broken_link"]
