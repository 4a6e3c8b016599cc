"""docs/replies.md#several-brains: listing pages merge across selected brains; exact reads stay per brain."""
import pytest

from builder.build import build
from builder.query.read import read
from builder.query.site import open_site

from views_brain import NOW, note, write


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("two")
    a = write(tmp / "a", {"brain.toml": 'name = "a"', "projects/x.md": note({"modified": "2026-11-01T00:00:00Z"}),
                          "memories/chat/m.json": '{"text": "a", "time": "2026-12-01T10:00:00Z"}'})
    b = write(tmp / "b", {"brain.toml": 'name = "b"', "projects/y.md": note({"modified": "2026-11-02T00:00:00Z"}),
                          "memories/chat/m.json": '{"text": "b", "time": "2026-12-01T11:00:00Z"}'})
    build([a, b], tmp / "s", now=NOW, pagefind=False)
    return open_site(tmp / "s")


def test_folder_merges_and_names_brains(two):
    reply = read(two, "projects")
    assert [(i["brain"], i["uri"]) for i in reply["items"]] == [("a", "bf://a/projects/x.md"), ("b", "bf://b/projects/y.md")]
    assert reply["brains"] == ["a", "b"] and reply["total"] == 2


def test_period_merges_newest_first_with_counts_per_brain(two):
    reply = read(two, "2026-12-01")
    assert [i["uri"] for i in reply["items"]] == ["bf://b/chat:m", "bf://a/chat:m"]
    assert {(c["brain"], c["count"]) for c in reply["counts"]} == {("a", 1), ("b", 1)}


def test_brain_qualified_address_reads_one(two):
    assert [i["ref"] for i in read(two, "bf://a/projects")["items"]] == ["projects/x.md"]
    assert read(two, "projects", brains=["b"])["items"][0]["brain"] == "b"


def test_exact_read_unchanged(two):
    assert read(two, "projects/y.md")["brain"] == "b"


def test_home_merges(two):
    s = read(two, "home")["sections"]
    assert {i["brain"] for i in s["projects"]["items"]} == {"a", "b"}
