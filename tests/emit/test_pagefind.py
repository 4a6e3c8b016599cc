"""pagefind bundles: one run over hand-written pages, the split of a built site into
several bundles searched together (mergeIndex) with pagefind.js in node, and reuse of
unchanged bundles on rebuild."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from builder.build import build
from builder.emit import pagefind as pf
from builder.emit.pagefind import PagefindError, index_pages, plan_bundles
from tools import have

SEARCH_JS = Path(__file__).resolve().parents[1] / "support" / "pagefind_search.mjs"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"
MULTILINGUAL = Path(__file__).resolve().parents[1] / "fixtures" / "multilingual"
NOW = "2026-12-02T12:00:00Z"

PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title} · brain</title></head>
<body>
<nav>Home Projects Tags navigationword</nav>
<main data-pagefind-body>
<h1 data-pagefind-meta="title">{title}</h1>
<span data-pagefind-filter="type:{type}"></span>
<span data-pagefind-filter="folder:{folder}"></span>
{tags}
<span data-pagefind-meta="date:{date}"></span>
<p data-pagefind-meta="excerpt">{body}</p>
<p class="meta">modified by skippedword</p><dl class="fields"><dt>owner</dt><dd>skippedword</dd></dl>
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
        fields = {"lang": "en"} | {k: v for k, v in p.items() if k != "tags"}
        path.write_text(PAGE.format(tags=tags, **fields), encoding="utf-8")
    return root


def search(site: Path, query: str, *filters: str) -> dict:
    args = ["node", str(SEARCH_JS), str(site), query]
    for f in filters:
        args += ["--filter", f]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def urls(reply: dict) -> set[str]:
    return {r["url"] for r in reply["results"]}


def bundle_bytes(bundle: Path) -> dict[str, bytes]:
    return {p.relative_to(bundle).as_posix(): p.read_bytes() for p in sorted(bundle.rglob("*")) if p.is_file()}


needs_node = pytest.mark.usefixtures("node")   # tests/conftest.py: skips without node, fails under CI=true


# --- one pagefind run ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def one(tmp_path_factory) -> Path:
    """A bundle of three of the four pages (the brief is left out)."""
    root = write_site(tmp_path_factory.mktemp("site"))
    index_pages(root, sorted(PAGES)[1:], root / "pagefind")
    return root / "pagefind"


@needs_node
def test_finds_page_by_body_word(one):
    reply = search(one, "zucchini")
    assert [r["url"] for r in reply["results"]] == ["/projects/new-website.html"]
    hit = reply["results"][0]
    assert hit["title"] == "New website"
    assert hit["meta"]["date"] == "2026-11-02"
    assert hit["filters"]["type"] == ["project"]
    assert sorted(hit["filters"]["tag"]) == ["infra", "website"]


@needs_node
def test_only_listed_pages_and_only_the_body_are_indexed(one):
    assert urls(search(one, "generator")) == {
        "/projects/new-website.html", "/projects/garden-shed.html", "/notes/generator-ideas.html"}
    assert search(one, "navigationword")["results"] == []
    assert search(one, "skippedword")["results"] == []   # pagefind.EXCLUDED inside the body
    projects = search(one, "generator", "type=project", "tag=website")
    assert urls(projects) == {"/projects/new-website.html"}


def test_bundle_is_byte_deterministic(tmp_path):
    a = write_site(tmp_path / "a")
    runs = []
    for i in range(4):  # raw pagefind output differs in about half the runs
        assert index_pages(a, sorted(PAGES), tmp_path / f"out{i}") == []
        runs.append(bundle_bytes(tmp_path / f"out{i}"))
    assert all(r == runs[0] for r in runs)
    b = write_site(tmp_path / "b")  # same pages elsewhere: same bundle
    index_pages(b, sorted(PAGES), tmp_path / "outb")
    assert bundle_bytes(tmp_path / "outb") == runs[0]


OTHER_LANGUAGES = {
    "zh/backup.html": dict(title="备份你的仓库", type="note", folder="zh", tags=[], date="2026-11-01",
                           body="把仓库复制到别的地方：第二块硬盘或备份服务。", lang="zh"),
    "ru/sync.html": dict(title="Синхронизация", type="note", folder="ru", tags=[], date="2026-11-01",
                         body="Синхронизация поддерживает хранилище одинаковым.", lang="ru"),
    "ar/count.html": dict(title="عدد الكلمات", type="note", folder="ar", tags=[], date="2026-11-01",
                          body="يعرض شريط الحالة عدد الكلمات.", lang="ar"),
}


def test_a_bundle_of_several_languages_is_byte_deterministic(tmp_path):
    """pagefind lists a bundle's languages in random order in pagefind-entry.json: sorted here."""
    site = write_site(tmp_path / "site", PAGES | OTHER_LANGUAGES)
    runs = []
    for i in range(4):
        assert index_pages(site, sorted(PAGES | OTHER_LANGUAGES), tmp_path / f"out{i}") == []
        runs.append(bundle_bytes(tmp_path / f"out{i}"))
    assert all(r == runs[0] for r in runs)
    entry = json.loads(runs[0]["pagefind-entry.json"])
    assert list(entry["languages"]) == ["ar", "en", "ru", "zh"]
    assert {lang: i["page_count"] for lang, i in entry["languages"].items()} == {"ar": 1, "en": 4, "ru": 1, "zh": 1}


def test_failure_raises_with_pagefinds_message(tmp_path):
    (tmp_path / "empty.html").write_text("<html><body>no body marker</body></html>")
    with pytest.raises(PagefindError, match="pagefind failed"):
        index_pages(tmp_path, [], tmp_path / "out")


def test_a_run_ends_once_its_stop_is_set(tmp_path):
    """bf serve stops indexing a build a newer save made moot: pagefind is killed."""
    root = write_site(tmp_path)
    stop = threading.Event()
    stop.set()
    with pytest.raises(PagefindError, match="stopped"):
        index_pages(root, sorted(PAGES), tmp_path / "out", stop=stop)


# --- splitting into bundles -------------------------------------------------------------------


def test_plan_splits_by_cap_and_adding_a_page_touches_one_bundle():
    notes = [f"b/n{i:03d}.html" for i in range(250)]
    plan = plan_bundles({"b/notes": notes, "b/records-chat": ["b/memories/chat/2026-01-01.html"]},
                        {"b/notes": 100, "b/records-chat": 100})
    assert [b.folder for b in plan] == ["b/notes-0/", "b/notes-1/", "b/notes-2/", "b/records-chat-0/"]
    assert sorted(p for b in plan for p in b.pages) == sorted(notes + ["b/memories/chat/2026-01-01.html"])
    assert all(60 <= len(b.pages) <= 110 for b in plan[:3])
    grown = plan_bundles({"b/notes": notes + ["b/new.html"], "b/records-chat": ["b/memories/chat/2026-01-01.html"]},
                         {"b/notes": 100, "b/records-chat": 100})
    assert sum(a.pages != b.pages for a, b in zip(plan, grown)) == 1


# --- a built site: several bundles, merged search, reuse on rebuild ---------------------------


@pytest.fixture(scope="module")
def small_bundles():
    """The example brain split into several small bundles."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pf, "NOTES_PER_BUNDLE", 10)
        mp.setattr(pf, "RECORDS_PER_BUNDLE", 12)
        mp.setattr(pf, "SMALL_SOURCE", 8)
        yield mp


@pytest.fixture(scope="module")
def built(tmp_path_factory, small_bundles) -> Path:
    brain = tmp_path_factory.mktemp("brain") / "brain"
    shutil.copytree(EXAMPLE, brain)
    out = tmp_path_factory.mktemp("out") / "site"
    build([brain], out, now=NOW)
    return out


def listed(site: Path) -> dict:
    return json.loads((site / "pagefind" / "bundles.json").read_text())


def test_site_has_several_bundles_of_content_pages_only(built):
    data = listed(built)
    folders = [b["path"] for b in data["bundles"]]
    assert len(folders) >= 4 and folders == sorted(folders)
    assert any(f.startswith("brain/notes-") for f in folders)
    assert any(f.startswith("brain/records-other-") for f in folders)   # sources under SMALL_SOURCE
    assert len({f.rsplit("-", 1)[0] for f in folders}) >= 3
    for b in data["bundles"]:
        assert b["pages"] <= 12
        files = [p for p in (built / "pagefind" / b["path"]).rglob("*") if p.is_file()]
        assert len(files) == b["files"]
    assert (built / "pagefind" / "pagefind-ui.js").is_file()
    pages = sum(b["pages"] for b in data["bundles"])
    html = sum(1 for _ in built.rglob("*.html"))
    assert 0 < pages < html   # listings, periods, tags, home are left out


@needs_node
def test_merged_search_finds_notes_and_records_with_filters(built):
    everything = search(built, "website")
    found = urls(everything)
    assert "/brain/projects/new-website.html" in found
    # Records are found on their source's day pages, each record a sub-result at its anchor.
    days = [r for r in everything["results"] if r["url"].startswith("/brain/memories/chat/")]
    assert days and all(re.fullmatch(r"/brain/memories/chat/(\d{4}-\d{2}-\d{2}|undated)\.html", r["url"]) for r in days)
    anchors = {s["url"] for r in days for s in r["sub_results"]}
    assert any(re.search(r"\.html#chat~3a[^#]+$", u) for u in anchors), anchors
    # index.md's page is brain/index.html, which pagefind names by its folder
    assert all(u.endswith((".html", "/")) and not u.endswith(("/brain/home.html", "/brain/memories.html")) for u in found)
    assert not any(re.search(r"/brain/(\d{4}|memories/[^/]+|tags/.*|person/.*)\.html$", u) for u in found), found
    assert {"type", "tag", "folder", "source"} <= set(everything["all_filters"])
    assert everything["all_filters"]["type"]["record"] == sum(
        b["pages"] for b in listed(built)["bundles"] if "/records-" in b["path"])
    records = search(built, "website", "type=record")
    assert records["results"] and all(r["filters"]["type"] == ["record"] for r in records["results"])
    chat = search(built, "", "source=chat")
    assert chat["results"] and all(r["filters"]["source"] == ["chat"] for r in chat["results"])
    tagged = search(built, "website", "tag=website")
    assert "/brain/projects/new-website.html" in urls(tagged)
    assert all("website" in r["filters"]["tag"] for r in tagged["results"])
    folder = search(built, "", "folder=projects")
    assert folder["results"] and all(r["url"].startswith("/brain/projects/") for r in folder["results"])


def test_rebuild_reruns_only_changed_bundles(built, tmp_path, small_bundles, pagefind_runs):
    site = tmp_path / "site"
    shutil.copytree(built, site)
    brain = tmp_path / "brain"
    shutil.copytree(EXAMPLE, brain)
    calls = pagefind_runs

    build([brain], site, now="2026-12-09T12:00:00Z")   # another instant only: every bundle reused
    assert calls() == []
    assert listed(site) == listed(built)
    assert bundle_bytes(site / "pagefind") == bundle_bytes(built / "pagefind")

    note = brain / "projects" / "new-website.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nA quokkaword appears.\n", encoding="utf-8")
    build([brain], site, now="2026-12-09T12:00:00Z")
    assert 1 <= len(calls()) < len(listed(site)["bundles"])
    changed = [a["path"] for a, b in zip(listed(built)["bundles"], listed(site)["bundles"]) if a != b]
    assert len(changed) == len(calls())
    if have("node", "apt-get install nodejs"):
        assert urls(search(site, "quokkaword")) == {"/brain/projects/new-website.html"}


@pytest.fixture(scope="module")
def multilingual(tmp_path_factory) -> Path:
    """The multilingual test brain (16 languages) in bundles of at most 20 notes."""
    out = tmp_path_factory.mktemp("ml") / "site"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pf, "NOTES_PER_BUNDLE", 20)
        build([MULTILINGUAL], out, now=NOW)
    return out


@needs_node
def test_merged_search_covers_every_language_of_every_bundle_once(multilingual):
    bundles = listed(multilingual)["bundles"]
    assert len(bundles) >= 3 and all(len(b["languages"]) >= 5 for b in bundles)
    notes = {}   # language (the note's folder) → notes
    for path in MULTILINGUAL.rglob("*.md"):
        notes[path.parent.name] = notes.get(path.parent.name, 0) + 1
    assert {lang: sum(b["languages"].get(lang, 0) for b in bundles) for lang in notes} == notes
    # each note is tagged with its language: counts are each index's pages, every index merged once
    assert search(multilingual, "")["all_filters"]["tag"] == notes
    assert "/multi/zh/备份.html" in urls(search(multilingual, "仓库"))   # zh/备份.md
    assert {u.split("/")[2] for u in urls(search(multilingual, "хранилище"))} == {"ru"}
    assert {u.split("/")[2] for u in urls(search(multilingual, "Android", "tag=ar"))} == {"ar"}
