"""bf recall (docs/replies.md#bf-recall): the fold over ranked candidates, unit-tested with crafted lists, and
end to end on the example brain."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from builder.kernel.errors import InvalidInput
from builder.query.recall import MAX_PER_ENTITY, check_budget, disclose, pack, recall
from builder.query.search import search
from builder.query.site import open_site
from builder.query.vector import diversify

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"


def cand(ref: str, size: int, entities=(), excerpt=None) -> dict:
    """A ranked search item whose body is `size` characters long."""
    return {"kind": "note", "brain": "b", "ref": ref, "uri": f"bf://b/{ref}", "title": ref.upper(),
            "excerpt": excerpt if excerpt is not None else f"about {ref}", "entities": list(entities),
            "modified": None, "size": size}


def body(item: dict) -> str:
    return "x" * item["size"]


def refs(reply: dict, part: str) -> list[str]:
    return [m["ref"] for m in reply["memories"][part]]


def test_everything_fits_in_rank_order():
    reply = pack([cand("a", 10), cand("b", 20), cand("c", 30)], 100, body)
    assert refs(reply, "disclosed") == ["a", "b", "c"]
    assert [m["rank"] for m in reply["memories"]["disclosed"]] == [1, 2, 3]
    assert reply["spent_chars"] == 60 and reply["truncated"] is False and reply["memories"]["index_lines"] == []


def test_a_body_exactly_filling_the_budget_is_quoted():
    reply = pack([cand("a", 40), cand("b", 60)], 100, body)
    assert refs(reply, "disclosed") == ["a", "b"] and reply["spent_chars"] == 100


def test_the_fold_continues_past_a_candidate_that_did_not_fit():
    reply = pack([cand("big", 500), cand("small", 30)], 100, body)
    assert refs(reply, "disclosed") == ["small"] and refs(reply, "index_lines") == ["big"]
    line = reply["memories"]["index_lines"][0]
    assert line["rank"] == 1 and line["reason"] == "budget" and line["title"] == "BIG" and line["gist"] == "about big"
    assert reply["truncated"] is True and reply["spent_chars"] == 30


def test_no_candidate_is_promoted_past_a_better_ranked_one():
    # b and c together would fill the budget exactly; rank order still takes a first.
    reply = pack([cand("a", 60), cand("b", 50), cand("c", 50)], 100, body)
    assert refs(reply, "disclosed") == ["a"] and refs(reply, "index_lines") == ["b", "c"]
    # A later candidate is quoted only with what the better ones left.
    reply = pack([cand("a", 50), cand("b", 60), cand("c", 10)], 70, body)
    assert refs(reply, "disclosed") == ["a", "c"] and refs(reply, "index_lines") == ["b"]
    assert [m["rank"] for m in reply["memories"]["disclosed"]] == [1, 3]


def test_spent_chars_never_exceeds_the_budget():
    items = [cand(f"n{i}", size) for i, size in enumerate([7, 300, 12, 99, 1, 0, 45, 160, 3, 88])]
    for budget in (1, 2, 7, 8, 50, 100, 150, 1000):
        reply = pack(items, budget, body)
        assert reply["spent_chars"] == sum(m["chars"] for m in reply["memories"]["disclosed"]) <= budget
        # Every candidate is accounted for exactly once, in rank order.
        ranks = sorted(m["rank"] for part in ("disclosed", "index_lines") for m in reply["memories"][part])
        assert ranks == list(range(1, len(items) + 1))
        assert reply["truncated"] == bool(reply["memories"]["index_lines"])


def test_at_most_two_quoted_memories_per_entity():
    alice, bob = "person:alice", "person:bob"
    items = [cand("a1", 10, [alice]), cand("b1", 10, [bob]), cand("a2", 10, [alice, bob]),
             cand("a3", 10, [alice]), cand("ab", 10, [bob, "repo:x"]), cand("free", 10)]
    seen = []
    reply = pack(items, 10_000, lambda item: seen.append(item["ref"]) or body(item))
    assert MAX_PER_ENTITY == 2
    assert refs(reply, "disclosed") == ["a1", "b1", "a2", "free"]
    # A capped memory still gets its index line, even with budget to spare.
    lines = reply["memories"]["index_lines"]
    assert [(l["ref"], l["reason"]) for l in lines] == [("a3", "entity_cap"), ("ab", "entity_cap")]
    assert reply["truncated"] is True and "a3" not in seen     # a capped body is never loaded


def test_a_memory_not_quoted_does_not_count_towards_its_entity_cap():
    alice = "person:alice"
    items = [cand("huge", 999, [alice]), cand("a1", 5, [alice]), cand("a2", 5, [alice]), cand("a3", 5, [alice])]
    reply = pack(items, 100, body)
    assert refs(reply, "disclosed") == ["a1", "a2"]
    assert [(l["ref"], l["reason"]) for l in reply["memories"]["index_lines"]] == [("huge", "budget"), ("a3", "entity_cap")]


def test_gist_is_one_short_line_of_the_excerpt():
    item = cand("a", 500, excerpt="word  \n " * 100)
    line = pack([item], 10, body)["memories"]["index_lines"][0]
    assert len(line["gist"]) <= 160 and "\n" not in line["gist"] and "  " not in line["gist"]
    assert line["gist"].endswith("…")


def test_details_are_disclosed():
    text = "Intro\n<details>\n<summary>Why not?</summary>\n\nBecause.\n</details>\n<DETAILS open>x</DETAILS>"
    assert disclose(text) == "Intro\n\nWhy not?\n\nBecause.\n\nx"


@pytest.mark.parametrize("bad", [0, -1, 1_000_001, True, 5.5, "10", None])
def test_budget_outside_1_to_a_million_is_invalid(bad):
    with pytest.raises(InvalidInput) as info:
        check_budget(bad)
    assert info.value.message.startswith("invalid input: budget: ")


def test_budget_bounds_are_accepted():
    assert check_budget(1) == 1 and check_budget(1_000_000) == 1_000_000


# End to end on the example brain.

@pytest.fixture(scope="module")
def site(example_site):
    return open_site(example_site)


def ranked(reply: dict) -> list[str]:
    both = reply["memories"]["disclosed"] + reply["memories"]["index_lines"]
    return [m["ref"] for m in sorted(both, key=lambda m: m["rank"])]


def test_recall_follows_search_ranking(site):
    found = search(site, "pricing page", limit=50, mode="lexical")
    reply = recall(site, "pricing page", budget=3000, mode="lexical")
    assert ranked(reply) == [i["ref"] for i in found["items"]] and reply["candidates"] == len(found["items"])
    assert reply["budget"] == 3000 and reply["spent_chars"] <= 3000 and reply["truncated"] is True
    assert reply["query"] == "pricing page" and reply["as_of"] == "2026-12-02T12:00:00Z"


def test_recall_diversifies_the_fused_ranking(site):
    """Hybrid (the default with vectors): the candidates in MMR order, the first unmoved."""
    found = [i["ref"] for i in search(site, "pricing page", limit=50)["items"]]
    got = ranked(recall(site, "pricing page", budget=3000))
    assert got[0] == found[0] and sorted(got) == sorted(found) and got != found


def test_mmr_puts_a_near_duplicate_behind_a_different_item():
    items = ["a", "a-copy", "b", "c"]
    vectors = [(np.array(v), int(np.dot(v, v))) for v in ([9, 1, 0], [9, 1, 1], [1, 9, 0], [0, 0, 0])]
    assert diversify(items, vectors) == ["a", "b", "a-copy", "c"]   # c: no vector, similar to nothing
    assert diversify(items[:2], vectors[:2]) == items[:2]


def test_default_budget_is_16000(site):
    reply = recall(site, "website")
    assert reply["budget"] == 16000 and 0 < reply["spent_chars"] <= 16000


def test_bodies_are_the_precomputed_reads(site, example_site):
    reply = recall(site, "workshop transcript", budget=1_000_000, scope="memories/chat")
    quoted = {m["ref"]: m for m in reply["memories"]["disclosed"]}
    transcript = quoted["chat:2026-11-19-workshop-transcript"]   # a paged record: both pages joined
    raw = json.loads((EXAMPLE / "memories/chat/2026-11-19-workshop-transcript.json").read_text(encoding="utf-8"))
    assert transcript["text"] == raw["text"].strip() and transcript["chars"] == len(transcript["text"])
    assert len(transcript["text"].encode("utf-8")) > 32 * 1024
    assert all(m["kind"] == "record" and m["source"] == "chat" for m in quoted.values())


def test_note_bodies_drop_frontmatter_and_open_details(site):
    reply = recall(site, "keep the old CMS", budget=1_000_000, scope="projects/new-website.md")
    note = next(m for m in reply["memories"]["disclosed"] if m["ref"].startswith("projects/new-website.md"))
    assert not note["text"].startswith("---") and "title: New website" not in note["text"]
    assert "<details>" not in note["text"] and "<summary>" not in note["text"]
    assert "Why not keep the old CMS?" in note["text"] and "PHP version that is out of support" in note["text"]


def test_scopes_work_as_in_search(site):
    for scope in ("memories/brief", "tags/website", "person:alice", "memories/brief/7d"):
        found = search(site, "launch", scope=scope, limit=50)
        assert ranked(recall(site, "launch", scope=scope)) == [i["ref"] for i in found["items"]]


def test_cli_recall(bf, example_site):
    code, out, err = bf("recall", "pricing", "--budget", "2000", "--site", example_site)
    assert code == 0 and err == ""
    assert json.loads(out) == recall(open_site(example_site), "pricing", budget=2000)
    code, out, err = bf("recall", "pricing", "--budget", "0", "--site", example_site)
    assert code == 2 and out == "" and json.loads(err)["error"].startswith("invalid input: budget: ")
    code, _, err = bf("recall", "pricing", "--scope", "7d/2026-12", "--site", example_site)
    assert code == 2 and json.loads(err)["error"].startswith("invalid input: scope: ")
