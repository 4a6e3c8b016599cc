"""Full builds of brains the benchmark's shapes are not, for `python -m builder.bench`: a real
vault (`--vault TARBALL`: its `en/` folder, or its one top folder, is the brain; nothing is
downloaded) and the long multilingual brain of benchlang.py (`--lang N`), each timed per phase,
and the same build by another checkout (`--base DIR`: a worktree of an earlier commit with its
own `.venv`) in the same run, so two commits compare on one machine at one time. Each object
carries stock lunr's p50 over the 1k-note `rich` brain (`stock_lunr_p50_ms`), the machine's
reference: figures compare across machines and days only against it.
"""
from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

from .bench import Result, _build, _compare_indexes, _log, _record_build, _run
from .benchgen import NOW, generate, queries
from .benchlang import generate_lang


def reference(work: Path, reps: int = 5) -> dict:
    """Stock lunr.py's search p50 (and the rest of bench's index comparison) at 1k rich notes."""
    res = Result()
    corpus = generate(work / "reference-brain", 1000, 0)
    _compare_indexes(res, corpus, queries(corpus), reps, work)
    shutil.rmtree(work / "reference-brain", ignore_errors=True)
    return {"stock_lunr_p50_ms": res["stock_lunr_p50_ms"], "bf_index_p50_ms": res["bf_index_p50_ms"]}


def _base_build(base: Path, brain: Path, out: Path, pagefind: bool) -> dict:
    """One build by the checkout at `base` (its .venv's python, its own modules: run from there)."""
    python = base / ".venv" / "bin" / "python"
    cmd = ["env", "-C", str(base), str(python), "-m", "builder.bench", "--child-build", str(brain), str(out),
           "--child-now", NOW] + ([] if pagefind else ["--no-pagefind"])
    wall, code, stdout, _ = _run(cmd)
    if code != 0:
        raise RuntimeError(f"base build failed (exit {code}): {' '.join(cmd)}")
    return json.loads(stdout)


def _builds(res: Result, brain: Path, work: Path, pagefind: bool, base: Path | None) -> None:
    """This checkout's build of `brain` (keys build_*), then the base's (base_build_*) and the ratios."""
    out = work / "site-real"
    for tag, run in (("build", lambda: _build(brain, out, pagefind)),
                     ("base_build", lambda: _base_build(base, brain, out, pagefind) if base else None)):
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(work / ".bf-cache", ignore_errors=True)
        child = run()
        if child is None:
            res.null(f"{tag}_s", "no --base checkout given")
            continue
        _record_build(res, tag, child)
        res[f"{tag}_problems"] = child["problems"]
        res[f"{tag}_peak_rss_mb"] = round(child["rss_mb"], 1)
    shutil.rmtree(out, ignore_errors=True)
    if base:
        res.ratio("speedup_vs_base", "base_build_s", "build_s")


def bench_vault(tarball: Path, work: Path, *, pagefind: bool, base: Path | None, ref: dict) -> Result:
    res = Result()
    res.update(brain="vault", vault=tarball.name, **ref)
    root = work / "vault"
    shutil.rmtree(root, ignore_errors=True)
    with tarfile.open(tarball) as tar:
        tar.extractall(root, filter="data")
    tops = [p for p in root.iterdir() if p.is_dir()]
    brain = root / "en" if (root / "en").is_dir() else tops[0]
    notes = list(brain.rglob("*.md"))
    res.update(notes=len(notes), raw_note_bytes=sum(p.stat().st_size for p in notes))
    _log(f"vault {tarball.name}: {len(notes)} notes; building")
    _builds(res, brain, work, pagefind, base)
    return res


def bench_lang(sizes: list[int], work: Path, *, pagefind: bool, base: Path | None, ref: dict) -> list[Result]:
    """One object per size, then (for two sizes or more) how each phase grew from the smallest to
    the largest: `growth_phase_*` = its time at the largest / at the smallest size."""
    out = []
    for n in sorted(sizes):
        res = Result()
        brain = work / f"lang-{n}"
        shutil.rmtree(brain, ignore_errors=True)
        res.update(brain="lang", **ref, **generate_lang(brain, n))
        _log(f"multilingual brain, {n} notes: building")
        _builds(res, brain, work, pagefind, base)
        shutil.rmtree(brain, ignore_errors=True)
        out.append(res)
    if len(out) > 1:
        small, large = out[0], out[-1]
        growth = Result()
        growth.update(brain="lang-growth", notes=[small["notes"], large["notes"]])
        for key in sorted(k for k in large if k.startswith("build_phase_") or k == "build_s"):
            if small.get(key) and large.get(key) is not None:
                growth[key.replace("build_", "growth_", 1)] = round(large[key] / small[key], 3)
        out.append(growth)
    return out


def bench_extra(args, work: Path) -> None:
    """bench.py's --lang and --vault: print one JSON object per build."""
    ref, pagefind = reference(work, args.reps), not args.no_pagefind
    results = bench_lang(args.lang or [], work, pagefind=pagefind, base=args.base, ref=ref)
    if args.vault:
        results.append(bench_vault(args.vault, work, pagefind=pagefind, base=args.base, ref=ref))
    for res in results:
        print(json.dumps(res, sort_keys=True), flush=True)
