"""The configured markdown-it-py instance: CommonMark + tables, footnotes, task lists,
Obsidian wikilinks/embeds, inline #tags, callouts and GitHub heading ids, and Obsidian's
==highlights==, $math$, block ids, Mermaid and highlighted code (brain/obsidian.py).

This module holds the parsing rules; brain/mdrender.py the rendering rules. Parsing and
rendering (brain/notes.py) share this instance, so heading ids and link tokens are the same in
both.
"""
from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.tasklists import tasklists_plugin

from . import obsidian
from ..kernel.slugs import Slugger, tag_at
from .mdrender import add_render_rules, render_tokens

WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
CALLOUT = re.compile(r"^\[!([A-Za-z-]+)\]([+-]?)[ \t]*")
# A task's due marker (docs/brain.md#tasks); `overdue:…` or `2026-12-100` are not one.
TASK_DUE = re.compile(r"(?:📅\s*|(?<!\w)due:)(\d{4}-\d{2}-\d{2})(?!\d)")


def due_marker(text: str) -> re.Match | None:
    """The first due marker in a task's text that names a real day (`2026-02-30` does not)."""
    for m in TASK_DUE.finditer(text):
        try:
            date.fromisoformat(m.group(1))
        except ValueError:
            continue
        return m
    return None


def split_wikilink(inner: str) -> tuple[str, str, str]:
    """'Target#Heading|label' → (target, heading, label)."""
    target, _, label = inner.partition("|")
    target, _, heading = target.partition("#")
    return target.strip(), heading.strip(), label.strip()


def _wikilink_rule(state: StateInline, silent: bool) -> bool:
    m = WIKILINK.match(state.src, state.pos)
    if not m:
        return False
    if not silent:
        target, heading, label = split_wikilink(m.group(2))
        token = state.push("wikilink", "", 0)
        token.meta = {"target": target, "heading": heading, "label": label, "embed": bool(m.group(1))}
        token.content = m.group(0)
    state.pos = m.end()
    return True


def _mark_rule(state: StateInline, silent: bool) -> bool:
    """Obsidian's `==highlight==` → <mark>: no space just inside either `==`, one line or many."""
    src, pos = state.src, state.pos
    if not src.startswith("==", pos) or pos + 2 >= state.posMax or src[pos + 2] in " \t\n=":
        return False
    end = src.find("==", pos + 3)
    while end != -1 and src[end - 1] in " \t\n":
        end = src.find("==", end + 1)
    if end == -1 or end + 2 > state.posMax:
        return False
    if not silent:
        state.push("mark_open", "mark", 1)
        old_max, state.pos, state.posMax = state.posMax, pos + 2, end
        state.md.inline.tokenize(state)
        state.posMax = old_max
        state.push("mark_close", "mark", -1)
    state.pos = end + 2
    return True


def _tag_rule(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "#":
        return False
    tag = tag_at(state.src, state.pos)
    if tag is None:
        return False
    if not silent:
        token = state.push("hashtag", "", 0)
        token.meta = {"tag": tag}
        token.content = "#" + tag
    state.pos += len(tag) + 1
    return True


def inline_text(token) -> str:
    """Plain text of an inline token: what a heading reads as."""
    parts = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type == "wikilink":
            parts.append(child.meta["label"] or child.meta["target"])
        elif child.type == "hashtag":
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts).strip()


def _heading_ids(state) -> None:
    slugger = Slugger()
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            token.attrSet("id", slugger.slug(inline_text(tokens[i + 1])))


def _callouts(state) -> None:
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type != "blockquote_open" or i + 2 >= len(tokens) or tokens[i + 2].type != "inline":
            continue
        inline = tokens[i + 2]
        m = CALLOUT.match(inline.content)
        if not m or not inline.children or inline.children[0].type != "text":
            continue
        kind = m.group(1).lower()
        first = inline.children[0]
        first.content = CALLOUT.sub("", first.content, count=1)
        title = first.content.strip() or kind.capitalize()
        token.meta = {"callout": kind, "title": title, "fold": m.group(2)}
        tokens[obsidian._closing(tokens, i)].meta = dict(token.meta)
        # The rest of the first line is the callout's title, shown in its own element.
        first.content = ""
        if len(inline.children) > 1 and inline.children[1].type == "softbreak":
            inline.children[1].type = "text"
            inline.children[1].content = ""


def _task_dues(state) -> None:
    """Cut each task's due marker out of its text into a `task_due` token: the page shows the day
    as a badge worded against the build instant, so the marker renders as a slot."""
    tokens = state.tokens
    for i, token in enumerate(tokens):
        # the task-list plugin checked that tokens[i + 2] is the item's inline, checkbox first
        if token.type != "list_item_open" or "task-list-item" not in (token.attrGet("class") or ""):
            continue
        children = tokens[i + 2].children
        done = 'checked="checked"' in children[0].content
        for n, child in enumerate(children):
            m = due_marker(child.content) if child.type == "text" else None
            if m:
                due = Token("task_due", "", 0, meta={"due": m.group(1), "done": done})
                children[n:n + 1] = [child.copy(content=child.content[:m.start()]), due,
                                     child.copy(content=child.content[m.end():])]
                break


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.use(footnote_plugin).use(tasklists_plugin)
    md.use(dollarmath_plugin, allow_labels=False, allow_space=False, allow_digits=False, double_inline=True)
    md.inline.ruler.before("link", "wikilink", _wikilink_rule)
    md.inline.ruler.before("emphasis", "mark", _mark_rule)
    md.inline.ruler.push("hashtag", _tag_rule)
    md.core.ruler.push("heading_ids", _heading_ids)
    md.core.ruler.push("callouts", _callouts)
    md.core.ruler.push("task_dues", _task_dues)
    md.core.ruler.push("block_ids", obsidian.block_ids)
    md.core.ruler.push("lone_embeds", obsidian.lone_embeds)
    add_render_rules(md)
    return md


def drop_first_h1(tokens: list) -> list:
    """Without the H1 that gave the note its title (the page shows the title itself)."""
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.tag == "h1":
            return tokens[:i] + tokens[i + 3:]
    return tokens


def render_with_slots(tokens: list, allow_html: bool) -> tuple[str, tuple, dict]:
    """Render a note's body once, at parse time. Whatever depends on the rest of the brain
    (where a link points, a tag page's URL, a relative file) becomes a slot "\x00N\x00";
    slots[N] is ("link", wikilink meta) | ("tag", tag) | ("href", href as written) |
    ("note_link", (href, title)) | ("note_link_close", href) for Markdown links to notes |
    ("due", (YYYY-MM-DD, done)) for a task's due marker, and
    emit/html.py fills them. Notes never hold NUL (parse refuses them), so slots are unambiguous.
    The third value locates sections and blocks in the HTML for embeds (obsidian.fragments)."""
    slots: list[tuple] = []

    def slot(kind: str, value) -> str:
        slots.append((kind, value))
        return f"\x00{len(slots) - 1}\x00"

    env = {"link": lambda meta: slot("link", meta), "tag_url": lambda tag: slot("tag", tag),
           "href": lambda href: slot("href", href), "allow_html": allow_html,
           "note_link": lambda href, title: slot("note_link", (href, title)),
           "note_link_close": lambda href: slot("note_link_close", href),
           "due": lambda day, done: slot("due", (day, done))}
    md = markdown()
    html_out, offsets = render_tokens(md, tokens, env)
    return html_out, tuple(slots), obsidian.fragments(tokens, offsets)
