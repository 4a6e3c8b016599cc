"""bf search: query syntax, matching, ranking, filters, item shape, reply shape (docs/replies.md#bf-search)."""
from __future__ import annotations

import json

import pytest

from builder.cli import main
from builder.kernel.errors import InvalidInput
from builder.query.store import open_store
from builder.query.search import parse_query, search, types
from search_fixtures import site, site_dir


def refs_of(reply):
    return [i["ref"] for i in reply["items"]]


def test_query_length_limit():
    assert search(site(), "word " * 819 + "a")["query"]            # 4096 characters is fine
    with pytest.raises(InvalidInput, match=r"^invalid input: query: longer than 4096"):
        search(site(), "x" * 4097)


@pytest.mark.parametrize("query", ["don't", "type:name", "-x", "a*b", "~", "^", "+", ":", "title:pricing",
                                   "+pricing -tiers", "pricing~2", "pric*", "pricing^10", '"', '"unclosed',
                                   "person:alice", "::", "*"])
def test_no_lunr_syntax_is_an_error(query):
    reply = search(site(), query)
    assert isinstance(reply["items"], list)


def test_operators_are_text():
    # `title:pricing` is the words "title" and "pricing" (":" separates), never a field query
    assert search(site(), "title:pricing")["items"] == search(site(), "title pricing")["items"]
    # a leading hyphen separates like any hyphen: "-tiers" is the word "tiers", not an exclusion
    assert "concepts/pricing-tiers.md" in refs_of(search(site(), "pricing -tiers"))


def test_phrase_demands_order():
    assert refs_of(search(site(), '"visitors want"'))[0] == "brief:2026-12-01-standup"
    assert search(site(), '"want visitors"')["items"] == []
    # the phrase words are required like any word; other words stay words
    assert "brief:2026-12-01-standup" in refs_of(search(site(), 'standup "clear explanation"'))


def test_parse_query():
    assert parse_query('The "Pricing tiers" of x') == ([("price", "price"), ("tier", "tier"), ("x", "x")],
                                                       [["price", "tier"]])
    assert parse_query('"Café" Malmö') == ([("café", "cafe"), ("malmö", "malmo")], [["café"]])


def test_all_words_first():
    reply = search(site(), "pricing tiers", limit=50, mode="lexical")
    assert refs_of(reply)[0] == "concepts/pricing-tiers.md"
    # the items holding every word in their own text come first, then the page fills with the others
    every = search(site(), "pricing tiers", limit=50, mode="lexical", scope="memories")["items"]
    held = ["pric" in i["excerpt"].lower() and "tier" in i["excerpt"].lower() for i in every]
    assert True in held and False in held
    assert held == sorted(held, reverse=True)
    assert reply["total"] >= len(reply["items"]) > 0


def test_any_word_when_nothing_holds_all():
    reply = search(site(), "prcing tiers")
    assert refs_of(reply)[0] == "concepts/pricing-tiers.md"
    assert search(site(), "pricing zzqx")["items"]            # one unknown word does not empty the reply


def test_any_word_ranks_by_score():
    # no item holds "zzqx": every hit is an any-word one, ranked by score alone (not by how many
    # words it holds), so one rare word can outrank two common ones
    reply = search(site(), "footer midnight zzqx", limit=50, mode="lexical")
    scores = [i["score"] for i in reply["items"]]
    assert len(scores) > 2 and scores[:5] == sorted(scores[:5], reverse=True)
    assert {"chat:2026-10-31-halloween-bug", "issues:new-website#29"} <= set(refs_of(reply))


def test_stemming_and_stop_words():
    assert "brief:2026-12-01-standup" in refs_of(search(site(), "explanations"))
    assert search(site(), "the of and")["items"] == []


def test_deprecated_ranks_last():
    reply = search(site(), "brand refresh", limit=50)
    assert reply["items"][-1]["ref"] == "projects/brand-refresh.md"
    assert reply["items"][0]["ref"] != "projects/brand-refresh.md"


def test_one_item_per_note_and_sections():
    reply = search(site(), "launch", limit=50)
    notes = [i["path"] for i in reply["items"] if i["kind"] != "record"]
    assert len(notes) == len(set(notes))
    # a section replaces its note when it outranks it
    assert refs_of(search(site(), "who owns the blog archive"))[0] == "projects/new-website.md#who-owns-the-blog-archive"


def test_order_is_deterministic_and_documented():
    a, b = search(site(), "website", limit=50), search(site(), "website", limit=50)
    assert a == b
    # not deprecated first; then by tier (the index's), then score (all-words mode: every item
    # holds every word)
    store = open_store(site(), "brain")
    tiers = {ref: tier for ref, _, _, tier in store.reader.search(["website"], True)}
    key = [(i["ref"] == "projects/brand-refresh.md", tiers[i["ref"]], -i["score"]) for i in a["items"]]
    assert key == sorted(key)
    assert {k[1] for k in key} == {1, 2}     # "website" is in titles, and in bodies


@pytest.mark.parametrize("limit", [0, 51, -1, True, "3", 2.0])
def test_limit_outside_range(limit):
    with pytest.raises(InvalidInput, match="^invalid input: limit: "):
        search(site(), "website", limit=limit)


def test_limit():
    assert len(search(site(), "website", limit=1)["items"]) == 1
    assert len(search(site(), "website", limit=50)["items"]) <= 50
    assert len(search(site(), "website")["items"]) == 10


def test_type_is_exact():
    reply = search(site(), "website", type="project", limit=50)
    assert reply["items"] and {i["type"] for i in reply["items"]} == {"project"}
    assert search(site(), "website", type="Project")["items"] == []


def test_path_prefix_combines_with_scope():
    reply = search(site(), "launch", path="actions/", limit=50)
    assert reply["items"] and all(i["path"].startswith("actions/") for i in reply["items"])
    reply = search(site(), "preview", path="memories/deploys/", scope="memories", limit=50)
    assert reply["items"] and all(i["source"] == "deploys" for i in reply["items"])


def test_item_shape():
    reply = search(site(), "workshop", limit=50)
    kinds = {i["kind"] for i in reply["items"]}
    assert kinds == {"note", "section", "record"} or kinds >= {"note", "record"}
    for item in reply["items"]:
        for key in ("kind", "brain", "ref", "uri", "title", "excerpt", "score", "type", "path", "tags",
                    "fields", "entities", "modified"):
            assert key in item, key
        assert item["uri"].startswith("bf://brain/")
        assert len(item["title"]) <= 200 and len(item["excerpt"]) <= 320
        if item["kind"] == "record":
            assert {"source", "time", "observed"} <= set(item)
            assert item["path"].startswith(f"memories/{item['source']}/")


def test_record_fields_keep_observed_apart():
    item = search(site(), "pinned")["items"][0]
    assert item["ref"] == "chat:pinned-message"
    assert item["time"] is None and item["observed"] == "2026-11-30T10:00:00Z"


def test_excerpt_holds_query_words_in_context():
    item = search(site(), "stakeholder demo")["items"][0]
    assert "demo" in item["excerpt"].lower()
    big = search(site(), "transcript")["items"][0]
    assert big["ref"] == "chat:2026-11-19-workshop-transcript"
    assert len(big["excerpt"]) <= 320 and big["excerpt"].endswith("…")


def test_entities_published():
    item = search(site(), "hallway test hero")["items"][0]
    assert item["ref"] == "chat:2026-11-18-hero-feedback" and item["entities"] == ["person:carol"]
    export = next(i for i in search(site(), "hero export", limit=50)["items"] if i["ref"] == "chat:2026-11-30-late-hero-export")
    assert export["entities"] == ["person:carol", "repo:github.com/example/new-website"]
    alice = search(site(), "Alice Martin")["items"][0]
    assert alice["entities"][0] == "person:alice"


def test_reply_shape():
    reply = search(site(), "website")
    assert reply["as_of"] == "2026-12-02T12:00:00Z" and reply["brains"] == ["brain"]
    assert reply["query"] == "website" and reply["scope"] is None and reply["scope_empty"] is False
    assert reply["total"] >= len(reply["items"])
    assert "stale" not in reply        # the brain did not change since the build


def test_stale_notice(tmp_path):
    import shutil
    from builder.build import build
    from builder.query.site import open_site
    from search_fixtures import NOW, ROOT
    brain = tmp_path / "brain"
    shutil.copytree(ROOT / "examples" / "brain", brain)
    build([brain], tmp_path / "site", now=NOW, pagefind=False)
    (brain / "projects" / "new-website.md").write_text("# changed\n")
    reply = search(open_site(tmp_path / "site"), "website")
    assert reply["stale"]["changed"] == 1 and "bf build" in reply["notice"]


def test_unknown_brain():
    with pytest.raises(InvalidInput, match="brain"):
        search(site(), "website", brains=["nope"])


def test_types():
    reply = types(site())
    assert reply["types"][0] == {"type": "concept", "count": 7}
    counts = [t["count"] for t in reply["types"]]
    assert counts == sorted(counts, reverse=True)
    assert {"type": "project", "count": 5} in reply["types"]


def test_cli(capsys):
    assert main(["search", "pricing tiers", "--site", str(site_dir()), "--limit", "2", "--dense"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert len(reply["items"]) == 2 and "null" not in json.dumps(reply)
    assert main(["search", "x" * 4097, "--site", str(site_dir())]) == 2
    err = json.loads(capsys.readouterr().err)
    assert err["code"] == "invalid_input" and err["error"].startswith("invalid input: query: ")
    assert main(["search", "x", "--limit", "0", "--site", str(site_dir())]) == 2
    assert main(["search", "x", "--limit", "ten", "--site", str(site_dir())]) == 2
    capsys.readouterr()
    assert main(["search", "--site", str(site_dir()), "--", "-x"]) == 0
    capsys.readouterr()
    assert main(["types", "--site", str(site_dir())]) == 0
    assert json.loads(capsys.readouterr().out)["types"]
