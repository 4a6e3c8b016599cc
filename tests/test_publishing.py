"""What the owner keeps private never goes public (docs/brain.md#publishing): a note with
`publish: false` or `draft: true`, a `.bfignore`d folder, an attachment only they embed, and in
explicit mode an unmarked note or source leave no word, title or file name in any file of the
site, decompressed (pagefind's bundles included), nor in a reply of bf's commands; the
published notes are still there; the staleness fingerprint names no unpublished file."""
from __future__ import annotations

import gzip
import json
import os
import zlib
from pathlib import Path

import pytest

from builder.emit.state import BuildState
from builder.kernel.errors import ConfigError
from builder.kernel.config import load_config

NOW = "2026-12-02T12:00:00Z"

# Each private thing carries a word found nowhere else: in its text, its title and its file name.
PRIVATE_WORDS = ("zorblax", "quuxtitle", "frobnitz", "plonkertag", "wibblepic",
                 "grumbleflax", "snorklewick", "blorpfile", "secretqux", "hushsource")
UNMARKED_WORDS = ("unmarkedvole", "voletitle")


def brain_files(explicit: bool = False) -> dict:
    marked = "publish: true\n" if explicit else ""
    files = {
        "brain.toml": 'name = "brain"\ntitle = "Test"\n[sources.hushsource]\npublish = false\n'
                      + ('[sources.chat]\npublish = true\n[site]\npublish = "explicit"\n' if explicit else ""),
        "public.md": f"---\ntitle: Garden notes\n{marked}tags: [garden]\n---\n"
                     "Tomatoes grow well. See [[hush money]], [[Secret diary]] and ![[shared.png]].\n",
        "zorblaxsalary.md": "---\ntitle: Quuxtitle compensation\npublish: false\naliases: [hush money]\n"
                            "tags: [plonkertag]\n---\nMy salary is frobnitz 120000.\n\n![[attachments/wibblepic.png]]\n"
                            "![[shared.png]]\n",
        "grumbleflax.md": "---\ntitle: Secret diary\ndraft: true\n---\nSnorklewick thoughts.\n",
        "secretqux/blorpfile.md": "Blorpfile words.\n",
        ".bfignore": "secretqux/\n",
        "attachments/wibblepic.png": b"\x89PNG wibblepic",
        "shared.png": b"\x89PNG shared",
        "memories/chat/m1.json": json.dumps({"text": "Tomatoes in the chat", "time": "2026-12-01T10:00:00Z"}),
        "memories/hushsource/hushsource-r1.json": json.dumps({"text": "hushsource zorblax", "time": "2026-12-01T10:00:00Z"}),
    }
    if explicit:
        files["unmarkedvole.md"] = "---\ntitle: Voletitle\n---\nUnmarkedvole text about tomatoes.\n"
    return files


def write_brain(root: Path, files: dict) -> Path:
    for rel, content in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(content if isinstance(content, bytes) else content.encode())
    return root


def site_words(site: Path, words) -> dict[str, list[str]]:
    """file → the words of `words` in its path or its bytes, raw, gunzipped or inflated."""
    found = {}
    for dirpath, _, names in os.walk(site):
        for name in names:
            path = Path(dirpath, name)
            data = path.read_bytes()
            texts = [str(path.relative_to(site)).lower().encode(), data.lower()]
            for unpack in (gzip.decompress, zlib.decompress, lambda b: zlib.decompress(b, -15)):
                try:
                    texts.append(unpack(data).lower())
                except Exception:
                    pass
            hits = [w for w in words if any(w.encode() in t for t in texts)]
            if hits:
                found[str(path.relative_to(site))] = hits
    return found


@pytest.fixture(scope="module")
def private_site(tmp_path_factory):
    from builder.build import build
    tmp = tmp_path_factory.mktemp("private")
    brain = write_brain(tmp / "brain", brain_files())
    out = tmp / "site"
    report = build([brain], out, now=NOW, pagefind=True)
    return brain, out, report


def test_nothing_private_is_in_any_file_of_the_site(private_site):
    _, site, report = private_site
    assert site_words(site, PRIVATE_WORDS) == {}
    assert (site / "pagefind" / "bundles.json").is_file()   # pagefind's bundles were read too
    assert (site / "brain" / "public.html").is_file() and (site / "brain" / "shared.png").is_file()
    assert (site / "brain" / "memories" / "chat.html").is_file()
    assert "tomatoes" in (site / "brain" / "public.html").read_text("utf-8").lower()
    assert report.withheld["brain"] == {"notes marked publish: false": 1, "notes marked draft: true": 1,
                               "records of unpublished sources": 1, "attachments only unpublished notes use": 1}


def test_a_link_to_a_private_note_is_plain_text(private_site):
    _, site, _ = private_site
    page = (site / "brain" / "public.html").read_text("utf-8")
    reply = json.loads((site / "brain" / "public.md.json").read_text("utf-8"))
    assert "hush money" in page and "zorblax" not in page
    assert {link["target"]: link["ref"] for link in reply["links"]}["hush money"] is None
    assert not (site / "brain" / "tags" / "plonkertag.html").exists()


def test_queries_find_nothing_private(private_site, bf):
    _, site, _ = private_site
    for word in ("frobnitz", "salary", "quuxtitle", "snorklewick", "hushsource"):
        code, out, _ = bf("search", word, "--site", site)
        assert code == 0 and json.loads(out)["items"] == [], word
    for ref in ("zorblaxsalary.md", "grumbleflax.md", "secretqux/blorpfile.md", "hushsource:hushsource-r1",
                "memories/hushsource", "hush money"):
        code, _, err = bf("read", ref, "--site", site)
        assert code == 3, (ref, err)
    code, out, _ = bf("similar", "public.md", "--site", site)
    assert code == 0 and not [it for it in json.loads(out)["items"] if it["ref"] != "public.md" and "zorblax" in it["ref"]]
    code, out, _ = bf("search", "tomatoes", "--site", site)
    assert "public.md" in [it["ref"] for it in json.loads(out)["items"]]


def test_staleness_sees_private_files_change_without_naming_them(private_site, bf):
    brain, site, _ = private_site
    fingerprint = gzip.decompress((site / "_bf" / "brain" / "fingerprint.json.gz").read_bytes())
    main = json.loads(fingerprint)
    # the private, draft and ignored notes, the private attachment, the hidden source's record
    assert main["private"][""][0] == 5 and set(main["dirs"]) == {"memories/chat"}
    code, out, _ = bf("search", "tomatoes", "--site", site)
    assert json.loads(out).get("stale") is None
    private = brain / "secretqux" / "blorpfile.md"
    before = private.stat()
    try:
        private.write_text("Blorpfile words, edited.\n", "utf-8")
        code, out, _ = bf("search", "tomatoes", "--site", site)
        assert json.loads(out)["stale"]["changed"] == 1
    finally:
        private.write_text("Blorpfile words.\n", "utf-8")
        os.utime(private, ns=(before.st_atime_ns, before.st_mtime_ns))
    code, out, _ = bf("search", "tomatoes", "--site", site)
    assert json.loads(out).get("stale") is None


def test_explicit_mode_publishes_only_marked_notes_and_sources(tmp_path, make_brain, build_site):
    brain = make_brain(tmp_path, brain_files(explicit=True))
    report = build_site(brain, tmp_path / "site")
    site = tmp_path / "site"
    assert site_words(site, PRIVATE_WORDS + UNMARKED_WORDS) == {}
    assert (site / "brain" / "public.html").is_file() and (site / "brain" / "memories" / "chat.html").is_file()
    assert report.withheld["brain"]["notes not marked publish: true"] == 1


def test_watch_flips_the_flag_either_way(tmp_path, make_brain, build_site):
    """As `bf serve --watch` rebuilds: with its kept state, told the path that changed."""
    brain = make_brain(tmp_path, brain_files())
    site, state = tmp_path / "site", BuildState()
    build_site(brain, site, state=state)
    note = brain / "zorblaxsalary.md"
    text = note.read_text("utf-8")
    note.write_text(text.replace("publish: false", "publish: true"), "utf-8")
    build_site(brain, site, state=state, changed={note})
    assert "frobnitz" in (site / "brain" / "zorblaxsalary.html").read_text("utf-8").lower()
    assert (site / "brain" / "tags" / "plonkertag.html").is_file()
    note.write_text(text, "utf-8")
    build_site(brain, site, state=state, changed={note})
    assert site_words(site, PRIVATE_WORDS) == {}


@pytest.mark.parametrize("table, message", [
    ('[site]\npublish = "some"\n', "site.publish: expected 'all' or 'explicit'"),
    ('[sources.chat]\npublish = "yes"\n', "sources.chat.publish: expected true or false"),
])
def test_publish_settings_are_checked(tmp_path, table, message):
    (tmp_path / "brain.toml").write_text('name = "b"\n' + table, "utf-8")
    with pytest.raises(ConfigError, match=message.replace(".", r"\.")):
        load_config(tmp_path)


def test_mcp_finds_nothing_private(private_site):
    from test_mcp import session_run, text_of
    _, site, _ = private_site

    async def steps(session):
        found = await session.call_tool("search", {"query": "frobnitz"})
        read = await session.call_tool("read", {"ref": "zorblaxsalary.md"})
        public = await session.call_tool("search", {"query": "tomatoes"})
        return text_of(found), read.is_error, text_of(public)
    found, read_failed, public = session_run(site, steps)
    assert json.loads(found)["items"] == [] and read_failed
    assert "public.md" in [it["ref"] for it in json.loads(public)["items"]]
