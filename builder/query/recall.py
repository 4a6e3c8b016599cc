"""bf recall (docs/replies.md#bf-recall): the search ranking, packed for a model's context window.

The candidates are search's ranked items (CANDIDATES of them, the search maximum). When the
vector arm ranked them (hybrid, semantic), they are first diversified by maximal marginal
relevance (vector.diversify, λ = vector.LAMBDA): that order is the rank order below. The fold
walks them in rank order, once:
- a candidate whose entities already have MAX_PER_ENTITY quoted memories is *capped*;
- otherwise its body is quoted (`memories.disclosed`) when it fits in what is left of the budget;
- every candidate not quoted becomes an index line (title, gist, ref; `reason` says why).
Nothing is ever promoted past a better-ranked candidate, and the fold goes on past one that
did not fit, so a later, smaller one can still be quoted.

`spent_chars` counts the quoted bodies, in Unicode code points, and never exceeds the budget.
Index lines are outside the budget: they are what a model reads to decide what to read next,
and they are bounded (at most CANDIDATES lines of a ≤200-character title, a ≤GIST_CHARS gist
and a ref). `truncated` is true exactly when some candidate became an index line.

Bodies come from the site's precomputed replies (the same bytes `bf read` answers): a note's
file without its frontmatter, a section's text, a record's text; a paged read is joined.
`<details>`/`<summary>` tags are dropped and their content kept: a collapsed block is still
part of what the author wrote, and a model cannot click it open.
"""
from __future__ import annotations

import re
from typing import Callable

from ..kernel.errors import InvalidInput
from ..kernel.formats import ITEM_FIELDS, RECORD_FIELDS
from ..kernel.text import cut
from .read import read
from .search import search
from .site import Site
from .store import open_store
from . import vector

DEFAULT_BUDGET = 16000
MAX_BUDGET = 1_000_000
CANDIDATES = 50
MAX_PER_ENTITY = 2
GIST_CHARS = 160
# what a quoted memory keeps of its search item: who it is, the store's fields recall quotes
# (kernel/formats.py), its source and score
QUOTED = tuple(dict.fromkeys(("kind", "brain", "ref", "uri", "title", "path",
                               *(name for name, _, quoted in ITEM_FIELDS + RECORD_FIELDS if quoted), "source", "score")))

_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n.*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
_DETAILS_TAGS = re.compile(r"</?(?:details|summary)\b[^>]*>", re.I)


def check_budget(budget) -> int:
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise InvalidInput("budget", f"must be a whole number from 1 to {MAX_BUDGET}, got {budget!r}")
    return budget


def disclose(text: str) -> str:
    """Open every <details> block: drop the tags, keep what they hold."""
    return _DETAILS_TAGS.sub("", text)


def _index_line(item: dict, rank: int, reason: str) -> dict:
    line = {k: item.get(k) for k in ("kind", "brain", "ref", "uri", "title")}
    line.update(rank=rank, gist=cut(" ".join((item.get("excerpt") or "").split()), GIST_CHARS), reason=reason)
    return line


def pack(items: list[dict], budget: int, body: Callable[[dict], str]) -> dict:
    """Fold ranked search items into quoted memories and index lines (see the module doc).
    `body(item)` gives an item's quotable text; it is called only for candidates not capped."""
    disclosed, index_lines = [], []
    left = budget
    quoted_per_entity: dict[str, int] = {}
    for rank, item in enumerate(items, 1):
        entities = item.get("entities") or []
        capped = any(quoted_per_entity.get(e, 0) >= MAX_PER_ENTITY for e in entities)
        if not capped:
            text = body(item)
            if len(text) <= left:
                left -= len(text)
                for e in set(entities):
                    quoted_per_entity[e] = quoted_per_entity.get(e, 0) + 1
                disclosed.append(_quoted(item, rank, text))
                continue
        index_lines.append(_index_line(item, rank, "entity_cap" if capped else "budget"))
    return {"memories": {"disclosed": disclosed, "index_lines": index_lines},
            "spent_chars": budget - left, "truncated": bool(index_lines)}


def _quoted(item: dict, rank: int, text: str) -> dict:
    return {k: item[k] for k in QUOTED if k in item} | {"rank": rank, "text": text, "chars": len(text)}


def _body_of(site: Site, item: dict) -> str:
    """The quotable text of a search item, from its precomputed read (all pages joined)."""
    parts, offset = [], 0
    while True:
        page = read(site, item["uri"], offset=offset)
        parts.append(page["record"]["text"] if "record" in page else page.get("text", ""))
        offset = page.get("next_offset")
        if not offset:
            break
    text = "".join(parts)
    if item.get("kind") == "note":
        text = _FRONTMATTER.sub("", text, count=1)
    return disclose(text).strip()


def recall(site: Site, query, *, budget=DEFAULT_BUDGET, scope=None, type=None, path=None,
           brains: list[str] | None = None, mode=None) -> dict:
    budget = check_budget(budget)
    found = search(site, query, scope=scope, type=type, path=path, limit=CANDIDATES, brains=brains, mode=mode)
    reply = {k: v for k, v in found.items() if k != "items"}
    items = found["items"]
    if "vector" in found["arms"]:
        items = vector.diversify(items, [vector.vector_of(site, open_store(site, i["brain"]), i["ref"]) for i in items])
    reply.update(pack(items, budget, lambda item: _body_of(site, item)))
    reply.update(budget=budget, candidates=len(found["items"]))
    return reply
