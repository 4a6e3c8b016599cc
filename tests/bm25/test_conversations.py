"""Records found through their conversation (issue 16): the `thread` field, conversations by
thread or local day, the neighbour field, the spread of results across conversations, and
Python/node parity on a chat brain (Chromium: tests/browser/test_parity.py over the example's
chat records)."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bench import conv
from builder.brain.records import parse_record
from builder.build import build
from builder.bm25 import index_files
from builder.kernel.packs import unpack
from builder.query import spread as spread_mod
from builder.query.search import search
from builder.query.site import open_site
from builder.views.conversations import Neighbourhood
from builder.brain import load as load_brain
from test_multilingual import python_replies

NOW = "2026-12-02T12:00:00Z"


def _brain(root: Path, records: dict[str, dict], tz: str = "Europe/Berlin") -> Path:
    root.mkdir(parents=True)
    (root / "brain.toml").write_text(f'name = "c"\ntitle = "C"\ntimezone = "{tz}"\n', "utf-8")
    for ref, rec in records.items():
        source, rid = ref.split(":")
        (root / "memories" / source).mkdir(parents=True, exist_ok=True)
        (root / "memories" / source / f"{rid}.json").write_text(json.dumps(rec), "utf-8")
    return root


def test_thread_is_parsed():
    rec = parse_record("chat", "1", b'{"text": "hi", "thread": "standup"}')
    assert rec.thread == "standup"
    assert parse_record("chat", "2", b'{"text": "hi", "thread": 7}').thread is None
    assert parse_record("chat", "3", b'{"text": "hi", "thread": "  "}').thread is None
    assert parse_record("chat", "4", b'{"text": "hi"}').thread is None


def test_conversations_by_thread_else_local_day(tmp_path):
    root = _brain(tmp_path / "brain", {
        "chat:a": {"text": "a", "time": "2026-03-02T22:30:00Z"},   # 23:30 in Berlin: 2 March
        "chat:b": {"text": "b", "time": "2026-03-02T23:10:00Z"},   # 00:10 in Berlin: 3 March
        "chat:c": {"text": "c", "time": "2026-03-02T21:00:00Z"},
        "chat:t1": {"text": "t1", "time": "2026-03-02T23:50:00Z", "thread": "late"},
        "chat:t2": {"text": "t2", "time": "2026-03-02T22:00:00Z", "thread": "late"},
        "chat:u": {"text": "u"},                                   # no thread, no time: alone
        "mail:m": {"text": "m", "time": "2026-03-02T21:05:00Z"},   # another source
    })
    brain = load_brain(root)
    around = Neighbourhood(2)
    numbers = {ref: number for ref, (number, _) in around.update(brain).items()}
    got = sorted([r.ref for r in conv] for conv in around.members.values())
    assert got == [["chat:b"], ["chat:c", "chat:a"], ["chat:t2", "chat:t1"], ["chat:u"], ["mail:m"]]
    # numbered per source, by each conversation's first ref
    assert numbers == {"chat:a": 1, "chat:c": 1, "chat:b": 2, "chat:t1": 3, "chat:t2": 3, "chat:u": 4, "mail:m": 1}


def test_a_kept_neighbourhood_equals_a_fresh_one(tmp_path):
    """Neighbourhood.update after records came, went or changed (text, day, thread) gives what a
    new one gives, and redoes nothing for the same records."""
    from types import SimpleNamespace
    rng = random.Random(5)
    recs = {f"{rng.choice('ab')}:{i:03d}": {"text": f"t{i}", "time": f"2026-03-0{rng.randint(1, 4)}T09:00:00Z"}
            for i in range(40)}
    root = _brain(tmp_path / "brain", recs)
    brain = load_brain(root)
    kept = Neighbourhood(2)
    kept.update(brain)
    for step in range(16):
        ref = rng.choice(sorted(recs))
        source, rid = ref.split(":")
        path = root / "memories" / source / f"{rid}.json"
        if step % 4 == 0:
            path.unlink()
            del recs[ref]
        else:
            rec = {"text": f"new {step}", "time": f"2026-03-0{rng.randint(1, 5)}T0{step % 10}:00:00Z"}
            if step % 4 == 1:
                rec["thread"] = "x"
            if step % 4 == 3:
                ref, path = f"{source}:z{step:02d}", root / "memories" / source / f"z{step:02d}.json"
            recs[ref] = rec
            path.write_text(json.dumps(rec), "utf-8")
        fresh = load_brain(root)   # unchanged records keep their objects, as in a watch build
        brain = SimpleNamespace(config=fresh.config, records={
            r: brain.records[r] if r != ref and r in brain.records else rec for r, rec in fresh.records.items()})
        got = dict(kept.update(brain))
        assert got == Neighbourhood(2).update(brain), step
        assert all(kept.update(brain)[r] is got[r] for r in got)   # the same records: nothing redone


def _chat_site(tmp_path) -> Path:
    """One day of chat whose answer's words are only in the question before it, and the same
    answer text on another day, after an unrelated message."""
    recs = {
        "chat:1": {"text": "Did Maria start the pottery class?", "time": "2026-03-02T09:00:00Z"},
        "chat:2": {"text": "Yes, last Tuesday at the harbour studio.", "time": "2026-03-02T09:01:00Z"},
        "chat:3": {"text": "Lunch is ready.", "time": "2026-03-09T09:00:00Z"},
        "chat:4": {"text": "Yes, last Tuesday at the harbour studio.", "time": "2026-03-09T09:01:00Z"},
    }
    out = tmp_path / "site"
    build([_brain(tmp_path / "brain", recs)], out, now=NOW, pagefind=False)
    return out


def test_neighbour_field_finds_the_answer_to_the_message_before(tmp_path):
    site = open_site(_chat_site(tmp_path))
    refs = [i["ref"] for i in search(site, "pottery class harbour studio", mode="lexical")["items"]]
    # no message holds every word itself, so any word: the answer holds all four through its
    # neighbour field (the question before it), as the question holds the answer's; the same
    # answer on another day holds two
    assert sorted(refs[:2]) == ["chat:1", "chat:2"] and refs[2] == "chat:4"


def test_neighbour_words_do_not_satisfy_the_all_words_rule(tmp_path):
    site = open_site(_chat_site(tmp_path))
    items = search(site, "harbour studio tuesday", mode="lexical")["items"]
    # the two answers hold every word; the messages before them only through their neighbours,
    # so they come after both, whatever their scores
    refs = [i["ref"] for i in items]
    assert sorted(refs[:2]) == ["chat:2", "chat:4"] and len(refs) > 2


def test_neighbour_field_stores_weighted_counts_without_length():
    """±1 texts count twice, ±2 once (scale 2); b = 0, so codes hold no length (FORMAT.md)."""
    doc = {"ref": "c:1", "title": "", "aliases": "", "headings": "", "body": "pottery", "group": "c",
           "neighbours": [["harbour harbour", "class"], ["studio harbour"]], "conversation": 1}
    files = index_files([doc])
    meta = json.loads(files["meta.json"])
    table = {k: v for rel, data in files.items() if rel.startswith("t/") for k, v in json.loads(unpack(data)).items()}
    f = meta["fields"].index("neighbours")
    assert table["harbour"] == [[f, [0], [2 * 2 + 1]]]
    assert table["studio"] == [[f, [0], [1]]] and table["class"] == [[f, [0], [2]]]
    assert meta["lengths"]["neighbours"] == 2 * 3 + 2
    assert json.loads(unpack(files["c/0.json.gz"])) == [1]


def _cand(conv: str, score: float, tier: int = 2) -> tuple:
    return (conv, score, 1, tier)


def test_spread_keeps_the_first_and_puts_another_conversation_second():
    ranked = [_cand("a", 10.0), _cand("a", 9.0), _cand("a", 8.0), _cand("b", 5.0), _cand("b", 4.0), _cand("c", 1.0)]
    out = spread_mod.spread(ranked, lambda c: c[0], lambda c: (0, c[3], -c[2]))
    assert out[0] == ranked[0]                               # the first never moves
    assert spread_mod.FACTOR == 0.5 and spread_mod.HEAD == 5
    assert out[1] == _cand("b", 5.0)                         # b's best (5) beats a's second (9 * 0.5)
    assert out.index(_cand("b", 5.0)) < out.index(_cand("a", 9.0))
    # then a's 4.5 over b's 4 * 0.5; a's 8 * 0.25 ties b's 2 and comes first in rank order;
    # b's 4 takes the fifth place, and c's 1 follows in rank order
    assert [c[1] for c in out] == [10.0, 5.0, 9.0, 8.0, 4.0, 1.0]
    # past the first HEAD places the rest keep their rank order
    longer = ranked[:3] + [_cand("a", 7.0), _cand("a", 6.0)] + ranked[3:]
    out = spread_mod.spread(longer, lambda c: c[0], lambda c: (0, c[3], -c[2]))
    assert [c[1] for c in out] == [10.0, 5.0, 9.0, 8.0, 4.0, 7.0, 6.0, 1.0]
    tiers = [_cand("a", 1.0, tier=1), _cand("a", 0.5, tier=1), _cand("b", 9.0)]
    assert spread_mod.spread(tiers, lambda c: c[0], lambda c: (0, c[3], -c[2])) == tiers   # never across tiers
    assert spread_mod.spread(ranked[:1], lambda c: c[0], lambda c: ()) == ranked[:1]


def test_spread_equals_js(run_node, tmp_path):
    rng = random.Random(16)
    cases = []
    for _ in range(60):
        n = rng.randint(1, 70)   # past POOL too
        ranked = sorted(([f"k{rng.randint(0, 5)}", rng.choice((1.0, 0.5, rng.random() * 9)), rng.randint(1, 2), rng.randint(1, 2)]
                         for _ in range(n)), key=lambda c: (c[3], -c[2], -c[1]))
        cases.append(ranked)
    script = tmp_path / "spread.mjs"
    script.write_text(
        "import { spread } from '" + (Path(spread_mod.__file__).parents[2] / "site/engine/spread.js").as_uri() + "'\n"
        "import { readFileSync } from 'node:fs'\n"
        "const cases = JSON.parse(readFileSync(0, 'utf8'))\n"
        "process.stdout.write(JSON.stringify(cases.map((r) => spread(r, r.map((c) => c[0]), (c) => [0, c[3], -c[2]]))))\n")
    got = run_node(str(script), cases)
    want = [[list(c) for c in spread_mod.spread([tuple(c) for c in r], lambda c: c[0], lambda c: (0, c[3], -c[2]))]
            for r in cases]
    assert got == want
    assert any(w != r for w, r in zip(want, cases))   # the rule moved something


@pytest.fixture(scope="module")
def conv_site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("conv")
    conv.generate(tmp / "brain")
    build([tmp / "brain"], tmp / "site", now=NOW, pagefind=False)
    return tmp / "site"


def test_chat_search_equals_node(conv_site, run_node):
    """Records with neighbours, spread across days and threads, scoped and not: node's engine
    replies like Python's, scores bit for bit."""
    questions = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "conversations.json")
                           .read_text("utf-8"))["questions"]
    calls = [(q["query"], {"scope": f"memories/{q['chat']}"} if k % 2 else {"limit": 50})
             for k, q in enumerate(questions[::6])]
    py = python_replies(conv_site, calls)
    js = run_node("node_site_search.mjs", {"site": str(conv_site), "calls": calls})
    assert js == py
    scores = [[i["score"] for i in r["items"]] for r in py]
    assert any(s != sorted(s, reverse=True) for s in scores)   # the spread reordered replies: parity covers it
