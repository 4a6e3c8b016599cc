"""The configured markdown-it-py instance: CommonMark + tables, footnotes, task lists,
Obsidian wikilinks/embeds, inline #tags, callouts and GitHub heading ids, and Obsidian's
==highlights==, $math$, block ids, Mermaid and highlighted code (brain/obsidian.py).

Parsing (brain/notes.py) and rendering (emit/html.py) share this instance, so heading ids
and link tokens are the same in both. Rendering asks `env["link"]` and `env["tag_url"]`
for URLs: this module never decides what a link resolves to.
"""
from __future__ import annotations

import html
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
from ..slugs import Slugger, tag_at

WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
CALLOUT = re.compile(r"^\[!([A-Za-z-]+)\]([+-]?)[ \t]*")
SAFE_TAGS = {"details", "summary", "kbd", "sup", "sub", "br", "mark", "u", "s", "small", "b", "i",
             "em", "strong", "code", "pre", "p", "div", "span", "ul", "ol", "li", "hr", "abbr", "del", "ins"}
HTML_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\b[^>]*?(/?)>|<!--.*?-->|<[!?][^>]*>", re.S)
# A task's due marker (SPEC §2.1); `overdue:…` or `2026-12-100` are not one.
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


def sanitize_html(raw: str) -> str:
    """Keep a few formatting tags (without attributes); escape every other tag as text."""
    out, pos = [], 0
    for m in HTML_TAG.finditer(raw):
        out.append(html.escape(raw[pos:m.start()], quote=False))
        name = (m.group(2) or "").lower()
        if name in SAFE_TAGS and not m.group(0).startswith("<!"):
            out.append(f"<{m.group(1)}{name}{' /' if m.group(3) else ''}>")
        else:
            out.append(html.escape(m.group(0)))
        pos = m.end()
    out.append(html.escape(raw[pos:], quote=False))
    return "".join(out)


def _render_wikilink(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    return env["link"](meta)


def _render_hashtag(self, tokens, idx, options, env):
    tag = tokens[idx].meta["tag"]
    return f'<a class="tag" href="{html.escape(env["tag_url"](tag))}">#{html.escape(tag)}</a>'


CHECKBOX = re.compile(r'^<input class="task-list-item-checkbox"( checked="checked")? disabled="disabled" type="checkbox">$')


def _render_html(self, tokens, idx, options, env):
    content = tokens[idx].content
    # The task-list plugin's own checkbox is the one tag we emit through html_inline.
    if env.get("allow_html") or CHECKBOX.match(content):
        return content
    return sanitize_html(content)


def _render_task_due(self, tokens, idx, options, env):
    meta = tokens[idx].meta
    return env["due"](meta["due"], meta["done"])


def _render_blockquote_open(self, tokens, idx, options, env):
    meta = tokens[idx].meta or {}
    anchor = tokens[idx].attrGet("id")
    if "callout" in meta:
        return obsidian.callout_open(meta, anchor)
    return f'<blockquote id="{html.escape(anchor)}">\n' if anchor else "<blockquote>\n"


def _render_blockquote_close(self, tokens, idx, options, env):
    meta = tokens[idx].meta or {}
    return obsidian.callout_close(meta) if "callout" in meta else "</blockquote>\n"


def _render_fence(self, tokens, idx, options, env):
    return obsidian.render_fence(tokens[idx])


RELATIVE_MD = re.compile(r"^(?![a-zA-Z][\w+.-]*:|[/#])[^#?]*\.md(#.*)?$")


def _render_link_open(self, tokens, idx, options, env):
    token = tokens[idx]
    href = token.attrGet("href") or ""
    opened = env.setdefault("open_links", [])
    if RELATIVE_MD.match(href) and "note_link" in env:
        # A link to a note: whether it renders as <a> or as a broken-link <span> is decided
        # once every note is known, so the whole tag (and its closing tag) is a slot.
        opened.append(href)
        return env["note_link"](href, token.attrGet("title"))
    opened.append(None)
    token.attrSet("href", env["href"](href))
    return self.renderToken(tokens, idx, options, env)


def _render_link_close(self, tokens, idx, options, env):
    href = env.get("open_links", [None]).pop() if env.get("open_links") else None
    return env["note_link_close"](href) if href is not None else "</a>"


def _render_image(self, tokens, idx, options, env):
    token = tokens[idx]
    token.attrSet("src", env["href"](token.attrGet("src") or ""))
    token.attrSet("alt", self.renderInlineAsText(token.children or [], options, env))
    return self.renderToken(tokens, idx, options, env)


def _render_heading_open(self, tokens, idx, options, env):
    token = tokens[idx]
    anchor = token.attrGet("id")
    return f'<{token.tag} id="{html.escape(anchor)}"><a class="anchor" href="#{html.escape(anchor)}" aria-hidden="true">§</a> '


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


def render_tokens(md: MarkdownIt, tokens: list, env: dict) -> tuple[str, list[int]]:
    """markdown-it's Renderer.render, also telling where each token's HTML starts
    (offsets[i]; offsets[len(tokens)] is the end): embeds cut sections and blocks out of it."""
    renderer, parts, offsets, pos = md.renderer, [], [], 0
    for i, token in enumerate(tokens):
        offsets.append(pos)
        if token.type == "inline":
            piece = renderer.renderInline(token.children, md.options, env) if token.children else ""
        elif token.type in renderer.rules:
            piece = renderer.rules[token.type](tokens, i, md.options, env)
        else:
            piece = renderer.renderToken(tokens, i, md.options, env)
        parts.append(piece)
        pos += len(piece)
    offsets.append(pos)
    return "".join(parts), offsets


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
    md.add_render_rule("wikilink", _render_wikilink)
    md.add_render_rule("hashtag", _render_hashtag)
    md.add_render_rule("task_due", _render_task_due)
    md.add_render_rule("html_block", _render_html)
    md.add_render_rule("html_inline", _render_html)
    md.add_render_rule("blockquote_open", _render_blockquote_open)
    md.add_render_rule("blockquote_close", _render_blockquote_close)
    md.add_render_rule("fence", _render_fence)
    md.add_render_rule("math_inline", obsidian.render_math_inline)
    md.add_render_rule("math_inline_double", obsidian.render_math_double)
    for kind in ("math_block", "math_block_label"):
        md.add_render_rule(kind, obsidian.render_math_block)
    md.add_render_rule("link_open", _render_link_open)
    md.add_render_rule("link_close", _render_link_close)
    md.add_render_rule("image", _render_image)
    md.add_render_rule("heading_open", _render_heading_open)
    return md
