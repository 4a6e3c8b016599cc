"""The example brain as browser tests open it (the `example_site` fixture in tests/browser/conftest.py)."""
from __future__ import annotations

from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"
EXAMPLE_NOW = "2026-12-02T12:00:00Z"


def opened(page, url: str):
    """`page` at `url` once bf.js has run (window.bf is set)."""
    page.goto(url)
    page.wait_for_function("window.bf !== undefined")
    return page


def page_of(site: Path, ref: str, brain: str = "brain") -> str:
    """The site path of `ref`'s page in a built site, as bf.js finds it: the readable path, or the
    one the manifest's `moved` gives a ref that lost a collision."""
    import json
    from builder.kernel.pageurls import page_file
    entry = next(b for b in json.loads((site / "_bf" / "manifest.json").read_bytes())["brains"] if b["name"] == brain)
    return page_file(brain, ref, entry.get("moved"))


def served_brain(root: Path, notes: dict[str, str], now: str):
    """A brain of `notes` (path → text) written under `root`, built without pagefind at `now` and
    served: a generator of its base URL, for a module fixture to yield from."""
    from builder.build import build
    from httpserver import StaticServer
    for rel, text in notes.items():
        (root / "brain" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "brain" / rel).write_text(text, encoding="utf-8")
    build([root / "brain"], root / "site", now=now, pagefind=False)
    server = StaticServer(root / "site", "/")
    try:
        yield server.base_url
    finally:
        server.close()
