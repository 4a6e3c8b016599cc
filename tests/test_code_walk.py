"""docs/code.md's walk of three common changes stays true: every file it names exists and holds
every name cited after it (docs/code.md#three-common-changes-file-by-file)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Three common changes, file by file"
TICKED = re.compile(r"`([^`]+)`")


def _walk() -> list[str]:
    text = (ROOT / "docs" / "code.md").read_text("utf-8")
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return [line for line in body.splitlines() if line.startswith("- ")]


def _is_path(token: str) -> bool:
    return "/" in token and not token.startswith(("#", "<"))


def cited(line: str) -> list[tuple[str, list[str]]]:
    """(file, the names in backticks that follow it) of one line of the walk; a name in a
    parenthesis right after a file belongs to it, a command (`scripts/…`) or a test folder is a path."""
    out: list[tuple[str, list[str]]] = []
    for token in TICKED.findall(line):
        if _is_path(token):
            out.append((token, []))
        elif out:
            out[-1][1].append(token)
    return out


def test_the_walk_names_files_that_hold_what_it_cites():
    lines = _walk()
    assert len(lines) >= 15, "the walk lost its lines"
    problems = []
    for line in lines:
        for path, names in cited(line):
            target = ROOT / path
            if not target.exists():
                problems.append(f"{path}: no such file")
                continue
            if target.is_dir():
                continue
            text = target.read_text("utf-8")
            problems += [f"{path}: does not hold {name!r}" for name in names if name not in text]
    assert not problems, "\n".join(problems)


def test_a_name_the_file_lacks_is_found():
    """The check can fail: a cited name a file does not hold is reported."""
    [(path, names)] = cited("- `builder/query/search.py` (`item_of`, `no_such_name_here`): x")
    text = (ROOT / path).read_text("utf-8")
    assert [n for n in names if n not in text] == ["no_such_name_here"]
