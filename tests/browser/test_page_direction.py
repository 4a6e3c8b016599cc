"""Right-to-left titles, headings, excerpts and a note's paragraphs and list items read right to
left inside an English page, each in the direction of its own text (bf.css gives them
`unicode-bidi: plaintext`, as `dir="auto"` would): Chromium lays out an Arabic title's first letter
right of its last, which it does in a left-to-right paragraph only when the text holds no run of
the other direction or trailing stop. A note whose `lang` is written right to left sets its text
right to left (list bullets at the right); the chrome stays in the site's direction, and is
mirrored when the site's language is written right to left."""
from __future__ import annotations

import pytest

from builder.kernel.pageurls import page_file

pytestmark = pytest.mark.browser

ARABIC = "عداد الكلمات في Obsidian"   # a run of each direction: its order shows the paragraph's
NOTES = {
    "notes/ar.md": f"# {ARABIC}\n\nيعرض عدد الكلمات في الملاحظة.\n",
    "notes/links.md": f"# Links\n\n[[{ARABIC}]]\n",
    "notes/plain.md": "# Plain words\n\nAn English note.\n\nيعرض عدد الكلمات في Obsidian.\n",
    "notes/fa.md": "---\nlang: fa\n---\n# یادداشت\n\nاین یک متن با Markdown است.\n\n- مورد اول با Obsidian.\n- مورد دوم.\n\n"
                   "An English line in it.\n",
    "memories/chat/m1.json": '{"title": "عنوان الرسالة.", "text": "نص الرسالة هنا.", "time": "2026-11-30T10:00:00Z"}\n',
}
# each element's text: is its first character laid out right of its last (right to left)?
RTL = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const node = [...el.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim())
  const text = node.textContent, range = document.createRange()
  const at = (i) => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getBoundingClientRect() }
  return [text.trim(), at(text.search(/\\S/)).left > at(text.trimEnd().length - 1).left]
})"""


def built(make_brain, build_site, tmp_path, serve_site, notes) -> str:
    """The base URL of a served site built from `notes`."""
    site = tmp_path / "site"
    build_site(make_brain(tmp_path, notes), site)
    return serve_site(site)


def test_each_title_heading_and_excerpt_reads_in_its_own_direction(make_brain, build_site, tmp_path, serve_site, page):
    base = built(make_brain, build_site, tmp_path, serve_site, NOTES)
    page.goto(base + page_file("brain", "notes/ar.md"))
    assert page.evaluate(RTL, "main h1") == [[ARABIC, True]]
    assert page.evaluate(RTL, ".backlinks a") == [["Links", False]]
    page.goto(base + page_file("brain", "notes"))
    got = dict(page.evaluate(RTL, "ul.items a, .excerpt"))
    assert got[ARABIC] is True and got["يعرض عدد الكلمات في الملاحظة."] is True and got["Plain words"] is False
    page.goto(base + page_file("brain", "memories/chat/2026-11-30"))
    got = dict(page.evaluate(RTL, "article.record h2, .record-text p"))
    assert got == {"عنوان الرسالة.": True, "نص الرسالة هنا.": True}


# a block's text: does it end at the block's right edge (right-aligned) and its start right of its end?
BLOCKS = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const range = document.createRange(); range.selectNodeContents(el)
  const box = el.getBoundingClientRect(), text = range.getBoundingClientRect()
  return [el.textContent.trim(), getComputedStyle(el).direction, Math.abs(text.right - box.right) < 2]
})"""


def test_a_notes_paragraphs_and_lists_read_in_their_direction(make_brain, build_site, tmp_path, serve_site, page):
    base = built(make_brain, build_site, tmp_path, serve_site, NOTES)
    page.goto(base + page_file("brain", "notes/fa.md"))
    assert page.evaluate("document.documentElement.dir") == ""       # the chrome: the site's English
    assert page.evaluate(RTL, ".body p, .body li") == [
        ["این یک متن با Markdown است.", True], ["مورد اول با Obsidian.", True], ["مورد دوم.", True],
        ["An English line in it.", False]]
    got = {text: (way, right) for text, way, right in page.evaluate(BLOCKS, ".body li, .body p")}
    assert got["مورد اول با Obsidian."] == ("rtl", True)          # bullets at the right, text flush right
    assert got["این یک متن با Markdown است."][1] is True
    assert got["An English line in it."][1] is False
    assert page.evaluate("getComputedStyle(document.querySelector('header.top')).direction") == "ltr"
    page.goto(base + page_file("brain", "notes/plain.md"))
    assert dict(page.evaluate(RTL, ".body p")) == {"An English note.": False, "يعرض عدد الكلمات في Obsidian.": True}


def test_a_site_written_right_to_left_mirrors_its_chrome(make_brain, build_site, tmp_path, serve_site, page):
    base = built(make_brain, build_site, tmp_path, serve_site, {
        "brain.toml": 'language = "he"\n', "notes/he.md": "# שלום\n\nטקסט עם Obsidian.\n",
        "notes/en.md": "---\nlang: en\n---\n# English\n\n- An item.\n"})
    page.goto(base + page_file("brain", "notes/he.md"))
    assert page.evaluate("document.documentElement.dir") == "rtl"
    brand, search = (page.locator(s).bounding_box() for s in (".brand", ".quick-search"))
    assert brand["x"] > search["x"]                                 # the site's name at the right
    page.goto(base + page_file("brain", "notes/en.md"))
    assert page.evaluate("getComputedStyle(document.querySelector('.body li')).direction") == "ltr"
