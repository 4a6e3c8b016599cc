"""Issue 18 on the test vault tests/fixtures/obsidian: `bf check` reports only the planted broken
link, each planted resolution case resolves as Obsidian would, and no comment's nonce word is
anywhere in the built site: not in any file (pagefind's gzip files decompressed), and not found by
pagefind's own search in node. Rendering in Chromium: tests/browser/test_obsidian_browser.py."""
from __future__ import annotations

import gzip
import json
import re
import subprocess
from pathlib import Path

import pytest

from builder.brain import load
from builder.build import build

VAULT = Path(__file__).resolve().parents[1] / "fixtures" / "obsidian"
SEARCH_JS = Path(__file__).resolve().parents[1] / "support" / "pagefind_search.mjs"
NOW = "2026-12-02T12:00:00Z"
NONCE = re.compile(rb"zqx[a-z]+nonce")
# One unique word in each comment of the vault (and words only a never-closed comment holds).
NONCES = {"zqxhomenonce", "zqxpalettenonce", "zqxfrenchnonce", "zqxinlinenonce", "zqxlistnonce",
          "zqxtablenonce", "zqxcalloutnonce", "zqxheadingnonce", "zqxunclosednonce"}
HIDDEN = [b"Secret heading", b"Nothing here is published"]

# (linking note, target as written) → (status, ref): the planted cases.
CASES = {
    ("index.md", "backlinks"): ("resolved", "en/Plugins/Backlinks.md"),                 # case only
    ("index.md", "COMMAND PALETTE"): ("resolved", "en/Plugins/Command palette.md"),     # case only
    ("index.md", "Obsidian Sync/Security"): ("resolved", "en/Obsidian Sync/Security.md"),   # path suffix
    ("en/Publish/Overview.md", "Security"): ("resolved", "en/Publish/Security.md"),     # nearest folder
    ("fr/Guide/Intro.md", "Start"): ("resolved", "fr/Start.md"),                        # nearest folder
    ("index.md", "Security"): ("ambiguous", None),                                      # a tie (root)
    ("de/Notes.md", "Start"): ("ambiguous", None),                                      # a tie
    ("index.md", "Nowhere at all"): ("broken", None),                                   # truly broken
    ("index.md", "diagram.png"): ("resolved", "Syntax/assets/diagram.png"),             # attachment by name
    ("Syntax/Embeds.md", "Obsidian Sync/Security"): ("resolved", "en/Obsidian Sync/Security.md"),
}


def test_every_comment_carries_its_nonce():
    found = set()
    for path in VAULT.rglob("*.md"):
        found |= {m.decode() for m in NONCE.findall(path.read_bytes())}
    assert found == NONCES


def test_check_reports_only_the_planted_broken_link(bf):
    code, out, _ = bf("check", str(VAULT))
    assert code == 1
    problems = json.loads(out)["problems"]
    assert [(p["path"], p["kind"], p["message"]) for p in problems] == [
        ("index.md", "broken_link", "line 10: 'Nowhere at all' resolves to nothing")]


def test_each_planted_case_resolves_as_stated():
    brain = load(VAULT)
    got = {(l.source, l.target): (l.status, l.ref) for l in brain.links}
    assert {key: got.get(key) for key in CASES} == CASES


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("obsidian") / "site"
    build([VAULT], out, now=NOW)
    return out


def _contents(path: Path) -> bytes:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":   # pagefind's fragments, index and filter chunks: gzip of "pagefind_dcd" + data
        data = gzip.decompress(data)
    return data


def test_no_nonce_in_any_file_of_the_site(site):
    files = [p for p in site.rglob("*") if p.is_file()]
    unzipped = 0
    for path in files:
        data = _contents(path)
        unzipped += data.startswith(b"pagefind_dcd")
        hits = NONCE.findall(data.lower()) + [h for h in HIDDEN if h in data]
        assert not hits, f"{path.relative_to(site)}: {hits}"
    assert unzipped > 5   # pagefind's files were read decompressed
    # the control: words around the comments are published, so the scan reads what pages say
    every = b"".join(_contents(p) for p in files if "pagefind" in p.parts)
    assert b"vanishes" in every and b"bienvenue" in every.lower()


def _search(site: Path, query: str) -> dict:
    proc = subprocess.run(["node", str(SEARCH_JS), str(site), query], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.usefixtures("node")
def test_pagefind_finds_no_nonce(site):
    assert [r["url"] for r in _search(site, "vanishes")["results"]] == [   # the control; embeds are not indexed twice
        "/obsidian/Syntax/Showcase.html"]
    assert _search(site, "highlighted")["count"] >= 1
    for word in sorted(NONCES) + ["secret"]:
        reply = _search(site, word)
        assert reply["count"] == 0, (word, [r["url"] for r in reply["results"]])
