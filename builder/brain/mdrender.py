"""How brain/markdown.py's instance renders a note body to HTML, once, at parse time
(brain/notes.py): wikilinks, tags, links to notes and due markers become slots that emit/html.py
fills once every note is known; raw HTML is sanitized unless brain.toml allows it.
Rendering asks `env["link"]`, `env["tag_url"]` and the other slot makers for URLs: this module
never decides what a link resolves to."""
from __future__ import annotations

import html
import re
from types import MappingProxyType

from markdown_it import MarkdownIt

from . import obsidian

SAFE_TAGS = frozenset({"details", "summary", "kbd", "sup", "sub", "br", "mark", "u", "s", "small", "b", "i",
             "em", "strong", "code", "pre", "p", "div", "span", "ul", "ol", "li", "hr", "abbr", "del", "ins"})
HTML_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\b[^>]*?(/?)>|<!--.*?-->|<[!?][^>]*>", re.S)


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
# A task's markup in short (boolean attributes bare, one class on the list, none on the box):
# a note of the dense kind holds a dozen tasks (docs/site.md#page-weight-what-pages-leave-out).
TASK_CLASSES = MappingProxyType({"contains-task-list": "tasks", "task-list-item": "task"})


def _render_html(self, tokens, idx, options, env):
    content = tokens[idx].content
    # The task-list plugin's own checkbox is the one tag we emit through html_inline; it gets a
    # name, as every form control needs one (axe-core: label), from its state.
    box = CHECKBOX.match(content)
    if box:
        return '<input type="checkbox" disabled' + (' checked aria-label="done">' if box.group(1) else ' aria-label="to do">')
    if env.get("allow_html"):
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


def _render_list_open(self, tokens, idx, options, env):
    token = tokens[idx]
    short = TASK_CLASSES.get(token.attrGet("class") or "")
    if short:
        token.attrSet("class", short)
    return self.renderToken(tokens, idx, options, env)


def _render_heading_open(self, tokens, idx, options, env):
    token = tokens[idx]
    anchor = token.attrGet("id")
    # its "§" link to itself is added by site/contents.js, not written into every heading (docs/site.md#page-weight-what-pages-leave-out)
    return f'<{token.tag} id="{html.escape(anchor)}">'


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


def add_render_rules(md: MarkdownIt) -> None:
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
    for kind in ("bullet_list_open", "ordered_list_open", "list_item_open"):
        md.add_render_rule(kind, _render_list_open)
