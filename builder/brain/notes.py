"""One Markdown file → a Note (unresolved). Pure: bytes in, Note out; no other file is read."""
from __future__ import annotations

import hashlib
import posixpath
import re
from datetime import datetime
from types import MappingProxyType

from ..kernel.config import BrainConfig, duration_days
from ..kernel.errors import ConfigError
from ..kernel.mdlinks import md_file, md_target
from ..kernel.model import Note, RawLink, Section, Task
from .frontmatter import FrontmatterError, split
from ..kernel.text import cut, plain
from .obsidian import strip_comments, without_block_id
from .markdown import drop_first_h1, due_marker, inline_text, markdown, render_with_slots, split_wikilink
from ..kernel.times import parse_instant

TASK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s+(.*)$")
TASK_LINES = re.compile(TASK.pattern, re.M)   # the same lines, found in a whole text
CODE_SPAN = re.compile(r"(`+).+?\1")
FOLDER_TYPES = MappingProxyType({"projects": "project", "actions": "action"})
MAX_NOTE_BYTES = 8 * 1024 * 1024


class NoteError(ValueError):
    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind

    def __reduce__(self):   # crosses a pipe from parse workers
        return NoteError, (self.kind, str(self))


def _as_list(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, (list, tuple)):
        return [str(v).strip() for v in value if v is not None and str(v).strip()]
    return [str(value)]


def _scalar(value):
    if isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return None


def _byte_offsets(text: str) -> list[int]:
    """UTF-8 byte offset of the start of every line (plus the end)."""
    offsets, total = [0], 0
    for line in text.splitlines(keepends=True):
        total += len(line.encode("utf-8"))
        offsets.append(total)
    return offsets


def _text(data: bytes) -> str:
    """A note file's bytes as text, or the NoteError that says why they are none."""
    if len(data) > MAX_NOTE_BYTES:
        raise NoteError("too_large", f"note is {len(data)} bytes; the limit is {MAX_NOTE_BYTES}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NoteError("encoding", f"not UTF-8 (byte {exc.start})") from None
    if "\x00" in text:
        raise NoteError("encoding", "holds NUL bytes: not a text file")
    return text


def _title(meta: dict, tokens: list, stem: str) -> tuple[str, bool, int | None]:
    """(the note's title, whether its first H1 gave it, that H1's token index)."""
    h1 = next((i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h1"), None)
    title = meta.get("title")
    title_from_h1 = False
    if not isinstance(title, str) or not title.strip():
        if h1 is not None:
            title, title_from_h1 = inline_text(tokens[h1 + 1]), True
        else:
            title = stem
    return str(title).strip() or stem, title_from_h1, h1


def _stale_days(meta: dict, note_type) -> float | None:
    stale = meta.get("stale_after")
    if stale is None and note_type == "project":
        stale = "30d"
    try:
        return duration_days(stale, "stale_after") if stale is not None else None
    except ConfigError as exc:
        raise NoteError("frontmatter", exc.reason) from None


def parse_note(ref: str, data: bytes, cfg: BrainConfig) -> Note:
    text = _text(data)
    try:
        meta, body, body_chars = split(text)
    except FrontmatterError as exc:
        raise NoteError("frontmatter", f"malformed frontmatter: {exc}") from None
    # Obsidian comments are never published (docs/brain.md#obsidian-syntax): from here on the note is its text
    # without them (line breaks kept, so lines are the file's), `text` in replies included.
    if "%%" in body:
        body = strip_comments(body)
        text = text[:body_chars] + body
    front_lines = text[:body_chars].count("\n")
    line_bytes = _byte_offsets(text)
    tokens = markdown().parse(body, {})

    title, title_from_h1, h1 = _title(meta, tokens, posixpath.splitext(posixpath.basename(ref))[0])

    sections = _sections(ref, title, tokens, h1 if title_from_h1 else None, front_lines, line_bytes)
    code_lines = _code_lines(tokens, front_lines)
    links, files = _links(ref, tokens, front_lines)
    links += _relation_links(meta.get("relations"))
    tags = sorted(set(_as_list(meta.get("tags")) + _inline_tags(tokens)))
    tags = [t.lstrip("#") for t in tags if t.lstrip("#")]
    folder = ref.split("/")[0] if "/" in ref else ""
    note_type = meta.get("type") or (FOLDER_TYPES.get(folder) if ref.count("/") == 1 else None)
    stale_days = _stale_days(meta, note_type)
    event = None
    for key in ("date", "start", "due", "end"):
        event = parse_instant(meta.get(key), cfg.timezone)
        if event:
            break
    summary = str(meta.get("summary") or meta.get("description") or "")
    html, slots, fragments = render_with_slots(drop_first_h1(tokens) if title_from_h1 else tokens, cfg.allow_html)
    return Note(
        ref=ref, title=title, title_from_h1=title_from_h1,
        type=str(note_type) if note_type else None,
        fields={k: _scalar(meta[k]) for k in cfg.fields if k in meta and _scalar(meta[k]) is not None},
        tags=tuple(sorted(set(tags))),
        aliases=tuple(_as_list(meta.get("aliases"))),
        entities=tuple(_as_list(meta.get("entities"))),
        event=event,
        modified=parse_instant(meta.get("modified") or meta.get("updated"), cfg.timezone),
        stale_after_days=stale_days,
        deprecated=meta.get("deprecated") is True,
        summary=summary,
        text=text,
        body_offset=len(text[:body_chars].encode("utf-8")),
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),   # of `text` as published
        sections=tuple(sections),
        links=tuple(links), files=tuple(files),
        tasks=tuple(_tasks(ref, text, sections, code_lines)),
        frontmatter={k: _scalar(v) if _scalar(v) is not None else v for k, v in meta.items()},
        excerpt=cut(summary) if summary else cut(plain(_tasks_without_due(_lead_text(body, title_from_h1)))),
        html=html, slots=slots, fragments=fragments,
    )


def _lead_text(body: str, title_from_h1: bool) -> str:
    if title_from_h1:
        lines = body.lstrip().splitlines()
        return "\n".join(lines[1:]) if lines and lines[0].startswith("#") else body
    return body


def _sections(ref, title, tokens, skip_index, front_lines, line_bytes) -> list[Section]:
    heads = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and i != skip_index and tok.map:
            heads.append((int(tok.tag[1]), tok.attrGet("id"), inline_text(tokens[i + 1]), tok.map[0] + front_lines))
    out, stack = [], []
    end_of_file = line_bytes[-1]
    for n, (level, sid, heading, line0) in enumerate(heads):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, heading))
        end = end_of_file
        for level2, _, _, line2 in heads[n + 1:]:
            if level2 <= level:
                end = line_bytes[line2]
                break
        full = " — ".join([title] + [h for _, h in stack])
        out.append(Section(id=sid, ref=f"{ref}#{sid}", heading=heading, title=full, level=level,
                           line=line0 + 1, start=line_bytes[line0], end=end))
    return out


def _code_lines(tokens, front_lines) -> set[int]:
    lines = set()
    for tok in tokens:
        if tok.type in ("fence", "code_block") and tok.map:
            lines.update(range(tok.map[0] + front_lines + 1, tok.map[1] + front_lines + 1))
    return lines


def _walk_inline(tokens):
    for tok in tokens:
        if tok.type == "inline" and tok.children:
            yield tok, tok.children


def _links(ref, tokens, front_lines) -> tuple[list[RawLink], list[RawLink]]:
    """The body's links, and its Markdown links and images to files other than notes."""
    out, files = [], []
    base = posixpath.dirname(ref)
    for tok, children in _walk_inline(tokens):
        line = (tok.map[0] if tok.map else 0) + front_lines + 1
        for child in children:
            if child.type in ("softbreak", "hardbreak"):   # a paragraph spans lines: count them
                line += 1
            elif child.type == "wikilink":
                m = child.meta
                out.append(RawLink(target=m["target"], relation="links", line=line, label=m["label"],
                                   heading=m["heading"], embed=m["embed"]))
            elif child.type in ("link_open", "image"):
                href = child.attrGet("href") or child.attrGet("src") or ""
                target = md_target(base, href)
                if target:
                    path, heading, _ = target
                    out.append(RawLink(target=path, relation="links", line=line, heading=heading,
                                       kind="markdown", embed=child.type == "image"))
                elif md_file(href):
                    files.append(RawLink(target=md_file(href), relation="links", line=line,
                                         kind="file", embed=child.type == "image"))
    return out, files


def _relation_links(relations) -> list[RawLink]:
    out = []
    if not isinstance(relations, dict):
        return out
    for name in sorted(relations, key=str):
        for target in _as_list(relations[name]):
            m = re.fullmatch(r"!?\[\[(.+?)\]\]", target)
            if m:
                t, heading, label = split_wikilink(m.group(1))
                out.append(RawLink(target=t, relation=str(name), line=0, heading=heading, label=label))
            else:
                out.append(RawLink(target=target, relation=str(name), line=0, kind="identity" if ":" in target and not target.endswith(".md") else "markdown"))
    return out


def _inline_tags(tokens) -> list[str]:
    return [c.meta["tag"] for _, children in _walk_inline(tokens) for c in children if c.type == "hashtag"]


def _tasks(ref, text, sections, code_lines) -> list[Task]:
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        if n in code_lines:
            continue
        m = TASK.match(line)
        if not m:
            continue
        owner = ref
        for s in sections:
            if s.line <= n:
                owner = s.ref
        text, due = _without_due(without_block_id(m.group(2).strip()))
        out.append(Task(ref=owner, line=n, text=text, done=m.group(1) != " ", due=due))
    return out


def _tasks_without_due(text: str) -> str:
    """`text` with every task line's due marker dropped, as the task's own text drops it."""
    return TASK_LINES.sub(lambda m: m.group(0)[:m.start(2) - m.start()] + _without_due(m.group(2))[0], text)


def _without_due(text: str) -> tuple[str, str | None]:
    """A task's text without its due marker, and the due day: the day is a field of its own,
    and pages show it as a badge (the 📅 glyph has no font on many systems). A marker inside
    `code` is text, as the page renders it."""
    m = due_marker(CODE_SPAN.sub(lambda c: " " * len(c.group()), text))   # blanked: offsets stay
    if m is None:
        return text, None
    return f"{text[:m.start()].rstrip()} {text[m.end():].lstrip()}".strip(), m.group(1)
