"""Search scopes and source coverage in search replies (docs/replies.md#scopes, docs/replies.md#the-reply)."""
from __future__ import annotations

import pytest

from builder.kernel.errors import InvalidInput
from builder.query.search import search
from search_fixtures import site


def refs_of(reply):
    return [i["ref"] for i in reply["items"]]


def sources_of(reply):
    return [s["source"] for s in reply.get("sources", [])]


ATTENTION = ["deploys", "email", "issues", "survey"]
ALL = ["brief", "calendar", "chat", "deploys", "email", "issues", "survey"]


@pytest.mark.parametrize("scope,why", [
    ("7d/2026-12", "a period cannot be combined with another period"),
    ("memories/brief/7d/7d", "a period cannot be combined with another period"),
    ("tags/website/7d/2026-12", "a period cannot be combined with another period"),
    ("repo:github.com/example/new-website/7d/7d", "a period cannot be combined with another period"),
    ("memories/chat/undated/7d", "undated records have no event time"),
    ("memories/brief/x", "only `undated` or a period may follow memories/brief"),
    ("memories/brief/undated/x", "only `undated` or a period may follow memories/brief"),
    ("memories/brief#x", "a source has no fragments"),
    ("projects/new-website.md#decision", "is a section: scope the whole note"),
    ("bf://brain/projects/new-website.md#decision", "is a section: scope the whole note"),
    ("bf://brain/projects", "is a page's address: use its brain-relative form (projects)"),
    ("bf://brain/7d", "is a page's address: use its brain-relative form (7d)"),
    ("bf://brain/memories/brief", "is a page's address"),
    ("bf://nope/projects/new-website.md", "unknown brain"),
    ("brief:2026-12-01-standup", "is a record, not a scope"),
    ("2026-13", "invalid period: 2026-13"),
    ("projects/367d", "invalid period: 367d"),
    ("home", "home"),
    ("", "home"),
])
def test_invalid_scopes(scope, why):
    with pytest.raises(InvalidInput) as exc:
        search(site(), "website", scope=scope)
    assert exc.value.message.startswith("invalid input: scope: ")
    assert why in exc.value.message


def test_unknown_source_names_close_one():
    with pytest.raises(InvalidInput) as exc:
        search(site(), "standup", scope="memories/breif")
    assert exc.value.message == "invalid input: scope: unknown source: memories/breif (did you mean memories/brief?)"


def test_folder_scope():
    reply = search(site(), "launch", scope="actions", limit=50)
    assert reply["items"] and all(i["path"].startswith("actions/") for i in reply["items"])
    assert search(site(), "launch", scope="actions/", limit=50) | {"scope": None} == reply | {"scope": None}
    assert "sources" not in reply and "sources_omitted" not in reply     # authored folder: notes alone


def test_folder_that_names_a_period_like_year():
    reply = search(site(), "design", scope="meetings/2026")
    assert refs_of(reply) == ["meetings/2026/2026-11-03-design-sync.md"] or \
        all(r.startswith("meetings/2026/") for r in refs_of(reply))
    assert reply["items"]


def test_folder_naming_nothing_is_empty_not_error():
    reply = search(site(), "website", scope="nowhere")
    assert reply["items"] == [] and reply["scope_empty"] is True
    reply = search(site(), "zzqx", scope="nowhere")
    assert reply["scope_empty"] is False           # the scope did not narrow anything: nothing matched at all


def test_note_scope():
    reply = search(site(), "blog", scope="projects/new-website.md", limit=50)
    assert reply["items"] and {i["path"] for i in reply["items"]} == {"projects/new-website.md"}
    addressed = search(site(), "blog", scope="bf://brain/projects/new-website.md", limit=50)
    assert refs_of(addressed) == refs_of(reply)


def test_tag_scope_includes_nested_tags():
    reply = search(site(), "launch", scope="tags/website", limit=50)
    assert reply["items"] and all(any(t == "website" or t.startswith("website/") for t in i["tags"]) for i in reply["items"])
    assert "sources" not in reply
    nested = search(site(), "launch", scope="tags/website/launch", limit=50)
    assert all(any(t.startswith("website/launch") for t in i["tags"]) for i in nested["items"])


def test_memories_and_source_scopes_list_every_searched_source():
    reply = search(site(), "preview", scope="memories", limit=50)
    assert reply["items"] and all(i["kind"] == "record" for i in reply["items"])
    assert sources_of(reply) == ALL and reply["sources_omitted"] == 0
    brief = search(site(), "pricing", scope="memories/brief", limit=50)
    assert brief["items"] and {i["source"] for i in brief["items"]} == {"brief"}
    assert sources_of(brief) == ["brief"] and brief["sources_omitted"] == 0


def test_undated_scope():
    reply = search(site(), "pinned snippet message", scope="memories/chat/undated", limit=50)
    assert set(refs_of(reply)) <= {"chat:pinned-message", "chat:orphan-snippet"} and reply["items"]


def test_source_with_period():
    reply = search(site(), "pricing", scope="memories/brief/7d", limit=50)
    assert reply["items"]
    assert all("2026-11-25T12:00:00Z" <= (i["time"] or i["observed"]) < "2026-12-02T12:00:00Z" for i in reply["items"])
    older = search(site(), "pricing", scope="memories/brief/2026-10", limit=50)
    assert older["items"] == [] and older["scope_empty"] is True


def test_period_scope_uses_placement_time():
    # pinned-message has no event time: observation (30 Nov) places it in 7d
    assert "chat:pinned-message" in refs_of(search(site(), "pinned", scope="7d"))
    # the halloween bug is 31 Oct 23:15Z = 1 Nov in Berlin
    assert "chat:2026-10-31-halloween-bug" in refs_of(search(site(), "footer", scope="2026-11", limit=50))
    assert "chat:2026-10-31-halloween-bug" not in refs_of(search(site(), "footer", scope="2026-10", limit=50))
    # a future event is in no period until it happens
    assert "calendar:2026-12-16-launch-party" not in refs_of(search(site(), "party", scope="2026-12", limit=50))
    # notes are placed by event time, else modification time: log.md (updated 1 Dec) is in 7d,
    # careers-page (modified today, due 2027-01-15) is placed by its due date, in no past period
    assert "log.md#2026-12-01" in refs_of(search(site(), "pricing", scope="7d", limit=50))
    assert "projects/careers-page.md" not in refs_of(search(site(), "careers", scope="today", limit=50))


def test_identity_scope_and_combination():
    reply = search(site(), "preview", scope="repo:github.com/example/new-website", limit=50)
    assert reply["items"] and all("repo:github.com/example/new-website" in i["entities"] for i in reply["items"])
    week = search(site(), "preview", scope="repo:github.com/example/new-website/7d", limit=50)
    assert "deploys:preview-17" in refs_of(week) and "deploys:preview-15" not in refs_of(week)
    assert all("2026-11-25T12:00:00Z" <= i["time"] for i in week["items"])
    assert "sources" in reply                       # records are searched: coverage is shown
    nobody = search(site(), "preview", scope="person:nobody")
    assert nobody["items"] == [] and nobody["scope_empty"] is True


def test_scope_empty_only_when_scope_narrowed():
    assert search(site(), "website")["scope_empty"] is False
    assert search(site(), "zzqx")["scope_empty"] is False
    assert search(site(), "footer", scope="projects")["scope_empty"] is True


def test_coverage_unscoped():
    reply = search(site(), "hallway test hero")
    assert reply["items"][0]["source"] == "chat"
    # sources of returned records plus every source needing attention
    assert set(sources_of(reply)) >= set(ATTENTION) | {"chat"}
    assert reply["sources_omitted"] == len(ALL) - len(reply["sources"])
    needs = {s["source"]: s["status"] for s in reply["sources"] if s["needs_attention"]}
    assert needs == {"deploys": "failed", "email": "never_collected", "issues": "overdue", "survey": "silent"}
    first = reply["sources"][0]
    for key in ("source", "status", "needs_attention", "last_run", "newest"):
        assert key in first


def test_coverage_without_items_lists_every_source():
    reply = search(site(), "zzqx")
    assert reply["items"] == [] and sources_of(reply) == ALL and reply["sources_omitted"] == 0


def test_type_and_path_combine_with_scope():
    reply = search(site(), "launch", scope="tags/website", type="action", limit=50)
    assert reply["items"] and {i["type"] for i in reply["items"]} == {"action"}
    assert search(site(), "launch", scope="tags/website", path="people/")["items"] == []
