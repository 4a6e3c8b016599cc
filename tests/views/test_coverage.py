"""docs/brain.md#_sourcejson: each coverage status."""
import pytest


@pytest.mark.parametrize("source,status", [
    ("chat", "ok"), ("brief", "ok"), ("deploys", "failed"), ("email", "never_collected"),
    ("old", "overdue"), ("feed", "silent"),
])
def test_status(views_read, source, status):
    coverage = views_read(f"memories/{source}")["coverage"]
    assert coverage["status"] == status
    assert coverage["needs_attention"] is (status != "ok")


def test_memories_lists_every_source(views_read):
    reply = views_read("memories")
    assert reply["page"] == "memories"
    assert [i["source"] for i in reply["items"]] == ["brief", "chat", "deploys", "email", "feed", "old"]
    assert all(i["uri"] == f"bf://vb/memories/{i['source']}" for i in reply["items"])


def test_failed_source_keeps_its_error(views_read):
    assert views_read("memories/deploys")["coverage"]["error"] == "401"
