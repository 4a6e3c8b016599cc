"""docs/replies.md#review-signals: who gets reminders, and each review signal."""
import pytest


def signals(views_read, ref):
    reply = views_read(ref)
    return reply.get("review"), reply.get("signals")


def test_project_defaults_to_30d_and_goes_stale(views_read):
    reply = views_read("projects/old.md")
    assert reply["stale_after"] == "30d"
    assert reply["signals"] == ["stale"] and reply["review"] is True


def test_recent_project_without_evidence_asks_nothing(views_read):
    assert signals(views_read, "projects/amb.md") == (False, [])


def test_stale_after_on_any_note_gets_reminders(views_read):
    assert signals(views_read, "concepts/watched.md") == (True, ["stale"])


@pytest.mark.parametrize("ref", ["index.md", "log.md", "actions/do/attach.md", "projects/gone.md", "concepts/plain.md"])
def test_never_reminded(views_read, ref):
    reply = views_read(ref)
    assert "review" not in reply and "signals" not in reply


def test_newer_evidence_counts_event_time_after_edit_not_observation_nor_future(views_read):
    reply = views_read("projects/evidence.md")
    # chat:after happened after the edit; chat:collected-late happened before it (observed after);
    # chat:future has not happened yet.
    assert reply["newer_evidence"] == ["bf://vb/chat:after"]
    assert "newer_evidence" in reply["signals"]


def test_newer_evidence_through_a_claimed_identity(views_read):
    reply = views_read("projects/identity.md")
    assert reply["newer_evidence"] == ["bf://vb/chat:repo"]


def test_new_links_only_from_items_made_after_the_edit(views_read):
    reply = views_read("projects/linked.md")
    assert reply["new_links"] == ["bf://vb/notes/linker.md"]     # old-linker was made before the edit
    assert reply["signals"] == ["new_links"]


def test_link_through_ambiguous_name_counts_for_none(views_read):
    assert views_read("projects/amb.md")["new_links"] == []
    assert views_read("concepts/amb2.md").get("new_links") is None   # gets no reminders at all


def test_signals_on_folder_listing_and_home(views_read):
    items = {i["ref"]: i for i in views_read("projects")["items"]}
    assert items["projects/old.md"]["review"] is True and items["projects/old.md"]["signals"] == ["stale"]
    assert "review" not in items["projects/gone.md"]
    home = views_read("home")["sections"]
    assert {i["ref"] for i in home["reminders"]["items"]} == {
        "concepts/watched.md", "projects/evidence.md", "projects/fresh.md", "projects/identity.md",
        "projects/linked.md", "projects/old.md"}
