"""Every page address of the escaped scheme (each page of the example site as 9494710 built it,
tests/fixtures/page-urls-9494710.txt) still reaches its page: an address that is still a file
serves that page, a moved one reaches it through 404.html's redirect (page.js movedTo), at `/`
and under a project path."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from example import EXAMPLE, EXAMPLE_NOW, page_of

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "page-urls-9494710.txt"
REF = re.compile(r'<meta name="bf-ref" content="([^"]*)">')
# The one address that shows another page now: the folder's note took the folder's path (docs/site.md).
FOLDER_NOTES = {"brain/actions/launch-checklist.html": "actions/launch-checklist.md"}


def old_pages() -> list[tuple[str, str]]:
    lines = FIXTURE.read_text("utf-8").splitlines()
    return [tuple(line.split("\t")) for line in lines if line and not line.startswith("#")]


@pytest.fixture(scope="module")
def project_site(tmp_path_factory):
    """The example site for a GitHub Pages project path: 404.html's links are absolute."""
    from builder.cli import main
    out = tmp_path_factory.mktemp("project") / "site"
    assert main(["build", str(EXAMPLE), "--out", str(out), "--now", EXAMPLE_NOW, "--no-pagefind", "--quiet",
                 "--base-url", "/my-repo/"]) == 0
    return out


def test_an_address_still_a_file_is_its_page(example_site):
    kept = [(old, ref) for old, ref in old_pages() if ref and (example_site / old).is_file()]
    assert len(kept) > 100
    shown = {old: REF.search((example_site / old).read_text("utf-8"))[1] for old, _ in kept}
    assert shown == dict(kept) | FOLDER_NOTES


@pytest.mark.parametrize("prefix", ["/", "/my-repo/"])
def test_every_moved_address_reaches_its_page(page, example_site, project_site, serve_site, prefix):
    site = example_site if prefix == "/" else project_site
    base = serve_site(site, prefix)
    moved = [(old, ref) for old, ref in old_pages() if not (site / old).is_file()]
    assert len(moved) > 30 and all(ref for _, ref in moved)
    missed = []
    for old, ref in moved:
        page.goto(base + old)
        try:
            page.wait_for_function("(ref) => document.querySelector('meta[name=\"bf-ref\"]')?.content === ref",
                                   arg=ref, timeout=5000)
        except Exception:
            missed.append((old, ref, page.url))
            continue
        if not unquote(page.url).endswith(page_of(site, ref)):
            missed.append((old, ref, page.url))
    assert missed == []


def test_a_section_link_keeps_its_anchor(page, example_site, serve_site):
    base = serve_site(example_site, "/")
    page.goto(base + "brain/projects/new-website.md.html#goals")
    page.wait_for_url(base + "brain/projects/new-website.html#goals")
