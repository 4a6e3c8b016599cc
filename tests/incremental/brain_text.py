"""Front matter and brain.toml edited as text, for brain_edits.py.

Front matter is edited line by line: a key's line and its indented continuation lines are
replaced or removed, so the example brain's nested `relations:` blocks stay valid YAML.
"""
from __future__ import annotations

import json


def split_fm(text: str) -> tuple[list[str], str]:
    """(front-matter lines, body); no front matter → ([], text)."""
    if text.startswith("---\n"):
        end = text.find("\n---\n", 3)
        if end != -1:
            return text[4:end].split("\n"), text[end + 5:]
    return [], text


def join_fm(lines: list[str], body: str) -> str:
    lines = [l for l in lines if l.strip()]
    return ("---\n" + "\n".join(lines) + "\n---\n" + body) if lines else body


def set_fm(text: str, key: str, value: str | None) -> str:
    """Front-matter `key` set to the YAML `value` (one line), or removed when None."""
    lines, body = split_fm(text)
    out, skipping = [], False
    for line in lines:
        if skipping and line[:1] in (" ", "\t"):
            continue
        skipping = line.startswith(f"{key}:")
        if not skipping:
            out.append(line)
    if value is not None:
        out.append(f"{key}: {value}")
    return join_fm(out, body)


def dump_toml(data: dict) -> str:
    """The brain.toml subset the example uses: top-level scalars and lists, then tables."""
    def value(v):
        if isinstance(v, list):
            return "[" + ", ".join(map(value, v)) + "]"
        return json.dumps(v, ensure_ascii=False) if not isinstance(v, bool) else str(v).lower()
    lines = [f"{k} = {value(v) if not isinstance(v, list) else '[' + ', '.join(map(value, v)) + ']'}"
             for k, v in data.items() if not isinstance(v, dict)]
    for name, spec in sorted(data.get("sources", {}).items()):
        lines += ["", f"[sources.{name}]"] + [f"{k} = {value(v)}" for k, v in spec.items()]
    site = data.get("site", {})
    if site:
        lines += ["", "[site]"] + [f"{k} = {value(v) if k != 'nav' else _nav(v)}" for k, v in site.items()]
    if data.get("identities"):
        lines += ["", "[identities]"] + [f"{json.dumps(k)} = [{', '.join(map(value, v))}]"
                                         for k, v in data["identities"].items()]
    return "\n".join(lines) + "\n"


def _nav(links: list[dict]) -> str:
    """[site] nav: a list of inline tables."""
    return "[" + ", ".join("{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in link.items()) + " }" for link in links) + "]"
