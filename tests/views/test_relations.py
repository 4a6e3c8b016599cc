"""Relation pages (docs/replies.md#relations)."""


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


def test_an_identitys_relation_lists_hold_only_items_it_lists_itself(example_site):
    """Why an identity page shows its relation lists on demand (templates/listing.html `deferred`):
    every item linking to an identity, through any relation, is on the identity's own list."""
    from builder.query.read import read
    from builder.query.site import open_site
    site = open_site(example_site)

    def refs(ref, rel=None):
        out, offset = [], 0
        while offset is not None:
            reply = read(site, ref, rel=rel, offset=offset)
            out += [i["ref"] for i in reply["items"]]
            offset = reply["next_offset"]
        return out

    checked = 0
    for identity in ("person:alice", "person:bob", "person:carol", "service:morning-brief",
                     "repo:github.com/example/new-website"):
        own = set(refs(identity))
        for relation in site.brains[0]["relations"]:
            listed = refs(identity, relation)
            checked += len(listed)
            assert set(listed) <= own, (identity, relation)
    assert checked > 10
