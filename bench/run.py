"""`scripts/bench`: build synthetic brains and print one JSON object per size (SPEC §11).

Every key is always present; a value that cannot be measured (a part not built yet) is
null and `null_reasons[key]` says why. Builds run in child processes so their peak RSS is
theirs alone (os.wait4 gives one child's rusage); the child times phases in process
from BuildReport.timings. Stock lunr.py runs over the same note-level documents (title,
aliases, headings, body with bf's boosts), next to bf's own index, as ratios
`ratio_stock_*_to_bf_*` = stock / bf: above 1 means bf is smaller or faster.
`load_avg_1m` is the machine's load when the size started: timings are only as quiet as the host.
`create_file_us` is what creating an empty file cost right before the full build (which creates
~41,000 at 10k notes): on an ext4 without a journal it grows 20-fold for minutes after many files
were deleted (docs/decisions.md, "Creating a file can cost 0.4 ms").
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import NamedTuple
from pathlib import Path

from . import CHILD, CHILD_ENV
from .base import child
from .childbuild import child_build
from .gen import NOW, SHAPES, Corpus, generate, queries
from .memory import PeakPss
from .mcptimes import mcp_times
from .mix import mix_report
from .rebuild import bench_rebuilds, watch_rebuilds
from .size import dir_bytes, site_sizes
from .phone import QUERIES, phone_report
from .view import first_view, search_download

PHASES = ("parse", "views", "render", "lunr", "assets", "pagefind", "swap")  # always reported; others too
MB = 1024  # ru_maxrss and time's %M are in KiB on Linux
TIME = "/usr/bin/time"


class Result(dict):
    """The size's JSON object; `null(key, why)` records a missing measurement."""

    def __init__(self):
        super().__init__(null_reasons={})

    def null(self, key: str, why: str) -> None:
        self[key] = None
        self["null_reasons"][key] = why

    def ratio(self, key: str, num: str, den: str) -> None:
        a, b = self.get(num), self.get(den)
        if a is None or not b:
            self.null(key, f"{num} / {den}: {self['null_reasons'].get(num) or self['null_reasons'].get(den) or 'zero'}")
        else:
            self[key] = round(a / b, 3)


class Ran(NamedTuple):
    wall: float            # seconds, with the extra exec of /usr/bin/time (~1 ms)
    code: int
    stdout: str
    rss_mb: float | None   # the command's own peak
    cpu_s: float | None    # user + system seconds of the command and its children
    pss_mb: float | None = None   # the peak of the sum of PSS over it and its descendants (bench/memory.py)


def _run(cmd: list[str], env: dict = CHILD_ENV, cwd: Path | None = None) -> Ran:
    """The command run to its end, started by /usr/bin/time (a small parent) where there is one:
    Linux starts a forked child's max RSS at its parent's RSS, and this process holds a whole
    corpus, so time reports the command's own peak (%M, KiB) and its CPU (%U %S): on a host
    others load too, the work done is steadier than the time it took."""
    with tempfile.TemporaryDirectory() as tmp:
        used = Path(tmp) / "used"
        wrap = [TIME, "-f", "%U %S %M", "-o", str(used)] if os.access(TIME, os.X_OK) else []
        start = time.perf_counter()
        proc = subprocess.Popen(wrap + cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        sampler = PeakPss(proc.pid)
        stdout, _ = proc.communicate()
        wall = time.perf_counter() - start
        pss = sampler.stop()
        lines = used.read_text().splitlines() if wrap and used.exists() else []
        last = lines[-1].split() if lines else []
        fits = len(last) == 3 and all(v.replace(".", "", 1).isdigit() for v in last)
        return Ran(wall, proc.returncode, stdout.decode("utf-8", "replace"),
                   int(last[2]) / MB if fits else None, float(last[0]) + float(last[1]) if fits else None, pss)


def _build(brain: Path, out: Path, pagefind: bool, now: str = NOW, checkout: Path | None = None) -> dict:
    """One build in a child process: by this checkout, or by the one at `checkout` (bench/base.py),
    with the CPU seconds it and its children took (`cpu_s`)."""
    start, env, cwd = child(checkout)
    cmd = start + ["--child-build", str(brain), str(out), "--child-now", now]
    ran = _run(cmd + ([] if pagefind else ["--no-pagefind"]), env, cwd)
    if ran.code != 0:
        raise RuntimeError(f"benchmark build failed (exit {ran.code}): {' '.join(cmd)}")
    return dict(json.loads(ran.stdout), cpu_s=ran.cpu_s, pss_mb=ran.pss_mb)


def _record_build(res: Result, tag: str, child: dict) -> None:
    timings = child["timings"]
    res[f"{tag}_s"] = round(child["seconds"], 3)
    for phase in PHASES + tuple(sorted(set(timings) - set(PHASES))):
        key = f"{tag}_phase_{phase}_s"
        if phase in timings:
            res[key] = round(timings[phase], 3)
        else:
            res.null(key, f"BuildReport.timings has no {phase!r} phase")
    res[f"{tag}_files_written"] = child["files"] - child["reused"]


def _latency(fn, items, reps: int) -> tuple[float, float, int]:
    """Warm p50/p95 in ms (one untimed pass, then `reps` timed passes) and how many items found nothing."""
    empty = sum(not fn(item) for item in items)
    times = []
    for _ in range(reps):
        for item in items:
            start = time.perf_counter()
            fn(item)
            times.append((time.perf_counter() - start) * 1000)
    return (*_percentiles(times), empty)


def _percentiles(times: list[float]) -> tuple[float, float]:
    """p50 and p95 of `times` (ms)."""
    times = sorted(times)
    return round(statistics.median(times), 3), round(times[min(len(times) - 1, int(len(times) * 0.95))], 3)


def _words(query: str) -> list[str]:
    return query.replace('"', " ").split()


def _note_docs(corpus: Corpus) -> list[dict]:
    return [{"ref": n["ref"], "title": n["title"], "aliases": " ".join(n["aliases"]),
             "headings": " ".join(n["headings"]), "body": n["body"]} for n in corpus.notes]


STOCK_KEYS = ("stock_lunr_build_s", "stock_lunr_bytes", "stock_lunr_p50_ms", "stock_lunr_p95_ms",
              "stock_lunr_empty_replies")


def _compare_indexes(res: Result, corpus: Corpus, qs, reps: int, work: Path) -> None:
    """Stock lunr.py next to bf's own index writer/reader, same docs and query words."""
    from builder.bm25 import FIELD_BOOSTS, IndexReader, write_index
    docs, texts = _note_docs(corpus), [_words(q) for _, q, _ in qs]
    try:
        import lunr   # lunr.py is a test dependency (the [test] extra), never a runtime one
    except ImportError:
        why = "lunr.py is not installed: pip install 'bf[test]' (or lunr==0.8.0) to measure stock lunr"
        _log(f"stock lunr.py skipped: {why}")
        for key in STOCK_KEYS:
            res.null(key, why)
    else:
        start = time.perf_counter()
        idx = lunr.lunr(ref="ref", documents=docs,   # note documents: no records' neighbour field
                        fields=[{"field_name": f, "boost": b} for f, b in FIELD_BOOSTS.items() if f != "neighbours"])
        res["stock_lunr_build_s"] = round(time.perf_counter() - start, 3)
        res["stock_lunr_bytes"] = len(json.dumps(idx.serialize(), separators=(",", ":")).encode("utf-8"))

        def stock(words):  # every word required first, then any (SPEC §5), in lunr's query syntax
            return idx.search(" ".join("+" + w for w in words)) or idx.search(" ".join(words))
        res["stock_lunr_p50_ms"], res["stock_lunr_p95_ms"], res["stock_lunr_empty_replies"] = _latency(
            stock, texts, reps)

    start = time.perf_counter()
    write_index(docs, work / "bf-index")
    res["bf_index_build_s"] = round(time.perf_counter() - start, 3)
    res["bf_index_bytes"] = dir_bytes(work / "bf-index")
    reader = IndexReader(work / "bf-index")
    res["bf_index_p50_ms"], res["bf_index_p95_ms"], res["bf_index_empty_replies"] = _latency(
        lambda words: reader.search(words, True) or reader.search(words, False), texts, reps)
    for key in ("build_s", "bytes", "p50_ms", "p95_ms"):
        res.ratio(f"ratio_stock_to_bf_index_{key}", f"stock_lunr_{key}", f"bf_index_{key}")


def _search_fn(site: Path):
    """In-process bf search over the built site, or the reason it is not available yet."""
    try:
        from builder.query import search as mod
        from builder.query.site import open_site
        site_obj = open_site(str(site))
        return lambda q: mod.search(site_obj, q[0], scope=q[1])["items"], None
    except Exception as exc:  # the module is written concurrently: any failure is a reason
        return None, f"builder.query.search unavailable: {type(exc).__name__}: {exc}"


def _search(res: Result, site: Path, qs, reps: int, read_ref: str) -> None:
    fn, why = _search_fn(site)
    if fn is not None:
        try:
            res["search_warm_p50_ms"], res["search_warm_p95_ms"], res["search_empty_replies"] = _latency(
                fn, [(q, s) for _, q, s in qs], reps)
        except Exception as exc:
            fn, why = None, f"bf search failed: {type(exc).__name__}: {exc}"
    if fn is None:
        for key in ("search_warm_p50_ms", "search_warm_p95_ms", "search_empty_replies"):
            res.null(key, why)
    try:
        times, res["mcp_search_empty_replies"] = mcp_times(site, [(q, s) for _, q, s in qs], reps)
        res["mcp_search_p50_ms"], res["mcp_search_p95_ms"] = _percentiles(times)
    except Exception as exc:   # an SDK or server failure is reported, as for bf search
        for key in ("mcp_search_p50_ms", "mcp_search_p95_ms", "mcp_search_empty_replies"):
            res.null(key, f"bf mcp failed: {type(exc).__name__}: {exc}")
    try:   # a fresh agent's session over the query mix (bench/mix.py), and a cold bf search
        res.update(mix_report(site))
    except Exception as exc:
        for key in ("mix_mcp_p50_ms", "mix_mcp_p95_ms", "cold_search_frequent_s"):
            res.null(key, f"query mix failed: {type(exc).__name__}: {exc}")
    for key in ("p50_ms", "p95_ms"):
        res.ratio(f"ratio_stock_to_bf_search_{key}", f"stock_lunr_{key}", f"search_warm_{key}")
    walls, rss, why = [], [], None
    for _, q, scope in qs[::5]:
        cmd = [sys.executable, "-m", "builder", "search", q, "--site", str(site)] + (["--scope", scope] if scope else [])
        ran = _run(cmd)
        if ran.code != 0:
            why = f"`bf search` exited {ran.code} (command not there yet, or failing)"
            break
        walls.append(ran.wall)
        rss.append(ran.rss_mb)
    if why:
        res.null("search_cold_process_s", why)
        res.null("query_peak_rss_mb", why)
    else:
        res["search_cold_process_s"] = round(statistics.median(walls), 3)
        _rss(res, "query_peak_rss_mb", max(rss, key=lambda v: v or 0))
    ran = _run([sys.executable, "-m", "builder", "read", read_ref, "--site", str(site)])
    if ran.code != 0:
        raise RuntimeError(f"bf read {read_ref} exited {ran.code}")
    res["read_cold_process_s"] = round(ran.wall, 3)
    _rss(res, "read_peak_rss_mb", ran.rss_mb)


PROBE_FILES = 1000


def _create_cost(work: Path) -> float:
    """Microseconds to create an empty file in `work`, over PROBE_FILES new files. They stay:
    deleting them would make the files created next cost more (see the module docstring)."""
    probe = work / "create-probe"
    probe.mkdir(exist_ok=True)
    first = len(os.listdir(probe))
    start = time.perf_counter()
    for i in range(first, first + PROBE_FILES):
        os.close(os.open(probe / str(i), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    return round((time.perf_counter() - start) / PROBE_FILES * 1e6, 1)


def _rss(res: Result, key: str, mb: float | None) -> None:
    if mb is None:
        res.null(key, f"{TIME} is not available to measure a process's own peak RSS")
    else:
        res[key] = round(mb, 1)


def bench_size(n: int, records_per_note: int, work: Path, *, pagefind: bool, reps: int,
               shape: str = "rich", base: Path | None = None, phone: tuple = QUERIES) -> Result:
    res = Result()
    brain, out = work / f"brain-{n}", work / f"site-{n}"
    for old in (brain, out, work / ".bf-cache"):   # a kept --workdir must not leak into this run
        shutil.rmtree(old, ignore_errors=True)
    start = time.perf_counter()
    corpus = generate(brain, n, records_per_note, shape=shape)
    res.update(notes=n, records=corpus.records, shape=shape, generate_s=round(time.perf_counter() - start, 3),
               cpus=os.cpu_count(), load_avg_1m=round(os.getloadavg()[0], 2),
               raw_note_bytes=corpus.note_bytes, raw_record_text_bytes=corpus.record_bytes,
               raw_text_bytes=corpus.note_bytes + corpus.record_bytes)
    res["create_file_us"] = _create_cost(work)
    _log(f"{n} notes: generated in {res['generate_s']} s; building")
    full = _build(brain, out, pagefind)
    _record_build(res, "build", full)
    res["build_notes_per_s"] = round(n / full["seconds"], 1)
    res["build_problems"] = full["problems"]
    res["build_peak_rss_mb"] = round(full["rss_mb"], 1)
    # RUSAGE_CHILDREN of the build: the largest of its children, pagefind's included
    res["build_children_peak_rss_mb"] = round(full["children_rss_mb"], 1)
    # what the machine sees: every process of the build together (pagefind's too), PSS summed
    if full["pss_mb"] is None:
        res.null("build_total_pss_peak_mb", "/proc/PID/smaps_rollup is not available")
    else:
        res["build_total_pss_peak_mb"] = round(full["pss_mb"], 1)
    site_sizes(res, out, n)
    res.update(first_view(out, corpus.notes[0]["ref"]))

    _log(f"{n} notes: built in {full['seconds']:.1f} s; rebuilding after a body edit, then as bf serve --watch does")
    again = bench_rebuilds(res, corpus, out, pagefind, _run)
    _record_build(res, "rebuild", again)

    qs = queries(corpus)
    res["queries"] = len(qs)
    _log(f"{n} notes: a body edit rebuilt in {again['seconds']:.1f} s (bf build); stock lunr.py and bf index")
    _compare_indexes(res, corpus, qs, reps, work)
    if res["stock_lunr_bytes"] is None:
        res.null("stock_lunr_bytes_to_raw_note_ratio", res["null_reasons"]["stock_lunr_bytes"])
    else:
        res["stock_lunr_bytes_to_raw_note_ratio"] = round(res["stock_lunr_bytes"] / corpus.note_bytes, 3)
    res["bf_index_bytes_to_raw_note_ratio"] = round(res["bf_index_bytes"] / corpus.note_bytes, 3)
    _log(f"{n} notes: searching")
    _search(res, out, qs, reps, corpus.notes[0]["ref"])
    res.update(search_download(out, [(q, s) for _, q, s in qs]))
    _log(f"{n} notes: searching on a slow phone (bench/phone.py)")
    _phone(res, out, phone)
    if base is not None:
        _base_builds(res, n, records_per_note, shape, work, pagefind, base)
    return res


def _phone(res: Result, site: Path, counts: tuple) -> None:
    got = phone_report(site, counts, _log)
    res["null_reasons"].update(got.pop("null_reasons", {}))
    res.update(got)


def _base_builds(res: Result, n: int, records_per_note: int, shape: str, work: Path, pagefind: bool,
                 base: Path) -> None:
    """The same brain, generated again (the rebuilds edited it), built and rebuilt by the checkout
    at `base`: `base_build_*` and `base_rebuild_*`, and `ratio_base_to_this_*` (above 1: this
    checkout is faster)."""
    brain, out = work / f"brain-{n}", work / f"site-{n}-base"
    for old in (brain, out, work / ".bf-cache"):
        shutil.rmtree(old, ignore_errors=True)
    corpus = generate(brain, n, records_per_note, shape=shape)
    _log(f"{n} notes: building and rebuilding by {base}")
    full = _build(brain, out, pagefind, checkout=base)
    _record_build(res, "base_build", full)
    res["base_build_peak_rss_mb"] = round(full["rss_mb"], 1)
    ours = {k: res[k] for k in res if k.startswith("rebuild_")}
    start, env, cwd = child(base)
    theirs = Result()
    cold = bench_rebuilds(theirs, corpus, out, pagefind, lambda cmd: _run(start + cmd[len(CHILD):], env, cwd))
    _record_build(theirs, "rebuild", cold)
    res.update({f"base_{k}": v for k, v in theirs.items() if k.startswith("rebuild_")})
    res.ratio("ratio_base_to_this_build_s", "base_build_s", "build_s")
    for key in sorted(k for k in ours if k.endswith("_s") and "phase" not in k):
        res.ratio(f"ratio_base_to_this_{key}", f"base_{key}", key)
    shutil.rmtree(out, ignore_errors=True)


def _log(msg: str) -> None:
    sys.stderr.write(f"bench: {msg}\n")
    sys.stderr.flush()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scripts/bench", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="the 1k size only")
    p.add_argument("--notes", type=int, action="append", help="a size to run (repeatable); default 1000 and 10000")
    p.add_argument("--records-per-note", type=int, default=5)
    p.add_argument("--shape", choices=sorted(SHAPES), default="rich",
                   help="the generated brain: rich (2-6 sections, 5 sources), issue (issue 14's: 1-4 sections, "
                        "2 sources, 50 authors) or linked (issue's, records linking notes, a task per section, "
                        "relations, 20k words)")
    p.add_argument("--reps", type=int, default=5, help="timed passes over the query set")
    p.add_argument("--no-pagefind", action="store_true")
    p.add_argument("--workdir", help="keep brains and sites here (default: a temporary folder, removed)")
    p.add_argument("--vault", type=Path, help="also build this real vault (a .tar.gz) per phase (bench/real.py)")
    p.add_argument("--vault-copies", type=int, action="append", metavar="N", default=[],
                   help="with --vault: also build the vault copied N times into folders c1..cN, "
                        "a real vault of N times the notes whose names N files share (repeatable)")
    p.add_argument("--lang", type=int, action="append", metavar="NOTES",
                   help="also build a long multilingual brain of NOTES notes per phase (repeatable; bench/lang.py)")
    p.add_argument("--base", type=Path, help="also build (and, for --notes, rebuild) by the checkout in this folder (its .venv), "
                        "for a same-run comparison (bench/base.py)")
    p.add_argument("--quality", action="store_true", help="search quality per arm (bench/quality.py), no timings")
    p.add_argument("--locomo", metavar="DIR", help="with --quality: also recall on the raw LoCoMo conversations in DIR "
                                                   "(bench/locomo.py)")
    p.add_argument("--phone-queries", type=int, nargs=3, metavar=("FREQUENT", "RARE", "THREE"), default=QUERIES,
                   help="how many of the query mix's frequent, rare and three-word queries the phone measurement "
                        "loads cold (bench/phone.py; default %(default)s)")
    p.add_argument("--phone", metavar="SITE", type=Path,
                   help="only the phone measurement (bench/phone.py), on the site already built in SITE "
                        "(a --workdir's site-N): one JSON object")
    p.add_argument("--lighthouse", metavar="SITE", type=Path,
                   help="only Lighthouse on one page of each kind of the site built in SITE, desktop and phone, "
                        "light and dark (bench/lighthouse.py; needs LIGHTHOUSE_DIR): one JSON object")
    p.add_argument("--lighthouse-runs", type=int, default=3, help="with --lighthouse: runs a figure is the median of")
    p.add_argument("--lighthouse-light", action="store_true", help="with --lighthouse: the light scheme only")
    p.add_argument("--titled", action="store_true", help="with --locomo: also the same chats with every record "
                                                         "titled \"SPEAKER, session N\"")
    p.add_argument("--child-build", nargs=2, metavar=("BRAIN", "OUT"), help=argparse.SUPPRESS)
    p.add_argument("--child-now", default=NOW, help=argparse.SUPPRESS)
    p.add_argument("--child-watch", nargs=2, metavar=("CORPUS", "OUT"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child_watch:
        watch_rebuilds(*args.child_watch, pagefind=not args.no_pagefind)
        return 0
    if args.child_build:
        child_build(*args.child_build, pagefind=not args.no_pagefind, now=args.child_now)
        return 0
    if args.locomo and not args.quality:
        p.error("--locomo goes with --quality")
    if args.vault_copies and not args.vault:
        p.error("--vault-copies goes with --vault")
    if args.phone:
        res = Result()
        res.update(site=str(args.phone))
        _phone(res, args.phone, tuple(args.phone_queries))
        print(json.dumps(res, sort_keys=True), flush=True)
        return 0
    if args.lighthouse:
        from .lighthouse import lighthouse_report
        schemes = ("light",) if args.lighthouse_light else ("light", "dark")
        print(json.dumps(lighthouse_report(args.lighthouse, schemes=schemes, runs=args.lighthouse_runs, log=_log),
                         sort_keys=True), flush=True)
        return 0
    if args.quality:
        from .quality import report
        print(json.dumps(report(locomo=args.locomo, titled=args.titled), sort_keys=True), flush=True)
        return 0
    extra = bool(args.vault or args.lang)
    sizes = args.notes or ([] if extra else [1000] if args.quick else [1000, 10000])
    work = Path(args.workdir) if args.workdir else Path(tempfile.mkdtemp(prefix="bf-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        if extra:
            from .real import bench_extra
            bench_extra(args, work, sys.modules[__name__])
        for n in sizes:
            res = bench_size(n, args.records_per_note, work, pagefind=not args.no_pagefind, reps=args.reps,
                             shape=args.shape, base=args.base, phone=tuple(args.phone_queries))
            print(json.dumps(res, sort_keys=True), flush=True)
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)
    return 0

