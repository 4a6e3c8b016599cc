"""bf.js pages a large exact read like Python (docs/replies.md#paging-large-reads): the same pages, and the same cap on
the problems a query adds for unavailable brains, counted in `problems_omitted`."""
from __future__ import annotations

import pytest

from builder.kernel import refs
from builder.build import build
from builder.query.read import MAX_ADDED_PROBLEMS
from builder.query.site import open_site

from test_parity import READ_ALL, python_read   # tests/browser is on sys.path (rootdir-less imports)

pytestmark = [pytest.mark.browser, pytest.mark.parity]

FLAT = "Words é 日本 😀 and \"quotes\" \\ without any heading.\n" * 2000
NAMES = ["main"] + [f"gone-{i}" for i in range(MAX_ADDED_PROBLEMS + 2)]


@pytest.fixture
def site(make_brain, tmp_path):
    roots = [make_brain(tmp_path, {"flat.md": FLAT} if n == "main" else {"a.md": "a\n"}, name=n) for n in NAMES]
    out = tmp_path / "site"
    build(roots, out, now="2026-12-02T12:00:00Z", pagefind=False)
    for name in NAMES[1:]:
        (out / refs.ref_file(name, "home")).unlink()
        (out / "_bf" / name / "fingerprint.json.gz").unlink()
    return out


def test_paged_read_with_unavailable_brains_equals_python(site, serve_site, page):
    page.goto(serve_site(site, "/my-repo/") + refs.ref_file("main", "home").replace(".json", ".html"))
    page.wait_for_function("window.bf !== undefined")
    py = open_site(site)
    offsets, calls = [0], []
    while offsets[-1] is not None:
        calls.append(("flat.md", {"offset": offsets[-1]} if offsets[-1] else {}))
        offsets.append(python_read(py, *calls[-1])["next_offset"])
    want = [python_read(py, ref, options) for ref, options in calls]
    assert len(want) > 2 and all(w["problems_omitted"] == 2 for w in want)
    assert page.evaluate(READ_ALL, [list(c) for c in calls]) == want
    assert page.evaluate("async () => (await import(window.bf.root + '_bf/engine/read.js')).MAX_ADDED_PROBLEMS") \
        == MAX_ADDED_PROBLEMS
