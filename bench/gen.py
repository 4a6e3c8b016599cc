"""Synthetic brains for the benchmark (SPEC §11): deterministic for a given seed and size.

Words follow a Zipf law over a pseudo-English vocabulary (real function words at the top
ranks, so stop-word handling is exercised), notes have the folders, frontmatter, sections,
wikilinks, inline tags and tasks of a real brain, and records spread over the year before
`NOW` across sources, some naming notes and identities. `queries(corpus)` is the fixed
query set the benchmark times over it. Three shapes (`SHAPES`): `rich`, the benchmark's own brain
(2–6 sections, five sources, an identity per 20 notes), `issue`, the brain issue 14 measured
SPEC §11's targets on (1–4 sections, chat and issues with four chat records in five, 50 authors),
and `linked`, the issue shape as a person's brain grows dense: every record links a note, every
section holds a task, every note has typed relations, over a 20,000-word vocabulary.
"""
from __future__ import annotations

import json
import random
from bisect import bisect
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from itertools import accumulate
from pathlib import Path

import yaml

NOW = "2026-12-02T12:00:00Z"
_NOW = datetime(2026, 12, 2, 12, tzinfo=timezone.utc)
FUNCTION_WORDS = ("the of and to a in is that for it with as was on be by this we are or at from "
                  "not have but an they which one you were all their there been has will more").split()
_ONSETS = "b bl br c ch cl cr d dr f fl fr g gl gr h j k l m n p pl pr r s sh sl st t th tr v w".split()
_VOWELS = "a e i o u ai ea ee oo ou".split()
_CODAS = ["", "", "n", "r", "s", "t", "l", "nd", "st", "ck", "ng", "rt", "m"]
_SUFFIXES = ["", "", "", "ing", "ed", "er", "ion", "ly", "ness", "ment", "s"]
# (folder, share of notes, type in frontmatter or None when the folder implies it)
FOLDERS = [("projects", 0.05, None), ("actions", 0.10, None), ("concepts", 0.30, "concept"),
           ("people", 0.05, "person"), ("meetings/2026", 0.20, "meeting"), ("events", 0.05, "event"),
           ("areas/ops", 0.10, None), ("areas/design", 0.10, None), ("journal", 0.05, None)]
SOURCES = {"chat": "1d", "issues": "7d", "brief": "1d", "calendar": "1d", "mail": "1d"}


@dataclass(frozen=True)
class Shape:
    """What differs between the benchmark's brains; `rich` draws exactly as before shapes existed."""
    sections: tuple[int, int]
    sources: dict[str, str]
    source_weights: tuple[float, ...] | None = None   # None: a Pareto draw over `sources` in order
    authors: int | None = None                         # None: one identity per 20 notes (at least 8)
    vocabulary: int = 4000
    dense: bool = False    # every record links a note, every section has a task, every note relations

    def people(self, words: "_Words", notes: int) -> list[str]:
        if self.authors is None:
            return sorted({words.content(1)[0] for _ in range(max(8, notes // 20))})
        names: set[str] = set()
        while len(names) < self.authors:
            names.add(words.content(1)[0])
        return sorted(names)

    def source(self, rng: random.Random) -> str:
        names = list(self.sources)
        if self.source_weights is None:
            return names[min(int(rng.paretovariate(1.2)) - 1, len(names) - 1)]
        return rng.choices(names, self.source_weights)[0]


SHAPES = {"rich": Shape((2, 6), SOURCES),
          "issue": Shape((1, 4), {"chat": "1d", "issues": "7d"}, (0.8, 0.2), authors=50),
          "linked": Shape((1, 4), {"chat": "1d", "issues": "7d"}, (0.8, 0.2), authors=50, vocabulary=20000,
                          dense=True)}
RELATIONS = ("depends-on", "cites", "part-of")
HUB_LINKERS = 50   # notes that link the first note by title: the benchmark edits its title (issue 15)


def vocabulary(rng: random.Random, size: int) -> list[str]:
    """Function words first (the most frequent ranks), then distinct pseudo-English words."""
    words, seen = list(FUNCTION_WORDS), set(FUNCTION_WORDS)
    while len(words) < size:
        word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                       for _ in range(rng.choice((1, 1, 1, 2, 2, 3)))) + rng.choice(_SUFFIXES)
        if word not in seen and len(word) > 2:
            seen.add(word)
            words.append(word)
    return words


@dataclass
class Corpus:
    """What the benchmark needs to know about the generated brain, besides its files."""
    root: Path
    vocab: list[str]
    shape: Shape = SHAPES["rich"]
    notes: list[dict] = field(default_factory=list)   # {ref, title, aliases, headings, body, folder, tags}
    tags: list[str] = field(default_factory=list)
    people: list[str] = field(default_factory=list)
    note_bytes: int = 0
    record_bytes: int = 0
    records: int = 0
    phrases: list[str] = field(default_factory=list)  # word pairs that occur in some body
    hub_backlinks: int = 0    # notes linking notes[0] (by title or alias), HUB_LINKERS of them on purpose


class _Words:
    def __init__(self, rng: random.Random, vocab: list[str], exponent: float = 1.05):
        self.rng, self.vocab = rng, vocab
        self.cum = list(accumulate(1.0 / (rank + 1) ** exponent for rank in range(len(vocab))))

    def take(self, n: int) -> list[str]:
        total, cum, vocab, rnd = self.cum[-1], self.cum, self.vocab, self.rng.random
        return [vocab[bisect(cum, rnd() * total)] for _ in range(n)]

    def content(self, n: int) -> list[str]:
        """Words for titles and tags: skip the function words, keep the Zipf skew."""
        out = []
        while len(out) < n:
            out.extend(w for w in self.take(n * 2) if w not in FUNCTION_WORDS)
        return out[:n]


def _instant(rng: random.Random, days: float = 365) -> str:
    t = _NOW - timedelta(seconds=rng.randrange(int(days * 86400)))
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _slug(title: str) -> str:
    return title.lower().replace(" ", "-")


def generate(root: Path, notes: int, records_per_note: int = 5, seed: int = 7, shape: str = "rich") -> Corpus:
    rng = random.Random(seed)
    words = _Words(rng, vocabulary(rng, SHAPES[shape].vocabulary))
    root = Path(root)
    corpus = Corpus(root, words.vocab, SHAPES[shape])
    corpus.tags = sorted({"/".join(words.content(rng.choice((1, 1, 1, 2)))) for _ in range(300)})
    corpus.people = corpus.shape.people(words, notes)
    plan, titles = _plan(rng, words, corpus, notes), set()
    for note in plan:
        while note["title"].lower() in titles:  # names must stay unique, or links go ambiguous
            note["title"] += " " + words.content(1)[0].title()
        titles.add(note["title"].lower())
        note["ref"] = f"{note['folder']}/{_slug(note['title'])}.md"
    names = [(n["title"], n) for n in plan] + [(a, n) for n in plan for a in n["aliases"]]
    hub = plan[0]
    linkers = {id(n) for n in plan[1::max(1, (len(plan) - 1) // HUB_LINKERS)][:HUB_LINKERS]}
    for note in plan:
        text = _note_text(rng, words, corpus, note, names)
        if id(note) in linkers:   # appended without drawing from rng: the rest of the corpus is unchanged
            line = f"See [[{hub['title']}]].\n"
            note["body"] += "\n" + line
            note["links"].add(hub["ref"])
            text += "\n" + line
        path = root / note["ref"]
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        corpus.note_bytes += len(data)
    corpus.notes = plan
    corpus.hub_backlinks = sum(hub["ref"] in n["links"] for n in plan[1:])
    _write_records(rng, words, corpus, notes * records_per_note)
    _write_config(root, corpus)
    return corpus


def _plan(rng, words, corpus, n) -> list[dict]:
    folders = rng.choices([f for f, _, _ in FOLDERS], [w for _, w, _ in FOLDERS], k=n)
    types = {f: t for f, _, t in FOLDERS}
    plan = []
    for folder in folders:
        title = " ".join(words.content(rng.randint(2, 4))).capitalize()
        if folder == "people":
            title = rng.choice(corpus.people).capitalize() + " " + words.content(1)[0].capitalize()
        aliases = [" ".join(words.content(2)).title() for _ in range(rng.choice((0, 0, 0, 1, 1, 2)))]
        plan.append({"folder": folder, "type": types[folder], "title": title, "aliases": aliases,
                     "tags": rng.sample(corpus.tags, rng.choice((0, 1, 2, 3))), "headings": [], "body": "",
                     "links": set()})
    return plan


def _sentence(rng, words, names, tags, linked: set | None = None) -> str:
    parts = words.take(rng.randint(6, 20))
    roll = rng.random()
    if roll < 0.12:  # a wikilink by title or alias, sometimes labelled or to a heading
        name, target = rng.choice(names)
        if linked is not None:
            linked.add(target["ref"])
        link = f"[[{name}]]"
        if rng.random() < 0.2:
            link = f"[[{name}|{' '.join(words.take(2))}]]"
        elif rng.random() < 0.1 and target["headings"]:
            link = f"[[{name}#{rng.choice(target['headings'])}]]"
        parts.insert(rng.randrange(len(parts)), link)
    elif roll < 0.17:
        parts.insert(rng.randrange(len(parts)), "#" + rng.choice(tags))
    text = " ".join(parts)
    return text[0].upper() + text[1:] + "."  # not str.capitalize: it would lower-case link names


def _note_text(rng, words, corpus, note, names) -> str:
    front = {"title": note["title"]}
    if note["type"]:
        front["type"] = note["type"]
    if note["folder"] in ("projects", "actions"):
        front["status"] = rng.choice(("active", "active", "paused", "done"))
        front["priority"] = rng.choice(("high", "medium", "low"))
        front["owner"] = rng.choice(corpus.people).capitalize()
    if note["folder"] == "people":
        front["entities"] = [f"person:{note['title'].split()[0].lower()}"]
    if note["tags"]:
        front["tags"] = note["tags"]
    if note["aliases"]:
        front["aliases"] = note["aliases"]
    if corpus.shape.dense:
        front["relations"] = {rel: [f"[[{name}]]" for name, _ in rng.sample(names, rng.randint(1, 2))]
                              for rel in rng.sample(RELATIONS, rng.randint(1, 2))}
    if rng.random() < 0.5:
        front["modified"] = _instant(rng)
    if note["folder"] in ("events", "meetings/2026"):
        front["date"] = _instant(rng, 330)[:10]
    lines = ["---", yaml.safe_dump(front, allow_unicode=True, sort_keys=True).rstrip("\n"), "---", ""]
    body = []
    opening = " ".join(_sentence(rng, words, names, corpus.tags, note["links"]) for _ in range(rng.randint(1, 3)))
    body.append(opening)
    headings = []
    for _ in range(rng.randint(*corpus.shape.sections)):
        heading = " ".join(words.content(rng.randint(1, 3))).capitalize()
        if heading in headings:
            continue
        headings.append(heading)
        body.append(f"\n## {heading}\n")
        for _ in range(rng.randint(1, 3)):
            body.append(" ".join(_sentence(rng, words, names, corpus.tags, note["links"])
                                 for _ in range(rng.randint(2, 5))) + "\n")
        if corpus.shape.dense or rng.random() < 0.25:
            for _ in range(rng.randint(1, 3)):
                done = "x" if rng.random() < 0.3 else " "
                due = f" 📅 {_instant(rng, 200)[:10]}" if rng.random() < 0.3 else ""
                body.append(f"- [{done}] {' '.join(words.take(rng.randint(3, 8)))}{due}")
            body.append("")
    note["headings"] = headings
    note["body"] = "\n".join(body)
    if len(corpus.phrases) < 40 and rng.random() < 0.3:
        corpus.phrases.extend(_phrase(opening))
    return "\n".join(lines) + note["body"] + "\n"


def _phrase(text: str) -> list[str]:
    """The first pair of adjacent plain content words in `text`, if any (a quoted-phrase query)."""
    tokens = text.lower().split()
    for a, b in zip(tokens, tokens[1:]):
        if a.isalpha() and b.isalpha() and a not in FUNCTION_WORDS and b not in FUNCTION_WORDS:
            return [f"{a} {b}"]
    return []


def _write_records(rng, words, corpus, count) -> None:
    mem = corpus.root / "memories"
    for src in corpus.shape.sources:
        (mem / src).mkdir(parents=True, exist_ok=True)
    for i in range(count):
        src = corpus.shape.source(rng)
        time = _instant(rng)
        rec = {"text": " ".join(_sentence(rng, words, [(n["title"], n) for n in rng.sample(corpus.notes, 2)],
                                          corpus.tags) for _ in range(rng.randint(1, 5))),
               "time": time, "author": f"person:{rng.choice(corpus.people)}",
               "attributes": {"observed": time, "channel": "#" + words.content(1)[0]}}
        if rng.random() < 0.5:
            rec["title"] = " ".join(words.content(rng.randint(2, 5))).capitalize()
        refs = []
        if corpus.shape.dense or rng.random() < 0.4:
            refs.append(rng.choice(corpus.notes)["ref"])
        if rng.random() < 0.2:
            refs.append(f"person:{rng.choice(corpus.people)}")
        if refs:
            rec["refs"] = refs
        data = json.dumps(rec, ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8")
        (mem / src / f"{time[:10]}-{i:06d}.json").write_bytes(data)
        corpus.record_bytes += len(rec["text"].encode("utf-8"))
    corpus.records = count


def _write_config(root: Path, corpus: Corpus) -> None:
    lines = ['name = "bench"', 'title = "Benchmark brain"', 'timezone = "Europe/Berlin"']
    for src, cadence in corpus.shape.sources.items():
        lines += [f"[sources.{src}]", f'cadence = "{cadence}"'] + (['priority = "low"'] if src == "brief" else [])
    lines.append("[identities]")
    lines += [f'"person:{p}" = ["{p.capitalize()} (person)"]' for p in corpus.people]
    (root / "brain.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def queries(corpus: Corpus) -> list[tuple[str, str, str | None]]:
    """(kind, query, scope): common, rare, multi-word, phrase and scoped queries, fixed per corpus."""
    content = [w for w in corpus.vocab if w not in FUNCTION_WORDS]
    qs = [("common", w, None) for w in content[:5]]
    qs += [("rare", w, None) for w in content[3000:3005]]
    qs += [("multi", " ".join(content[i:i + 3 * 37:37]), None) for i in range(100, 105)]
    qs += [("multi", f"the {content[i]} of {content[i + 50]}", None) for i in range(10, 12)]
    qs += [("phrase", f'"{p}"', None) for p in corpus.phrases[:5]]
    tag = corpus.tags[0]
    scopes = ["projects", f"tags/{tag}", "memories/chat", "30d", f"person:{corpus.people[0]}",
              "memories/chat/30d", "concepts"]
    qs += [("scoped", content[i], scope) for i, scope in enumerate(scopes)]
    return qs
