"""A brain written by an attacker: script payloads in every text field, hostile file names,
links outside the brain, special files, oversized and binary files, YAML bombs (issue 9).

    expected = write_hostile_brain(root)   # → {"problems": {path: kind}, "notes": [...], "records": [...]}

Every payload that could run tries to set `window.__pwned`; the browser test asserts it never is.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

PWN = "window.__pwned=1"

# Strings that would run script if any one of them reached a page unescaped.
PAYLOADS = [
    f"<script>{PWN}</script>",
    f'<img src=x onerror="{PWN}">',
    f"<svg onload={PWN}>",
    f"</script><script>{PWN}</script>",
    f'"><script>{PWN}</script>',
    f"'><img src=x onerror={PWN}>",
    f'<iframe src="javascript:parent.__pwned=1"></iframe>',
    f'<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    f'<a href="javascript:{PWN}">click</a>',
    f"javascript:{PWN}",
    f"<style>@import 'javascript:{PWN}';</style>",
    f'<details open ontoggle="{PWN}">x</details>',
    f'<math><mtext><table><mglyph><style><img src=x onerror="{PWN}">',
    f"<!--<script>{PWN}</script>-->",
    f'<object data="javascript:{PWN}"></object>',
    f'<embed src="javascript:{PWN}">',
    f'<form action="javascript:{PWN}"><button>go</button></form>',
    f'<meta http-equiv="refresh" content="0;url=javascript:{PWN}">',
    f'<base href="javascript:{PWN}//">',
    f'<div style="background:url(javascript:{PWN})" onmouseover="{PWN}">hover</div>',
    f'<p onclick="{PWN}" id="pwn">p</p>',
    f"\u2028\u2029</script><!--<script>{PWN}",
    "＜script＞window.__pwned=1＜／script＞",            # full-width look-alikes
    "<scr\u200bipt>window.__pwned=1</scr\u200bipt>",     # zero-width space inside the tag
    "\u202eevil\u202c \u200f<script>window.__pwned=1</script>",  # RTL override / mark
    "{{ 7*7 }}{% raw %}{{ lipsum }}",                     # template injection
    "${alert(1)}`+window.__pwned=1+`",
]

# Markdown links and images whose target would run script.
HOSTILE_LINKS = [
    f"[a](javascript:{PWN})",
    f"[b](JaVaScRiPt:{PWN})",
    f"[c](  javascript:{PWN})",
    f"[d](java&#115;cript:{PWN})",
    f"[e](vbscript:{PWN})",
    f"[f](data:text/html,<script>{PWN}</script>)",
    f"![g](javascript:{PWN})",
    f"<javascript:{PWN}>",
    f"[h][ref]\n\n[ref]: javascript:{PWN}",
    f"[[javascript:{PWN}]]",
    f"[[<script>{PWN}</script>]]",
    f"[[x|<img src=x onerror={PWN}>]]",
    f"[i](\"><script>{PWN}</script>.md)",
    f'<a href="javascript:{PWN}">raw a</a>',
    f'<a href=" jav&#x09;ascript:{PWN}">raw tab</a>',
]

ODD_NAMES = [
    "odd/with space.md", "odd/hash#tag.md", "odd/question?.md", "odd/percent%2e%2e%2f.md",
    "odd/ünïcödé ☃.md", "odd/-leading-dash.md", "odd/--rm -rf.md", "odd/%.md",
    "odd/Evil\u202egnp.md", "odd/\u0430pple.md",              # RTL override; Cyrillic 'а'
    "odd/" + "x" * 240 + ".md", "odd/" + "é" * 120 + ".md",   # long names (bytes ≤ 255)
    "odd/<script>.md", "odd/quote'\"`.md", "odd/back\\slash.md",
]
# Names no ref can carry (bf read refuses control characters): skipped and reported.
BAD_NAMES = ["odd/new\nline.md", "odd/tab\there.md", "odd/esc\x1b[31m.md", "odd/del\x7f.md"]

HOSTILE_RECORD_IDS = ["a", "A", "x#1", "who?", "%2e%2e", "-dash", "sp ace", "<img src=x onerror=window.__pwned=1>"]

TOO_LARGE_BYTES = 50 * 1024 * 1024


def _note(title: str, body: str, extra: str = "") -> str:
    return f"---\ntitle: {json.dumps(title)}\n{extra}---\n{body}\n"


def _frontmatter_payloads() -> str:
    p = PAYLOADS
    return (f"tags: [{json.dumps(p[0])}, 'ok/nested', {json.dumps(p[1])}]\n"
            f"aliases: [{json.dumps(p[2])}, {json.dumps(p[3])}]\n"
            f"status: {json.dumps(p[4])}\nowner: {json.dumps(p[8])}\ntype: {json.dumps(p[5])}\n"
            f"summary: {json.dumps(p[6])}\n"
            f"entities: [{json.dumps('person:' + p[0])}]\n"
            f"relations: {{{json.dumps(p[1])}: ['[[Target Note]]'], '../../etc': ['[[Target Note]]']}}\n")


def write_hostile_brain(root: Path, *, huge: bool = True) -> dict:
    """Write the brain into `root` (created). Returns what a build should report:
    {"problems": {path: kind}, "notes": [refs that must build], "records": [refs]}."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    outside = root.parent / "outside-secret"
    outside.mkdir(exist_ok=True)
    (outside / "secret.md").write_text("# SECRET OUTSIDE THE BRAIN\n", encoding="utf-8")
    problems: dict[str, str] = {}
    notes, records = [], []

    def put(rel: str, data: str | bytes) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)

    (root / "brain.toml").write_text(f'title = {json.dumps(PAYLOADS[0] + " brain")}\n', encoding="utf-8")
    payload_md = "\n\n".join(f"Payload {i}: {p}" for i, p in enumerate(PAYLOADS))
    links_md = "\n\n".join(HOSTILE_LINKS)
    headings = "\n\n".join(f"## {p}\n\ntext under heading {i}" for i, p in enumerate(PAYLOADS[:8]))
    tasks = "\n".join(f"- [ ] task {p}" for p in PAYLOADS[:4])
    put("index.md", _note(PAYLOADS[0], "Home. [[Target Note]] " + " ".join(f"[[{n[:-3]}]]" for n in ODD_NAMES)))
    put("target.md", _note("Target Note", "A plain note everyone links to.\n"))
    put("hostile/payloads.md", _note(PAYLOADS[1], f"{payload_md}\n\n{headings}\n\n{tasks}\n", _frontmatter_payloads()))
    put("hostile/links.md", _note("Links", links_md + "\n\n![[evil.svg]]\n"))
    put("hostile/raw.md", "# " + PAYLOADS[0] + "\n\n" + "\n\n".join(PAYLOADS) + "\n\n```html\n" + PAYLOADS[0] + "\n```\n")
    put("hostile/evil.svg", f'<svg xmlns="http://www.w3.org/2000/svg" onload="{PWN}"><script>{PWN}</script></svg>')
    problems["hostile/evil.svg"] = "unsafe_attachment"   # active content is not published by default
    # A note rich enough to need paging: its later pages carry payloads too.
    put("hostile/long.md", _note("Long", "\n\n".join(f"## Part {i}\n\n{PAYLOADS[i % len(PAYLOADS)]} " + "filler " * 600
                                                     for i in range(20))))
    notes += ["index.md", "target.md", "hostile/payloads.md", "hostile/links.md", "hostile/raw.md", "hostile/long.md"]
    for rel in ODD_NAMES:
        try:
            put(rel, _note(rel, f"Odd name {PAYLOADS[len(rel) % len(PAYLOADS)]} [[Target Note]]"))
        except OSError:        # a file system that refuses a name (none on Linux ext4/tmpfs)
            continue
        notes.append(rel)
    for rel in BAD_NAMES:
        put(rel, "never built")
        problems[rel] = "bad_name"
    deep = "/".join(f"d{i}" for i in range(60)) + "/deep.md"
    put(deep, _note("Deep", "sixty folders down [[Target Note]]"))
    notes.append(deep)

    # Files the build must skip and report.
    os.symlink(outside / "secret.md", root / "hostile/escape.md")
    problems["hostile/escape.md"] = "symlink"
    os.symlink(outside, root / "hostile/escape-dir")
    problems["hostile/escape-dir"] = "symlink"
    os.symlink(outside / "secret.md", root / "hostile/escape.svg")
    problems["hostile/escape.svg"] = "symlink"
    os.mkfifo(root / "hostile/pipe.md")
    problems["hostile/pipe.md"] = "special_file"
    put("hostile/binary.md", bytes(range(256)) * 64)
    problems["hostile/binary.md"] = "encoding"
    put("hostile/latin1.md", "caf\xe9 au lait".encode("latin-1"))
    problems["hostile/latin1.md"] = "encoding"
    put("hostile/nul.md", "text with a NUL \x00 byte")
    problems["hostile/nul.md"] = "encoding"
    if huge:
        put("hostile/huge.md", b"# Huge\n" + b"all work and no play " * (TOO_LARGE_BYTES // 21 + 1))
        problems["hostile/huge.md"] = "too_large"
    bomb = "---\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)},*{chr(97 + i)}]\n"
        for i in range(9)) + "title: bomb\n---\nboom\n"
    put("hostile/yaml-bomb.md", bomb)
    problems["hostile/yaml-bomb.md"] = "frontmatter"
    put("hostile/yaml-deep.md", "---\ntitle: " + "[" * 20000 + "]" * 20000 + "\n---\ndeep\n")
    problems["hostile/yaml-deep.md"] = "frontmatter"
    put("hostile/yaml-python.md", "---\ntitle: !!python/object/apply:os.system ['touch /tmp/pwned']\n---\nx\n")
    problems["hostile/yaml-python.md"] = "frontmatter"
    put("hostile/yaml-unclosed.md", "---\ntitle: never closed\n")
    problems["hostile/yaml-unclosed.md"] = "frontmatter"
    put("hostile/yaml-list.md", "---\n- just\n- a list\n---\nbody\n")
    problems["hostile/yaml-list.md"] = "frontmatter"
    # Type confusion in frontmatter: must build, never crash.
    put("hostile/confused.md", "---\ntitle: [1, 2]\ntags: {a: b}\naliases: 42\nentities: {x: 1}\n"
        "relations: [1, 2]\ndate: not-a-date\nmodified: 99999-99-99\nstale_after: forever\n---\nbody\n")
    problems["hostile/confused.md"] = "frontmatter"
    put("hostile/confused2.md", "---\ntitle: null\ntags: [null, 1, [2]]\naliases: [{}]\nrelations: {links: 5, '': ['x']}\n"
        "date: 1e999\ndeprecated: 'yes'\ndraft: 0\n---\n# Confused two\n")
    notes.append("hostile/confused2.md")

    # Records.
    rec = {"text": payload_md, "title": PAYLOADS[0], "author": f"person:{PAYLOADS[1]}",
           "uri": f"javascript:{PWN}", "time": "2026-11-30T10:00:00Z",
           "refs": ["target.md", PAYLOADS[2]], "relations": {PAYLOADS[3]: ["target.md"]},
           "attributes": {"observed": "2026-11-30T10:05:00Z", PAYLOADS[4]: PAYLOADS[5],
                          "nested": {"deep": PAYLOADS[6]}, "channel": "</script>"}}
    for i, rid in enumerate(HOSTILE_RECORD_IDS):
        put(f"memories/evil/{rid}.json", json.dumps(dict(rec, title=f"{PAYLOADS[i % len(PAYLOADS)]} {i}")))
        records.append(f"evil:{rid}")
    put("memories/evil/unicode.json", json.dumps({"text": "\u2028\u2029" + PAYLOADS[21], "title": "\u202e" + PAYLOADS[0]},
                                                 ensure_ascii=False))
    records.append("evil:unicode")
    put("memories/evil/binary.json", bytes(range(256)))
    problems["memories/evil/binary.json"] = "encoding"
    put("memories/evil/deep.json", "[" * 100000 + "]" * 100000)
    problems["memories/evil/deep.json"] = "json"
    put("memories/evil/notext.json", json.dumps({"title": PAYLOADS[0]}))
    problems["memories/evil/notext.json"] = "record"
    put("memories/evil/badtime.json", json.dumps({"text": "x", "time": PAYLOADS[0]}))
    problems["memories/evil/badtime.json"] = "record"
    put("memories/evil/big.json", json.dumps({"text": "x" * (2 * 1024 * 1024)}))
    problems["memories/evil/big.json"] = "too_large"
    put("memories/evil/_source.json", json.dumps({"status": "failed", "error": PAYLOADS[0], "last_run": "2026-12-01T00:00:00Z"}))
    os.symlink(outside / "secret.md", root / "memories/evil/link.json")
    problems["memories/evil/link.json"] = "symlink"
    os.symlink(outside, root / "memories/outside")
    problems["memories/outside"] = "symlink"
    return {"problems": problems, "notes": notes, "records": records}
