"""A record's text as a day page shows it: Markdown (CommonMark, no raw HTML, as a footer is)
with its [[wikilinks]] made links to what they name, labelled by its title."""
from __future__ import annotations

import html
import posixpath
import re

from markdown_it import MarkdownIt

from ..kernel.model import Brain

WIKILINK = re.compile(r"!?\[\[([^\[\]\n]+?)\]\]")
SLOT = re.compile("\ue000(\\d+)\ue001")   # private-use marks Markdown leaves alone
MARKDOWN = MarkdownIt("commonmark", {"html": False})
# One line that Markdown can only make a paragraph of, its text unchanged: it starts with a letter
# (no block marker, no indent), holds only letters, digits, spaces, commas, periods and the slot
# marks (nothing inline Markdown reads) and ends without a space.
PLAIN = re.compile("[A-Za-z][A-Za-z0-9 ,.\ue000-\ue001]*[A-Za-z0-9.\ue001]")


def _target(brain: Brain, links: list[dict], name: str) -> str | None:
    """The ref `name` resolves to: the record's own link of that target, else the one note or
    identity claiming that name (brain.names)."""
    for link in links:
        if link["target"] == name and link.get("ref"):
            return link["ref"]
    claimed = brain.names.get(name, ())
    return claimed[0] if len(claimed) == 1 else None


def text_targets(brain: Brain, text: str, links: list[dict]) -> tuple[str | None, ...]:
    """The ref each [[wikilink]] of a record's `text` resolves to (None: to nothing)."""
    return tuple(_target(brain, links, _name(m)) for m in WIKILINK.finditer(text))


def text_names(text: str) -> set[str]:
    """The names a record's text links to."""
    return {_name(m) for m in WIKILINK.finditer(text)}


def claims(note) -> set[str]:
    """The names a note claims (as brain/resolve.claimed_names): its title, file stem, aliases."""
    return {note.title, posixpath.splitext(posixpath.basename(note.ref))[0], *note.aliases} if note else set()


def _name(m: re.Match) -> str:
    return m.group(1).partition("|")[0].partition("#")[0].strip()


def _title(brain: Brain, ref: str) -> str:
    item = brain.notes.get(ref) or brain.records.get(ref)
    return item.title if item is not None else ref


def record_html(brain: Brain, text: str, links: list[dict], href) -> str:
    """`text` as HTML; `href(ref)` is the URL of the page showing `ref`, relative to this page."""
    found: list[str] = []

    def hold(m: re.Match) -> str:
        label = m.group(1).partition("|")[2]
        name = _name(m)
        ref = _target(brain, links, name)
        shown = html.escape(label.strip() or (_title(brain, ref) if ref else name))
        found.append(f'<a class="internal" href="{html.escape(href(ref))}">{shown}</a>' if ref
                     else f'<span class="link-broken" title="broken: nothing has this name">{shown}</span>')
        return f"\ue000{len(found) - 1}\ue001"
    held = WIKILINK.sub(hold, text)
    rendered = f"<p>{held}</p>\n" if PLAIN.fullmatch(held) else MARKDOWN.render(held)
    return SLOT.sub(lambda m: found[int(m.group(1))], rendered)
