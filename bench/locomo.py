"""`scripts/bench --quality --locomo DIR`: recall on real long conversations (LoCoMo).

DIR holds raw LoCoMo files (`26.json` …: `speaker_a`, `speaker_b`, `session_N`,
`session_N_date_time`, `qa`). They are built as one brain:
- one source per chat, `conv` + the file's stem;
- one record per turn: id = `dia_id` with `:` replaced by `-`, text = `SPEAKER: text` plus
  ` [shares a photo: CAPTION]` when `blip_caption` is present, author `person:` + the speaker
  in lower case, time = the session's date + 30 s × the turn's index in it (so turns keep their
  order), `attributes.session` = N.
Questions of categories 1–4 with evidence (evidence strings split on `;`) are searched within
their chat (`memories/convNN`): a turn hit is an evidence turn among the first 10 items, a
session hit an item of an evidence session among the first 5.

Reported per mode, per chat and overall with 95% bootstrap intervals, and leave-one-chat-out:
for each chat, the candidate ranking settings (CANDIDATES) are scored on the other chats, the
best is measured on the held-out chat, and the held-out figures are averaged. A candidate that
would lower a known-item figure (`admit`) is never chosen: bf could not ship it either. The candidates
vary what a search reads at query time (BM25 k1/b per field, the spread factor), so one build
serves them all.
"""
from __future__ import annotations

import json
import random
import re
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path

from builder.query import spread, vector
from builder.query.search import search
from builder.query.site import open_site

MODES_RUN = ("hybrid", "lexical", "semantic")
SAMPLES = 1000   # bootstrap resamples
_WHEN = re.compile(r"(\d{1,2}):(\d{2})\s*([ap]m) on (\d{1,2}) (\w+),? (\d{4})", re.I)


def _instant(text: str) -> datetime:
    """LoCoMo's "1:56 pm on 8 May, 2023" as an instant (read as UTC)."""
    m = _WHEN.search(text)
    if not m:
        raise SystemExit(f"bench: unreadable LoCoMo date {text!r}")
    hour, minute, half, day, month, year = m.groups()
    hour = int(hour) % 12 + (12 if half.lower() == "pm" else 0)
    month_no = datetime.strptime(month[:3], "%b").month
    return datetime(int(year), month_no, int(day), hour, int(minute), tzinfo=timezone.utc)


def _sessions(chat: dict) -> list[tuple[int, list[dict], datetime]]:
    out = []
    for key, turns in chat.items():
        m = re.fullmatch(r"session_(\d+)", key)
        if m and isinstance(turns, list) and turns:
            out.append((int(m[1]), turns, _instant(chat[f"{key}_date_time"])))
    return sorted(out)


def record_id(dia_id: str) -> str:
    return dia_id.strip().replace(":", "-")


def build_brain(src: Path, root: Path, titled: bool = False) -> list[dict]:
    """Write the brain of every LoCoMo file in `src` at `root`; return its questions
    [{chat, query, turns: {record ref}, sessions: {N}}]. `titled`: every record also carries the
    title a chat export gives it, "SPEAKER, session N", shared by all of that speaker's turns
    that day (the titled brain must rank as the untitled one does)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "brain.toml").write_text('name = "locomo"\ntitle = "LoCoMo"\ntimezone = "UTC"\n', "utf-8")
    questions = []
    for path in sorted(Path(src).glob("*.json")):
        chat = json.loads(path.read_text("utf-8"))
        source = f"conv{path.stem}"
        folder = root / "memories" / source
        folder.mkdir(parents=True, exist_ok=True)
        for n, turns, start in _sessions(chat):
            for i, turn in enumerate(turns):
                text = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    text += f" [shares a photo: {turn['blip_caption']}]"
                rec = {"text": text, "author": f"person:{turn['speaker'].lower()}",
                       "time": (start + timedelta(seconds=30 * i)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "attributes": {"session": n}}
                if titled:
                    rec["title"] = f"{turn['speaker']}, session {n}"
                (folder / f"{record_id(turn['dia_id'])}.json").write_text(json.dumps(rec), "utf-8")
        for qa in chat.get("qa", []):
            evidence = [e.strip() for ev in qa.get("evidence") or [] for e in str(ev).split(";") if e.strip()]
            if qa.get("category") not in (1, 2, 3, 4) or not evidence:
                continue
            turns = {f"{source}:{record_id(e)}" for e in evidence}
            sessions = {int(m[1]) for e in evidence if (m := re.match(r"D(\d+)", e.strip()))}
            questions.append({"chat": source, "query": str(qa["question"]), "turns": turns, "sessions": sessions})
    return questions


def _session_of(ref: str) -> int | None:
    m = re.match(r"[^:]*:D(\d+)-", ref)
    return int(m[1]) if m else None


def _hits(site, questions: list[dict], mode: str) -> list[tuple[bool, bool]]:
    rows = []
    for q in questions:
        refs = [i["ref"] for i in search(site, q["query"], scope=f"memories/{q['chat']}", limit=10, mode=mode)["items"]]
        rows.append((bool(q["turns"] & set(refs)), any(_session_of(r) in q["sessions"] for r in refs[:5])))
    return rows


def _interval(values: list[bool], rng: random.Random) -> list[float]:
    n = len(values)
    means = sorted(sum(rng.choices(values, k=n)) / n for _ in range(SAMPLES))
    return [round(means[int(0.025 * SAMPLES)], 4), round(means[int(0.975 * SAMPLES) - 1], 4)]


def _figures(rows: list[tuple[bool, bool]], rng: random.Random | None = None) -> dict:
    n = len(rows)
    turn, session = [a for a, _ in rows], [b for _, b in rows]
    out = {"questions": n, "turn_recall@10": round(sum(turn) / n, 4), "session_recall@5": round(sum(session) / n, 4)}
    if rng is not None:
        out.update(turn_ci95=_interval(turn, rng), session_ci95=_interval(session, rng))
    return out


@contextmanager
def settings(site, store_names, setting: dict):
    """Run searches of `site` with a candidate setting: {"k1": …, "b": …} for the text fields
    (title, aliases, headings, body), {"nb": …} the neighbour field's boost, {"factor": …,
    "head": …} for the spread, {"fit": …} the fusion's weight of a cosine's gap (query/vector.py
    FIT). Query-time only."""
    old = spread.FACTOR, spread.HEAD, vector.FIT
    saved = {}
    try:
        spread.FACTOR, spread.HEAD = setting.get("factor", old[0]), setting.get("head", old[1])
        vector.FIT = setting.get("fit", old[2])
        for name in store_names:
            reader = site.stores[name].reader
            saved[name] = list(reader.params)
            fields = reader.meta["fields"]
            reader.params = [
                (setting.get("k1", k1) if f != "neighbours" else k1,
                 setting.get("b", b) if f != "neighbours" else b,
                 setting.get("nb", boost) if f == "neighbours" else boost, a, scale)
                for f, (k1, b, boost, a, scale) in zip(fields, reader.params)]
            reader._terms.clear()   # postings weigh with the parameters: weigh anew
        yield
    finally:
        spread.FACTOR, spread.HEAD, vector.FIT = old
        for name, params in saved.items():
            reader = site.stores[name].reader
            reader.params = params
            reader._terms.clear()


# The shipped setting ({}) and its neighbours, one knob at a time (and one pair). The fusion's
# (`fit`) changes only hybrid replies: in the other modes it ties the shipped setting.
CANDIDATES = [{}, {"nb": 0.6}, {"nb": 1.0}, {"k1": 0.6}, {"k1": 1.2}, {"b": 0.5}, {"b": 0.15},
              {"factor": 0.3}, {"factor": 0.7}, {"head": 3}, {"head": 10}, {"head": 10, "factor": 0.3},
              {"fit": 1.0}, {"fit": 4.0}]


def report(src: Path, tmp: Path, candidates=None, modes=MODES_RUN, admit=None, titled: bool = False) -> dict:
    """`admit(setting)`: whether a candidate may be chosen at all (bench/quality.py: it keeps the
    known-item sets' figures); the leave-one-chat-out figures choose among those admitted only.
    The semantic arm reads no ranking setting: it is measured on all chats, not left out.
    `titled`: the brain's records carry a shared title each (build_brain)."""
    from builder.build import build
    name = "locomo-titled" if titled else "locomo"
    questions = build_brain(Path(src), tmp / name, titled)
    build([tmp / name], tmp / f"{name}-site", now="2030-01-01T00:00:00Z", pagefind=False)
    site = open_site(tmp / f"{name}-site")
    search(site, "warm", limit=1)   # opens the store
    chats = sorted({q["chat"] for q in questions})
    rng = random.Random(41)
    out: dict = {"questions": len(questions), "chats": chats}
    grid = candidates if candidates is not None else CANDIDATES
    kept = [c for c in grid if admit is None or admit(c)]
    for mode in modes:
        rows = _hits(site, questions, mode)
        per = {c: _figures([r for r, q in zip(rows, questions) if q["chat"] == c], rng) for c in chats}
        out[mode] = {"all": _figures(rows, rng), "per_chat": per}
        if len(chats) > 1 and len(kept) > 1 and mode != "semantic":
            out[mode]["leave_one_chat_out"] = _leave_one_out(site, questions, chats, mode, kept)
            out[mode]["leave_one_chat_out"]["refused"] = [c for c in grid if c not in kept]
    return out


def _leave_one_out(site, questions, chats, mode, grid) -> dict:
    """Per held-out chat: the candidate best on the others (turn + session recall), measured on it."""
    by_setting = []
    for setting in grid:
        with settings(site, list(site.stores), setting):
            by_setting.append(_hits(site, questions, mode))
    held = []
    for chat in chats:
        def score(rows):
            kept = [r for r, q in zip(rows, questions) if q["chat"] != chat]
            return sum(a + b for a, b in kept) / len(kept)
        best = max(range(len(grid)), key=lambda i: (score(by_setting[i]), -i))
        rows = [r for r, q in zip(by_setting[best], questions) if q["chat"] == chat]
        held.append({"chat": chat, "chosen": grid[best], **_figures(rows)})
    n = len(held)
    return {"held_out": held,
            "turn_recall@10": round(sum(h["turn_recall@10"] for h in held) / n, 4),
            "session_recall@5": round(sum(h["session_recall@5"] for h in held) / n, 4)}
