"""Fixtures of tests/views: `views_site` (views_brain.FILES built once per session at NOW) and
`views_read(ref, **kw)`, which reads it in-process."""
from __future__ import annotations

from pathlib import Path

import pytest

from views_brain import FILES, NOW, write


@pytest.fixture(scope="session")
def views_site(tmp_path_factory) -> Path:
    from builder.build import build
    tmp = tmp_path_factory.mktemp("views")
    out = tmp / "site"
    build([write(tmp / "vb", FILES)], out, now=NOW, pagefind=False)
    return out


@pytest.fixture
def views_read(views_site):
    from builder.query.read import read
    from builder.query.site import open_site

    def run(ref: str, **kwargs) -> dict:
        return read(open_site(views_site), ref, **kwargs)
    return run
