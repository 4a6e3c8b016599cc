"""run_pagefind over a few hand-written pages, searched with pagefind.js in node."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from builder.emit import pagefind as pf
from builder.emit.pagefind import PagefindError, run_pagefind

SEARCH_JS = Path(__file__).resolve().parents[1] / "support" / "pagefind_search.mjs"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} · brain</title></head>
<body>
<nav>Home Projects Tags navigationword</nav>
<main data-pagefind-body>
<h1 data-pagefind-meta="title">{title}</h1>
<span data-pagefind-filter="type:{type}"></span>
<span data-pagefind-filter="folder:{folder}"></span>
{tags}
<span data-pagefind-meta="date:{date}"></span>
<p data-pagefind-meta="excerpt">{body}</p>
</main>
</body></html>
"""

PAGES = {
    "projects/new-website.html": dict(
        title="New website", type="project", folder="projects", tags=["website", "infra"],
        date="2026-11-02", body="Rebuild the website with a static generator and zucchini search."),
    "projects/garden-shed.html": dict(
        title="Garden shed", type="project", folder="projects", tags=["home"],
        date="2026-10-01", body="Timber for the shed roof; the generator stays outside."),
    "notes/generator-ideas.html": dict(
        title="Generator ideas", type="note", folder="notes", tags=["website"],
        date="2026-09-15", body="Ideas for a static generator: incremental builds, pagefind."),
    "memories/brief/2026-12-01.html": dict(
        title="Brief 1 December", type="record", folder="memories", tags=[],
        date="2026-12-01", body="Daily brief mentions the generator twice."),
}


def write_site(root: Path, pages: dict = PAGES) -> Path:
    for rel, p in pages.items():
        tags = "\n".join(f'<span data-pagefind-filter="tag:{t}"></span>' for t in p["tags"])
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(PAGE.format(tags=tags, **{k: v for k, v in p.items() if k != "tags"}), encoding="utf-8")
    (root / "index.html").write_text("<!doctype html><html><body><a href='notes/generator-ideas.html'>x</a></body></html>")
    return root


def search(site: Path, query: str, *filters: str) -> dict:
    args = ["node", str(SEARCH_JS), str(site), query]
    for f in filters:
        args += ["--filter", f]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = write_site(tmp_path_factory.mktemp("site"))
    started = time.perf_counter()
    files = run_pagefind(root)
    print(f"run_pagefind: {len(PAGES)} pages in {time.perf_counter() - started:.3f} s")
    assert (root / "pagefind" / "pagefind.js") in files
    assert (root / "pagefind" / "pagefind-entry.json").is_file()
    return root


def bundle_bytes(root: Path) -> dict[str, bytes]:
    bundle = root / "pagefind"
    return {p.relative_to(bundle).as_posix(): p.read_bytes() for p in sorted(bundle.rglob("*")) if p.is_file()}


@needs_node
def test_finds_page_by_body_word(site):
    reply = search(site, "zucchini")
    assert [r["url"] for r in reply["results"]] == ["/projects/new-website.html"]
    hit = reply["results"][0]
    assert hit["title"] == "New website"
    assert hit["meta"]["date"] == "2026-11-02"
    assert hit["filters"]["type"] == ["project"]
    assert sorted(hit["filters"]["tag"]) == ["infra", "website"]


@needs_node
def test_filter_narrows_results(site):
    everything = {r["url"] for r in search(site, "generator")["results"]}
    assert everything == {
        "/projects/new-website.html", "/projects/garden-shed.html",
        "/notes/generator-ideas.html", "/memories/brief/2026-12-01.html",
    }
    projects = search(site, "generator", "type=project")
    assert {r["url"] for r in projects["results"]} == {"/projects/new-website.html", "/projects/garden-shed.html"}
    assert projects["filters"]["type"] == {"note": 0, "project": 2, "record": 0}
    both = search(site, "generator", "type=project", "tag=website")
    assert [r["url"] for r in both["results"]] == ["/projects/new-website.html"]


@needs_node
def test_only_the_body_is_indexed(site):
    assert search(site, "navigationword")["results"] == []
    # the unmarked index.html is not indexed at all once other pages mark a body
    assert all(r["url"] != "/" for r in search(site, "generator")["results"])


def test_bundle_is_byte_deterministic(tmp_path):
    a = write_site(tmp_path / "a")
    runs = []
    for _ in range(4):  # raw pagefind output differs in about half the runs
        run_pagefind(a)
        assert pf.last_nondeterministic == []
        runs.append(bundle_bytes(a))
    assert all(r == runs[0] for r in runs)
    b = write_site(tmp_path / "b")  # same pages elsewhere: same bundle
    run_pagefind(b)
    assert bundle_bytes(b) == runs[0]


def test_rerun_keeps_unchanged_files_and_drops_stale_ones(tmp_path):
    root = write_site(tmp_path / "site")
    run_pagefind(root)
    pagefind_js = root / "pagefind" / "pagefind.js"
    before = pagefind_js.stat().st_mtime_ns
    stale = root / "pagefind" / "fragment" / "en_stale.pf_fragment"
    stale.write_bytes(b"old")
    time.sleep(0.01)
    changed = dict(PAGES)
    changed["notes/generator-ideas.html"] = dict(PAGES["notes/generator-ideas.html"], body="Totally new words: quince.")
    write_site(root, changed)
    files = run_pagefind(root)
    assert pagefind_js.stat().st_mtime_ns == before
    assert not stale.exists()
    assert files == sorted(p for p in (root / "pagefind").rglob("*") if p.is_file())


def test_glob_limits_the_pages(tmp_path):
    root = write_site(tmp_path / "site")
    run_pagefind(root, glob="projects/**/*.html")
    entry = json.loads((root / "pagefind" / "pagefind-entry.json").read_text())
    assert entry["languages"]["en"]["page_count"] == 2


def test_failure_raises_with_pagefinds_message(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(PagefindError, match="not able to build an index"):
        run_pagefind(tmp_path / "empty")
    with pytest.raises(PagefindError, match="not found"):
        run_pagefind(tmp_path / "missing")
