"""bf read: answer from the precomputed replies of a built site (docs/replies.md#bf-read)."""
from __future__ import annotations

from ..kernel import refs
from ..kernel.errors import Incomplete, InvalidInput, NotFound
from .listings import LISTINGS, merged, merged_home, period_reply, whole_list
from .site import Site

MAX_REF = 4096
MAX_ADDED_PROBLEMS = 2   # site/engine/read.js MAX_ADDED_PROBLEMS


def check_ref(text) -> str:
    if not isinstance(text, str):
        raise InvalidInput("ref", "must be a string")
    if len(text) > MAX_REF:
        raise InvalidInput("ref", f"longer than {MAX_REF} characters")
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise InvalidInput("ref", "holds control characters")
    if text.endswith("#"):
        raise InvalidInput("ref", "ends with a bare '#': name a section after it, or drop it")
    return text.strip()


def check_offset(offset) -> int:
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InvalidInput("offset", "must be a whole number ≥ 0")
    return offset


def selected(site: Site, ref_text: str, brains: list[str] | None) -> tuple[list[str], str]:
    """(brains to read, brain-relative ref) for a ref or bf:// address."""
    brain, ref = refs.split_address(ref_text)
    known = site.brain_names()
    if brain is not None:
        if brain not in known:
            raise NotFound(ref_text)
        if ref.endswith("#"):
            raise InvalidInput("ref", "ends with a bare '#': name a section after it, or drop it")
        return [brain], refs.normalize(ref)
    chosen = brains or known
    for name in chosen:
        if name not in known:
            raise InvalidInput("brain", f"unknown brain {name!r} (valid: {', '.join(known)})")
    return list(chosen), refs.normalize(ref)


def read(site: Site, ref_text: str, *, rel: str | None = None, offset: int = 0,
         brains: list[str] | None = None) -> dict:
    ref_text = check_ref(ref_text)
    offset = check_offset(offset)
    chosen, ref = selected(site, ref_text, brains)
    variant = (("r", rel) if rel is not None else ()) + ((f"o{offset}",) if offset else ())
    missing = []
    if len(chosen) > 1:
        for name in chosen:
            if rel is not None:
                _check_relation(site, name, rel)
        combined = _merged(site, chosen, ref, rel, offset)
        if combined is not None:
            brain, reply = combined
            return finish(site, brain, reply, [b for b in chosen if not site.available(b)])
    for name in chosen:
        if rel is not None:
            _check_relation(site, name, rel)
        if not site.available(name):
            missing.append(name)
            continue
        reply = site.reply(name, ref, *variant)
        if reply is None:
            reply = _computed(site, name, ref, rel, offset)
        if reply is not None:
            return finish(site, name, reply, missing + [b for b in chosen if b != name and not site.available(b)])
    if missing:
        raise Incomplete(ref, missing)
    raise NotFound(ref_text)


def _merged(site: Site, chosen: list[str], ref: str, rel: str | None, offset: int) -> tuple[str, dict] | None:
    """(first brain, reply) of a listing page over several brains (docs/replies.md#several-brains); None for exact reads."""
    variant = ("r", rel) if rel is not None else ()
    firsts = {}
    for name in chosen:
        if site.available(name):
            first = site.reply(name, ref, *variant) or _computed(site, name, ref, rel, 0)
            if first is not None:
                firsts[name] = first
    if not firsts:
        return None
    first = next(iter(firsts.values()))
    if first.get("page") == "home":
        return next(iter(firsts)), merged_home(firsts)
    if first.get("page") not in LISTINGS:
        return None
    lists = {b: whole_list(site, b, ref, variant, f) for b, f in firsts.items()}
    return next(iter(firsts)), merged(first["page"], firsts, lists, offset, ref)


def _check_relation(site: Site, brain: str, rel) -> None:
    valid = (site.brain(brain) or {}).get("relations", ["links"])
    if not isinstance(rel, str) or rel not in valid:
        raise InvalidInput("rel", f"unknown relation {rel!r} (valid: {', '.join(valid)})")


def _computed(site: Site, brain: str, ref: str, rel: str | None, offset: int) -> dict | None:
    """Valid reads with no file: a later page that does not exist, an unused relation, an empty period."""
    base = site.reply(brain, ref)
    if offset and (base is not None or rel is not None):
        first = site.reply(brain, ref, "r", rel) if rel is not None else base
        if first is not None and first.get("next_offset") is None:
            raise InvalidInput("offset", f"{ref} fits in one page: use offset 0")
        if first is not None:
            raise InvalidInput("offset", f"{offset} is not a page boundary of {ref}: use 0 or a next_offset")
    if rel is not None and base is not None:
        if offset:
            raise InvalidInput("offset", f"{ref} has no {rel} page at offset {offset}")
        return {"page": "relation", "brain": brain, "ref": ref, "uri": refs.uri(brain, ref),
                "title": base.get("title", ref), "relation": rel, "items": [], "total": 0,
                "offset": 0, "next_offset": None}
    if base is None and rel is None:
        return period_reply(site, brain, ref, offset)
    return None


def finish(site: Site, brain: str | list[str], reply: dict, unavailable: list[str]) -> dict:
    """Every answer as it goes out: the site's build instant (stored replies leave it to the
    manifest, so a build at a later instant rewrites only what the instant changes), problems
    naming unavailable brains, and the notice of the first stale brain of `brain` (one, or the
    list a search read), as far as staleness sees it for the files of the reply's items."""
    reply = dict(reply)
    reply["as_of"] = site.as_of
    if unavailable:
        _add_problems(reply, [{"brain": b, "path": "", "kind": "unavailable",
                               "message": f"brain {b} has no readable built data"} for b in unavailable])
    for name in [brain] if isinstance(brain, str) else brain:
        stale = site.stale(name, _paths(reply, name)) if name else None
        if stale:   # views/paging.py RESERVE keeps room for the largest
            reply["stale"] = stale
            reply["notice"] = f"the brain changed since this site was built ({stale['changed']} file(s)): run bf build"
            break
    return reply


def _paths(reply: dict, brain: str) -> list[str]:
    """The brain's files a reply returns: its own item's, and its listed items'."""
    items = reply.get("items")
    listed = [it.get("path") for it in items if isinstance(it, dict) and it.get("brain", brain) == brain] \
        if isinstance(items, list) else []
    return [p for p in [reply.get("path"), *listed] if isinstance(p, str) and p]


def _add_problems(reply: dict, added: list[dict]) -> None:
    """An exact read (it has `total_bytes`) keeps the first MAX_ADDED_PROBLEMS and counts the rest:
    its pages keep room for that many (views/paging.py RESERVE), so none passes 32 KiB (docs/replies.md#paging-large-reads)."""
    if "total_bytes" in reply and len(added) > MAX_ADDED_PROBLEMS:
        reply["problems_omitted"] = reply.get("problems_omitted", 0) + len(added) - MAX_ADDED_PROBLEMS
        added = added[:MAX_ADDED_PROBLEMS]
    reply["problems"] = list(reply.get("problems", [])) + added
