"""Lighthouse scores of a built site, as docs/decisions.md reports them (bench/lighthouse.py): each
page served by `bf serve`, light and dark, the median of 3 runs. Needs Node, Lighthouse (`npm i -E
lighthouse@12.2.3` in LIGHTHOUSE_DIR) and Chromium (CHROME_PATH, /usr/bin/chromium).

    python scripts/lighthouse.py SITE [PAGE…] [--mobile] [--light] [--runs N]
        # PAGE: a site path, e.g. index.html; none: one page of each kind (bench/lighthouse.page_kinds)
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.lighthouse import lighthouse_report, page_kinds, table  # noqa: E402

if __name__ == "__main__":
    p = argparse.ArgumentParser(prog="scripts/lighthouse.py")
    p.add_argument("site", type=Path)
    p.add_argument("pages", nargs="*")
    p.add_argument("--mobile", action="store_true", help="Lighthouse's phone as well as its desktop preset")
    p.add_argument("--light", action="store_true", help="the light colour scheme only, not the dark one too")
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    pages = {page: page for page in a.pages} or page_kinds(a.site)
    report = lighthouse_report(a.site, pages, ("desktop", "mobile") if a.mobile else ("desktop",),
                               ("light",) if a.light else ("light", "dark"), a.runs,
                               lambda msg: print(msg, file=sys.stderr, flush=True))
    print(json.dumps(report, indent=1))
    print(table(report), file=sys.stderr)
