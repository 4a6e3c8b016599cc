"""A note page's "Related" list (issue 17, item 3; site/related.js): the notes the build found
nearest this one (builder/vectors/related.py), read from the site's related packs when the side
column nears the window; each is a link to its page."""
from __future__ import annotations

import gzip
import json

import pytest

from builder.kernel.refs import pack_of
from example import opened, page_of

NOTE = "projects/new-website.md"

pytestmark = pytest.mark.browser


def built_related(site, ref: str) -> list[list[str]]:
    base = site / "_bf" / "search" / "brain" / "vectors"
    packs = json.loads((base / "meta.json").read_bytes())["related"]
    return json.loads(gzip.decompress((base / "related" / f"{pack_of(ref, packs)}.json.gz").read_bytes()))[ref]


def test_a_note_page_lists_its_related_notes(page, example_site, serve_site):
    near = built_related(example_site, NOTE)
    assert 0 < len(near) <= 5 and NOTE not in [r for r, _ in near]
    opened(page, serve_site(example_site, "/") + page_of(example_site, NOTE))
    page.locator("aside.side").scroll_into_view_if_needed()
    links = page.locator("section.related li a")
    links.first.wait_for()
    assert links.all_inner_texts() == [title for _, title in near]
    links.first.click()
    page.wait_for_url("**/" + page_of(example_site, near[0][0]))
