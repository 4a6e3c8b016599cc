"""One benchmark build in a child process: its timings and peak RSS as JSON on stdout. A file
any checkout's python can run (bench/base.py): it imports nothing of bench/, only
`builder.build.build`, whose signature has not changed, so `--base` compares with commits whose
own benchmark predates `--child-build`."""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

MB = 1024  # ru_maxrss is in KiB on Linux


def child_build(brain: str, out: str, pagefind: bool, now: str) -> None:
    """One build, its timings, its own peak RSS and the largest of its children's (the index side,
    the compact data, the workers, pagefind) on stdout."""
    from builder.build import build
    start = time.perf_counter()
    report = build([Path(brain)], Path(out), now=now, pagefind=pagefind)
    json.dump({"seconds": time.perf_counter() - start, "timings": report.timings, "files": report.files,
               "reused": report.reused, "problems": len(report.problems),
               "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / MB,
               "children_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / MB}, sys.stdout)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="bench/childbuild.py", description=__doc__.splitlines()[0])
    p.add_argument("--child-build", nargs=2, metavar=("BRAIN", "OUT"), required=True)
    p.add_argument("--child-now", required=True)
    p.add_argument("--no-pagefind", action="store_true")
    args = p.parse_args(argv)
    child_build(*args.child_build, pagefind=not args.no_pagefind, now=args.child_now)


if __name__ == "__main__":
    main()
