"""The search contract in every mode (docs/replies.md, "Matching and ranking"): a quoted span
demands its words in that order, the vector arm's own candidates included; a deprecated item
comes after every item that is not; a fused reply's scores are one scale, and an item holding the
words weighs its words' score by its cosine. The brain is
tests/fixtures/contract: only "clear explanation" occurs, zebra-old.md is deprecated and
offsite.md shares no word with "zebra crossing" (the vector arm adds it); of "budget review
meeting", review-meeting.md holds every word, review-garden.md two (and is far from the query's
vector), finance-meeting.md one (and is near it); of the records of memories/talk, a.json (by
person:erin) names Dana and holds the garage door twice, b.json is by person:dana."""
from __future__ import annotations

from pathlib import Path

import pytest

from builder import MODES
from builder.build import build
from builder.query import vector
from builder.query.search import search
from builder.query.site import open_site
from builder.query.who import people

BRAIN = Path(__file__).resolve().parents[1] / "fixtures" / "contract"


@pytest.fixture(scope="module")
def contract_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("contract") / "site"
    build([BRAIN], out, now="2026-12-02T12:00:00Z", pagefind=False)
    return open_site(out)


@pytest.mark.parametrize("mode", MODES)
def test_a_phrase_demands_its_words_in_order(contract_site, mode):
    reply = search(contract_site, '"explanation clear"', mode=mode)
    assert reply["items"] == [] and reply["arms"] == {"hybrid": ["lexical", "vector"], "lexical": ["lexical"],
                                                      "semantic": ["vector"]}[mode]
    held = search(contract_site, '"clear explanation"', mode=mode)["items"]
    assert [i["ref"] for i in held] == ["pricing-copy.md"]


@pytest.mark.parametrize("mode", MODES)
def test_deprecated_comes_after_every_other_item(contract_site, mode):
    items = search(contract_site, "zebra crossing", mode=mode)["items"]
    flags = [i["ref"] == "zebra-old.md" for i in items]
    assert True in flags and flags == sorted(flags)
    if mode != "lexical":   # the arm's own candidate is there, before the deprecated note
        assert [i["ref"] for i in items] == ["zebra-new.md", "offsite.md", "zebra-old.md"]


def test_a_fused_score_is_one_scale(contract_site):
    items = search(contract_site, "zebra crossing", mode="hybrid")["items"]
    added = [i for i in items if i["lexical_score"] is None]
    assert added, "the vector arm added offsite.md"
    top = 1 / (vector.K + 1)   # a weighted mean of reciprocal ranks
    assert all(0 < i["score"] <= top for i in items)
    worded = [i["score"] for i in items if i["lexical_score"] is not None]
    assert min(worded) / 2 < added[0]["score"] < max(worded) * 2


def test_an_item_holding_enough_words_stays_before_the_vector_arms_order(contract_site):
    """An any-word item holding two of three words is strong even when another item holds every
    word: the vector arm re-ranks it among the strong items, never behind one holding one word."""
    order = ["review-meeting.md", "review-garden.md", "finance-meeting.md"]
    assert [i["ref"] for i in search(contract_site, "budget review meeting", mode="lexical")["items"]] == order
    hybrid = search(contract_site, "budget review meeting", mode="hybrid")["items"]
    assert [i["ref"] for i in hybrid][:3] == order   # then the arm's additions
    assert hybrid[1]["similarity"] < hybrid[2]["similarity"]   # the vector arm alone would swap them


def test_an_item_holding_the_words_weighs_its_words_score_by_its_cosine(contract_site):
    """Among the items holding the words (review-meeting.md, review-garden.md), the fused score is
    the lexical score over the best one's, divided by 1 + FIT × the cosine's gap to the best
    one's, on the reciprocal ranks' scale (docs/replies.md, "Matching and ranking")."""
    strong = search(contract_site, "budget review meeting", mode="hybrid")["items"][:2]
    words, near = max(i["lexical_score"] for i in strong), max(i["similarity"] for i in strong)
    for item in strong:
        weighed = item["lexical_score"] / words / (1 + vector.FIT * (near - item["similarity"])) / (vector.K + 1)
        assert item["score"] == weighed


def test_a_person_the_query_names_is_a_capitalised_word_not_a_stop_word():
    assert people("Did Dana fix it? What did DANA and Erin's 2 dogs say") == ["person:dana", "person:erin"]
    assert people("did dana fix the garage door") == []


@pytest.mark.parametrize("mode", ["lexical", "hybrid"])
def test_an_item_by_the_person_the_query_names_weighs_more(contract_site, mode):
    """b.json holds fewer of the words than a.json but is by Dana: a question naming Dana asks
    first what Dana said (query/who.py); the lower-case word names no one."""
    refs = [i["ref"] for i in search(contract_site, "Did Dana fix the garage door?", mode=mode)["items"]]
    assert refs[:2] == ["talk:b", "talk:a"]
    refs = [i["ref"] for i in search(contract_site, "did dana fix the garage door", mode=mode)["items"]]
    assert refs[:2] == ["talk:a", "talk:b"]
