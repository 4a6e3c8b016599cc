"""Obsidian syntax on top of CommonMark (docs/brain.md#obsidian-syntax): comments, highlights, block ids, math,
Mermaid, highlighted code, callouts with folding, and the fragments embeds show.

Everything here runs at parse time (brain/notes.py, brain/markdown.py); emit/html.py only
cuts fragments out of a note's parse-time HTML and fills their slots.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache
from types import MappingProxyType

# ---------------------------------------------------------------- %% comments %%

FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})")
NEWLINE = re.compile(r"\r?\n$|\r$")


def strip_comments(text: str) -> str:
    """`text` without its Obsidian comments (`%% … %%`, inline or over several lines), every
    line break kept, so line numbers (tasks, sections) stay those of the file. `%%` inside a
    fenced code block or a code span on one line is text, as Obsidian shows it. A comment
    never closed runs to the end of the file: it is never published."""
    if "%%" not in text:
        return text
    out: list[str] = []
    in_comment, fence = False, None
    for line in text.splitlines(keepends=True):
        if fence is not None:
            out.append(line)
            stripped = line.strip()
            if stripped and set(stripped) == {fence[0]} and len(stripped) >= len(fence) and len(line) - len(line.lstrip(" ")) <= 3:
                fence = None
            continue
        if not in_comment:
            m = FENCE_OPEN.match(line)
            if m and not (m.group(1)[0] == "`" and "`" in line[m.end():]):
                fence = m.group(1)
                out.append(line)
                continue
        end = NEWLINE.search(line)
        eol = end.group(0) if end else ""
        body = line[:len(line) - len(eol)]
        buf, i = [], 0
        while i < len(body):
            if in_comment:
                j = body.find("%%", i)
                if j < 0:
                    break
                in_comment, i = False, j + 2
                continue
            if body[i] == "`":
                n = len(body) - i - len(body[i:].lstrip("`"))
                run = body[i:i + n]
                close = re.compile(r"(?<!`)" + run + r"(?!`)").search(body, i + n)
                if close:
                    buf.append(body[i:close.end()])
                    i = close.end()
                else:
                    buf.append(run)
                    i += n
                continue
            if body.startswith("%%", i):
                in_comment, i = True, i + 2
                continue
            buf.append(body[i])
            i += 1
        out.append("".join(buf) + eol)
    return "".join(out)


# ---------------------------------------------------------------- block ids

BLOCK_ID = re.compile(r"(?:^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$")
ALONE_ID = re.compile(r"^\^([A-Za-z0-9-]+)$")


def without_block_id(text: str) -> str:
    """A line's text without a trailing block id (`… ^id`)."""
    return BLOCK_ID.sub("", text).rstrip()


def _closing(tokens, i: int) -> int:
    """Index of the token closing tokens[i] (itself for a token that does not nest)."""
    if tokens[i].nesting != 1:
        return i
    depth = 0
    for j in range(i, len(tokens)):
        depth += tokens[j].nesting
        if depth == 0:
            return j
    return len(tokens) - 1


def _opening(tokens, j: int) -> int:
    """Index of the token opening the block that tokens[j] closes (itself if it does not nest)."""
    if tokens[j].nesting != -1:
        return j
    depth = 0
    for i in range(j, -1, -1):
        depth += tokens[i].nesting
        if depth == 0:
            return i
    return 0


def block_ids(state) -> None:
    """`text ^id` at the end of a paragraph or list item, or `^id` alone on the line after a
    block (a table, a list, a quote, code), becomes that block's anchor `id="^id"`; the marker
    is not shown."""
    tokens = state.tokens
    i, drop = 0, []
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "inline" and i > 0 and tokens[i - 1].type == "paragraph_open" and tok.children:
            last = tok.children[-1]
            alone = ALONE_ID.match(tok.content.strip()) if len(tok.children) == 1 else None
            if alone and i >= 2 and tokens[i - 2].nesting != 1 and tokens[i - 2].level == tokens[i - 1].level:
                # `^id` as a paragraph of its own: the id of the block just before it
                target = _opening(tokens, i - 2)
                if not tokens[target].attrGet("id"):
                    tokens[target].attrSet("id", "^" + alone.group(1))
                drop.append((i - 1, i + 2))
            elif last.type == "text":
                m = BLOCK_ID.search(last.content)
                if m:
                    last.content = last.content[:m.start()].rstrip()
                    while tok.children and tok.children[-1].type in ("softbreak", "hardbreak") or \
                            tok.children and tok.children[-1].type == "text" and not tok.children[-1].content:
                        tok.children.pop()
                    owner = i - 1
                    if i >= 2 and tokens[i - 2].type == "list_item_open":
                        owner = i - 2
                    if not tokens[owner].attrGet("id"):
                        tokens[owner].attrSet("id", "^" + m.group(1))
        i += 1
    for start, end in reversed(drop):
        del tokens[start:end]


def lone_embeds(state) -> None:
    """A paragraph holding only `![[embed]]` is not a paragraph: the embed (a note, a section,
    a block) is a block of its own, and a <div> may not sit in a <p>."""
    tokens = state.tokens
    for i, tok in enumerate(tokens):
        if tok.type == "inline" and i and tokens[i - 1].type == "paragraph_open" and not tokens[i - 1].attrGet("id"):
            kids = [c for c in tok.children or () if not (c.type == "text" and not c.content.strip())]
            if len(kids) == 1 and kids[0].type == "wikilink" and kids[0].meta["embed"]:
                tokens[i - 1].hidden = tokens[i + 1].hidden = True


# ---------------------------------------------------------------- callouts

# Obsidian's callout types: canonical type → (aliases, Lucide icon). Unknown types look like `note`.
CALLOUTS = MappingProxyType({
    "note": ((), "pencil"),
    "abstract": (("summary", "tldr"), "clipboard-list"),
    "info": ((), "info"),
    "todo": ((), "circle-check"),
    "tip": (("hint", "important"), "flame"),
    "success": (("check", "done"), "check"),
    "question": (("help", "faq"), "circle-help"),
    "warning": (("caution", "attention"), "triangle-alert"),
    "failure": (("fail", "missing"), "x"),
    "danger": (("error",), "zap"),
    "bug": ((), "bug"),
    "example": ((), "list"),
    "quote": (("cite",), "quote"),
})
CALLOUT_KIND = MappingProxyType({alias: kind for kind, (aliases, _) in CALLOUTS.items() for alias in (kind, *aliases)})


def callout_kind(written: str) -> str:
    """The canonical callout type (colour and icon) of a type as written."""
    return CALLOUT_KIND.get(written.lower(), "note")


def callout_open(meta: dict, anchor: str | None = None) -> str:
    """Opening HTML of a callout: a <details> when it folds (`-` closed, `+` open)."""
    kind, written = callout_kind(meta["callout"]), meta["callout"]
    attrs = f'class="callout callout-{kind}" data-callout="{html.escape(written)}"'
    if anchor:
        attrs += f' id="{html.escape(anchor)}"'
    icon = '<span class="callout-icon" aria-hidden="true"></span>'
    title = f'{icon}<span class="callout-title-inner">{html.escape(meta["title"])}</span>'
    if meta.get("fold"):
        return (f'<details {attrs}{" open" if meta["fold"] == "+" else ""}>'
                f'<summary class="callout-title">{title}</summary>\n')
    return f'<blockquote {attrs}><p class="callout-title">{title}</p>\n'


def callout_close(meta: dict) -> str:
    return "</details>\n" if meta.get("fold") else "</blockquote>\n"


# ---------------------------------------------------------------- code, Mermaid, math

@lru_cache(maxsize=256)
def _lexer(lang: str):
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound
    try:
        return get_lexer_by_name(lang, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@lru_cache(maxsize=1)
def _formatter():
    from pygments.formatters import HtmlFormatter
    return HtmlFormatter(nowrap=True)


def render_fence(token) -> str:
    """A fenced code block: Mermaid source for the browser to draw, code highlighted by
    Pygments (class names styled in bf.css), or plain code in a language Pygments lacks."""
    info = html.unescape(token.info or "").strip()
    lang = info.split()[0] if info else ""
    anchor = f' id="{html.escape(token.attrGet("id"))}"' if token.attrGet("id") else ""
    code = token.content
    if lang.lower() == "mermaid":
        return f'<pre class="mermaid"{anchor}>{html.escape(code, quote=False)}</pre>\n'
    cls = f' class="language-{html.escape(lang)}"' if lang else ""
    lexer = _lexer(lang.lower()) if lang else None
    if lexer is None:
        return f"<pre{anchor}><code{cls}>{html.escape(code, quote=False)}</code></pre>\n"
    from pygments import highlight
    return f'<pre class="highlight"{anchor}><code{cls}>{highlight(code, lexer, _formatter())}</code></pre>\n'


@lru_cache(maxsize=1)
def _mathml():
    from math_core import LatexToMathML
    return LatexToMathML(fancy_error=False)


def math_html(tex: str, tag: str, display: bool, anchor: str = "") -> str:
    """TeX as MathML, typeset at build time so a page runs no maths script (docs/brain.md#obsidian-syntax);
    TeX that does not convert is shown as written, its error in the title."""
    cls = "math math-display" if display else "math math-inline"
    from math_core import LatexError
    try:
        inner = _mathml().convert_with_local_state(tex, displaystyle=display)
    except LatexError as err:
        return (f'<{tag} class="{cls} math-error"{anchor} title="{html.escape(str(err).strip())}">'
                f'{html.escape(tex)}</{tag}>')
    return f'<{tag} class="{cls}"{anchor}>{inner}</{tag}>'


def render_math_inline(self, tokens, idx, options, env) -> str:
    return math_html(tokens[idx].content, "span", display=False)


def render_math_double(self, tokens, idx, options, env) -> str:
    """`$$…$$` inside a paragraph: shown as display math, in a <span> a paragraph may hold."""
    return math_html(tokens[idx].content, "span", display=True)


def render_math_block(self, tokens, idx, options, env) -> str:
    tok = tokens[idx]
    anchor = f' id="{html.escape(tok.attrGet("id"))}"' if tok.attrGet("id") else ""
    return math_html(tok.content, "div", display=True, anchor=anchor) + "\n"




# ---------------------------------------------------------------- fragments for embeds

def fragments(tokens, offsets: list[int]) -> dict:
    """Where each section (heading id) and each block (`^id`) lies in the rendered HTML:
    id → (start, end) character offsets; offsets[i] is where tokens[i]'s HTML starts."""
    out: dict[str, tuple[int, int]] = {}
    heads = [(i, int(t.tag[1])) for i, t in enumerate(tokens) if t.type == "heading_open"]
    tail = next((i for i, t in enumerate(tokens) if t.type == "footnote_block_open"), len(tokens))
    for n, (i, level) in enumerate(heads):
        end = next((j for j, lv in heads[n + 1:] if lv <= level), tail)
        out.setdefault(tokens[i].attrGet("id"), (offsets[i], offsets[min(end, tail)]))
    for i, tok in enumerate(tokens):
        anchor = tok.attrGet("id") if tok.nesting >= 0 else None
        if anchor and anchor.startswith("^"):
            out.setdefault(anchor, (offsets[i], offsets[_closing(tokens, i) + 1]))
    return out


