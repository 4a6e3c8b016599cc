"""Titles weighed by what they say (issue 62): a title that many records of a source share, as a
chat export's "Caroline, session 3" on each of her messages that day, names none of them. It is
left out of the index (views/documents.py shared_titles), so it cannot outweigh what a message
says, nor make a message hold a query word it does not say ("3 tomatoes" is not Ana's message of
session 3); a title one record carries alone stays a title (boost 10)."""
from __future__ import annotations

import json
from pathlib import Path

from builder.brain import load
from builder.build import build
from builder.query.search import search
from builder.query.site import open_site
from builder.views.documents import index_input, shared_titles

NOW = "2026-12-02T12:00:00Z"
# (speaker, session, text): the evidence for "3 tomatoes" is Ben's message of session 2; Ana's
# messages of session 3 hold "tomatoes" too, and their shared title holds the "3".
CHAT = [
    ("Ana", 1, "Ana: Going to the market later, anything you need?"),
    ("Ben", 1, "Ben: Some bread and cheese please."),
    ("Ben", 2, "Ben: I bought 3 tomatoes at the market this morning."),
    ("Ana", 2, "Ana: Only three? We need more for the sauce."),
    ("Ana", 3, "Ana: The tomatoes went into the sauce, it was great."),
    ("Ana", 3, "Ana: Next time buy tomatoes from the farm stand."),
    ("Ben", 3, "Ben: The farm stand closes early on Sundays."),
    ("Ana", 3, "Ana: Then we go on Saturday and buy tomatoes there."),
]
QUERIES = {"3 tomatoes": "chat:m2", "bread and cheese": "chat:m1", "farm stand closes": "chat:m6"}


def _brain(root: Path, titled: bool, retitle: dict | None = None) -> Path:
    (root / "memories" / "chat").mkdir(parents=True, exist_ok=True)
    (root / "brain.toml").write_text('name = "t"\ntitle = "T"\ntimezone = "UTC"\n', "utf-8")
    for i, (speaker, session, text) in enumerate(CHAT):
        rec = {"text": text, "author": f"person:{speaker.lower()}",
               "time": f"2026-03-0{session}T10:{i:02d}:00Z", "attributes": {"session": session}}
        if titled:
            rec["title"] = f"{speaker}, session {session}"
        rec.update((retitle or {}).get(i, {}))
        (root / "memories" / "chat" / f"m{i}.json").write_text(json.dumps(rec), "utf-8")
    return root


def _site(root: Path, titled: bool):
    out = root.parent / f"{root.name}-site"
    build([_brain(root, titled)], out, now=NOW, pagefind=False)
    return open_site(out)


def test_shared_titles_are_those_two_records_carry(tmp_path):
    brain = load(_brain(tmp_path / "b", True, {7: {"title": "Ana on Saturday"}}))
    assert shared_titles(brain.records) == {("chat", "Ana, session 3")}   # m4, m5 (m7 has its own)
    assert shared_titles(load(_brain(tmp_path / "c", True)).records) == {("chat", "Ana, session 3")}
    assert shared_titles(load(_brain(tmp_path / "d", False)).records) == set()


def test_a_shared_title_is_text_and_a_title_of_its_own_a_title(tmp_path):
    brain = load(_brain(tmp_path / "b", True, {7: {"title": "Ana on Saturday"}}))
    docs = {d["ref"]: d for d in index_input(brain)[1]}
    assert docs["chat:m4"]["title"] == "" and docs["chat:m4"]["body"] == CHAT[4][2]
    assert docs["chat:m7"]["title"] == "Ana on Saturday" and docs["chat:m7"]["body"] == CHAT[7][2]
    assert docs["chat:m0"]["title"] == "Ana, session 1"   # the only message of Ana's first session


def test_kept_documents_follow_a_title_that_comes_to_be_shared(tmp_path):
    root = _brain(tmp_path / "b", True, {7: {"title": "Ana on Saturday"}})
    known: dict = {}
    index_input(load(root), known)
    _brain(root, True, {7: {"title": "Ana on Saturday"}, 6: {"title": "Ana on Saturday"}})   # m7's title now shared
    again = load(root)
    kept = sorted(index_input(again, known)[1], key=lambda d: d["ref"])
    fresh = sorted(index_input(again)[1], key=lambda d: d["ref"])
    assert kept == fresh
    assert next(d for d in kept if d["ref"] == "chat:m7")["title"] == ""
    _brain(root, True, {7: {"title": "Ana on Saturday"}})   # and no longer shared
    last = load(root)
    assert sorted(index_input(last, known)[1], key=lambda d: d["ref"]) == sorted(index_input(last)[1], key=lambda d: d["ref"])


def test_a_conversation_titled_speaker_session_ranks_as_untitled(tmp_path):
    plain, titled = _site(tmp_path / "plain", False), _site(tmp_path / "titled", True)
    for mode in ("lexical", "hybrid", "semantic"):
        for query, expect in QUERIES.items():
            ranked = [[i["ref"] for i in search(s, query, scope="memories/chat", limit=10, mode=mode)["items"]]
                      for s in (plain, titled)]
            if mode != "semantic":
                assert ranked[0][0] == ranked[1][0] == expect, (mode, query, ranked)
            assert ranked[1].index(expect) <= ranked[0].index(expect) + 1, (mode, query, ranked)
