"""bench/locomo.py builds LoCoMo's raw files as the brain it documents, and scores
turn and session hits (a small file of the same shape; the real corpus is not in the repository)."""
from __future__ import annotations

import json

from bench import locomo

CHAT = {
    "speaker_a": "Maria", "speaker_b": "John",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": "Maria", "dia_id": "D1:1", "text": "I adopted a puppy named Coco!"},
        {"speaker": "John", "dia_id": "D1:2", "text": "Lovely, send a picture.", "blip_caption": "a small brown dog"},
    ],
    "session_2_date_time": "10:04 am on 2 June, 2023",
    "session_2": [
        {"speaker": "John", "dia_id": "D2:1", "text": "My kickboxing class starts next week."},
        {"speaker": "Maria", "dia_id": "D2:2", "text": "Good luck with kickboxing!"},
    ],
    "qa": [
        {"question": "What is the name of Maria's puppy?", "answer": "Coco", "evidence": ["D1:1"], "category": 1},
        {"question": "What class does John take?", "answer": "kickboxing", "evidence": ["D2:1; D2:2"], "category": 4},
        {"question": "Adversarial?", "answer": "", "evidence": ["D1:2"], "category": 5},
        {"question": "No evidence", "answer": "x", "evidence": [], "category": 2},
    ],
}


def test_brain_and_questions(tmp_path):
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "26.json").write_text(json.dumps(CHAT), "utf-8")
    questions = locomo.build_brain(tmp_path / "raw", tmp_path / "brain")
    folder = tmp_path / "brain" / "memories" / "conv26"
    assert sorted(p.name for p in folder.iterdir()) == ["D1-1.json", "D1-2.json", "D2-1.json", "D2-2.json"]
    rec = json.loads((folder / "D1-2.json").read_text("utf-8"))
    assert rec == {"text": "John: Lovely, send a picture. [shares a photo: a small brown dog]", "author": "person:john",
                   "time": "2023-05-08T13:56:30Z", "attributes": {"session": 1}}
    assert json.loads((folder / "D1-1.json").read_text("utf-8"))["time"] == "2023-05-08T13:56:00Z"
    assert [q["query"] for q in questions] == ["What is the name of Maria's puppy?", "What class does John take?"]
    assert questions[1]["turns"] == {"conv26:D2-1", "conv26:D2-2"} and questions[1]["sessions"] == {2}


def test_report_scores_turns_and_sessions(tmp_path):
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "26.json").write_text(json.dumps(CHAT), "utf-8")
    out = locomo.report(tmp_path / "raw", tmp_path / "work", candidates=[], modes=("lexical",))
    figures = out["lexical"]["all"]
    assert out["questions"] == 2 and figures["turn_recall@10"] == 1.0 and figures["session_recall@5"] == 1.0
    assert out["lexical"]["per_chat"]["conv26"]["questions"] == 2
    lo, hi = figures["turn_ci95"]
    assert lo <= figures["turn_recall@10"] <= hi


def test_leave_one_out_chooses_only_admitted_settings(tmp_path):
    (tmp_path / "raw").mkdir()
    for stem in ("26", "30"):
        (tmp_path / "raw" / f"{stem}.json").write_text(json.dumps(CHAT), "utf-8")
    grid = [{}, {"nb": 0.6}, {"b": 0.5}]
    out = locomo.report(tmp_path / "raw", tmp_path / "work", candidates=grid, modes=("lexical",),
                        admit=lambda setting: "b" not in setting)
    loo = out["lexical"]["leave_one_chat_out"]
    assert loo["refused"] == [{"b": 0.5}]
    assert [h["chat"] for h in loo["held_out"]] == ["conv26", "conv30"]
    assert all(h["chosen"] in grid[:2] for h in loo["held_out"])


def test_known_item_guard_refuses_a_setting_that_loses_a_first_place(tmp_path):
    from bench import quality
    example = json.loads((quality.FIXTURES / "quality.json").read_text("utf-8"))["queries"]
    known = {"example": (quality._site(quality.ROOT / "examples" / "brain", tmp_path),
                         [(q["query"], q["expect"]) for q in example])}
    shipped = {name: quality._known(*pair) for name, pair in known.items()}
    assert quality.keeps_known(known, shipped, {})
    # a low b takes a short record's length bonus away: it falls behind a long section
    assert not quality.keeps_known(known, shipped, {"b": 0.15})
