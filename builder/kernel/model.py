"""The parsed brain: immutable data, no behaviour beyond lookups (the Quartz `file.data`, made explicit)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType

from .config import BrainConfig

# Note.html holds a slot "\x00N\x00" wherever the rest of the brain decides the text (a link's
# target, a tag page's URL); N indexes Note.slots. brain/markdown writes slots, emit/html fills them.
SLOT = re.compile("\x00(\\d+)\x00")


@dataclass(frozen=True)
class Problem:
    brain: str
    path: str
    kind: str
    message: str

    def to_json(self) -> dict:
        left_out = LEFT_OUT.get(self.kind)
        message = f"{self.message}; {left_out}" if left_out else self.message
        return {"brain": self.brain, "path": self.path, "kind": self.kind, "message": message}


# What each kind of problem keeps out of the site, said in its message (docs/brain.md#problems):
# nothing is dropped in silence. The kinds not named keep their file or say it themselves.
LEFT_OUT = MappingProxyType({
    "frontmatter": "note not published", "encoding": "file not published", "json": "file's records not published",
    "record": "record not published", "too_large": "file not published", "misplaced": "file not published",
    "symlink": "not followed, not published", "special_file": "not published", "bad_name": "not published",
    "unreadable": "not published",
})


@dataclass(frozen=True)
class Section:
    id: str
    ref: str
    heading: str          # the heading's own text
    title: str            # "Note — Parent — Child"
    level: int
    line: int             # 1-based line of the heading in the file
    start: int            # UTF-8 byte offsets of the section's text within the file
    end: int


@dataclass(frozen=True)
class RawLink:
    """A link as written; resolve.py turns it into a Link."""
    target: str
    relation: str
    line: int
    label: str = ""
    heading: str = ""
    embed: bool = False
    kind: str = "wikilink"   # wikilink | markdown | identity | file (Note.files)


@dataclass(frozen=True)
class Link:
    source: str           # ref of the item holding the link
    target: str           # as written
    relation: str
    status: str           # resolved | ambiguous | broken
    ref: str | None       # resolved item ref (note, record or identity)
    heading: str = ""
    line: int = 0


@dataclass(frozen=True)
class Task:
    ref: str              # section ref, or note ref outside any section
    line: int
    text: str
    done: bool
    due: str | None


@dataclass(frozen=True)
class Note:
    ref: str
    title: str
    title_from_h1: bool
    type: str | None
    fields: dict
    tags: tuple[str, ...]
    aliases: tuple[str, ...]
    entities: tuple[str, ...]
    event: datetime | None        # date/start/end/due: the note's event time
    modified: datetime | None     # from frontmatter; None means ask git/mtime
    stale_after_days: float | None
    deprecated: bool
    summary: str
    text: str                     # the whole file
    body_offset: int              # bytes of frontmatter before the body
    sha256: str
    sections: tuple[Section, ...]
    links: tuple[RawLink, ...]
    tasks: tuple[Task, ...]
    frontmatter: dict = field(default_factory=dict)
    excerpt: str = ""             # summary, else the opening text (≤ 320 chars)
    html: str = ""                # the body rendered at parse time, with slots (brain/markdown.render_with_slots)
    slots: tuple = ()
    fragments: dict = field(default_factory=dict)   # section id / block "^id" → (start, end) in html, for embeds
    # Markdown links and images to files, not notes: not links of the graph, only checked that
    # the brain holds them (resolve.missing_files)
    files: tuple[RawLink, ...] = ()


@dataclass(frozen=True)
class Record:
    ref: str
    source: str
    id: str
    text: str
    title: str
    time: datetime | None
    observed: datetime | None
    edited: datetime | None
    uri: str | None
    author: str | None
    refs: tuple[str, ...]
    relations: dict
    priority: str | None
    attributes: dict
    sha256: str
    raw: dict
    thread: str | None = None     # names the record's conversation (views/conversations.py)

    @property
    def placed(self) -> datetime | None:
        """Placement time (docs/brain.md#times): event time, else observation."""
        return self.time or self.observed

    @property
    def modified(self) -> datetime | None:
        return self.edited or self.observed or self.time

    @property
    def path(self) -> str:
        """Its file in the brain (the path problems and listed items name)."""
        return f"memories/{self.source}/{self.id}.json"

    @property
    def own_title(self) -> str:
        """The title the record's file gives; "" when `title` is made from the text's first words."""
        given = self.raw.get("title")
        return given.strip() if isinstance(given, str) else ""


@dataclass(frozen=True)
class Source:
    name: str
    title: str
    cadence_days: float | None
    priority: str
    configured: bool
    last_run: datetime | None
    status: str | None            # from _source.json
    error: str | None


@dataclass(frozen=True)
class Brain:
    root: str
    config: BrainConfig
    notes: dict[str, Note]
    modified: dict[str, datetime]           # note ref → modification time (frontmatter, git or mtime)
    records: dict[str, Record]
    sources: dict[str, Source]
    links: tuple[Link, ...]                 # every resolved/unresolved outgoing link: the notes', then the records'
    names: dict[str, tuple[str, ...]]       # claimed name → refs claiming it
    identities: dict[str, tuple[str, ...]]  # identity → its explicit aliases
    attachments: tuple[str, ...]            # brain-relative paths copied as-is
    problems: tuple[Problem, ...]
    listing: object = field(default=None, compare=False, repr=False)   # kernel/fingerprint.Listing of its files
    note_links: int = 0                     # links[:note_links] are the notes' links
    moved: dict = field(default_factory=dict, compare=False, repr=False)   # ref → page path, refs that lost theirs (brain/pagenames.py)
    withheld: dict = field(default_factory=dict, compare=False, repr=False)   # rule → how many items it kept out (brain/publish.py)

    @property
    def name(self) -> str:
        return self.config.name
