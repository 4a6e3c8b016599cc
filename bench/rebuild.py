"""Rebuild times after the edits a person makes while writing (issue 15), for bench/run.py.

After the full build, the benchmark brain is edited seven times in a row, each followed by a
rebuild over the site just built (its caches beside it, as `bf build` and `bf serve --watch`
use them, and the paths each edit touched, as the watcher's events name them): a body edit twice, a title edit of the note that HUB_LINKERS notes link to (bench/gen.py), a
new record, a deleted note, the build instant moved by one day, and a body edit with the instant
moved by 10 s (`body_edit_later`: bf serve --watch builds at the current time). Each reports
`rebuild_<edit>_s` (the whole rebuild), `rebuild_<edit>_without_pagefind_s` (minus its pagefind
phase) and `rebuild_<edit>_files_written` (files not reused from the previous site). The
rebuilds run in one process that keeps a BuildState, as `bf serve --watch` does; its first build,
after a body edit and with nothing kept, is `bf build`'s rebuild: `rebuild_body_edit_cold_*` (and
the older `rebuild_*`).
"""
from __future__ import annotations

import json
import re
import sys
import time
from datetime import timedelta
from pathlib import Path

from builder.kernel.times import parse_instant, rfc3339

from . import CHILD
from .gen import NOW, Corpus

EDITS = ("body_edit", "title_edit", "new_record", "deleted_note", "now_plus_1d", "body_edit_later")


def _body_edit(corpus: Corpus) -> set[Path]:
    path = corpus.root / corpus.notes[len(corpus.notes) // 2]["ref"]
    with path.open("a", encoding="utf-8") as fh:
        fh.write("\nAn edit for the rebuild benchmark.\n")
    return {path}


def _title_edit(corpus: Corpus) -> set[Path]:
    """notes[0] is the hub: its new title breaks every link made by its old title."""
    path = corpus.root / corpus.notes[0]["ref"]
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"^title: .*$", "title: Renamed for the rebuild benchmark", text, count=1, flags=re.M),
                    encoding="utf-8")
    return {path}


def _new_record(corpus: Corpus) -> set[Path]:
    record = {"text": f"A new record naming [[{corpus.notes[1]['title']}]].", "time": NOW,
              "author": f"person:{corpus.people[0]}", "attributes": {"observed": NOW}}
    path = corpus.root / "memories" / "chat" / "bench-new-record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return {path}


def _deleted_note(corpus: Corpus) -> set[Path]:
    path = corpus.root / corpus.notes[-1]["ref"]
    path.unlink()
    return {path}


def _report(report, seconds: float) -> dict:
    return {"seconds": seconds, "timings": report.timings, "files": report.files, "reused": report.reused}


def watch_rebuilds(corpus_file: str, out: str, pagefind: bool) -> None:
    """Runs in a child process, as `bf serve --watch` does: a first build over the site with a
    fresh BuildState (emit/state.py), then each of EDITS and its rebuild in this one process.
    The first build follows a body edit: with nothing kept yet it is what `bf build` does.
    Prints a JSON list of build reports: the first build's, then one per edit."""
    from builder.build import build
    from builder.emit.state import BuildState
    from builder.watch import prepare_rebuilds
    saved = json.loads(Path(corpus_file).read_text(encoding="utf-8"))
    corpus = Corpus(root=Path(saved["root"]), vocab=[], notes=saved["notes"], people=saved["people"])
    state, reports = BuildState(), []
    instant = {"now_plus_1d": parse_instant(NOW) + timedelta(days=1),
               "body_edit_later": parse_instant(NOW) + timedelta(days=1, seconds=10)}
    for name in ("body_edit_cold",) + EDITS:
        changed = _EDIT[name](corpus) if name in _EDIT else set()   # the paths a watcher's events name
        start = time.perf_counter()
        report = build([corpus.root], Path(out), now=rfc3339(instant[name]) if name in instant else NOW,
                       pagefind=pagefind, state=state, changed=changed)
        reports.append(_report(report, time.perf_counter() - start))
        state.settle()    # as bf serve --watch does once the page is told to reload
        if name == "body_edit_cold":
            prepare_rebuilds(Path(out), state)   # as bf serve --watch does after its first build
    json.dump(reports, sys.stdout)


_EDIT = {"body_edit_cold": _body_edit, "body_edit": _body_edit, "title_edit": _title_edit, "new_record": _new_record,
         "deleted_note": _deleted_note, "body_edit_later": _body_edit}


def _watch(run, corpus_file: Path, out: Path, pagefind: bool) -> list[dict]:
    """watch_rebuilds in a child process (started by `run`: bench._run): its reports."""
    cmd = CHILD + ["--child-watch", str(corpus_file), str(out)]
    ran = run(cmd + ([] if pagefind else ["--no-pagefind"]))
    if ran.code != 0:
        raise RuntimeError(f"benchmark rebuilds failed (exit {ran.code}): {' '.join(cmd)}")
    return json.loads(ran.stdout)


def bench_rebuilds(res, corpus: Corpus, out: Path, pagefind: bool, run) -> dict:
    """Fill `res` with each edit's rebuild figures, from a child process (`run(cmd)`: bench._run)
    that keeps one BuildState across its builds, as `bf serve --watch` does (watch_rebuilds): its
    first build, after a body edit and with nothing kept yet, is what `bf build` does
    (`rebuild_body_edit_cold_*`, and the older `rebuild_*`); then each of EDITS: `rebuild_<edit>_*`.
    Returns the first build's report."""
    corpus_file = out.parent / "bench-corpus.json"
    corpus_file.write_text(json.dumps({"root": str(corpus.root), "notes": [{"ref": n["ref"], "title": n["title"]}
                                                                         for n in corpus.notes],
                                       "people": corpus.people}), encoding="utf-8")
    reports = _watch(run, corpus_file, out, pagefind)
    for name, child in zip(("body_edit_cold",) + EDITS, reports):
        _figures(res, name, child)
    res["rebuild_without_pagefind_s"] = res["rebuild_body_edit_cold_without_pagefind_s"]
    res["rebuild_title_edit_backlinks"] = corpus.hub_backlinks
    return reports[0]


def _figures(res, name: str, child: dict) -> None:
    res[f"rebuild_{name}_s"] = round(child["seconds"], 3)
    res[f"rebuild_{name}_without_pagefind_s"] = round(child["seconds"] - child["timings"].get("pagefind", 0.0), 3)
    res[f"rebuild_{name}_files_written"] = child["files"] - child["reused"]
