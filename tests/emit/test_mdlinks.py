"""Markdown links without an extension link their notes as Obsidian does (kernel/mdlinks.py):
`[Scope](Scope)` and `[save](Scope/save)` resolve like [[Scope]], and count as backlinks."""
from __future__ import annotations

import json

from builder.emit.urls import reply_path

FILES = {
    "brain.toml": 'name = "brain"\ntimezone = "UTC"\n',
    "api/Scope.md": "---\ntitle: Scope\n---\nA scope.\n",
    "api/Scope/save.md": "---\ntitle: Scope.save\n---\n## Returns\nNothing.\n",
    "api/View.md": "---\ntitle: View\n---\nSee [Scope](Scope), [save](Scope/save#returns), [gone](Nowhere).\n",
}


def test_extensionless_links_reach_their_notes(make_brain, build_site, tmp_path):
    out = tmp_path / "site"
    build_site(make_brain(tmp_path, FILES), out)
    page = (out / "brain/api/View.html").read_text()
    assert 'href="Scope.html"' in page and 'href="Scope/save.html#returns"' in page
    assert 'href="Nowhere"' in page   # nothing has that name: the link stays as written
    reply = json.loads((out / reply_path("brain", "api/Scope.md")).read_text())
    assert "api/View.md" in json.dumps(reply["backlinks"])
