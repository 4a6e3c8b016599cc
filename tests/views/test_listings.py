"""docs/replies.md#listings, docs/brain.md#identities: folder, tag, identity and source pages; paging at 50."""
from pathlib import Path

from builder.build import build
from builder.query.read import read
from builder.query.site import open_site

from views_brain import NOW, note, write


def test_folder_lists_notes_at_any_depth_and_reads_with_trailing_slash(views_read):
    reply = views_read("projects/")
    assert reply["page"] == "folder" and reply["ref"] == "projects"
    assert [i["ref"] for i in reply["items"]][:2] == ["projects/amb.md", "projects/done.md"]
    item = reply["items"][0]
    for key in ("ref", "uri", "title", "excerpt", "modified", "fields", "kind"):
        assert key in item
    assert views_read("actions")["folders"] == ["actions/do"]


def test_declared_fields_on_items(views_read):
    items = {i["ref"]: i for i in views_read("projects")["items"]}
    assert items["projects/old.md"]["fields"] == {"status": "active"}


def test_tag_pages_include_parents_of_nested_tags(views_read):
    parent = views_read("tags/website")
    assert [i["ref"] for i in parent["items"]] == ["concepts/plain.md", "concepts/watched.md"]
    assert parent["tags"] == ["website/launch"]
    assert [i["ref"] for i in views_read("tags/website/launch/")["items"]] == ["concepts/watched.md"]


def test_identity_is_case_sensitive(views_read, views_site, bf):
    reply = views_read("person:Alice")
    assert reply["page"] == "identity" and [i["ref"] for i in reply["items"]] == ["chat:repo"]
    code, _, _ = bf("read", "person:alice", "--site", views_site)
    assert code == 3


def test_identity_lists_claiming_notes_and_naming_records(views_read):
    reply = views_read("repo:github.com/x/y")
    assert sorted(i["ref"] for i in reply["items"]) == ["chat:repo", "projects/identity.md"]
    assert reply["claimed_by"] == ["bf://vb/projects/identity.md"]


def test_source_page_newest_first_with_coverage(views_read):
    reply = views_read("memories/chat")
    placed = [i["placed"] for i in reply["items"] if i["placed"]]
    assert placed == sorted(placed, reverse=True)
    assert reply["items"][-1]["ref"] == "chat:nothing"          # no placement: last
    rec = reply["items"][0]
    for key in ("source", "time", "observed"):
        assert key in rec


def test_excerpts_are_at_most_320_chars(tmp_path):
    long = "word " * 400
    root = write(tmp_path / "b", {"a/x.md": note({}, long)})
    build([root], tmp_path / "s", now=NOW, pagefind=False)
    item = read(open_site(tmp_path / "s"), "a")["items"][0]
    assert len(item["excerpt"]) <= 320 and item["excerpt"].endswith("…")


def test_paging_of_120_items(tmp_path):
    root = write(tmp_path / "b", {f"many/n{i:03d}.md": note({"modified": "2026-11-01T00:00:00Z"}) for i in range(120)})
    out = tmp_path / "s"
    build([root], out, now=NOW, pagefind=False)
    site = open_site(out)
    pages = [read(site, "many", offset=o) for o in (0, 50, 100)]
    assert [len(p["items"]) for p in pages] == [50, 50, 20]
    assert [p["next_offset"] for p in pages] == [50, 100, None]
    assert all(p["total"] == 120 for p in pages)
    assert pages[2]["items"][-1]["ref"] == "many/n119.md"
    assert not (out / "b" / "many~~o50.json").exists()   # later pages come from the compact data
