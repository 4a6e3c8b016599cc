"""What emitters need to know of a note's rendered HTML (built by builder/brain/obsidian.py): which
scripts a page loads, and the fragments `![[Note#heading]]` / `![[Note#^block]]` embed.
In the kernel so that emit/ never imports brain/."""
from __future__ import annotations

import re

from .slugs import slugify

MATH_MARK = 'class="math math-'      # written by the math renderer
MERMAID_MARK = '<pre class="mermaid"'  # written by the fence renderer


def page_assets(body: str) -> dict:
    """What a page's HTML needs: the maths font when it holds maths, Mermaid when it holds a diagram."""
    return {"math": MATH_MARK in body, "mermaid": MERMAID_MARK in body}


ID_ATTR = re.compile(r'(<[A-Za-z][A-Za-z0-9]*\b[^>]*?) id="[^"]*"')


def embeddable(fragment: str) -> str:
    """A fragment shown inside another page: without its own anchors (their ids belong to the
    note's page, and would clash with the embedding page's)."""
    out = ID_ATTR.sub(r"\1", fragment)
    return f"<ul>\n{out}</ul>\n" if out.startswith("<li") else out   # a list item keeps a list


def fragment_key(note, heading: str) -> str | None:
    """The fragment id `[[Note#heading]]` names: a block (`^id`), else a section by id or
    heading text (case-insensitive, the last part of `#A#B`); None when the note has none."""
    frags = getattr(note, "fragments", None) or {}
    if heading.startswith("^"):
        return heading if heading in frags else None
    wanted = heading.split("#")[-1].strip()
    for s in note.sections:
        if s.id == wanted or s.heading == wanted:
            return s.id
    low = wanted.lower()
    for s in note.sections:
        if s.heading.lower() == low or s.id == slugify(wanted):
            return s.id
    return None
