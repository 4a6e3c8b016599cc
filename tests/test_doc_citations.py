"""Citations of docs/ cannot rot: every citation of a docs page (its path, `#`, a heading's
anchor) in the code, the site, the templates, the tests, the scripts and the benchmark, and every
Markdown link of README.md and docs/, names a file that exists and a heading it has
(docs/code.md#citing-the-docs). Headings become anchors as GitHub makes them, so a citation is
also a link that works on GitHub."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITING = ("builder", "site", "templates", "tests", "scripts", "bench")
SKIPPED_DIRS = {"vendor", "__pycache__", "golden", "artifacts", "fixtures"}   # third-party or generated
CITATION = re.compile(r"\bdocs/([\w.-]+\.md)(?:#([\w-]*\w))?")
MD_LINK = re.compile(r"\]\(([^()\s]*?)(?:#([^()\s]*))?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case; letters, marks, digits, `_`, `-` and spaces
    kept (spaces as `-`); everything else dropped."""
    kept = "".join(ch for ch in heading.strip().lower()
                   if ch in " -_" or unicodedata.category(ch)[0] in "LMN")
    return kept.replace(" ", "-")


def _prose(text: str):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            yield number, line


@lru_cache(maxsize=None)
def anchors(doc: Path) -> frozenset[str]:
    seen: dict[str, int] = {}
    out = set()
    for _, line in _prose(doc.read_text("utf-8")):
        match = re.match(r"#{1,6} +(.*?)#*\s*$", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            out.add(base if count == 0 else f"{base}-{count}")
    return frozenset(out)


def _target_error(doc: Path, anchor: str | None) -> str | None:
    if not doc.is_file():
        return "no such file"
    if anchor and doc.suffix == ".md" and anchor not in anchors(doc):
        return f"no heading #{anchor}"
    return None


def _files(tops):
    for top in tops:
        for file in sorted((ROOT / top).rglob("*")):
            if file.is_file() and not SKIPPED_DIRS & set(file.relative_to(ROOT).parts):
                try:
                    yield file, file.read_text("utf-8")
                except UnicodeDecodeError:
                    continue


def test_citations_of_docs_name_a_file_and_a_heading():
    bad = []
    for file, text in _files(CITING):
        for number, line in enumerate(text.splitlines(), 1):
            for match in CITATION.finditer(line):
                why = _target_error(ROOT / "docs" / match.group(1), match.group(2))
                if why:
                    bad.append(f"{file.relative_to(ROOT)}:{number}: {match.group(0)}: {why}")
    assert not bad, "\n".join(bad)


def test_links_of_readme_and_docs_resolve():
    bad = []
    docs = [(ROOT / "README.md", (ROOT / "README.md").read_text("utf-8"))] + list(_files(["docs"]))
    for file, text in docs:
        if file.suffix != ".md":
            continue
        for number, line in _prose(text):
            for match in MD_LINK.finditer(re.sub(r"`[^`]*`", "", line)):   # code shows syntax
                target, anchor = match.group(1), match.group(2)
                if re.match(r"[a-z]+:", target):
                    continue   # a URL
                why = _target_error((file.parent / target).resolve() if target else file, anchor)
                if why:
                    bad.append(f"{file.relative_to(ROOT)}:{number}: {match.group(0)}: {why}")
    assert not bad, "\n".join(bad)


def test_slug_is_githubs():
    assert slug("Ref → file") == "ref--file"
    assert slug("`_source.json`") == "_sourcejson"
    assert slug('Note — `page: "note"`') == "note--page-note"
    assert slug("Creating a file can cost 0.4 ms; a thread to create them did not help") == \
        "creating-a-file-can-cost-04-ms-a-thread-to-create-them-did-not-help"
