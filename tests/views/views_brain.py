"""A small brain pinning each rule of docs/brain.md#_sourcejson and docs/replies.md#bf-read, and helpers to write brains in tmp_path."""
from __future__ import annotations

import json
from pathlib import Path

NOW = "2026-12-02T12:00:00Z"

TOML = """
name = "vb"
timezone = "Europe/Berlin"
[sources.brief]
cadence = "1d"
priority = "low"
[sources.chat]
cadence = "1d"
[sources.email]
cadence = "1d"
[sources.old]
cadence = "1d"
[sources.feed]
"""


def note(front: dict, body: str = "Body.") -> str:
    lines = [f"{k}: {json.dumps(v)}" for k, v in front.items()]
    return "---\n" + "\n".join(lines) + "\n---\n" + body + "\n"


def rec(**fields) -> str:
    fields.setdefault("text", "A record.")
    return json.dumps(fields)


FILES = {
    "brain.toml": TOML,
    # §4.3 who gets reminders, and each signal
    "projects/fresh.md": note({"modified": "2026-12-01T00:00:00Z"}),
    "projects/old.md": note({"modified": "2026-10-01T00:00:00Z", "status": "active"}),
    "projects/done.md": note({"modified": "2026-12-01T00:00:00Z", "status": "done"}),
    "projects/evidence.md": note({"modified": "2026-11-20T00:00:00Z"}),
    "projects/linked.md": note({"modified": "2026-11-20T00:00:00Z"}),
    "projects/identity.md": note({"modified": "2026-11-20T00:00:00Z", "entities": ["repo:github.com/x/y"]}),
    "projects/amb.md": note({"modified": "2026-11-20T00:00:00Z", "aliases": ["Shared"]}),
    "projects/gone.md": note({"modified": "2026-01-01T00:00:00Z", "deprecated": True}, "- [ ] hidden task"),
    "concepts/amb2.md": note({"modified": "2026-11-20T00:00:00Z", "aliases": ["Shared"]}),
    "concepts/watched.md": note({"modified": "2026-11-01T00:00:00Z", "stale_after": "7d", "tags": ["website/launch"]}),
    "concepts/plain.md": note({"modified": "2026-01-01T00:00:00Z", "tags": ["website"]}),
    "notes/linker.md": note({"modified": "2026-11-28T00:00:00Z", "relations": {"cites": ["[[projects/linked]]"]}}, "See [[projects/linked]]."),
    "notes/old-linker.md": note({"modified": "2026-11-01T00:00:00Z"}, "See [[projects/linked]]."),
    "notes/amb-linker.md": note({"modified": "2026-11-28T00:00:00Z"}, "See [[Shared]]."),
    "index.md": note({"modified": "2026-01-01T00:00:00Z", "stale_after": "1d"}),
    "log.md": note({"modified": "2026-01-01T00:00:00Z", "stale_after": "1d"}),
    "actions/do.md": note({"modified": "2026-11-29T00:00:00Z", "status": "open"},
                          "- [ ] future task 📅 2026-12-10\n- [ ] plain task\n- [x] done task"),
    "actions/do/attach.md": note({"modified": "2026-01-01T00:00:00Z", "stale_after": "1d"}),
    "events/party.md": note({"date": "2026-12-20", "modified": "2026-11-01T00:00:00Z"}),
    "events/low.md": note({"date": "2026-12-21", "priority": "low", "modified": "2026-11-01T00:00:00Z"}),
    # §4.1 time meanings
    "memories/chat/after.json": rec(time="2026-11-25T10:00:00Z", refs=["projects/evidence.md"]),
    "memories/chat/collected-late.json": rec(time="2026-11-19T10:00:00Z", refs=["projects/evidence.md"],
                                            attributes={"observed": "2026-11-26T10:00:00Z"}),
    "memories/chat/future.json": rec(time="2026-12-10T10:00:00Z", refs=["projects/evidence.md"]),
    "memories/chat/edited.json": rec(time="2026-11-20T10:00:00Z", edited="2026-12-02T10:00:00Z"),
    "memories/chat/observed-only.json": rec(attributes={"observed": "2026-12-01T10:00:00Z"}),
    "memories/chat/nothing.json": rec(),
    "memories/chat/repo.json": rec(time="2026-11-22T10:00:00Z", refs=["repo:github.com/x/y"], author="person:Alice"),
    "memories/chat/dst-a.json": rec(time="2026-10-24T22:30:00Z"),   # 00:30 CEST, 25 Oct
    "memories/chat/dst-b.json": rec(time="2026-10-25T22:30:00Z"),   # 23:30 CET, 25 Oct
    "memories/chat/dst-c.json": rec(time="2026-10-25T23:30:00Z"),   # 00:30 CET, 26 Oct (next ISO week)
    "memories/chat/month-edge.json": rec(time="2026-10-31T23:30:00Z"),   # 00:30 CET, 1 Nov
    "memories/chat/_source.json": json.dumps({"last_run": "2026-12-02T11:00:00Z", "status": "ok"}),
    "memories/brief/today.json": rec(time="2026-12-02T06:00:00Z", refs=["projects/fresh.md"]),
    "memories/brief/coming.json": rec(time="2026-12-05T06:00:00Z"),
    # §2.3 coverage
    "memories/deploys/x.json": rec(time="2026-12-01T00:00:00Z"),
    "memories/deploys/_source.json": json.dumps({"last_run": "2026-12-01T03:00:00Z", "status": "failed", "error": "401"}),
    "memories/old/x.json": rec(time="2026-11-19T00:00:00Z"),
    "memories/old/_source.json": json.dumps({"last_run": "2026-11-20T00:00:00Z", "status": "ok"}),
    "memories/feed/a.json": rec(time="2026-10-01T00:00:00Z"),
    "memories/feed/b.json": rec(time="2026-10-02T00:00:00Z"),
    "memories/feed/c.json": rec(time="2026-10-03T00:00:00Z"),
}


def write(root: Path, files: dict) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root
