"""Listing reads the build could not write (docs/data.md, docs/replies.md#several-brains), computed from the built site:

- a period with no stored reply: an empty calendar period, or a relative `Nd` other than the
  precomputed today/yesterday/7d/30d, from the brain's timeline (its compact data);
- a listing page over several selected brains: each brain's whole list, merged in the page's
  order and paged again at 50. Items name their brain and uri. Fields other than the lists come
  from the first brain holding the page; `brains` names every brain merged.
"""
from __future__ import annotations


from ..kernel.listing import PAGE_ITEMS, newest_first, page_at, paged, period_pages, source_period_base
from ..kernel.periods import parse_period
from ..kernel.times import from_rfc3339, rfc3339
from .site import Site

LISTINGS = frozenset({"folder", "tag", "period", "source", "undated", "identity", "memories", "relation"})
BY_PATH = frozenset({"folder", "tag", "memories"})


def period_reply(site: Site, brain: str, ref: str, offset: int) -> dict | None:
    """The page at `offset` of a period read with no stored reply, or None when `ref` is not a
    period: a brain's period, or a calendar period of a source with no record in it."""
    info = site.brain(brain) or {}
    as_of = from_rfc3339(site.as_of)
    source, key = source_period(ref)
    period = parse_period(key, info.get("timezone", "UTC"), as_of)
    if period is None:
        return None
    if source is not None:
        if source not in info.get("sources", []) or period[3]:
            return None
        title = (site.reply(brain, f"memories/{source}") or {}).get("title", source)
        return page_at(paged(source_period_base(brain, ref, source, title, period) | {"counts": []}, []), offset, ref)
    kind, start, end, relative = period
    data = site.brain_data(brain)
    entries = data.timeline(rfc3339(start)) if relative else []
    page = page_at(period_pages(brain, ref, kind, start, end, entries), offset, ref)
    return dict(page, items=data.cards(page["items"]))   # only this page's cards are read


def source_period(ref: str) -> tuple[str | None, str]:
    """("SOURCE", "PERIOD") for `memories/SOURCE/PERIOD`, else (None, ref)."""
    parts = ref.split("/")
    return (parts[1], parts[2]) if len(parts) == 3 and parts[0] == "memories" else (None, ref)


def whole_list(site: Site, brain: str, ref: str, variant: tuple, first: dict) -> list[dict]:
    """The items of every page of a precomputed listing, in order."""
    items, page = list(first.get("items", [])), first
    while page.get("next_offset"):
        page = site.reply(brain, ref, *variant, f"o{page['next_offset']}")
        if page is None:       # a damaged site: answer with what is readable
            break
        items += page.get("items", [])
    return items


def _ordered(kind: str, items: list[dict]) -> list[dict]:
    if kind in BY_PATH:
        return sorted(items, key=lambda i: (i.get("path") or i["ref"], i["brain"]))
    return newest_first(items)


def _with_brain(rows: list[dict], brain: str) -> list[dict]:
    return [dict(r, brain=brain) for r in rows]


def merged(kind: str, firsts: dict[str, dict], lists: dict[str, list[dict]], offset: int, ref: str) -> dict:
    """One page of a listing merged over the brains in `firsts` (brain → its first page)."""
    brains = list(firsts)
    base = {k: v for k, v in firsts[brains[0]].items() if k not in ("items", "total", "offset", "next_offset")}
    base["brains"] = brains
    if "counts" in base:
        base["counts"] = [c for b in brains for c in _with_brain(firsts[b].get("counts", []), b)]
    if "notes" in base:
        base["notes"] = sum(firsts[b].get("notes", 0) for b in brains)
    items = _ordered(kind, [i for b in brains for i in lists[b]])
    return page_at(paged(base, items), offset, ref)


def merged_home(homes: dict[str, dict]) -> dict:
    """Home over several brains: each section's items merged (first 50 kept), totals summed."""
    brains = list(homes)
    first = homes[brains[0]]
    sections = {}
    for name, section in first["sections"].items():
        parts = [homes[b]["sections"][name] for b in brains]
        if name == "activity":
            sections[name] = dict(section, counts=[c for b in brains for c in _with_brain(homes[b]["sections"][name]["counts"], b)],
                                  notes_changed=sum(p["notes_changed"] for p in parts))
            continue
        items = [i for p in parts for i in p["items"]]
        if name == "upcoming":
            items.sort(key=lambda i: (i["when"], i["brain"], i["ref"], i.get("line") or 0))
        elif name == "changed":
            items = newest_first([dict(i, placed=i["modified"]) for i in items])
            items = [{k: v for k, v in i.items() if k != "placed"} for i in items]
        else:
            items.sort(key=lambda i: (i["ref"], i["brain"], i.get("line") or 0))
        sections[name] = {"items": items[:PAGE_ITEMS], "total": sum(p["total"] for p in parts)}
    return dict(first, brains=brains, sections=sections, sources=[s for b in brains for s in homes[b]["sources"]])
