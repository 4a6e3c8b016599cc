"""The site's bytes for `scripts/bench`: in all, per note, by kind of file (KINDS),
pagefind's, and the search data's against the raw text it indexes."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path


def dir_bytes(path: Path, skip: str | None = None) -> int:
    total = 0
    for dirpath, dirnames, filenames in os.walk(path):
        if skip and Path(dirpath) == path and skip in dirnames:
            dirnames.remove(skip)
        total += sum(os.lstat(os.path.join(dirpath, f)).st_size for f in filenames)
    return total


KINDS = [   # (kind, pattern on the site-relative path), first match wins
    ("pagefind", r"^pagefind/"), ("vectors", r"^_bf/(vectors|search/[^/]+/vectors)/"), ("index", r"^_bf/search/"), ("cards", r"^_bf/[^/]+/data/cards/"),
    ("lists", r"^_bf/[^/]+/data/lists/"), ("record_data", r"^_bf/[^/]+/data/records/"),
    ("section_data", r"^_bf/[^/]+/data/sections/"), ("timeline", r"^_bf/[^/]+/data/timeline/"),
    ("assets", r"^(_bf/[^/]+\.(js|css)|_bf/(engine|vendor)/|schemas/)"),
    ("bf_other", r"^_bf/"), ("note_replies", r"\.md(~~o\d+)?\.json$"),
    ("day_pages", r"^[^/]+/memories/[^/]+/(\d{4}-\d{2}-\d{2}|undated)\.html$"),
    ("other_replies", r"\.json$"), ("listing_pages", r"\.html$"), ("other", r""),
]


NOTE_REF = re.compile(rb'<meta name="bf-ref" content="[^"]*\.md">')


def _note_page(rel: str, path: str) -> bool:
    """A page naming a note as its ref (base.html, near the top): page paths are readable, so
    no suffix tells a note's page from a folder's."""
    if not rel.endswith(".html") or rel.startswith(("_bf/", "pagefind/")):
        return False
    with open(path, "rb") as f:
        return bool(NOTE_REF.search(f.read(1024)))


def site_by_kind(site: Path, notes: int) -> dict[str, dict]:
    """Files and bytes of a built site by kind (KINDS), each also per note, so a regression in
    one kind shows at a glance."""
    patterns = [(kind, re.compile(p)) for kind, p in KINDS]
    out: dict[str, dict] = {}
    for dirpath, _, filenames in os.walk(site):
        for name in filenames:
            path = os.path.join(dirpath, name)
            rel = Path(path).relative_to(site).as_posix()
            kind = "note_pages" if _note_page(rel, path) else next(k for k, p in patterns if p.search(rel))
            entry = out.setdefault(kind, {"files": 0, "bytes": 0})
            entry["files"] += 1
            entry["bytes"] += os.lstat(path).st_size
    for entry in out.values():
        entry["files_per_note"] = round(entry["files"] / notes, 3)
        entry["bytes_per_note"] = round(entry["bytes"] / notes)
    return dict(sorted(out.items()))


def lunr_dirs(site: Path) -> list[Path]:
    """Folders of bf-lunr indexes in a built site, wherever the emitter puts them."""
    found = []
    for meta in site.rglob("meta.json"):
        try:
            if json.loads(meta.read_text("utf-8")).get("format", "").startswith("bf-lunr"):
                found.append(meta.parent)
        except (OSError, ValueError, AttributeError):
            continue
    return found


def site_sizes(res, out: Path, n: int) -> None:
    """Fill bench.Result `res` with the sizes of the site at `out`, built from `n` notes."""
    res["site_bytes"] = dir_bytes(out, skip="pagefind")
    res["site_bytes_per_note"] = round(res["site_bytes"] / n)
    kinds = site_by_kind(out, n)
    res["site_by_kind"] = kinds
    res["site_files"] = sum(k["files"] for name, k in kinds.items() if name != "pagefind")
    res["site_files_per_note"] = round(res["site_files"] / n, 3)
    if (out / "pagefind").is_dir():
        res["pagefind_bytes"] = dir_bytes(out / "pagefind")
    else:
        res.null("pagefind_bytes", "no pagefind/ folder in the site")
    indexes = lunr_dirs(out)
    if indexes:
        res["search_data_bytes"] = sum(dir_bytes(d) for d in indexes)
        res["search_data_to_raw_ratio"] = round(res["search_data_bytes"] / res["raw_text_bytes"], 3)
    else:
        res.null("search_data_bytes", "the site holds no bf-lunr index (not emitted by the build yet)")
        res.null("search_data_to_raw_ratio", "no search data in the site")
