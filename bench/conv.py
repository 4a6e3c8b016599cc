"""A generated conversational brain for `scripts/bench --quality` (issue 16).

CHATS chats between two people, one source each, SESSIONS days of about 33 messages apiece
(≥ 300 messages a chat). Words are pseudo-English, Zipf-distributed (gen.vocabulary);
each chat draws its topics (two words), details (two words) and the planted words of its chatter
(two per message) from one pool of POOL content words, so every word recurs. A *fact* is a pair of consecutive
messages: one asks about a topic, the next answers with a detail, as in real chat. A question
asks for the answer message:
- "split" (two thirds): the topic's words and one detail word; the topic sits in the message
  before the answer (the answer repeats one topic word a third of the time);
- "whole": words all in the answer message;
and one more pool word, as a question holds words of its own.
Each topic is also talked about on three other days (a message with its words that answers
nothing), so the answer's day competes with others. The last chat names its sessions with
`thread` and runs them across local midnight, so only the thread keeps a session whole.

Deterministic: generate(root, seed) writes the same files and returns the same questions;
tests/fixtures/conversations.json holds the questions and the files' digest (regenerate with
`python -m bench.conv tests/fixtures/conversations.json`).
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from .gen import _Words, vocabulary

SEED = 16
CHATS = 6
SESSIONS = 12
FACTS = 60           # per chat: 360 questions
POOL = 150           # content words per chat
TIMEZONE = "Europe/Berlin"
NAMES = [("Maria", "Tom"), ("Ana", "Ben"), ("Li", "Sam"), ("Omar", "Eva"), ("Jon", "Ida"), ("Kai", "Noor")]
_START = datetime(2026, 3, 2, 8, tzinfo=timezone.utc)


def _say(rng: random.Random, words: _Words, n: int, plant: list[str]) -> str:
    """About n Zipf words with the planted ones at random places."""
    out = words.take(n)
    for w in plant:
        out.insert(rng.randrange(len(out) + 1), w)
    return " ".join(out).capitalize() + rng.choice((".", "?", "!", "."))


def _chat(rng: random.Random, words: _Words, k: int) -> tuple[list[dict], list[dict]]:
    """(messages [{id, text, time, author, thread?, session}], questions) of chat k."""
    source = f"chat-{k + 1}"
    a, b = NAMES[k]
    # topics, details and chatter share one pool of content words, so every word recurs
    pool = sorted(set(words.content(POOL * 2)))[:POOL]
    topics = [rng.sample(pool, 2) for _ in range(FACTS)]
    details = [rng.sample(pool, 2) for _ in range(FACTS)]
    threaded = k == CHATS - 1
    # per session: blocks of adjacent messages, each message given by its planted words
    plan: list[list[list[list[str]]]] = [[] for _ in range(SESSIONS)]
    facts = []
    for f in range(FACTS):
        s = rng.randrange(SESSIONS)
        facts.append((s, len(plan[s])))
        plan[s].append([list(topics[f]), details[f] + ([topics[f][0]] if rng.random() < 1 / 3 else [])])
        for other in rng.sample([x for x in range(SESSIONS) if x != s], 3):   # the topic talked about elsewhere
            plan[other].append([topics[f] + [rng.choice(pool)]])
    messages, questions, day, at = [], [], _START, {}
    for s in range(SESSIONS):
        # shuffle the chatter in around the facts, keeping each fact's two messages adjacent
        blocks = plan[s] + [[rng.sample(pool, 2)] for _ in range(max(0, 33 - sum(map(len, plan[s]))))]
        order = sorted(range(len(blocks)), key=lambda _: rng.random())
        day += timedelta(days=rng.randint(1, 4))
        t = day + (timedelta(hours=13) if threaded else timedelta(hours=rng.randint(0, 4)))
        for i in order:
            for planted in blocks[i]:
                at[id(planted)] = len(messages)
                t += timedelta(minutes=rng.randint(1, 25))
                mid = f"{t.strftime('%Y%m%dT%H%M%S')}-{len(messages) % 1000:03d}"
                msg = {"id": mid, "text": _say(rng, words, rng.randint(5, 14), planted), "session": s,
                       "time": t.strftime("%Y-%m-%dT%H:%M:%SZ"), "author": f"person:{(a, b)[len(messages) % 2].lower()}"}
                if threaded:
                    msg["thread"] = f"evening-{s + 1}"
                messages.append(msg)
    for f, (s, i) in enumerate(facts):
        answer_words = plan[s][i][1]
        answer = messages[at[id(answer_words)]]
        split = f % 3 != 2
        terms = (topics[f] + [details[f][0]] if split else answer_words) + [rng.choice(pool)]   # + a word of the asker's
        q = rng.choice(("When did we talk about the {}?", "What was said about {}?", "Remind me: {}"))
        questions.append({"chat": source, "query": q.format(" ".join(terms)), "answer": f"{source}:{answer['id']}",
                          "session": s, "kind": "split" if split else "whole"})
    return messages, questions


def generate(root: Path, seed: int = SEED) -> tuple[list[dict], dict[str, int]]:
    """Write the brain under root; return (questions, {record ref: session})."""
    rng = random.Random(seed)
    words = _Words(rng, vocabulary(rng, 3000))
    root = Path(root)
    (root / "memories").mkdir(parents=True, exist_ok=True)
    (root / "brain.toml").write_text(f'name = "conv"\ntitle = "Conversations"\ntimezone = "{TIMEZONE}"\n', "utf-8")
    questions, sessions = [], {}
    for k in range(CHATS):
        messages, qs = _chat(rng, words, k)
        folder = root / "memories" / f"chat-{k + 1}"
        folder.mkdir(exist_ok=True)
        for m in messages:
            rec = {key: m[key] for key in ("text", "time", "author", "thread") if key in m}
            (folder / f"{m['id']}.json").write_text(json.dumps(rec, sort_keys=True), "utf-8")
            sessions[f"chat-{k + 1}:{m['id']}"] = m["session"]
        questions += qs
    return questions, sessions


def digest(root: Path) -> str:
    """sha256 over the brain's files (path and bytes, in path order)."""
    h = hashlib.sha256()
    for p in sorted(Path(root).rglob("*")):
        if p.is_file():
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def main(out: str) -> None:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        questions, sessions = generate(Path(tmp))
        doc = {"about": __doc__.splitlines()[0], "seed": SEED, "records": len(sessions),
               "digest": digest(Path(tmp)), "questions": questions}
    lines = [json.dumps(q, sort_keys=True) for q in doc.pop("questions")]   # one question a line
    head = json.dumps(doc, sort_keys=True)[:-1]
    Path(out).write_text(head + ', "questions": [\n' + ",\n".join(lines) + "\n]}\n", "utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
