"""A site built inside its own brain (`bf build --out docs`, GitHub Pages' /docs layout): the
previous site's files are the build's, not the brain's. A rebuild equals a clean build, and the
built site is not reported stale because of its own files (docs/site.md#staleness)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from builder.build import build
from builder.query.site import open_site

NOW = "2026-12-02T12:00:00Z"
FILES = {"index.md": "# Home\n\nSee [[Other]].\n", "other.md": "# Other\n\nWords.\n",
         "memories/chat/one.json": '{"text": "hello", "time": "2026-12-01T10:00:00Z"}'}


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_rebuild_inside_the_brain_equals_a_clean_build(make_brain, tmp_path):
    brain = make_brain(tmp_path, FILES)
    out = brain / "docs"
    build([brain], out, now=NOW, pagefind=False)
    build([brain], out, now=NOW, pagefind=False)
    rebuilt = tree(out)
    shutil.rmtree(out)
    os.rename(brain / ".bf-cache", tmp_path / "old-cache")   # its trash may still be being removed
    build([brain], out, now=NOW, pagefind=False)
    assert rebuilt == tree(out)


def test_a_site_inside_its_brain_is_not_stale_by_its_own_files(make_brain, tmp_path):
    brain = make_brain(tmp_path, FILES)
    out = brain / "docs"
    build([brain], out, now=NOW, pagefind=False)
    assert open_site(out).stale("brain") is None
    (brain / "other.md").write_text("# Other\n\nMore words.\n", encoding="utf-8")   # seen by a reply returning it
    assert open_site(out).stale("brain", ["other.md"])["changed"] == 1
