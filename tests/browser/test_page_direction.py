"""Right-to-left titles, headings and excerpts read right to left inside an English page, each
in the direction of its own text (bf.css gives them `unicode-bidi: plaintext`, as `dir="auto"`
would): Chromium lays out an Arabic title's first letter right of its last, which it does in a
left-to-right paragraph only when the text holds no run of the other direction or trailing stop."""
from __future__ import annotations

import pytest

from builder.kernel.pageurls import page_file

pytestmark = pytest.mark.browser

ARABIC = "عداد الكلمات في Obsidian"   # a run of each direction: its order shows the paragraph's
NOTES = {
    "notes/ar.md": f"# {ARABIC}\n\nيعرض عدد الكلمات في الملاحظة.\n",
    "notes/links.md": f"# Links\n\n[[{ARABIC}]]\n",
    "notes/plain.md": "# Plain words\n\nAn English note.\n",
    "memories/chat/m1.json": '{"title": "عنوان الرسالة.", "text": "نص الرسالة هنا.", "time": "2026-11-30T10:00:00Z"}\n',
}
# each element's text: is its first character laid out right of its last (right to left)?
RTL = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const node = [...el.childNodes].find((n) => n.nodeType === 3 && n.textContent.trim())
  const text = node.textContent, range = document.createRange()
  const at = (i) => { range.setStart(node, i); range.setEnd(node, i + 1); return range.getBoundingClientRect() }
  return [text.trim(), at(text.search(/\\S/)).left > at(text.trimEnd().length - 1).left]
})"""


def test_each_title_heading_and_excerpt_reads_in_its_own_direction(make_brain, build_site, tmp_path, serve_site, page):
    brain = make_brain(tmp_path, NOTES)
    site = tmp_path / "site"
    build_site(brain, site)
    base = serve_site(site)
    page.goto(base + page_file("brain", "notes/ar.md"))
    assert page.evaluate(RTL, "main h1") == [[ARABIC, True]]
    assert page.evaluate(RTL, ".backlinks a") == [["Links", False]]
    page.goto(base + page_file("brain", "notes"))
    got = dict(page.evaluate(RTL, "ul.items a, .excerpt"))
    assert got[ARABIC] is True and got["يعرض عدد الكلمات في الملاحظة."] is True and got["Plain words"] is False
    page.goto(base + page_file("brain", "memories/chat/2026-11-30"))
    got = dict(page.evaluate(RTL, "article.record h2, .record-text p"))
    assert got == {"عنوان الرسالة.": True, "نص الرسالة هنا.": True}
