"""bench/view.py: the bytes of a note page's first view, as a server sends them."""
from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from bench.view import first_view
from builder.build import build

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "brain"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("view") / "site"
    build([EXAMPLE], out, now="2026-12-02T12:00:00Z", pagefind=False, embeddings=False)
    return out


def _gz(site: Path, *rels: str) -> int:
    return sum(len(gzip.compress((site / r).read_bytes(), 6, mtime=0)) for r in rels)


def test_a_short_note_counts_its_page_styles_and_the_modules_loaded(site):
    view = first_view(site, "actions/migrate-blog-posts.md")
    page = "brain/actions/migrate-blog-posts.html"
    assert view["first_view_html_bytes_gz"] == _gz(site, page)
    # bf.js and the engine modules it imports statically (read.js → data.js → …), not the search
    # engine nor the previews, which load on demand
    assert view["first_view_bytes_gz"] > _gz(site, page, "_bf/bf.css", "_bf/bf.js", "_bf/engine/read.js", "_bf/dates.js")
    assert view["first_view_bytes_gz"] < _gz(site, page, "_bf/bf.css", *[p.relative_to(site).as_posix() for p in (site / "_bf").rglob("*.js")])
    assert view["first_view_with_graph_bytes_gz"] >= view["first_view_bytes_gz"] + _gz(site, "_bf/graph.js", "_bf/navdata.js")
    assert view["graph_data_bytes_gz"] == sum((site / "_bf" / f).stat().st_size for f in ("explorer.json.gz", "graph.json.gz"))


def test_a_note_with_contents_loads_contents_js(site):
    with_toc, without = first_view(site, "projects/new-website.md"), first_view(site, "actions/migrate-blog-posts.md")
    assert '<nav class="outline toc"' in (site / "brain/projects/new-website.html").read_text()
    assert '<nav class="outline toc"' not in (site / "brain/actions/migrate-blog-posts.html").read_text()
    assert with_toc["first_view_files"] == without["first_view_files"] + 1
