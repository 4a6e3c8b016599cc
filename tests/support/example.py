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
