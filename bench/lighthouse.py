"""Lighthouse on every page kind of a built site, for `scripts/bench --lighthouse SITE` and
scripts/lighthouse.py: each page served by `bf serve`, Lighthouse 12.2.3's desktop preset and its
phone (its defaults: a Moto G4's screen, 4× CPU, 1.6 Mbit/s, simulated), light and dark (the
dark scheme emulated: SCHEME_FLAG), the median of RUNS runs (3) per page, form and scheme. Needs Node, Lighthouse (`npm i -E lighthouse@12.2.3` in
LIGHTHOUSE_DIR) and Chromium (CHROME_PATH, /usr/bin/chromium). The scores other than
performance are checked by tests/browser/test_lighthouse.py; timings are reported here only.
"""
from __future__ import annotations

import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import MappingProxyType

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
FORMS = ("desktop", "mobile")
VERSION = "12.2.3"
# Blink's preferred colour scheme: 0 dark, 1 light. Lighthouse has no setting of its own for it;
# the flag is what `prefers-color-scheme: dark` matches in the page (its final screenshot is dark).
SCHEME_FLAG = MappingProxyType({"light": "", "dark": " --blink-settings=preferredColorScheme=0"})
SCHEMES = ("light", "dark")
_REF = re.compile(r'<meta name="bf-ref" content="([^"]*)"')
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_PERIOD = re.compile(r"\d{4}-\d{2}")
_LISTING = re.compile(r'<section class="listing page-([a-z]+)')


def lighthouse_cli() -> Path:
    return Path(os.environ.get("LIGHTHOUSE_DIR", "."), "node_modules/lighthouse/cli/index.js")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def page_kinds(site: Path, query: str = "the") -> dict[str, str]:
    """One page of each kind docs/site.md#pages lists, by the ref its HTML names: the site's own
    pages, and of its first brain a note (its longest page), a note with a diagram, with maths, in a
    right-to-left script and in Chinese, Japanese or Korean when it has one, a folder, a tag, an
    identity, a source, a source's day of records, a day and a month."""
    kinds = {"home": "index.html", "graph": "graph.html", "search": f"search.html?q={query}",
             "404": "404.html"}
    brain = next(p.parent for p in sorted(site.glob("*/home.html")))
    notes: list[tuple[int, str, str]] = []
    for path in sorted(brain.rglob("*.html")):
        html = path.read_text(encoding="utf-8", errors="replace")
        found = _REF.search(html)
        if not found:
            continue
        ref, rel = found.group(1), path.relative_to(site).as_posix()
        if ref.endswith(".md"):
            notes.append((len(html), rel, html))
            continue
        listing = _LISTING.search(html)
        listing = listing.group(1) if listing else ""
        kind = ("records of a day" if ref.startswith("memories/") and _DAY.search(ref)
                else "day" if _DAY.fullmatch(ref) else "period" if _PERIOD.fullmatch(ref)
                else listing if listing in ("folder", "tag", "identity", "source") else None)
        if kind:
            kinds.setdefault(kind, rel)
    if notes:
        kinds["note"] = max(notes)[1]
    for kind, mark in (("note with a diagram", '<pre class="mermaid"'), ("note with maths", 'class="math '),
                       ("right-to-left note", re.compile(r'<html lang="(ar|he|fa|ur)')),
                       ("CJK note", re.compile(r'<html lang="(zh|ja|ko)'))):
        hit = next((rel for _, rel, html in sorted(notes) if (mark.search(html) if isinstance(mark, re.Pattern) else mark in html)), None)
        if hit and hit not in kinds.values():
            kinds[kind] = hit
    return kinds


def one_run(url: str, form: str, scheme: str, categories=CATEGORIES) -> dict:
    """One Lighthouse run: each category's score (0–100) and, with performance, CLS, LCP and TBT."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp, "report.json")
        command = ["node", str(lighthouse_cli()), url, "--quiet", "--output=json", f"--output-path={report}",
                   "--only-categories=" + ",".join(categories),
                   "--chrome-flags=--headless=new --no-sandbox" + SCHEME_FLAG[scheme]]
        if form == "desktop":
            command.append("--preset=desktop")
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium")))
        found = json.loads(report.read_text())
    out = {c: round((found["categories"][c]["score"] or 0) * 100) for c in categories}
    if "performance" in categories:
        audits = found["audits"]
        out |= {"cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
                "lcp_s": round(audits["largest-contentful-paint"]["numericValue"] / 1000, 1),
                "tbt_ms": round(audits["total-blocking-time"]["numericValue"])}
    failed = [a["id"] for a in found["audits"].values() if a.get("score") is not None and a["score"] < 1
              and a.get("scoreDisplayMode") == "binary"]
    out["failed"] = failed
    return out


def serve(site: Path):
    """`bf serve` on a free port: (the process, its base URL)."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "builder", "serve", "--out", str(site), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return server, f"http://127.0.0.1:{port}/"


def median_run(url: str, form: str, scheme: str, runs: int, categories=CATEGORIES) -> dict:
    """Each figure the median of RUNS runs, and each run's performance score (`performance_runs`):
    on a shared host one run's score says more of the host than of the page."""
    got = [one_run(url, form, scheme, categories) for _ in range(runs)]
    out = {k: statistics.median(r[k] for r in got) for k in got[0] if k != "failed"}
    if "performance" in categories:
        out["performance_runs"] = [r["performance"] for r in got]
    out["failed"] = sorted({a for r in got for a in r["failed"]})
    return out


def lighthouse_report(site: Path, pages: dict[str, str] | None = None, forms=FORMS, schemes=SCHEMES,
                      runs: int = 3, log=lambda msg: None) -> dict:
    """{kind: {"PATH": path, "FORM SCHEME": figures}} for every page kind (page_kinds) of SITE."""
    pages = pages or page_kinds(site)
    server, base = serve(site)
    try:
        out: dict[str, dict] = {}
        for kind, path in pages.items():
            out[kind] = {"path": path}
            for form in forms:
                for scheme in schemes:
                    log(f"lighthouse: {kind} ({path}), {form}, {scheme}")
                    out[kind][f"{form} {scheme}"] = median_run(base + path, form, scheme, runs)
        return out
    finally:
        server.terminate()
        server.wait()


def table(report: dict) -> str:
    """The report as a Markdown table: perf / a11y / best practices / SEO, CLS, per form."""
    columns = sorted({k for row in report.values() for k in row if k != "path"})
    lines = ["| page | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
    for kind, row in report.items():
        cells = []
        for c in columns:
            r = row.get(c)
            cells.append("—" if r is None else " / ".join(str(round(r[k])) for k in CATEGORIES if k in r)
                         + (f", CLS {r['cls']}" if "cls" in r else ""))
        lines.append(f"| {kind} (`{row['path']}`) | " + " | ".join(cells) + " |")
    return "\n".join(lines)
