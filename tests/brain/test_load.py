"""A whole brain folder → Brain (docs/brain.md): records, sources, ignores, drafts, problems, resolution."""
from __future__ import annotations

import json
import os
from datetime import datetime, timezone

import pytest

from builder.brain import load

T = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)


def rec(**fields) -> str:
    return json.dumps(fields)


# --- records and sources ----------------------------------------------------------------------

@pytest.mark.parametrize("rid", ["plain", "issue#12", "why?", "with space", "Käse-日本", "a#b?c d"])
def test_record_ids_keep_any_character_but_slash(make_brain, tmp_path, rid):
    root = make_brain(tmp_path, {f"memories/chat/{rid}.json": rec(text="hi")})
    brain = load(root)
    assert list(brain.records) == [f"chat:{rid}"]
    r = brain.records[f"chat:{rid}"]
    assert (r.source, r.id) == ("chat", rid)


def test_record_fields_and_times(make_brain, tmp_path):
    root = make_brain(tmp_path, {"memories/brief/x.json": rec(
        text="Standup text", title="Standup", time="2026-12-01T09:00:00Z", edited="2026-12-02T08:10:00Z",
        uri="https://chat.example.com/m/1", author="person:alice", refs=["a.md", "repo:x/y"],
        relations={"depends-on": ["repo:x/y"]}, priority="low",
        attributes={"observed": "2026-12-01T09:05:00Z", "channel": "#web"})})
    r = load(root).records["brief:x"]
    assert r.time == T and r.observed == datetime(2026, 12, 1, 9, 5, tzinfo=timezone.utc)
    assert r.modified == datetime(2026, 12, 2, 8, 10, tzinfo=timezone.utc)   # edited wins
    assert (r.title, r.uri, r.author, r.refs, r.priority) == (
        "Standup", "https://chat.example.com/m/1", "person:alice", ("a.md", "repo:x/y"), "low")
    assert r.relations == {"depends-on": ("repo:x/y",)}
    assert r.attributes["channel"] == "#web"


def test_record_modification_falls_back_to_observed_then_time_never_mtime(make_brain, tmp_path):
    root = make_brain(tmp_path, {
        "memories/s/a.json": rec(text="a", time="2026-12-01T09:00:00Z", attributes={"observed": "2026-12-01T10:00:00Z"}),
        "memories/s/b.json": rec(text="b", time="2026-12-01T09:00:00Z"),
        "memories/s/c.json": rec(text="c")})
    brain = load(root)
    assert brain.records["s:a"].modified == datetime(2026, 12, 1, 10, tzinfo=timezone.utc)
    assert brain.records["s:b"].modified == T
    assert brain.records["s:c"].modified is None


def test_record_title_falls_back_to_first_line(make_brain, tmp_path):
    root = make_brain(tmp_path, {"memories/s/a.json": rec(text="\nFirst line\nsecond")})
    assert load(root).records["s:a"].title == "First line"


def test_source_status_file_and_configured_sources(make_brain, tmp_path):
    root = make_brain(tmp_path, {
        "brain.toml": '[sources.email]\ntitle = "Inbox"\ncadence = "1d"\npriority = "low"\n',
        "memories/chat/_source.json": json.dumps({"last_run": "2026-12-01T09:00:00Z", "status": "failed", "error": "401"}),
        "memories/chat/a.json": rec(text="a")})
    brain = load(root)
    assert "chat:_source" not in brain.records
    chat, email = brain.sources["chat"], brain.sources["email"]
    assert (chat.status, chat.last_run, chat.error, chat.configured) == ("failed", T, "401", False)
    assert (email.title, email.cadence_days, email.priority, email.configured) == ("Inbox", 1, "low", True)


# --- ignores and drafts ------------------------------------------------------------------------

def test_dot_files_site_folder_and_bfignore_are_ignored(make_brain, tmp_path):
    root = make_brain(tmp_path, {
        ".bfignore": "# comment\nscratch/\n*.tmp\n/top-only.md\n!keep.tmp\n",
        "a.md": "[[Secret]]", ".hidden/x.md": "x", ".dot.md": "x", "_site/x.md": "x",
        "scratch/Secret.md": "x", "sub/scratch/y.md": "x", "c/auto.tmp": "x", "c/keep.tmp": "x",
        "top-only.md": "x", "sub/top-only.md": "x"})
    brain = load(root)
    assert sorted(brain.notes) == ["a.md", "sub/top-only.md"]
    assert brain.attachments == ("c/keep.tmp",)
    assert [l.status for l in brain.links] == ["broken"]


def test_bfignore_follows_git_on_escapes_and_contents_of_a_folder(make_brain, tmp_path):
    # The .bfignore of docs/brain.md: 'X/**' ignores what X holds, not X, so '!' can re-include;
    # a folder ignored as a whole ('scratch/') cannot be re-entered. '\#' and '\!' are names.
    root = make_brain(tmp_path, {
        ".bfignore": "scratch/\n!scratch/keep.md\n/drafts/**\n!drafts/keep.md\n\\#tag.md\n\\!bang.md\n",
        "scratch/keep.md": "x", "drafts/keep.md": "x", "drafts/new.md": "x", "drafts/sub/keep.md": "x",
        "#tag.md": "x", "!bang.md": "x", "a.md": "x"})
    assert sorted(load(root).notes) == ["a.md", "drafts/keep.md"]


def test_brain_toml_is_not_an_attachment(make_brain, tmp_path):
    root = make_brain(tmp_path, {"brain.toml": 'title = "x"\n', "a.md": "x", "img.png": b"\x89PNG"})
    assert load(root).attachments == ("img.png",)


def test_draft_is_absent_everywhere(make_brain, tmp_path):
    root = make_brain(tmp_path, {
        "a.md": "x", "d.md": "---\ndraft: true\naliases: [Dee]\n---\n[[a]] [[nothing]]\n",
        "memories/s/r.json": rec(text="t", refs=["d.md"])})
    brain = load(root)
    assert "d.md" not in brain.notes and "Dee" not in brain.names and "d" not in brain.names
    assert all(l.source != "d.md" for l in brain.links)          # its links count for nothing
    assert not any(p.path == "d.md" for p in brain.problems)      # nor are its broken links reported
    assert [l.status for l in brain.links if l.source == "s:r"] == ["broken"]


# --- problems, not crashes ------------------------------------------------------------------------

def test_bad_files_are_skipped_and_reported_while_the_rest_loads(make_brain, tmp_path):
    root = make_brain(tmp_path, {
        "ok.md": "fine", "latin1.md": b"caf\xe9", "fm.md": "---\ntitle: [x\n---\n",
        "memories/s/good.json": rec(text="g"), "memories/s/bad.json": "{nope",
        "memories/s/notext.json": rec(title="t"), "memories/s/list.json": "[1]",
        "memories/s/_source.json": "{bad", "memories/s/n.md": "misplaced"})
    os.symlink(root / "ok.md", root / "link.md")
    os.mkfifo(root / "fifo.md")
    brain = load(root)
    assert list(brain.notes) == ["ok.md"] and list(brain.records) == ["s:good"]
    got = {(p.path, p.kind) for p in brain.problems}
    assert got == {("latin1.md", "encoding"), ("fm.md", "frontmatter"), ("link.md", "symlink"),
                   ("fifo.md", "special_file"), ("memories/s/bad.json", "json"),
                   ("memories/s/notext.json", "record"), ("memories/s/list.json", "json"),
                   ("memories/s/_source.json", "json"), ("memories/s/n.md", "misplaced")}
    for p in brain.problems:
        assert set(p.to_json()) == {"brain", "path", "kind", "message"}
        assert p.brain == "brain" and p.message


def test_symlinked_folder_is_not_followed(make_brain, tmp_path):
    outside = make_brain(tmp_path, {"secret.md": "secret"}, name="outside")
    root = make_brain(tmp_path, {"a.md": "x"})
    os.symlink(outside, root / "linked")
    brain = load(root)
    assert list(brain.notes) == ["a.md"]
    assert [(p.path, p.kind) for p in brain.problems] == [("linked", "symlink")]


# --- resolution (docs/brain.md#links) ------------------------------------------------------------------

def links_of(brain, source):
    return [(l.target, l.status, l.ref) for l in brain.links if l.source == source]


def test_path_then_unique_name(make_brain, tmp_path):
    root = make_brain(tmp_path, {
        "src.md": "[[dir/Page.md]] [[dir/Page]] [[dir/page]] [[Page]] [[Title P]] [[Alias P]] [[Roadmap]] [[none]]",
        "dir/Page.md": "---\ntitle: Title P\naliases: [Alias P, Roadmap]\n---\n",
        "other.md": "---\naliases: [Roadmap]\n---\n"})
    brain = load(root)
    assert links_of(brain, "src.md") == [
        ("dir/Page.md", "resolved", "dir/Page.md"), ("dir/Page", "resolved", "dir/Page.md"),
        ("dir/page", "resolved", "dir/Page.md"),          # paths match case-insensitively, as in Obsidian
        ("Page", "resolved", "dir/Page.md"),              # file stem
        ("Title P", "resolved", "dir/Page.md"), ("Alias P", "resolved", "dir/Page.md"),
        ("Roadmap", "ambiguous", None), ("none", "broken", None)]
    assert brain.names["Roadmap"] == ("dir/Page.md", "other.md")


def test_path_wins_over_a_name_claimed_by_another_note(make_brain, tmp_path):
    root = make_brain(tmp_path, {"src.md": "[[b]]", "b.md": "x", "c.md": "---\naliases: [b]\n---\n"})
    assert links_of(load(root), "src.md") == [("b", "resolved", "b.md")]


def test_broken_links_are_problems_ambiguous_are_not(make_brain, tmp_path):
    root = make_brain(tmp_path, {"src.md": "x\n[[Dup]] [[Gone]]\n", "a/Dup.md": "x", "b/Dup.md": "x"})
    problems = [(p.path, p.kind, p.message) for p in load(root).problems]
    assert problems == [("src.md", "broken_link", "line 2: 'Gone' resolves to nothing")]


def test_markdown_images_and_links_to_missing_files_are_broken_links_like_embeds(make_brain, tmp_path):
    root = make_brain(tmp_path, {
        "notes/src.md": "x\n![[gone.png]] ![d](../attachments/missing.svg) ![ok](../attachments/ok.png)\n\n"
                        "[r](files/report.pdf) [s](files/sp%20ace.pdf#p2) [w](https://x.org/a.pdf) [a](#top) "
                        "[out](../../x.png) [big](../big.md) [n](../b.md) [u](../active.html)\n",
        "attachments/ok.png": b"png", "notes/files/sp ace.pdf": b"pdf", "b.md": "x", "active.html": "<p>"})
    brain = load(root)
    problems = [(p.path, p.kind, p.message) for p in brain.problems if p.path == "notes/src.md"]
    assert problems == [
        ("notes/src.md", "broken_link", "line 2: '../attachments/missing.svg' resolves to nothing"),
        ("notes/src.md", "broken_link", "line 2: 'gone.png' resolves to nothing"),
        ("notes/src.md", "broken_link", "line 4: 'big.md' resolves to nothing"),
        ("notes/src.md", "broken_link", "line 4: 'files/report.pdf' resolves to nothing")]
    assert [l.target for l in brain.links] == ["gone.png", "big.md", "b.md"]   # files are not graph links


def test_records_identities_and_attachments(make_brain, tmp_path):
    root = make_brain(tmp_path, {
        "brain.toml": '[identities]\n"person:alice" = ["Alice"]\n',
        "src.md": "[[chat:a#1]] [[Alice]] [[person:bob]] ![[pic.png]] ![[sub/pic.png]]",
        "sub/pic.png": b"png", "memories/chat/a#1.json": rec(text="t", author="person:alice")})
    brain = load(root)
    # [[chat:a#1]] reads as target "chat:a", heading "1"; the record id holding '#' still wins.
    assert links_of(brain, "src.md") == [
        ("chat:a", "resolved", "chat:a#1"), ("Alice", "resolved", "person:alice"),
        ("person:bob", "resolved", "person:bob"), ("pic.png", "resolved", "sub/pic.png"),
        ("sub/pic.png", "resolved", "sub/pic.png")]
    assert links_of(brain, "chat:a#1") == [("person:alice", "resolved", "person:alice")]


@pytest.mark.parametrize("pattern, path, is_dir, ignored", [
    ("*.tmp", "a/b/c.tmp", False, True),
    ("notes/*.md", "notes/x.md", False, True),
    ("notes/*.md", "notes/sub/x.md", False, False),       # '*' stays in one folder
    ("notes/**/x.md", "notes/x.md", False, True),
    ("notes/**/x.md", "notes/a/b/x.md", False, True),
    ("**/tmp", "a/b/tmp", True, True),
    ("/top.md", "top.md", False, True),
    ("/top.md", "sub/top.md", False, False),
    ("build/", "build", False, False),                    # dir-only rule, file of that name
    ("build/", "x/build", True, True),
    ("draft-?.md", "draft-1.md", False, True),
    ("draft-[0-9].md", "draft-7.md", False, True),
    ("draft-[!0-9].md", "draft-7.md", False, False),
])
def test_bfignore_patterns(pattern, path, is_dir, ignored):
    from builder.brain.discover import Ignore
    assert Ignore([pattern]).ignored(path, is_dir) is ignored


def test_bfignore_negation_order():
    from builder.brain.discover import Ignore
    rules = Ignore(["*.md", "!keep.md"])
    assert rules.ignored("a.md", False) and not rules.ignored("keep.md", False)
