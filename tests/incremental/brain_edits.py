"""Random edits to a brain folder, for the rebuild-equals-full-build property test.

`Editor(root, rng).step()` applies one edit chosen at random and returns what it did, in words
precise enough to redo by hand ("title of concepts/glossary.md → 'Zeta words'"). Edits touch
what the build derives from: note bodies, titles (front matter and H1), aliases, tags, a note's
type, deprecation and claimed identities (search facets), links and typed relations, times (front-matter dates, record times), tasks, drafts, deletions,
renames, new notes and records, brain.toml, and the build instant (`now`, moved forward).
Front matter and brain.toml are edited as text (brain_text.py).
"""
from __future__ import annotations

import json
import os
import random
import re
import tomllib
from datetime import datetime, timedelta, timezone
from pathlib import Path

from brain_text import dump_toml, join_fm, set_fm, split_fm

WORDS = ("launch pricing roadmap palette hosting sitemap budget review banner footer "
         "zebra quartz lantern meadow copper harbor velvet orbit").split()
TAGS = ("website", "website/launch", "pricing", "team", "q4", "design", "ops/deploys")
ZONES = ("Europe/Berlin", "UTC", "America/New_York", "Asia/Tokyo", "Pacific/Auckland")
IDENTITIES = ("person:alice", "person:bob", "person:carol", "repo:github.com/example/new-website")
SKIP = {"scratch", ".trash", ".obsidian", "memories"}
LONG = "A long record whose last words lie past any excerpt. " * 9   # > 320 characters
DIAGRAMS = ("\n$$e^{i\\pi} + 1 = 0$$\n", "\n```mermaid\ngraph TD; A-->B\n```\n")   # Editor.diagram


def _instant(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def _z(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


class Editor:
    def __init__(self, root: Path, rng: random.Random, now: str):
        self.root, self.rng, self.now = root, rng, now
        self.serial = 0

    # --- what is there
    def notes(self) -> list[Path]:
        return sorted(p for p in self.root.rglob("*.md")
                      if not SKIP & set(p.relative_to(self.root).parts[:-1]))

    def records(self) -> list[Path]:
        return sorted(p for p in (self.root / "memories").glob("*/*.json") if p.name != "_source.json")

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def names(self) -> list[str]:
        """Link targets: existing titles and stems, and a name no note claims (yet)."""
        out = ["Nowhere note", "Zebra Quartz"]
        for path in self.notes():
            out.append(path.stem)
            title = re.search(r"^title: (.+)$", path.read_text(encoding="utf-8"), re.M)
            if title:
                out.append(title.group(1).strip().strip('"'))
        return out

    def word(self, n: int = 2) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(n)).capitalize()

    def date(self) -> str:
        moment = _instant(self.now) + timedelta(hours=self.rng.randint(-24 * 40, 24 * 40))
        return _z(moment) if self.rng.random() < 0.5 else moment.date().isoformat()

    # --- one edit
    def step(self) -> str:
        kinds = [self.body, self.title, self.h1, self.aliases, self.tags, self.add_link, self.drop_link,
                 self.relations, self.note_time, self.record_time, self.record_fields, self.task, self.draft,
                 self.delete_note, self.rename_note, self.new_note, self.new_record, self.delete_record,
                 self.attachment, self.source_status, self.config, self.move_now, self.stamp, self.touch,
                 self.diagram, self.link_record, self.facets, self.look, self.theme_file, self.collide]
        weights = [8, 5, 3, 3, 4, 7, 4, 3, 4, 3, 3, 2, 2, 2, 3, 3, 4, 2, 2, 1, 4, 4, 2, 2, 3, 2, 3, 3, 3, 3]
        return self.rng.choices(kinds, weights)[0]()

    def _edit(self, fn, what: str) -> str:
        notes = self.notes()
        if not notes:
            return self.new_note()
        path = self.rng.choice(notes)
        path.write_text(fn(path.read_text(encoding="utf-8")), encoding="utf-8")
        return f"{what} of {self.rel(path)}"

    def body(self) -> str:
        line = f"\n{self.word(6)}.\n"
        return self._edit(lambda t: t + line, f"body +{line.strip()!r}")

    def diagram(self) -> str:
        """Math or a Mermaid diagram in a note, or none left in any note: the site ships the maths
        font (cut to its formulas) and Mermaid only while some page needs them (emit/assets.py)."""
        if self.rng.random() < 0.6:
            block = self.rng.choice(DIAGRAMS)
            return self._edit(lambda t: t + block, f"body +{block.strip()!r}")
        for path in self.notes():
            text = path.read_text(encoding="utf-8")
            kept = text.replace(DIAGRAMS[0], "").replace(DIAGRAMS[1], "")
            if kept != text:
                path.write_text(kept, encoding="utf-8")
        return "no math or diagram left in any note"

    def title(self) -> str:
        title = self.word() if self.rng.random() < 0.7 else self.rng.choice(self.names())
        value = json.dumps(title) if self.rng.random() < 0.8 else None
        return self._edit(lambda t: set_fm(t, "title", value), f"front-matter title → {value}")

    def h1(self) -> str:
        h1 = self.word()
        def edit(text):
            lines, body = split_fm(text)
            body = re.sub(r"\A# .*\n", "", body)
            return join_fm([l for l in lines if not l.startswith("title:")], f"# {h1}\n{body}")
        return self._edit(edit, f"H1 title {h1!r}, front-matter title removed")

    def aliases(self) -> str:
        names = [self.rng.choice(self.names()) if self.rng.random() < 0.5 else self.word()
                 for _ in range(self.rng.randint(0, 2))]
        value = json.dumps(names, ensure_ascii=False) if names else None
        return self._edit(lambda t: set_fm(t, "aliases", value), f"aliases → {value}")

    def tags(self) -> str:
        if self.rng.random() < 0.3:
            tag = self.rng.choice(TAGS)
            return self._edit(lambda t: t + f"\nInline #{tag} here.\n", f"inline tag #{tag}")
        tags = self.rng.sample(TAGS, self.rng.randint(0, 3))
        value = "[" + ", ".join(tags) + "]" if tags else None
        return self._edit(lambda t: set_fm(t, "tags", value), f"tags → {value}")

    def facets(self) -> str:
        """What a search filters a note on beside its tags (the index's facets)."""
        key = self.rng.choice(["type", "deprecated", "entities"])
        value = {"type": self.rng.choice(["project", "concept", "meeting"]), "deprecated": "true",
                 "entities": json.dumps(self.rng.sample(IDENTITIES, self.rng.randint(1, 2)))}[key]
        value = None if self.rng.random() < 0.3 else value
        return self._edit(lambda t: set_fm(t, key, value), f"{key} → {value}")

    def add_link(self) -> str:
        target = self.rng.choice(self.names())
        form = self.rng.choice(["[[{}]]", "[[{}|a label]]", "[[{}#Goals]]", "![[{}]]"]).format(target)
        return self._edit(lambda t: t + f"\nSee {form}.\n", f"link {form} added")

    def drop_link(self) -> str:
        dropped = []
        def edit(text):
            links = list(re.finditer(r"!?\[\[[^\]]*\]\]", text))
            if not links:
                return text
            m = self.rng.choice(links)
            dropped.append(f"{m.group()} at {m.start()}")
            return text[:m.start()] + "plain words" + text[m.end():]
        what = self._edit(edit, "link removed")
        return f"{what}: {dropped[0] if dropped else 'none there'}"

    def link_record(self) -> str:
        """A link to a record by its ref: one there, or the next new_record's (broken until it comes;
        its `#x` reads as a heading, so it resolves as `target#heading`)."""
        refs = [f"{p.parent.name}:{p.stem}" for p in self.records()[:50]]
        ref = self.rng.choice(refs) if refs and self.rng.random() < 0.5 else \
            f"{self.rng.choice(['chat', 'brief', 'issues', 'deploys', 'fresh'])}:rec {self.serial + 1}#x"
        return self._edit(lambda t: t + f"\nAbout [[{ref}]].\n", f"link [[{ref}]] added")

    def relations(self) -> str:
        rel = self.rng.choice(["cites", "depends-on", "blocks"])
        targets = [f"[[{self.rng.choice(self.names())}]]" if self.rng.random() < 0.7 else self.rng.choice(IDENTITIES)]
        value = "{" + f"{rel}: {json.dumps(targets, ensure_ascii=False)}" + "}" if self.rng.random() < 0.85 else None
        return self._edit(lambda t: set_fm(t, "relations", value), f"relations → {value}")

    def note_time(self) -> str:
        key = self.rng.choice(["date", "due", "modified", "start", "stale_after"])
        value = self.date() if key != "stale_after" else self.rng.choice(["7d", "2w", "1m"])
        value = None if self.rng.random() < 0.15 else value
        return self._edit(lambda t: set_fm(t, key, value), f"{key} → {value}")

    def task(self) -> str:
        line = f"- [{self.rng.choice(' x')}] {self.word(3)} 📅 {self.date()[:10]}"
        return self._edit(lambda t: t + f"\n{line}\n", f"task {line!r}")

    def draft(self) -> str:
        """A note kept out of the site or let back in: `draft` or `publish` (docs/brain.md#publishing)."""
        key, value = self.rng.choice([("draft", "true"), ("draft", None), ("publish", "false"), ("publish", None)])
        return self._edit(lambda t: set_fm(t, key, value), f"{key} → {value}")

    def delete_note(self) -> str:
        notes = self.notes()
        if len(notes) < 5:
            return self.new_note()
        path = self.rng.choice(notes)
        path.unlink()
        return f"deleted {self.rel(path)}"

    def rename_note(self) -> str:
        path = self.rng.choice(self.notes())
        folder = self.rng.choice(["", "concepts/", "projects/", "archive/"])
        self.serial += 1
        target = self.root / f"{folder}{self.rng.choice(WORDS)}-{self.serial}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        path.rename(target)
        return f"renamed {self.rel(path)} → {self.rel(target)}"

    def collide(self) -> str:
        """A rename whose page path meets another's (docs/site.md, Page URLs): a note named as a
        folder (a folder note) takes the folder's path, which moves the folder's page and so every
        link to it; renamed away again, it moves back."""
        notes = self.notes()
        folders = sorted({p.parent for p in notes} - {self.root})
        path = self.rng.choice(notes)
        target = self.rng.choice(folders).with_suffix(".md") if folders else path
        if target.exists() or path == target:
            return self.new_note()
        path.rename(target)
        return f"renamed {self.rel(path)} → {self.rel(target)}, meeting another page's path"

    def new_note(self) -> str:
        self.serial += 1
        folder = self.rng.choice(["", "concepts/", "projects/", "people/", "archive/deep/"])
        path = self.root / f"{folder}new-{self.serial}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = set_fm(f"{self.word(8)} [[{self.rng.choice(self.names())}]].\n\n## Goals\n\n{self.word(4)}.\n",
                      "title", json.dumps(self.word()))
        path.write_text(set_fm(text, "tags", f"[{self.rng.choice(TAGS)}]"), encoding="utf-8")
        return f"new note {self.rel(path)}"

    def new_record(self) -> str:
        self.serial += 1
        source = self.rng.choice(["chat", "brief", "issues", "deploys", "fresh"])
        path = self.root / "memories" / source / f"rec {self.serial}#x.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        record = {"text": f"{self.word(5)} [[{self.rng.choice(self.names())}]]",
                  "author": self.rng.choice(IDENTITIES), "refs": [self.rng.choice(self.names())]}
        if self.rng.random() < 0.85:
            record["time"] = _z(_instant(self.now) + timedelta(hours=self.rng.randint(-24 * 30, 24 * 5)))
        if self.rng.random() < 0.3:
            record["title"] = self.word()
        path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")
        return f"new record {self.rel(path)}: {json.dumps(record, ensure_ascii=False)}"

    def record_time(self) -> str:
        records = self.records()
        if not records:
            return self.new_record()
        path = self.rng.choice(records)
        record = json.loads(path.read_text(encoding="utf-8"))
        record["time"] = _z(_instant(self.now) + timedelta(hours=self.rng.randint(-24 * 30, 24 * 5)))
        path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")
        return f"time of {self.rel(path)} → {record['time']}"

    def record_fields(self) -> str:
        """A record's text, refs, thread, priority or observation (an observed-only record is
        placed by its observation; one with neither time is undated)."""
        records = self.records()
        if not records:
            return self.new_record()
        long = [p for p in records if LONG in p.read_text(encoding="utf-8")]
        path = self.rng.choice(long if long and self.rng.random() < 0.5 else records)
        record = json.loads(path.read_text(encoding="utf-8"))
        key = self.rng.choice(["text", "tail", "refs", "thread", "priority", "observed", "untimed"])
        if key == "text":
            record["text"] = f"{self.word(4)} [[{self.rng.choice(self.names())}]]"
        elif key == "tail":    # past the excerpt: only the record's day page shows the change
            record["text"] = f"{LONG}\n\n{self.word(3)}"
        elif key == "refs":
            record["refs"] = [self.rng.choice(self.names()), self.rng.choice(IDENTITIES)]
        elif key == "thread":
            record["thread"] = self.rng.choice(["web-standup", "launch", "pricing"])
        elif key == "priority":
            record["priority"] = self.rng.choice(["low", "normal"])
        else:
            record.pop("time", None)
            if key == "observed":
                record.setdefault("attributes", {})["observed"] = self.date()[:10] + "T08:00:00Z"
            else:
                record.pop("attributes", None)
        path.write_text(json.dumps(record, ensure_ascii=False, indent=2), encoding="utf-8")
        return f"{key} of {self.rel(path)} → {json.dumps(record, ensure_ascii=False)}"

    def attachment(self) -> str:
        """An image added, changed or deleted, and an embed of it appended to a note."""
        self.serial += 1
        images = sorted(self.root.rglob("*.png"))
        if images and self.rng.random() < 0.3:
            path = self.rng.choice(images)
            path.unlink()
            return f"deleted {self.rel(path)}"
        path = self.rng.choice(images) if images and self.rng.random() < 0.5 else \
            self.root / self.rng.choice(["", "concepts/"]) / f"picture-{self.serial}.png"
        path.write_bytes(b"\x89PNG\r\n\x1a\n" + self.word(3).encode())
        embed = f"![[{path.name}]]"
        return self._edit(lambda t: t + f"\n{embed}\n", f"image {self.rel(path)} written, {embed}")

    def source_status(self) -> str:
        source = self.rng.choice(["chat", "brief", "issues", "fresh"])
        path = self.root / "memories" / source / "_source.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        status = {"last_run": self.date()[:10] + "T06:00:00Z", "status": self.rng.choice(["ok", "failed"])}
        path.write_text(json.dumps(status), encoding="utf-8")
        return f"{self.rel(path)} → {json.dumps(status)}"

    def delete_record(self) -> str:
        records = self.records()
        if len(records) < 3:
            return self.new_record()
        path = self.rng.choice(records)
        path.unlink()
        return f"deleted {self.rel(path)}"

    def config(self) -> str:
        path = self.root / "brain.toml"
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        what = self.rng.choice(["title", "timezone", "source", "identity", "fields", "name", "base_url"])
        if what == "title":
            data["title"] = self.word(3)
        elif what == "name":
            data["name"] = self.rng.choice(["brain", "work", "team-brain"])
        elif what == "base_url":
            data["base_url"] = self.rng.choice(["/", "/site/", "/a/b/"])
        elif what == "timezone":
            data["timezone"] = self.rng.choice(ZONES)
        elif what == "fields":
            data["fields"] = self.rng.sample(["status", "priority", "due", "owner", "budget"], 3)
        elif what == "identity":
            data.setdefault("identities", {})[self.rng.choice(IDENTITIES)] = [self.word(2)]
        else:
            source = self.rng.choice(["brief", "chat", "issues", "calendar", "survey", "fresh"])
            data.setdefault("sources", {})[source] = {
                "title": self.word(2), "cadence": self.rng.choice(["1d", "7d", "2w"]),
                "priority": self.rng.choice(["low", "normal"])}
        path.write_text(dump_toml(data), encoding="utf-8")
        return f"brain.toml {what}: {json.dumps(data.get(what, data.get('sources')), ensure_ascii=False)}"

    def look(self) -> str:
        """[site] and the theme setting of brain.toml (emit/look.py)."""
        path = self.root / "brain.toml"
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        site = data.setdefault("site", {})
        what = self.rng.choice(["accent", "footer", "nav", "logo", "extra_css", "theme", "none"])
        if what == "accent":
            site["accent"] = self.rng.choice(["#aa3300", "#0055aa", "#222"])
        elif what == "footer":
            site["footer"] = f"{self.word(3)} **{self.word(1)}**"
        elif what == "nav":
            site["nav"] = [{"title": self.word(1), "url": self.rng.choice(["https://example.com/", "search.html"])}]
        elif what in ("logo", "extra_css"):
            rel = f"look/{self.rng.choice(['a', 'b'])}.{'svg' if what == 'logo' else 'css'}"
            (self.root / rel).parent.mkdir(exist_ok=True)
            (self.root / rel).write_text(f"/* {self.word(2)} */", encoding="utf-8")
            site[what] = rel if what == "logo" else [rel]
        elif what == "theme":
            self.theme_file()
            data["theme"] = "theme"
        else:
            data.pop("site", None)
            data.pop("theme", None)
        path.write_text(dump_toml(data), encoding="utf-8")
        return f"brain.toml look {what}: {json.dumps([data.get('site'), data.get('theme')], ensure_ascii=False)}"

    def theme_file(self) -> str:
        """A theme template or static file written (it counts once brain.toml names the theme)."""
        theme = self.root / "theme"
        (theme / "static").mkdir(parents=True, exist_ok=True)
        if self.rng.random() < 0.6:
            text = ('{% extends "bf/note.html" %}{% block main %}<p class="theme">' + self.word(2)
                    + '</p>{{ super() }}{% endblock %}\n')
            (theme / "note.html").write_text(text, encoding="utf-8")
            return f"theme/note.html: {text.strip()!r}"
        (theme / "static" / "theme.css").write_text(f"/* {self.word(2)} */", encoding="utf-8")
        return "theme/static/theme.css written"

    def stamp(self) -> str:
        """--now moves and a note names the new instant, as a tool stamping its last sync would."""
        moved = self.move_now()
        line = f"\nLast synced at {self.now}\n"
        return f"{moved}; " + self._edit(lambda t: re.sub(r"\nLast synced at .*\n", "\n", t) + line, "synced line")

    def touch(self) -> str:
        """A note saved unchanged: only its file time moves (its `modified` when nothing else gives one)."""
        notes = self.notes()
        if not notes:
            return self.new_note()
        path = self.rng.choice(notes)
        moment = path.stat().st_mtime + self.rng.choice([3600, 86400 * 3])
        os.utime(path, (moment, moment))
        return f"touch {self.rel(path)}"

    def move_now(self) -> str:
        delta = timedelta(hours=self.rng.choice([1, 5, 13, 24, 24 * 3, 24 * 9]))
        self.now = _z(_instant(self.now) + delta)
        return f"--now → {self.now}"
