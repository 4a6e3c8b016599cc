"""bf build (docs/site.md): rendered pages, and the guarantees — pinned instant, determinism,
atomic swap, incremental rebuild."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from builder.query.read import read
from builder.query.site import open_site
from builder.kernel import refs
from builder.kernel.pageurls import page_file
from builder.kernel.errors import ConfigError

NOW = "2026-12-02T12:00:00Z"
ROOT = Path(__file__).resolve().parents[1]


def page(site: Path, ref: str, brain: str = "brain") -> str:
    return (site / page_file(brain, ref)).read_text(encoding="utf-8")


def reply(site: Path, ref: str, brain: str = "brain") -> dict:
    return json.loads((site / refs.ref_file(brain, ref)).read_bytes())


# --- rendering ---------------------------------------------------------------------------------

RENDER = {
    "x/src.md": """---
title: Source
---
Links: [[y/b]] [[Target B|label b]] [[Target B#Sub Part]] [[Dup]] [[nowhere]] [md](../y/b.md#sub-part) [[chat:who?]]

> [!warning] Careful now
> body of the callout

Footnote here[^1].

[^1]: The footnote text.

| h1 | h2 |
|----|----|
| c1 | c2 |

- [ ] open task
- [x] done task

```python
print("<b>hi</b>")
```

## Heading Two

<script>alert(1)</script>
<details><summary>More</summary>hidden text</details>
<img src=x onerror="alert(2)">

![[pic.png]]
![[y/b]]
""",
    "y/b.md": "---\ntitle: Target B\n---\nIntro of b.\n\n## Sub Part\n\ntext\n",
    "y/pic.png": b"\x89PNG\r\n",
    "p/Dup.md": "one", "q/Dup.md": "two",
    "memories/chat/who?.json": json.dumps({"text": "Hello <script>alert(3)</script> <img src=x onerror=alert(4)>",
                                           "time": "2026-12-01T09:00:00Z"}),
}


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    from builder.build import build
    base = tmp_path_factory.mktemp("render")
    brain = base / "brain"
    for rel, content in RENDER.items():
        (brain / rel).parent.mkdir(parents=True, exist_ok=True)
        (brain / rel).write_bytes(content if isinstance(content, bytes) else content.encode())
    build([brain], base / "site", now=NOW, pagefind=False)
    return base / "site"


def test_wikilinks_become_relative_urls(rendered):
    html = page(rendered, "x/src.md")
    # a link whose text is not its note's title carries the title (the page graph names nodes by it)
    titled = r'<a class="internal" href="../y/b.html{}" title="Target B">{}</a>'
    assert re.search(titled.format("", "y/b"), html) and re.search(titled.format("", "label b"), html)
    assert 'href="../y/b.html#sub-part"' in html
    assert re.search(titled.format("#sub-part", "md"), html)
    assert 'href="../memories/chat/2026-12-01.html#chat~3awho~3f"' in html   # a record: an anchor on its day page


def test_ambiguous_and_broken_links_are_marked_not_linked(rendered):
    html = page(rendered, "x/src.md")
    assert re.search(r'<span class="link-ambiguous"[^>]*>Dup</span>', html)
    assert re.search(r'<span class="link-broken"[^>]*>nowhere</span>', html)


def test_markdown_features(rendered):
    html = page(rendered, "x/src.md")
    assert ('<blockquote class="callout callout-warning" data-callout="warning"><p class="callout-title">'
            '<span class="callout-icon" aria-hidden="true"></span><span class="callout-title-inner">Careful now</span></p>') in html
    assert "body of the callout" in html
    assert 'class="footnote-ref"' in html and "The footnote text." in html
    assert "<table>" in html and "<td>c1</td>" in html
    assert html.count('<li class="task"><input type="checkbox" disabled') == 2 and ' checked aria-label="done">' in html
    assert ('<pre class="highlight"><code class="language-python"><span class="nb">print</span><span class="p">(</span>'
            '<span class="s2">"&lt;b&gt;hi&lt;/b&gt;"</span>') in html   # highlighted at build time, escaped
    assert '<h2 id="heading-two">Heading Two</h2>' in html     # its "§" link is added by contents.js


def test_embeds(rendered):
    html = page(rendered, "x/src.md")
    assert '<img src="../y/pic.png" alt="pic.png"' in html
    assert (rendered / "brain/y/pic.png").read_bytes() == b"\x89PNG\r\n"
    assert ('<div class="embed"><p class="embed-title"><a class="internal" href="../y/b.html">Target B</a></p>'
            '<div class="embed-body"><p>Intro of b.</p>') in html   # the whole note, in place


def test_raw_html_is_sanitized_by_default(rendered):
    html = page(rendered, "x/src.md")
    body = html.split('<div class="body">', 1)[1]
    assert "<script>alert(1)" not in body and "&lt;script&gt;alert(1)" in body
    assert "<details>" in body and "<summary>More</summary>" in body
    assert "onerror" not in body.replace("onerror=&quot;", "")   # only as escaped text


def test_record_text_is_escaped(rendered):
    html = page(rendered, "memories/chat/2026-12-01")      # the record's day page shows it
    assert "<script>alert(3)" not in html and "&lt;script&gt;alert(3)&lt;/script&gt;" in html
    assert "<img src=x" not in html


def test_allow_html_passes_raw_html_through(tmp_path, make_brain, build_site):
    brain = make_brain(tmp_path, {"brain.toml": "allow_html = true\n", "a.md": "<div class=\"x\"><script>ok()</script></div>\n"})
    build_site(brain, tmp_path / "site")
    assert '<div class="x"><script>ok()</script></div>' in page(tmp_path / "site", "a.md")


@pytest.mark.parametrize("text", ["Setext Title\n============\n\n## Part\n", "# ATX Title\n\n## Part\n",
                                  "Intro.\n\n> # Quoted Title\n\n## Part\n"])
def test_the_title_h1_is_shown_once(tmp_path, make_brain, build_site, text):
    brain = make_brain(tmp_path, {"a.md": text})
    build_site(brain, tmp_path / "site")
    html = page(tmp_path / "site", "a.md")
    assert html.count("<h1") == 1 and '<h2 id="part">' in html


def test_every_page_links_its_json_reply(example_site):
    """Note pages and home link their reply file; every other page offers its reply through bf.js
    (the site's own pages, which have no reply, excepted: 404, search, the whole graph)."""
    pages = [p for p in example_site.rglob("*.html") if p.name not in ("404.html", "search.html", "graph.html")]
    assert len(pages) > 50
    files = 0
    for path in pages:
        html = path.read_text(encoding="utf-8")
        m = re.search(r'<link rel="alternate" type="application/json" href="([^"]+)">', html)
        ref = re.search(r'<meta name="bf-ref" content="([^"]+)">', html)
        if ref[1].endswith(".md") or path.name in ("home.html", "index.html"):
            assert m, f"{path} links no JSON reply"
            target = (path.parent / m.group(1)).resolve()
            assert target.is_file(), f"{path} links a missing reply {m.group(1)}"
            json.loads(target.read_bytes())
            files += 1
        else:
            assert not m and not re.search(r'href="[^"]*\.json"', html), f"{path} links a reply file it has not"
            assert re.search(r'data-bf-json="bf://brain/[^"]+"', html), f"{path} offers no JSON reply"
    assert files > 20


# --- guarantees ---------------------------------------------------------------------------------

def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_now_pins_as_of(example_site):
    """Stored replies leave the instant to the manifest; every answer states it."""
    assert json.loads((example_site / "_bf/manifest.json").read_bytes())["as_of"] == NOW
    assert "as_of" not in reply(example_site, "projects/new-website.md")
    assert read(open_site(example_site), "projects/new-website.md")["as_of"] == NOW


def test_only_pages_computed_against_the_instant_print_it(example_site):
    """A later build instant leaves notes, days and periods that are over as they were."""
    stamped = lambda ref: "<span data-bf-asof>as of" in page(example_site, ref)
    assert all(stamped(ref) for ref in ("home", "2026-12", "2026", "7d", "today", "yesterday", "memories/chat"))
    assert not any(stamped(ref) for ref in ("2026-10", "2026-11-24", "projects/new-website.md", "tags/website"))


def test_a_record_names_what_it_refers_to_by_title_even_after_a_rename(tmp_path, build_site):
    """A record naming a note by its path shows the note's title; a watch rebuild after the note
    is retitled shows the new one (the day page's key holds the items its records link to)."""
    from builder.emit.state import BuildState
    brain = tmp_path / "brain"
    shutil.copytree(ROOT / "examples" / "brain", brain)
    out, state = tmp_path / "site", BuildState()
    build_site(brain, out, state=state)
    day = lambda: re.search(r'<p class="refs">Refers to: (.*?)</p>', page(out, "memories/brief/2026-12-01")).group(1)
    assert ">Pricing tiers</a>" in day() and "concepts/pricing-tiers.md</a>" not in day()
    note = brain / "concepts" / "pricing-tiers.md"
    note.write_text(note.read_text(encoding="utf-8").replace("title: Pricing tiers", "title: Price levels", 1), encoding="utf-8")
    build_site(brain, out, state=state)
    assert ">Price levels</a>" in day()


@pytest.mark.parametrize("day", ["2026-10-05", "2026-12-04"])
def test_a_rebuild_making_a_new_day_page_renders_the_pages_that_link_to_it_alone(tmp_path, build_site, day):
    """A record on a day its source had none makes a day page, which the period's page links to;
    the rest of the site, note pages and the source's other days included, is kept
    (emit/reuse.py). On 2026-12-04 it is the source's newest day, which only the source's page
    shows: its other day pages link their neighbours alone."""
    from builder.emit.state import BuildState
    brain = tmp_path / "brain"
    shutil.copytree(ROOT / "examples" / "brain", brain)
    out, state, now = tmp_path / "site", BuildState(), "2026-12-05T12:00:00Z"
    build_site(brain, out, state=state, now=now)
    notes = {ref for ref in state["views", "pages", "brain"].keys if ref.endswith(".md")}
    record = {"text": "Monday: nothing new.", "title": "Morning brief", "time": f"{day}T06:00:00Z",
              "author": "service:morning-brief", "attributes": {"observed": f"{day}T06:00:05Z"}}
    (brain / "memories" / "brief" / f"{day}.json").write_text(json.dumps(record), encoding="utf-8")
    days = lambda: {ref for ref in state["views", "pages", "brain"].keys if ref.startswith("memories/brief/")}
    before = days()
    build_site(brain, out, state=state, now=now)
    rendered = set(state["views", "pages", "brain"].made)
    assert {f"memories/brief/{day}", "memories/brief"} <= rendered
    assert not rendered & notes and "memories/brief/2026-11-29" not in rendered and len(rendered) < 30, sorted(rendered)
    build_site(brain, tmp_path / "clean", now=now)
    assert tree(out) == tree(tmp_path / "clean")
    assert days() - before == {f"memories/brief/{day}"}


def test_a_new_day_renders_the_notes_whose_due_badges_read_otherwise_alone(tmp_path, build_site):
    """A watch rebuild a day later renders a note page whose due badge now reads otherwise ("due
    tomorrow" → "due today"), not one whose badge reads the same nor one without a badge; the
    site equals a clean build's (emit/reuse.py)."""
    from builder.emit.state import BuildState
    brain = tmp_path / "brain"
    shutil.copytree(ROOT / "examples" / "brain", brain)
    (brain / "projects" / "soon.md").write_text("# Soon\n\n- [ ] Ship it 📅 2026-12-06\n", encoding="utf-8")
    (brain / "projects" / "later.md").write_text("# Later\n\n- [ ] Plan it 📅 2027-03-01\n", encoding="utf-8")
    (brain / "projects" / "plain.md").write_text("# Plain\n\nNo task.\n", encoding="utf-8")
    out, state = tmp_path / "site", BuildState()
    build_site(brain, out, state=state, now="2026-12-05T12:00:00Z")
    assert "due <time datetime=\"2026-12-06\" title=\"2026-12-06\">tomorrow</time>" in page(out, "projects/soon.md")
    build_site(brain, out, state=state, now="2026-12-06T12:00:00Z")
    rendered = set(state["views", "pages", "brain"].made)
    assert "projects/soon.md" in rendered
    assert not rendered & {"projects/later.md", "projects/plain.md"}, sorted(rendered)
    assert ">today</time>" in page(out, "projects/soon.md")
    build_site(brain, tmp_path / "clean", now="2026-12-06T12:00:00Z")
    assert tree(out) == tree(tmp_path / "clean")


def test_two_builds_are_byte_identical(tmp_path, build_site):
    brain = tmp_path / "brain"
    shutil.copytree(ROOT / "examples/brain", brain)
    build_site(brain, tmp_path / "one")
    shutil.rmtree(tmp_path / ".bf-cache")           # the second build parses from scratch
    build_site(brain, tmp_path / "two")
    one, two = tree(tmp_path / "one"), tree(tmp_path / "two")
    assert sorted(one) == sorted(two)
    assert [k for k in one if one[k] != two[k]] == []


def test_a_failed_build_leaves_the_previous_site(tmp_path, make_brain, build_site):
    brain = make_brain(tmp_path, {"a.md": "first"})
    site = tmp_path / "site"
    build_site(brain, site)
    before = tree(site)
    (brain / "a.md").write_text("second")
    (brain / "brain.toml").write_text("colour = 1\n")
    with pytest.raises(ConfigError):
        build_site(brain, site)
    assert tree(site) == before
    assert [p.name for p in tmp_path.iterdir() if ".building-" in p.name] == []


def test_rebuild_reuses_parsed_notes_and_unchanged_files(tmp_path, make_brain, build_site, monkeypatch):
    import builder.brain as brain_pkg
    brain = make_brain(tmp_path, {f"n{i}.md": f"# N{i}\n\nbody {i}\n" for i in range(5)})
    site = tmp_path / "site"
    build_site(brain, site)
    unchanged = site / refs.ref_file("brain", "n1.md")
    inode = unchanged.stat().st_ino
    parsed = []
    real = brain_pkg.parse_note
    monkeypatch.setattr(brain_pkg, "parse_note", lambda ref, *a, **k: parsed.append(ref) or real(ref, *a, **k))
    (brain / "n3.md").write_text("# N3\n\nchanged body\n")
    report = build_site(brain, site)
    assert parsed == ["n3.md"]
    assert unchanged.stat().st_ino == inode                  # the same file, not rewritten
    assert report.reused > 0
    assert reply(site, "n3.md")["text"] == "# N3\n\nchanged body\n"


def make_big_brain(root: Path, n: int) -> None:
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()
    (root / "notes").mkdir(parents=True)
    for i in range(n):
        parts = [f"# Note {i}\n"]
        for j in range(4):
            text = " ".join(words[(i * 7 + j * 3 + k) % len(words)] for k in range(80))
            parts.append(f"## Part {j}\n\n{text} [[Note {(i * 7 + j) % n}]]\n")
        (root / "notes" / f"n{i:04d}.md").write_text("\n".join(parts))


def site_is_whole(site: Path, build_id: str) -> None:
    from builder.query.site import open_site
    opened = open_site(site)               # falls back to .site.old inside the swap window
    assert opened.build_id == build_id
    for path in opened.path.rglob("*.json"):
        json.loads(path.read_bytes())


@pytest.mark.slow
def test_killed_builds_leave_the_previous_site(tmp_path):
    brain, site = tmp_path / "brain", tmp_path / "site"
    make_big_brain(brain, 400)
    cmd = [sys.executable, "-m", "builder", "build", str(brain), "--out", str(site), "--now", NOW,
           "--no-pagefind", "--quiet"]
    subprocess.run(cmd, check=True, cwd=ROOT)
    build_id = json.loads((site / "_bf/manifest.json").read_bytes())["build_id"]
    (brain / "notes/n0000.md").write_text("# Changed\n")      # so a finished build would differ
    reference = tmp_path / "reference"                        # the changed brain's whole build
    subprocess.run([*cmd[:6], str(reference), *cmd[7:]], check=True, cwd=ROOT)
    new_id = json.loads((reference / "_bf/manifest.json").read_bytes())["build_id"]
    assert new_id != build_id
    killed = 0
    for delay in (0.2, 0.5, 0.9, 1.4, 2.0):
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            killed += 1
        proc.wait()
        # It finished first, or was killed after swapping its whole site in: that is the new
        # previous site. Anything else must have left the previous one.
        # (open_site: killed between the swap's two renames, the previous site is at .site.old)
        if proc.returncode == 0 or open_site(site).build_id == new_id:
            build_id = new_id
        site_is_whole(site, build_id)
    assert killed >= 2
    subprocess.run(cmd, check=True, cwd=ROOT)                  # and the next build recovers
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")] == []


def test_markdown_link_to_a_missing_note_is_plain_text_with_a_marker(tmp_path, make_brain, build_site):
    brain = make_brain(tmp_path, {"a.md": "# A\n\n[ok](c.md \"t\") [gone **x**](missing.md) [web](https://x.org/m.md)\n",
                                  "c.md": "# C\n"})
    site = build_site(brain, tmp_path / "site").out
    html = (site / "brain" / "a.html").read_text()
    assert '<a class="internal" href="c.html" title="t">ok</a>' in html
    assert '<span class="link-broken" title="broken: no note at missing.md">gone <strong>x</strong></span>' in html
    assert '<a href="https://x.org/m.md">web</a>' in html


def test_an_identity_named_only_by_a_wikilink_gets_its_page(tmp_path, make_brain, build_site):
    brain = make_brain(tmp_path, {"a.md": "# A\n\nTalk to [[person:dave]].\n"})
    site = build_site(brain, tmp_path / "site").out
    html = (site / "brain" / "a.html").read_text()
    assert 'href="person/dave.html"' in html
    assert (site / "brain" / "person" / "dave.html").is_file()


@pytest.mark.parametrize("allow", [False, True])
def test_active_attachments_are_published_only_when_html_is_allowed(tmp_path, make_brain, build_site, allow):
    files = {"a.md": "# A\n", "x/page.html": "<script>1</script>", "x/pic.svg": "<svg/>", "x/pic.png": "png"}
    if allow:
        files["brain.toml"] = "allow_html = true\n"
    brain = make_brain(tmp_path, files)
    site = build_site(brain, tmp_path / "site").out
    assert (site / "brain" / "x" / "pic.png").is_file()
    assert (site / "brain" / "x" / "page.html").is_file() is allow
    assert (site / "brain" / "x" / "pic.svg").is_file() is allow


def test_every_file_comes_from_one_named_emitter(tmp_path):
    """The checklist runs the emitters in order (emit/emitters.py); each returns what it wrote, and
    together they wrote every file of the site but the manifest, which the checklist writes last."""
    from builder.build import build
    from builder.emit.emitters import EMITTERS
    report = build([ROOT / "examples" / "brain"], tmp_path / "site", now=NOW, pagefind=False)
    assert list(report.emitted) == [e.name for e in EMITTERS if e.name != "pagefind"]
    assert sum(report.emitted.values()) == report.files - 1
    assert report.emitted["pages"] > 40 and report.emitted["token table"] > 1


def test_a_stage_says_where_it_runs():
    """Placement is declared (Stage.beside), not inferred from `needs`: the site's stages that read
    only the parsed brains say so, the feeds (which list every page) do not, and a stage that
    needs another cannot claim to run beside (docs/code.md#the-build)."""
    from builder.emit.emitters import EMITTERS
    from builder.emit.stage import Stage
    beside = {s.name for s in EMITTERS if s.beside}
    assert beside == {"site pages", "navigation", "assets", "token table"}
    assert all(s.scope == "site" and not s.needs for s in EMITTERS if s.beside)
    with pytest.raises(ValueError, match="runs beside"):
        Stage("x", "site", "render", lambda ctx: [], needs=("pages",), beside=True)


def test_a_site_past_github_pages_limit_is_said_once(tmp_path, make_brain, build_site, monkeypatch):
    """bf build sums its site's bytes; past GitHub Pages' 1 GB it says so (docs/site.md#sizes-a-host-takes)."""
    import builder.build as build_module
    brain = make_brain(tmp_path, {"a.md": "# A\n\nText.\n"})
    report = build_site(brain, tmp_path / "site")
    total = sum(p.stat().st_size for p in (tmp_path / "site").rglob("*") if p.is_file())
    assert report.bytes == total and not [n for n in report.notices if "GitHub Pages" in n]
    monkeypatch.setattr(build_module, "PAGES_LIMIT", total - 1)
    report = build_site(brain, tmp_path / "site")
    assert [n for n in report.notices if "more than GitHub Pages' 1 GB" in n and "sizes-a-host-takes" in n]
