"""`scripts/bench --quality`: search quality as one JSON object, per search mode
(lexical, semantic, hybrid) — no timings.

- `conversations`: the generated chats of bench/conv.py (questions and digest in
  tests/fixtures/conversations.json), each question searched within its chat's source
  (`memories/chat-K`, limit 10): turn recall@10 (the answer message is among the 10 items) and
  session recall@5 (an item of the answer's session is among the first 5), for the tuning
  half (chats 1-3, where parameters are chosen), the check half (chats 4-6) and all.
- `example`: the known-item set tests/fixtures/quality.json over examples/brain;
  `multilingual`: every title and alias of tests/fixtures/multilingual as a query for its note;
  `mismatch`: tests/fixtures/mismatch.json, queries sharing no content word with their target,
  its notes added to a generated brain (bench/gen.py) of DISTRACTORS notes.
  These: hit@1, hit@3 and MRR@10 (an item counts as the expected note when it is the note or one
  of its sections).
- `locomo` (with `--locomo DIR`): real long conversations, bench/locomo.py; `locomo_titled`
  (with `--titled` too): the same with a title shared by each speaker's turns of a day.
Needs the repository checkout (the fixtures are not in the package).
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import yaml

from builder import MODES
from builder.bm25 import name_key
from builder.build import build
from builder.query.search import search
from builder.query.site import open_site

from . import conv
from .gen import generate
from .locomo import report as locomo_report
from .locomo import settings

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
NOW = "2026-12-02T12:00:00Z"
TUNE = {"chat-1", "chat-2", "chat-3"}
DISTRACTORS = 1000


def multilingual_known_items() -> tuple[list[tuple[str, str]], set[str]]:
    """([(query, expected note ref)] for every title and alias of the multilingual brain, the
    name keys two notes share)."""
    brain = FIXTURES / "multilingual"
    queries, keys = [], {}
    for path in sorted(brain.rglob("*.md")):
        ref = path.relative_to(brain).as_posix()
        front = yaml.safe_load(path.read_text("utf-8").split("---")[1])
        names = [front["title"], *front.get("aliases", [])]
        queries += [(q, ref) for q in names]
        for name in names + [path.stem]:
            keys.setdefault(name_key(name), set()).add(ref)
    return queries, {k for k, refs in keys.items() if len(refs) > 1}


def mismatch_brain(root: Path) -> list[tuple[str, str]]:
    """Generate the distractor brain at `root` with the mismatch set's notes; return its queries."""
    data = json.loads((FIXTURES / "mismatch.json").read_text("utf-8"))
    generate(root, DISTRACTORS, records_per_note=1)
    for note in data["notes"]:
        path = root / note["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {note['title']}\n\n{note['body']}\n", encoding="utf-8")
    return [(q["query"], q["expect"]) for q in data["queries"]]


def _site(brain: Path, tmp: Path):
    out = tmp / brain.name / "site"
    build([brain], out, now=NOW, pagefind=False)
    return open_site(out)


def _known(site, queries: list[tuple[str, str]]) -> dict:
    """{mode: {queries, hit@1, hit@3, mrr@10}}."""
    out = {}
    for mode in MODES:
        ranks = []
        for query, expect in queries:
            refs = [i["ref"] for i in search(site, query, limit=10, mode=mode)["items"]]
            ranks.append(next((k for k, r in enumerate(refs) if r == expect or r.startswith(expect + "#")), None))
        n = len(ranks)
        out[mode] = {"queries": n, "hit@1": round(sum(r == 0 for r in ranks) / n, 4),
                     "hit@3": round(sum(r is not None and r < 3 for r in ranks) / n, 4),
                     "mrr@10": round(sum(1 / (r + 1) for r in ranks if r is not None) / n, 4)}
    return out


def conversations(tmp: Path, fixture: dict | None = None, modes=MODES) -> dict:
    """{mode: turn recall@10 and session recall@5 of the conversational set, per half and in all}."""
    fixture = fixture or json.loads((FIXTURES / "conversations.json").read_text("utf-8"))
    brain = tmp / "conv"
    _, sessions = conv.generate(brain, fixture["seed"])
    if conv.digest(brain) != fixture["digest"]:
        raise SystemExit("bench: the generated conversations differ from tests/fixtures/conversations.json "
                         "(regenerate it with python -m bench.conv)")
    site = _site(brain, tmp)
    out = {}
    for mode in modes:
        rows = {"tune": [], "check": []}
        for q in fixture["questions"]:
            items = search(site, q["query"], scope=f"memories/{q['chat']}", limit=10, mode=mode)["items"]
            refs = [i["ref"] for i in items]
            session = (q["chat"], q["session"])
            found = {(r.partition(":")[0], sessions[r]) for r in refs[:5]}
            rows["tune" if q["chat"] in TUNE else "check"].append((q["answer"] in refs, session in found))
        rows["all"] = rows["tune"] + rows["check"]
        out[mode] = {half: {"questions": len(r), "turn_recall@10": round(sum(a for a, _ in r) / len(r), 4),
                            "session_recall@5": round(sum(b for _, b in r) / len(r), 4)} for half, r in rows.items()}
    return out


def keeps_known(known: dict, shipped: dict, setting: dict) -> bool:
    """Whether a ranking setting (bench/locomo.py `settings`) keeps every hit@1, hit@3 and MRR of
    the known-item sets `known` ({name: (site, queries)}) in every mode: `shipped`, {name:
    _known(site, queries)}, the shipped setting's."""
    for name, (site, queries) in known.items():
        with settings(site, list(site.stores), setting):
            tried = _known(site, queries)
        if any(tried[m][k] < shipped[name][m][k] for m in tried for k in ("hit@1", "hit@3", "mrr@10")):
            return False
    return True


def report(locomo: str | None = None, titled: bool = False) -> dict:
    with tempfile.TemporaryDirectory(prefix="bf-quality-") as tmp:
        tmp = Path(tmp)
        example = json.loads((FIXTURES / "quality.json").read_text("utf-8"))["queries"]
        mismatch = mismatch_brain(tmp / "mismatch")
        known = {"example": (_site(ROOT / "examples" / "brain", tmp), [(q["query"], q["expect"]) for q in example]),
                 "multilingual": (_site(FIXTURES / "multilingual", tmp), multilingual_known_items()[0]),
                 "mismatch": (_site(tmp / "mismatch", tmp), mismatch)}
        shipped = {name: _known(*pair) for name, pair in known.items()}
        admit = (lambda setting: keeps_known(known, shipped, setting))
        real = {"locomo": locomo_report(Path(locomo), tmp, admit=admit)} if locomo else {}
        if locomo and titled:   # the same chats, every record titled "SPEAKER, session N"
            real["locomo_titled"] = locomo_report(Path(locomo), tmp, candidates=[{}], titled=True)
        return real | {"conversations": conversations(tmp)} | shipped
