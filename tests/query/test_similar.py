"""bf similar (builder/query/similar.py; issue 17): the notes and records nearest an item by
the vector arm, itself excluded. Parity with the browser: tests/browser/test_parity.py."""
from __future__ import annotations

from pathlib import Path

import pytest

from builder.build import build
from builder.kernel.errors import EmbeddingsMissing, InvalidInput, NotFound
from builder.query.similar import similar
from builder.query.site import open_site
from search_fixtures import site as plain_site

ROOT = Path(__file__).resolve().parents[2]
NOW = "2026-12-02T12:00:00Z"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("similar") / "site"
    build([ROOT / "examples" / "brain"], out, now=NOW, pagefind=False)
    return open_site(out)


def test_nearest_items_in_similarity_order_without_itself(site):
    reply = similar(site, "concepts/pricing-tiers.md", limit=5)
    sims = [i["similarity"] for i in reply["items"]]
    assert len(sims) == 5 and sims == sorted(sims, reverse=True) and reply["total"] > 5
    assert reply["similar_to"]["ref"] == "concepts/pricing-tiers.md" and reply["arms"] == ["vector"]
    assert all(i["score"] == i["similarity"] and i["lexical_score"] is None for i in reply["items"])
    wide = [i["ref"] for i in similar(site, "concepts/pricing-tiers.md", limit=50)["items"]]
    assert "concepts/pricing-tiers.md" not in wide and [i["ref"] for i in reply["items"]] == wide[:5]
    kinds = {i["kind"] for i in similar(site, "concepts/pricing-tiers.md", limit=50)["items"]}
    assert "section" not in kinds and {"note", "record"} <= kinds   # one item per note


def test_a_section_leaves_out_its_note_and_a_record_works_alike(site):
    refs = [i["ref"] for i in similar(site, "projects/pricing-page.md#structure", limit=50)["items"]]
    assert refs and "projects/pricing-page.md" not in refs
    record = similar(site, "bf://brain/chat:2026-11-25-pricing-copy", limit=3)
    assert record["similar_to"]["kind"] == "record" and "chat:2026-11-25-pricing-copy" not in record["items"]


def test_scope_keeps_its_items(site):
    assert all(i["ref"].startswith("projects/") for i in similar(site, "concepts/pricing-tiers.md", scope="projects")["items"])
    chat = similar(site, "concepts/pricing-tiers.md", scope="memories/chat", limit=50)
    assert chat["items"] and all(i["ref"].startswith("chat:") for i in chat["items"]) and chat["total"] == len(chat["items"])
    recent = similar(site, "concepts/pricing-tiers.md", scope="7d", limit=50)
    assert len(recent["items"]) < len(similar(site, "concepts/pricing-tiers.md", limit=50)["items"])


def test_errors():
    with pytest.raises(EmbeddingsMissing) as err:
        similar(plain_site(), "concepts/pricing-tiers.md")
    assert err.value.exit == 6 and "bf similar needs vectors" in err.value.message


def test_unknown_ref_and_bad_limit(site):
    with pytest.raises(NotFound):
        similar(site, "nope.md")
    with pytest.raises(InvalidInput):
        similar(site, "concepts/pricing-tiers.md", limit=51)
