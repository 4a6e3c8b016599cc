"""One build of the example brain per test process, shared by the search tests (pinned --now)."""
from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from builder.build import build
from builder.query.site import open_site

ROOT = Path(__file__).resolve().parents[2]
NOW = "2026-12-02T12:00:00Z"


@functools.lru_cache(maxsize=None)
def site_dir() -> Path:
    tmp = Path(tempfile.mkdtemp(prefix="bf-search-"))
    atexit.register(shutil.rmtree, tmp, True)
    out = tmp / "site"
    # the lexical arm's rules are tested alone; hybrid search: tests/bm25/test_hybrid_parity.py
    build([ROOT / "examples" / "brain"], out, now=NOW, pagefind=False, embeddings=False)
    return out


def site():
    return open_site(site_dir())
