"""GitHub Pages readiness of a default build (no base URL) served at /: crawled clean as
test_pages_ready.py crawls the project build under its prefix (tests/support/pages_ready.py)."""
from __future__ import annotations

import pytest

from pages_ready import built, crawls_clean

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def root_site(tmp_path_factory):
    return built(tmp_path_factory, None)


@pytest.mark.slow
def test_every_page_crawls_clean_at_the_root(root_site, serve_site, page):
    crawls_clean(root_site, "/", serve_site, page)
