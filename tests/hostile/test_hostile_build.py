"""A brain written by an attacker builds: each bad file is skipped and reported, every healthy
file answers, nothing outside the brain is read, and hostile text comes back byte for byte
(docs/brain.md#problems, docs/limits.md#the-brain)."""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile

from builder.kernel import refs
from builder.brain.notes import MAX_NOTE_BYTES
from builder.query.read import read
from builder.query.site import open_site
from hostile_brain import PAYLOADS, TOO_LARGE_BYTES


def test_every_bad_file_is_reported_with_its_kind(hostile):
    reported = {}
    for p in hostile["report"].problems:
        reported.setdefault(p["path"], set()).add(p["kind"])
    for path, kind in hostile["expected"]["problems"].items():
        assert kind in reported.get(path, set()), (path, kind, reported.get(path))
    # Anything else reported is a broken link (hostile link targets resolve to nothing).
    extra = {p: k for p, k in reported.items() if p not in hostile["expected"]["problems"]}
    assert all(k == {"broken_link"} for k in extra.values()), extra


def test_the_too_large_note_is_over_the_stated_limit(hostile):
    assert TOO_LARGE_BYTES > MAX_NOTE_BYTES
    huge = next(p for p in hostile["report"].problems if p["path"] == "hostile/huge.md")
    assert str(MAX_NOTE_BYTES) in huge["message"]


def test_every_healthy_file_answers_its_own_ref(hostile):
    site = open_site(hostile["site"])
    for ref in hostile["expected"]["notes"] + hostile["expected"]["records"]:
        reply = read(site, ref)
        assert reply["ref"] == ref
        assert reply["uri"] == refs.uri("brain", ref)
        # The bf:// address reads the same reply.
        assert read(site, reply["uri"])["ref"] == ref


def test_skipped_files_have_no_reply(hostile):
    site = open_site(hostile["site"])
    for path in hostile["expected"]["problems"]:
        if path.endswith(".md") and not path.startswith("memories/"):
            assert site.reply("brain", path) is None, path


def test_hostile_text_comes_back_exactly(hostile):
    site = open_site(hostile["site"])
    raw = (hostile["brain"] / "hostile/payloads.md").read_bytes()
    reply = read(site, "hostile/payloads.md")
    assert reply["text"].encode("utf-8") == raw
    assert reply["sha256"] == hashlib.sha256(raw).hexdigest()
    assert reply["title"] == PAYLOADS[1]
    assert PAYLOADS[0] in reply["tags"]
    record = read(site, "evil:a")["record"]
    source = json.loads((hostile["brain"] / "memories/evil/a.json").read_text(encoding="utf-8"))
    assert record["text"] == source["text"]
    assert record["attributes"] == source["attributes"]


def test_case_twins_are_two_records_in_two_files(hostile):
    site = open_site(hostile["site"])
    assert read(site, "evil:a")["ref"] == "evil:a"
    assert read(site, "evil:A")["ref"] == "evil:A"
    assert refs.ref_file("brain", "evil:a").lower() != refs.ref_file("brain", "evil:A").lower()


def test_nothing_outside_the_brain_reaches_the_site(hostile):
    secret = b"SECRET OUTSIDE THE BRAIN"
    for dirpath, dirnames, filenames in os.walk(hostile["site"]):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            assert not os.path.islink(path), path
            assert os.path.realpath(path).startswith(os.path.realpath(hostile["site"]) + os.sep), path
        for name in filenames:
            with open(os.path.join(dirpath, name), "rb") as fh:
                assert secret not in fh.read(), name


def test_build_opens_nothing_outside_the_brain(hostile, opened, tmp_path):
    from builder.build import build
    with opened.record() as seen:
        build([hostile["brain"]], tmp_path / "site", now="2026-12-02T12:00:00Z", pagefind=False)
    # Besides the brain and the output, only the build's own temporary folders (lunr, pagefind).
    scratch = re.compile(re.escape(tempfile.gettempdir()) + r"/(tmp|bf-)[^/]*(/|$)")
    assert [(e, p) for e, p in opened.outside(seen, [hostile["brain"], tmp_path]) if not scratch.match(p)] == []
    assert not any(str(hostile["outside"]) in p for _, p in seen)


def test_bf_check_lists_the_problems_as_json(hostile, bf):
    code, out, err = bf("check", hostile["brain"])
    assert code == 1 and err == ""
    body = json.loads(out)
    assert body["count"] == len(body["problems"]) >= len(hostile["expected"]["problems"])


def test_links_to_hostile_names_reach_built_pages(hostile):
    """index.md links every odd file name; each rendered href names a file of the site."""
    from urllib.parse import unquote, urlsplit
    page = hostile["site"] / "brain" / "index.html"
    html = page.read_text(encoding="utf-8")
    hrefs = re.findall(r'<a class="internal" href="([^"]+)"', html)
    assert len(hrefs) >= len([n for n in hostile["expected"]["notes"] if n.startswith("odd/")])
    for href in hrefs:
        target = (page.parent / unquote(urlsplit(href).path)).resolve()
        assert target.is_file(), href
