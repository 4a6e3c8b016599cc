"""Exact reads of notes, sections and records (docs/replies.md#bf-read), computed from a parsed brain."""
from __future__ import annotations

import hashlib
import json

import pytest

from builder.brain import load
from builder.views import compute
from builder.kernel import text
from builder.views.graph import BACKLINK_CHARS, BACKLINK_LEAD, around, graph
from builder.views.reads import note_reply, record_reply, section_reply

NOW = "2026-12-02T12:00:00Z"
FILES = {
    "brain.toml": 'name = "b"\n[identities]\n"person:alice" = ["Alice"]\n',
    "projects/site.md": (
        "---\ntitle: New website\naliases: [Roadmap, Relaunch]\nentities: [repo:x/site]\n"
        "tags: [web]\nstatus: active\nmodified: 2026-11-30T10:00:00Z\n---\n"
        "Intro [[Alice]] and [[Roadmap]] and [[gone]].\n\n## Decision\n\nWe go. #decided\n\n"
        "### Détails\n\n- [ ] ship 📅 2026-12-10\n\n## Later\n\ntext\n"),
    "concepts/plan.md": "---\naliases: [Roadmap]\nmodified: 2026-11-01T00:00:00Z\n---\n[[New website#Decision]]\n",
    "concepts/other.md": "---\nmodified: 2026-11-01T00:00:00Z\n---\nsee [[Roadmap]]\n",
    "memories/issues/site#12?.json": json.dumps({
        "text": "Fix the logo", "title": "Logo", "time": "2026-12-01T09:00:00Z", "uri": "https://x/12",
        "author": "person:alice", "refs": ["projects/site.md"], "attributes": {"observed": "2026-12-01T10:00:00Z"}}),
}


@pytest.fixture(scope="module")
def brain(tmp_path_factory):
    root = tmp_path_factory.mktemp("reads") / "brain"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    b = load(root)
    return b, graph(b)


NOTE_FIELDS = {"page", "brain", "ref", "uri", "title", "path", "type", "fields", "tags", "aliases", "entities",
               "text", "sha256", "modified", "outline", "backlinks", "claims", "links", "tasks"}


def test_note_read_has_every_field(brain):
    b, g = brain
    note = b.notes["projects/site.md"]
    r = note_reply(b, g, note)
    assert NOTE_FIELDS <= set(r)
    assert (r["page"], r["brain"], r["ref"], r["uri"]) == ("note", "b", "projects/site.md", "bf://b/projects/site.md")
    assert (r["title"], r["path"], r["type"], r["fields"]) == ("New website", "projects/site.md", "project", {"status": "active"})
    assert (r["tags"], r["aliases"], r["entities"]) == (["decided", "web"], ["Roadmap", "Relaunch"], ["repo:x/site"])
    data = FILES["projects/site.md"].encode("utf-8")
    assert r["text"] == FILES["projects/site.md"] and r["sha256"] == hashlib.sha256(data).hexdigest()
    assert r["modified"] == "2026-11-30T10:00:00Z" and "as_of" not in r   # answers add it (query/read.finish)
    assert [(o["ref"], o["title"], o["level"]) for o in r["outline"]] == [
        ("bf://b/projects/site.md#decision", "Decision", 2), ("bf://b/projects/site.md#détails", "Détails", 3),
        ("bf://b/projects/site.md#later", "Later", 2)]
    assert r["tasks"] == [{"ref": "projects/site.md#détails", "line": 17, "text": "ship",
                           "done": False, "due": "2026-12-10"}]


def test_links_resolved_ambiguous_and_broken(brain):
    b, g = brain
    r = note_reply(b, g, b.notes["projects/site.md"])
    assert [(l["target"], l["status"], l["ref"]) for l in r["links"]] == [
        ("Alice", "resolved", "person:alice"), ("Roadmap", "ambiguous", None), ("gone", "broken", None)]


def test_backlinks_carry_relation_and_excerpt_and_ignore_ambiguous_names(brain):
    b, g = brain
    r = note_reply(b, g, b.notes["projects/site.md"])
    # concepts/other.md links [[Roadmap]], which two notes claim: it counts for neither.
    assert [(x["ref"], x["relation"], x["kind"], x["excerpt"]) for x in r["backlinks"]] == [
        ("concepts/plan.md", "links", "note", "New website"),
        ("issues:site#12?", "links", "record", "Fix the logo")]
    other = note_reply(b, g, b.notes["concepts/plan.md"])
    assert other["backlinks"] == []


def test_claims_with_target_ref_and_shared(brain):
    b, g = brain
    claims = {(c["name"], c["kind"]): c for c in note_reply(b, g, b.notes["projects/site.md"])["claims"]}
    assert set(claims) == {("New website", "title"), ("site", "stem"), ("Roadmap", "alias"),
                           ("Relaunch", "alias"), ("repo:x/site", "entity")}
    assert claims[("Relaunch", "alias")] == {"name": "Relaunch", "kind": "alias", "shared": False,
                                             "target_ref": "bf://b/projects/site.md"}
    assert claims[("Roadmap", "alias")]["shared"] is True and claims[("Roadmap", "alias")]["target_ref"] is None
    assert claims[("repo:x/site", "entity")]["target_ref"] == "bf://b/repo:x/site"


def test_section_read_has_its_text_and_the_files_sha(brain):
    b, g = brain
    note = b.notes["projects/site.md"]
    section = note.sections[0]
    r = section_reply(b, g, note, section)
    assert (r["page"], r["ref"], r["uri"], r["title"]) == (
        "section", "projects/site.md#decision", "bf://b/projects/site.md#decision", "New website — Decision")
    assert r["text"] == "## Decision\n\nWe go. #decided\n\n### Détails\n\n- [ ] ship 📅 2026-12-10\n\n"
    assert r["sha256"] == note.sha256 == hashlib.sha256(FILES["projects/site.md"].encode()).hexdigest()
    assert [o["ref"] for o in r["outline"]] == ["bf://b/projects/site.md#détails"]   # not the section itself
    assert [x["ref"] for x in r["backlinks"]] == ["concepts/plan.md"]


def test_record_read_has_every_field_and_encoded_address(brain):
    b, g = brain
    rec = b.records["issues:site#12?"]
    r = record_reply(b, g, rec)
    assert (r["page"], r["ref"], r["uri"]) == ("record", "issues:site#12?", "bf://b/issues:site%2312%3F")
    assert "text" not in r
    assert r["record"] == {
        "source": "issues", "id": "site#12?", "time": "2026-12-01T09:00:00Z", "observed": "2026-12-01T10:00:00Z",
        "edited": None, "text": "Fix the logo", "title": "Logo", "uri": "https://x/12", "author": "person:alice",
        "refs": ["projects/site.md"], "relations": {}, "priority": None,
        "attributes": {"observed": "2026-12-01T10:00:00Z"}}
    assert r["entities"] == ["person:alice"] and r["modified"] == "2026-12-01T10:00:00Z"
    assert r["sha256"] == hashlib.sha256(FILES["memories/issues/site#12?.json"].encode()).hexdigest()


def test_compute_gives_a_view_per_note_section_and_record(brain):
    b, g = brain
    refs = sorted(v.ref for v in compute(b, NOW, g) if v.pages[0]["page"] in ("note", "section", "record"))
    assert refs == sorted(["projects/site.md", "projects/site.md#decision", "projects/site.md#détails",
                           "projects/site.md#later", "concepts/plan.md", "concepts/other.md", "issues:site#12?"])


def test_a_backlink_excerpt_is_the_linking_line_around_the_link(tmp_path):
    lead, tail = "Some long words before it " * 8, " and then a good deal more text after the link " * 8
    for rel, text in {"a.md": "# A\n\nBody.\n", "b.md": f"# B\n\n{lead}we link [[A]]{tail}\n"}.items():
        (tmp_path / rel).write_text(text, encoding="utf-8")
    b = load(tmp_path)
    g = graph(b)
    (x,) = note_reply(b, g, b.notes["a.md"])["backlinks"]
    assert x["excerpt"].startswith("…") and "we link A and then" in x["excerpt"] and len(x["excerpt"]) <= BACKLINK_CHARS



def test_two_links_on_one_long_line_each_get_the_line_around_their_own_name(tmp_path):
    """Not the excerpt of whichever target the build happened to cut first: a build is the same
    under any hash seed."""
    middle = " and a good deal of text between the two links " * 6
    files = {"alpha.md": "# Alpha\n", "omega.md": "# Omega\n",
             "c.md": f"# C\n\nFirst [[Alpha]]{middle}then [[Omega]] at the end.\n"}
    for rel, text in files.items():
        (tmp_path / rel).write_text(text, encoding="utf-8")
    b = load(tmp_path)
    g = graph(b)
    (to_a,) = note_reply(b, g, b.notes["alpha.md"])["backlinks"]
    (to_b,) = note_reply(b, g, b.notes["omega.md"])["backlinks"]
    assert to_a["excerpt"].startswith("First Alpha and") and "Omega" not in to_a["excerpt"]
    assert to_b["excerpt"].startswith("…") and to_b["excerpt"].endswith("then Omega at the end.")


def test_around_cuts_a_long_line_to_the_link_in_its_context():
    line = "Lead words " * 12 + "then the [[Pricing]] page we wrote, " + "and more after it " * 12
    flat = text.plain(line)
    got = around(flat, "Pricing")
    assert got.startswith("…") and got.endswith("…") and len(got) <= BACKLINK_CHARS
    assert "Pricing page we wrote" in got and got.index("Pricing") <= BACKLINK_LEAD + 1
    assert flat[flat.index(got[1:40]) - 1] == " "      # starts on a word
    assert around("A short [[x]] line", "x") == "A short [[x]] line"
    missing = around("word " * 60, "absent")
    assert missing == text.cut("word " * 60, BACKLINK_CHARS) and not missing.startswith("…")
