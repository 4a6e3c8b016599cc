"""SPEC §4.4: relation pages."""


def test_relation_page_lists_linking_items(views_read):
    reply = views_read("projects/linked.md", rel="links")
    assert reply["page"] == "relation" and reply["relation"] == "links"
    assert [i["ref"] for i in reply["items"]] == ["notes/linker.md", "notes/old-linker.md"]   # newest first
    assert all(i["excerpt"] for i in reply["items"])
    cites = views_read("projects/linked.md", rel="cites")
    assert [i["ref"] for i in cites["items"]] == ["notes/linker.md"]


def test_valid_unused_relation_is_empty(views_read):
    assert views_read("projects/old.md", rel="cites")["items"] == []


def test_relation_pages_for_records_and_identities(views_read):
    assert [i["ref"] for i in views_read("repo:github.com/x/y", rel="links")["items"]] == ["chat:repo"]
    assert [i["ref"] for i in views_read("person:Alice", rel="author")["items"]] == ["chat:repo"]


def test_unknown_relation_names_valid_choices(views_site, bf):
    code, _, err = bf("read", "projects/linked.md", "--rel", "nope", "--site", views_site)
    assert code == 2
    assert "unknown relation 'nope'" in err and "cites" in err and "links" in err
