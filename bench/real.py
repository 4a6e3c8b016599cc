"""Full builds of brains the benchmark's shapes are not, for `scripts/bench`: a real
vault (`--vault TARBALL`: its `en/` folder, or its one top folder, is the brain; nothing is
downloaded) and the long multilingual brain of bench/lang.py (`--lang N`), each timed per phase,
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

from .gen import NOW, generate, queries
from .lang import generate_lang


SHORT = 10.0   # seconds: a build shorter than this is made REPEATS times by each checkout
REPEATS = 3


def median_run(runs: list[dict]) -> dict:
    """The run of median time (the lower middle of an even count)."""
    return sorted(runs, key=lambda run: run["seconds"])[(len(runs) - 1) // 2]


class RealBench:
    """One run's builds. `bench`: the module bench.run (passed in, as it imports this one),
    whose Result, child builds and index comparison these builds share."""

    def __init__(self, bench, work: Path, pagefind: bool, base: Path | None, reps: int):
        self.bench, self.work, self.pagefind, self.base = bench, work, pagefind, base
        self.built = 0   # builds so far: each writes a folder of its own (_builds)
        self.clean()    # a kept --workdir's last run
        self.ref = self.reference(reps)

    def spent(self) -> Path:
        """Where the brains and sites of this run are left until its end (clean())."""
        return self.work / "real"

    def clean(self) -> None:
        shutil.rmtree(self.spent(), ignore_errors=True)

    def reference(self, reps: int) -> dict:
        """Stock lunr.py's search p50 (and bf's index p50) over the 1k-note `rich` brain."""
        res = self.bench.Result()
        corpus = generate(self.spent() / "reference-brain", 1000, 0)
        self.bench._compare_indexes(res, corpus, queries(corpus), reps, self.work)
        return {"stock_lunr_p50_ms": res["stock_lunr_p50_ms"], "bf_index_p50_ms": res["bf_index_p50_ms"]}

    def _builds(self, res, brain: Path) -> None:
        """This checkout's build of `brain` (keys build_*), then the base's (base_build_*) and the
        ratio. A short build (under SHORT seconds) is made REPEATS times by each, alternating, and
        each side's median run is the one recorded (all times in `*_runs_s`): such a build swings
        by a quarter between identical runs on a host whose file creation slows after deletions.
        Each build writes a site (and parse cache) of its own, deleted only at the run's end: on
        such a host a build just after another's site was deleted pays for that deletion."""
        def build(checkout: Path | None) -> dict:
            self.built += 1
            out = self.spent() / f"build-{self.built}" / "site"
            return self.bench._build(brain, out, self.pagefind, NOW, checkout)
        runs = (("build", lambda: build(None)), ("base_build", lambda: build(self.base) if self.base else None))
        made: dict[str, list] = {tag: [] for tag, _ in runs}
        for _ in range(REPEATS):
            for tag, run in runs:
                child = run()
                if child is not None:
                    made[tag].append(child)
            if made["build"][0]["seconds"] >= SHORT:
                break
        for tag, _ in runs:
            if not made[tag]:
                res.null(f"{tag}_s", "no --base checkout given")
                continue
            child = median_run(made[tag])
            if len(made[tag]) > 1:
                res[f"{tag}_runs_s"] = [round(c["seconds"], 3) for c in made[tag]]
            self.bench._record_build(res, tag, child)
            res[f"{tag}_problems"] = child["problems"]
            res[f"{tag}_peak_rss_mb"] = round(child["rss_mb"], 1)
            if "children_rss_mb" in child:
                res[f"{tag}_children_peak_rss_mb"] = round(child["children_rss_mb"], 1)
            else:
                res.null(f"{tag}_children_peak_rss_mb", "that checkout's benchmark reports no children's peak")
            if child["cpu_s"] is None:
                res.null(f"{tag}_cpu_s", f"no {self.bench.TIME} to count CPU seconds")
            else:
                res[f"{tag}_cpu_s"] = round(child["cpu_s"], 1)
        if self.base:
            res.ratio("speedup_vs_base", "base_build_s", "build_s")
            res.ratio("cpu_ratio_base_to_this", "base_build_cpu_s", "build_cpu_s")

    def vault(self, tarball: Path, copies: int = 1):
        """The vault in `tarball` (its `en/` folder, or its one top folder), or that folder copied
        `copies` times into c1..cN of one brain: a real vault's text at the size of a large one,
        whose note names N files share, as a grown vault's do (a link then resolves to the nearest)."""
        res = self.bench.Result()
        res.update(brain="vault", vault=tarball.name, copies=copies, **self.ref)
        root = self.spent() / "vault"
        if not root.is_dir():   # extracted once a run, whatever the copies
            with tarfile.open(tarball) as tar:
                tar.extractall(root, filter="data")
        brain = root / "en" if (root / "en").is_dir() else next(p for p in root.iterdir() if p.is_dir())
        if copies > 1:
            for k in range(1, copies + 1):
                shutil.copytree(brain, self.spent() / f"vault-x{copies}" / f"c{k}")
            brain = self.spent() / f"vault-x{copies}"
        notes = list(brain.rglob("*.md"))
        res.update(notes=len(notes), raw_note_bytes=sum(p.stat().st_size for p in notes))
        self.bench._log(f"vault {tarball.name} x{copies}: {len(notes)} notes; building")
        self._builds(res, brain)
        return res

    def lang(self, sizes: list[int]) -> list:
        """One object per size, then (for two sizes or more) how each phase grew from the smallest
        to the largest: `growth_phase_*` = its time at the largest / at the smallest size."""
        out = []
        for n in sorted(sizes):
            res = self.bench.Result()
            brain = self.spent() / f"lang-{n}"
            res.update(brain="lang", **self.ref, **generate_lang(brain, n))
            self.bench._log(f"multilingual brain, {n} notes: building")
            self._builds(res, brain)
            out.append(res)
        if len(out) > 1:
            small, large = out[0], out[-1]
            growth = self.bench.Result()
            growth.update(brain="lang-growth", notes=[small["notes"], large["notes"]])
            for key in sorted(k for k in large if k.startswith("build_phase_") or k in ("build_s", "build_cpu_s")):
                if small.get(key) and large.get(key) is not None:
                    growth[key.replace("build_", "growth_", 1)] = round(large[key] / small[key], 3)
            out.append(growth)
        return out


def bench_extra(args, work: Path, bench) -> None:
    """bench/run.py's --lang and --vault (`bench`: that module): print one JSON object per build."""
    real = RealBench(bench, work, not args.no_pagefind, args.base, args.reps)
    try:
        results = real.lang(args.lang or [])
        if args.vault:
            results += [real.vault(args.vault, copies) for copies in [1, *args.vault_copies]]
    finally:
        real.clean()
    for res in results:
        print(json.dumps(res, sort_keys=True), flush=True)
