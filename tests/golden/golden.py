"""The golden site: examples/brain built with a pinned instant, in a normalized form that diffs well.

    python tests/golden/golden.py      # (scripts/update-golden) rewrite tests/golden/expected/

`normalized(site)` maps each expected file's path to its text:
- FILES.txt: every path the build wrote, one a line (copied assets are only listed here);
- every .json, and the JSON inside every pack file .json.gz (replies, listings, search index,
  manifest): pretty-printed, values as built,
  except the volatile ones below;
- every .html page as `<page>.html.txt`: title, head links, pagefind attributes, the text of
  <main> (headings as #, list items as -, task boxes as [x]/[ ], table cells between |,
  images as ![alt](src)) and every link on the page as `text → href`.
Volatile values are replaced, so the tree depends only on examples/brain and bf:
the brain's absolute path → <ROOT>, the manifest's build_id → <build_id> (a hash of
every output byte), source folders' stats in fingerprint.json(.gz) → <stat>, and its digests of
unpublished files' stats → <digest>.
"""
from __future__ import annotations

import gzip
import json
import re
import shutil
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

from builder.kernel import refs

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "support"))
BRAIN = ROOT / "examples" / "brain"
EXPECTED = Path(__file__).resolve().parent / "expected"
NOW = "2026-12-02T12:00:00Z"
WIDTH = 100
ARGS = ["--now", NOW, "--no-pagefind", "--quiet"]   # pagefind has its own tests (tests/emit/test_pagefind.py)
# Copied unchanged from site/, schemas/ and the package's token table (their own files are the
# reference): listed, not kept.
COPIED = re.compile(r"^(_bf/.*\.(js|css|txt)|_bf/vectors/.*|schemas/.*|\.nojekyll)$")
# Kept under replies/ instead (reply files), or an encoding of them (compact data, the source
# folders' file lists): listed in FILES.txt only.
# Files of gzip members (kernel/packs.members: search texts), kept as the list of the members' JSON.
MEMBERS = re.compile(r"^_bf/search/[^/]+/(notes|records/[^/]+/x)/\d+\.json\.gz$")
REPLIES_OR_DATA = re.compile(r"^([^_/][^/]*/.*\.json|_bf/[^/]+/(data|fingerprint)/.*)$")


def build(brain: Path, out: Path) -> Path:
    from builder.cli import main
    code = main(["build", str(brain), "--out", str(out), *ARGS])
    if code != 0:
        raise RuntimeError(f"bf build {brain} exited {code}")
    return out


# --- JSON -------------------------------------------------------------------------------------


def pretty(value, indent: str = "") -> str:
    """JSON, one key or item a line; a value whose JSON fits in WIDTH characters stays on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + len(indent) <= WIDTH or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {pretty(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if all(not isinstance(v, (dict, list)) for v in value):
        return flat                      # a long list of numbers or words: one line still diffs well
    return "[\n" + ",\n".join(inner + pretty(v, inner) for v in value) + "\n" + indent + "]"


def _members(data: bytes) -> bytes:
    """The JSON values one after another in `data` (the members of a file inflated whole), as
    the bytes of one JSON list."""
    text, values, at, decoder = data.decode("utf-8"), [], 0, json.JSONDecoder()
    while at < len(text):
        value, at = decoder.raw_decode(text, at)
        values.append(value)
    return json.dumps(values, ensure_ascii=False).encode("utf-8")


def normalize_json(path: str, data: bytes, root: str) -> str:
    value = json.loads(data.decode("utf-8").replace(json.dumps(root, ensure_ascii=False)[1:-1], "<ROOT>"))
    if path == "_bf/manifest.json":
        value["build_id"] = "<build_id>"
    if path.endswith("/fingerprint.json") and "dirs" in value:   # folders' stats vary by file system
        value["dirs"] = {k: "<stat>" for k in value["dirs"]}
    if path.endswith("/fingerprint.json") and "private" in value:   # a digest of files' stats: by checkout
        value["private"] = {k: [n, "<digest>"] for k, (n, _) in value["private"].items()}
    return pretty(value) + "\n"


# --- HTML -------------------------------------------------------------------------------------

BLOCK = {"address", "article", "aside", "blockquote", "br", "details", "div", "dl", "dt", "fieldset",
         "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
         "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "thead", "tr", "ul"}
SKIP = {"script", "style", "template"}
PRE = "\x01"     # starts a line of <pre> text: kept as it is
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title, self.head, self.body_attrs, self.pagefind = "", [], [], []
        self.main: list[str] = []       # pieces of text; "\n" breaks lines
        self.links: list[tuple[str, list[str]]] = []
        self.stack: list[str] = []
        self.in_main = self.skip = self.pre = self.hidden = 0
        self.in_title = False
        self.open_links: list[list[str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append(tag)
        pf = [f"{k}={v}" if v is not None else k for k, v in attrs if k.startswith("data-pagefind-")]
        if pf:
            extra = f" content={a['content']}" if "content" in a else ""
            self.pagefind.append(f"<{tag}> {' '.join(pf)}{extra}")
        if tag == "title":
            self.in_title = True
        elif tag == "link":
            self.head.append(" ".join(filter(None, [a.get("rel"), a.get("type"), a.get("href")])))
        elif tag == "script" and a.get("src"):
            self.head.append(f"script {a.get('type') or ''} {a['src']}".replace("  ", " "))
        elif tag == "body":
            self.body_attrs = [f"{k}={v}" for k, v in attrs]
        if tag in SKIP:
            self.skip += 1
        if a.get("aria-hidden") == "true" and tag not in VOID:
            self.hidden += 1
            self.stack[-1] = tag + "/hidden"
        if tag == "main":
            self.in_main += 1
        if tag == "a" and a.get("href") is not None:
            self.links.append((a["href"], []))
            self.open_links.append(self.links[-1][1])
        if not self.in_main or self.skip:
            return
        if tag == "pre":
            self.pre += 1
        if tag in BLOCK:
            self.main.append("\n")
        if tag == "pre":
            self.main.append(PRE)
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.main.append("#" * int(tag[1]) + " ")
        elif tag == "li":
            self.main.append("- ")
        elif tag == "blockquote":
            self.main.append("> ")
        elif tag in ("td", "th"):
            self.main.append("| ")
        elif tag == "dd":
            self.main.append(": ")
        elif tag in ("span", "time"):
            self.main.append(" ")
        elif tag == "hr":
            self.main.append("---\n")
        elif tag == "input" and a.get("type") == "checkbox":
            self.main.append("[x] " if "checked" in a else "[ ] ")
        elif tag == "img":
            self.main.append(f"![{a.get('alt') or ''}]({a.get('src') or ''})")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in self.stack or tag + "/hidden" in self.stack:
            while self.stack:
                top = self.stack.pop()
                if top.endswith("/hidden"):
                    self.hidden -= 1
                if top.split("/")[0] == tag:
                    break
        if tag == "title":
            self.in_title = False
        if tag == "a" and self.open_links:
            self.open_links.pop()
        if self.in_main and not self.skip:
            if tag == "pre":
                self.pre -= 1
            if tag in BLOCK and tag != "dt":
                self.main.append("\n")
            elif tag in ("td", "th", "span", "time"):
                self.main.append(" ")
        if tag in SKIP:
            self.skip -= 1
        if tag == "main":
            self.in_main -= 1

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        if self.skip:
            return
        for text in self.open_links:
            text.append(data)
        if self.in_main and not self.hidden:
            self.main.append(data.replace("\n", "\n" + PRE) if self.pre else re.sub(r"\s+", " ", data))

    def render(self) -> str:
        lines = [line[1:].rstrip() if line.startswith(PRE) else re.sub(r"(?<=\S) {2,}", " ", line).strip()
                 for line in "".join(self.main).split("\n")]
        main = [line for line in lines if line]
        links = _counted(f"{_squash(''.join(text))} → {href}" for href, text in self.links)
        return "\n".join([
            f"title: {_squash(self.title)}",
            f"body: {' '.join(self.body_attrs)}",
            "head:", *(f"  {h}" for h in self.head),
            "pagefind:", *(f"  {p}" for p in _runs(self.pagefind)),
            "main:", *(f"  {m}" for m in main),
            "links:", *(f"  {link}" for link in links),
        ]) + "\n"


def _runs(lines: list[str]) -> list[str]:
    """Consecutive equal lines as one, with ×n."""
    out: list[list] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1][1] += 1
        else:
            out.append([line, 1])
    return [line if n == 1 else f"{line} ×{n}" for line, n in out]


def _counted(lines) -> list[str]:
    """Each distinct line once, in first-seen order, with ×n when it came n times."""
    seen: dict[str, int] = {}
    for line in lines:
        seen[line] = seen.get(line, 0) + 1
    return [line if n == 1 else f"{line} ×{n}" for line, n in seen.items()]


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def normalize_html(data: bytes, root: str) -> str:
    page = Page()
    page.feed(data.decode("utf-8").replace(root, "<ROOT>"))
    page.close()
    return page.render()


# --- the tree ---------------------------------------------------------------------------------


def normalized(site: Path, brain: Path = BRAIN) -> dict[str, str]:
    """expected-tree path → text, for the site built from `brain`. Replies are kept by the read
    that answers them (`replies/<its reply file path>`), whether the site stores them as a file or
    in its compact data, so a change of where replies live shows as no change of what they say."""
    from replies import stored_replies
    root = str(Path(brain).resolve())
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    tree = {"FILES.txt": "".join(f"{f}\n" for f in files)}
    for ref, options, reply in stored_replies(site):
        variant = (("r", options["rel"]) if "rel" in options else ()) + ((f"o{options['offset']}",) if "offset" in options else ())
        tree["replies/" + refs.ref_file(reply["brain"], ref, *variant)] = normalize_json("", json.dumps(reply, sort_keys=True).encode(), root)
    for rel in files:
        if COPIED.match(rel) or REPLIES_OR_DATA.match(rel):
            continue
        data = (site / rel).read_bytes()
        if MEMBERS.match(rel):
            tree[rel[:-3]] = normalize_json(rel[:-3], _members(gzip.decompress(data)), root)
        elif rel.endswith(".json.gz"):   # a pack file (search files): kept as the JSON it holds
            tree[rel[:-3]] = normalize_json(rel[:-3], gzip.decompress(data), root)
        elif rel.endswith(".json"):
            tree[rel] = normalize_json(rel, data, root)
        elif rel.endswith(".html"):
            tree[rel + ".txt"] = normalize_html(data, root)
    return tree


def read_expected(folder: Path = EXPECTED) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text("utf-8")
            for p in sorted(folder.rglob("*")) if p.is_file()}


def write_expected(tree: dict[str, str], folder: Path = EXPECTED) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    for rel, text in tree.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bf-golden-") as tmp:
        tree = normalized(build(BRAIN, Path(tmp) / "site"))
    old = read_expected() if EXPECTED.exists() else {}
    write_expected(tree)
    changed = sorted(k for k in tree.keys() | old.keys() if tree.get(k) != old.get(k))
    size = sum(len(t.encode("utf-8")) for t in tree.values())
    print(f"tests/golden/expected: {len(tree)} files, {size / 1e6:.2f} MB; {len(changed)} changed")
    for rel in changed[:50]:
        print(f"  {'added' if rel not in old else 'removed' if rel not in tree else 'changed'} {rel}")
    if len(changed) > 50:
        print(f"  … and {len(changed) - 50} more")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
