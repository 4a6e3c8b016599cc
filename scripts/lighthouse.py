"""Lighthouse scores of a built site, as docs/decisions.md reports them: each page served by
`bf serve`, desktop preset, the median of RUNS runs per category. Needs Node and Lighthouse
(`npm i -E lighthouse@12.2.3` in LIGHTHOUSE_DIR) and Chromium (CHROME_PATH, /usr/bin/chromium).

    python scripts/lighthouse.py SITE PAGE [PAGE…]    # PAGE: a site path, e.g. index.html
"""
from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 3
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def scores(cli: Path, url: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp, "report.json")
        subprocess.run(["node", str(cli), url, "--preset=desktop", "--quiet", "--output=json",
                        f"--output-path={report}", "--chrome-flags=--headless=new --no-sandbox"],
                       check=True, env=dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium")))
        found = json.loads(report.read_text())["categories"]
    return {c: round(found[c]["score"] * 100) for c in CATEGORIES}


def main(site: str, pages: list[str]) -> dict:
    cli = Path(os.environ.get("LIGHTHOUSE_DIR", "."), "node_modules/lighthouse/cli/index.js")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "builder", "serve", "--out", site, "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.5)
        out = {}
        for page in pages:
            runs = [scores(cli, f"http://127.0.0.1:{port}/{page}") for _ in range(RUNS)]
            out[page] = {c: statistics.median(r[c] for r in runs) for c in CATEGORIES}
        return out
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2:]), indent=1))
