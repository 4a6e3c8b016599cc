"""Rebuild times after the edits a person makes while writing (issue 15), for bench.py.

After the full build, the benchmark brain is edited five times in a row, each followed by a
rebuild over the site just built (its caches beside it, as `bf build` and `bf serve --watch`
use them): a body edit, a title edit of the note that HUB_LINKERS notes link to (benchgen), a
new record, a deleted note, and the build instant moved by one day. Each reports
`rebuild_<edit>_s` (the whole rebuild), `rebuild_<edit>_without_pagefind_s` (minus its pagefind
phase) and `rebuild_<edit>_files_written` (files not reused from the previous site). The body
edit's rebuild also fills the older `rebuild_*` keys.
"""
from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

from .benchgen import NOW, Corpus
from .kernel.times import parse_instant, rfc3339

EDITS = ("body_edit", "title_edit", "new_record", "deleted_note", "now_plus_1d")


def _body_edit(corpus: Corpus) -> None:
    with (corpus.root / corpus.notes[len(corpus.notes) // 2]["ref"]).open("a", encoding="utf-8") as fh:
        fh.write("\nAn edit for the rebuild benchmark.\n")


def _title_edit(corpus: Corpus) -> None:
    """notes[0] is the hub: its new title breaks every link made by its old title."""
    path = corpus.root / corpus.notes[0]["ref"]
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^title: .*$", "title: Renamed for the rebuild benchmark", text, count=1, flags=re.M),
                    encoding="utf-8")


def _new_record(corpus: Corpus) -> None:
    record = {"text": f"A new record naming [[{corpus.notes[1]['title']}]].", "time": NOW,
              "author": f"person:{corpus.people[0]}", "attributes": {"observed": NOW}}
    (corpus.root / "memories" / "chat" / "bench-new-record.json").write_text(json.dumps(record), encoding="utf-8")


def _deleted_note(corpus: Corpus) -> None:
    (corpus.root / corpus.notes[-1]["ref"]).unlink()


def bench_rebuilds(res, corpus: Corpus, out: Path, pagefind: bool, build) -> dict:
    """Fill `res` with each edit's rebuild figures; `build(brain, out, pagefind, now)` runs one
    build in a child process (bench._build). Returns the body edit's child report."""
    edit = {"body_edit": _body_edit, "title_edit": _title_edit, "new_record": _new_record,
            "deleted_note": _deleted_note}
    later = rfc3339(parse_instant(NOW) + timedelta(days=1))
    res["rebuild_title_edit_backlinks"] = corpus.hub_backlinks
    first = None
    for name in EDITS:
        if name in edit:
            edit[name](corpus)
        child = build(corpus.root, out, pagefind, later if name == "now_plus_1d" else NOW)
        first = first or child
        res[f"rebuild_{name}_s"] = round(child["seconds"], 3)
        res[f"rebuild_{name}_without_pagefind_s"] = round(child["seconds"] - child["timings"].get("pagefind", 0.0), 3)
        res[f"rebuild_{name}_files_written"] = child["files"] - child["reused"]
    return first
