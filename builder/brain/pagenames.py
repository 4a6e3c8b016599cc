"""Which page keeps a path two refs would share (docs/site.md, "Page URLs").

Page paths are readable (kernel/pageurls.py), so two refs can read alike: `projects.md` and the
folder `projects`, `Plan.md` and `plan.md`, `a b.md` and `a-b.md`, a root note `2026-12-02.md`
and that day's period page. Paths meet when they are equal NFC-normalized and case-folded (so a
case-insensitive file system never merges two pages). The first of this order keeps the path:

  1. attachments (copied at their own path: a page never takes it)
  2. home, memories   3. sources (memories/SOURCE)   4. tags (tags/TAG)
  5. notes: one whose path reads exactly as its ref first, then by ref (code points)
  6. folders   7. identities   8. periods

Site pages come first: every page links them, and earlier builds gave them these paths. A note
comes before the folder of its name, as a folder note is that folder's page to its author, and
before a period: a daily note `2026-12-02.md` at the root is that day's page.

Every later one moves to its path + "-" + 6 hex digits of its ref's SHA-256 (12 should those
meet too), the same for the same ref in every build, and is a `page_collision` problem naming
both.
"""
from __future__ import annotations

import hashlib
import unicodedata

from ..kernel.model import Note, Problem
from ..kernel.pageurls import page_file, page_stem
from ..kernel.refs import escape_segment, is_period_like


def key(path: str) -> str:
    return unicodedata.normalize("NFC", path).casefold()


def settle(brain: str, notes: dict[str, Note], identities, sources, attachments) -> tuple[dict[str, str], list[Problem]]:
    """({ref: suffix} of every ref that lost its path (pageurls.page_file), a problem per loss)."""
    taken: dict[str, str] = {key(_attachment(brain, rel)): rel for rel in attachments}
    moved: dict[str, str] = {}
    problems = []
    for ref in _candidates(notes, identities, sources):
        path = page_file(brain, ref)
        winner = taken.get(key(path))
        if winner is not None:
            moved[ref] = _suffix(brain, ref, taken)
            path = page_file(brain, ref, moved)
            problems.append(Problem(brain, _blame(ref, winner, notes), "page_collision",
                                    f"{ref!r} and {winner!r} read as the same page path; "
                                    f"{winner!r} keeps it, {ref!r} is at {path!r}"))
        taken[key(path)] = ref
    return moved, problems


def _attachment(brain: str, rel: str) -> str:
    return "/".join([escape_segment(brain)] + [escape_segment(p) for p in rel.split("/")])


def _suffix(brain: str, ref: str, taken: dict[str, str]) -> str:
    digest = hashlib.sha256(ref.encode("utf-8")).hexdigest()
    short = digest[:6]
    return short if key(page_file(brain, ref, {ref: short})) not in taken else digest[:12]


def _blame(loser: str, winner: str, notes) -> str:
    """The file a person would rename: the losing note, else the note or file that won (the
    ref of the site page that won)."""
    return loser if loser in notes else winner


def _candidates(notes, identities, sources) -> list[str]:
    """Every ref with a page that can meet another's path, in the order that settles who keeps it."""
    exact = sorted(notes, key=lambda ref: (page_stem(ref) != ref[: -len(".md")], ref))
    folders = sorted({ref[:i] for ref in notes for i, ch in enumerate(ref) if ch == "/"})
    tags = sorted({f"tags/{t}" for note in notes.values() for t in note.tags})
    periods = sorted({p for ref in notes if "/" not in ref and is_period_like(p := _period(ref[: -len(".md")]))})
    every = ["home", "memories", *sorted(f"memories/{s}" for s in sources), *tags, *exact, *folders,
             *sorted(identities), *periods]
    return list(dict.fromkeys(every))   # a folder `tags/x` is the tag's ref: one page, first place


def _period(stem: str) -> str:
    """The period ref a root note's name reads as: `2026-w49` → `2026-W49`, `Today` → `today`."""
    return stem.lower().replace("-w", "-W")
