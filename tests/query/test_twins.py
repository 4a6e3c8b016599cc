"""True twins (docs/code.md#twins; as lunr.py mirrors lunr.js): every module of the query engine,
builder/query/X.py, has a JS module site/engine/X.js with the same public functions and classes,
named alike (snake_case → camelCase) and in the same order; so do the kernel modules both sides
share. Deliberate differences are the short table below, each with its reason — a new one must be
written there, so a drift cannot pass unnoticed."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "site" / "engine"

# Python module (relative to builder/) → its JS twin (relative to site/engine/).
KERNEL = {**{f"kernel/{m}.py": f"{m}.js" for m in ("refs", "pageurls", "periods", "packs", "errors", "listing", "text")},
          "vectors/wordpiece.py": "wordpiece.js",
          **{f"bm25/{m}.py": f"bm25/{m}.js" for m in ("tokenizer", "trimmer", "stemmer", "unitable", "pipeline",
                                                   "scoring", "reader")}}

# (Python module, name): why only one side has it. "py:" names exist only in Python, "js:" only in JS.
EXCEPTIONS = {
    # the build or the Python shell only: the browser never does it
    ("kernel/packs.py", "py:pack"): "packs are written by the build; the browser only inflates them",
    ("kernel/packs.py", "py:packAll"): "packs are written by the build; the browser only inflates them",
    ("kernel/packs.py", "py:read"): "reads a pack from disk; the browser fetches through site.js",
    ("kernel/packs.py", "js:unpackBytes"): "a fetched pack's bytes (the vector files): Python's unpack gives bytes "
                                           "already, JS's unpack the parsed JSON that its other callers want",
    ("query/site.py", "py:findSite"): "--site / $BF_SITE / ./_site; a page's site is its own root",
    ("query/site.py", "py:liveSite"): "the MCP server re-opens a rebuilt site; a page reloads instead",
    ("kernel/errors.py", "py:configError"): "brain.toml errors happen at build time",
    ("kernel/errors.py", "py:buildError"): "build failures",
    ("bm25/unitable.py", "py:charClass"): "regex classes for Python's re; pipeline.js builds its own for JS",
    ("bm25/unitable.py", "py:generate"): "regenerates the tables from unicodedata (a script step)",
    ("bm25/pipeline.py", "py:termCounts"): "counts terms for the index build",
    ("bm25/tokenizer.py", "py:split"): "the index build's splitter; the browser tokenizes for highlights only",
    ("query/recall.py", "py:checkBudget"): "--budget of the CLI and MCP; bf.recall takes a number",
    ("query/search.py", "py:checkQuery"): "CLI/MCP argument check; JS checks in search() itself",
    ("query/search.py", "py:types"): "the MCP `types` resource",
    ("kernel/text.py", "py:plain"): "Markdown → plain text for previews, at build time",
    ("kernel/text.py", "py:previewTitle"): "listing previews are built",
    # a runtime's own way to the same reply
    ("query/search.py", "js:refsOf"): "the browser fetches the refs of the records it returns at once; Python's "
                                      "Entry.ref reads one on first use, from the same meta chunk",
    # JS stands in for what Python's standard library gives
    ("kernel/refs.py", "js:pyStrip"): "Python's str.strip (its whitespace set, not String.trim's)",
    ("kernel/refs.py", "js:pyWords"): "Python's str.split() (its whitespace set, not \\s)",
    ("kernel/refs.py", "js:pyRstrip"): "Python's str.rstrip",
    ("kernel/errors.py", "js:pyRepr"): "Python's repr, for messages that quote a value",
    ("kernel/periods.py", "js:localDays"): "zoneinfo's local date, from Intl",
    ("kernel/listing.py", "js:rfc3339"): "times.rfc3339",
    ("kernel/listing.py", "js:seconds"): "times.seconds",
    ("vectors/wordpiece.py", "py:unicodeWords"): "\\w+ splitting; wordpiece.js uses one Unicode regex",
}


def camel(name: str) -> str:
    """snake_case → camelCase, first letter lower: a Python class and a JS factory of the same
    thing (errors.InvalidInput ↔ errors.invalidInput) compare equal, as do two classes."""
    head, *rest = name.split("_")
    name = head + "".join(p[:1].upper() + p[1:] for p in rest)
    return name[:1].lower() + name[1:]


def python_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text("utf-8"))
    return [camel(n.name) for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not n.name.startswith("_")]


# export function f / class C / const f = (…) => / const f = x => / const f = g (an alias) /
# const f = (function () { … })() (built once)
JS_EXPORT = re.compile(r"^export (?:(?:async )?function\*? (\w+)|class (\w+)"
                       r"|const (\w+) = (?:async )?(?:\([^)]*\)|\w+) =>|const (\w+) = [a-z]\w*$|const (\w+) = \(function)", re.M)


def js_names(path: Path) -> list[str]:
    return [camel(next(g for g in m.groups() if g)) for m in JS_EXPORT.finditer(path.read_text("utf-8"))]


def pairs() -> list[tuple[str, Path, Path]]:
    out = [(f"query/{p.name}", p, ENGINE / (p.stem + ".js"))
           for p in sorted((ROOT / "builder" / "query").glob("*.py")) if p.name != "__init__.py"]
    return out + [(py, ROOT / "builder" / py, ENGINE / js) for py, js in KERNEL.items()]


def differences(module: str, py: list[str], js: list[str]) -> list[str]:
    """What differs between the two name lists, exceptions removed: names on one side only, and
    the shared names out of order."""
    only_py = [n for n in py if n not in js and (module, "py:" + n) not in EXCEPTIONS]
    only_js = [n for n in js if n not in py and (module, "js:" + n) not in EXCEPTIONS]
    shared_py = [n for n in py if n in js]
    shared_js = [n for n in js if n in py]
    out = [f"{module}: only in Python: {only_py}"] if only_py else []
    out += [f"{module}: only in JS: {only_js}"] if only_js else []
    if shared_py != shared_js:
        out.append(f"{module}: order differs: Python {shared_py}, JS {shared_js}")
    return out


def test_every_query_module_has_a_js_twin_with_the_same_functions():
    problems = []
    for module, py, js in pairs():
        if not js.is_file():
            problems.append(f"{module}: no {js.relative_to(ROOT)}")
            continue
        problems += differences(module, python_names(py), js_names(js))
    assert not problems, "\n".join(problems)


def test_every_exception_is_still_needed():
    """An exception whose name is gone from its side, or has a twin now, is stale: drop it."""
    names = {module: (python_names(py), js_names(js) if js.is_file() else []) for module, py, js in pairs()}
    stale = []
    for (module, side_name), why in EXCEPTIONS.items():
        side, name = side_name.split(":", 1)
        py, js = names[module]
        mine, other = (py, js) if side == "py" else (js, py)
        if name not in mine or name in other:
            stale.append(f"{module} {side_name} ({why})")
    assert not stale, stale


def test_a_drift_is_reported():
    assert differences("m", ["a", "b", "c"], ["a", "c", "d"]) == ["m: only in Python: ['b']", "m: only in JS: ['d']"]
    assert differences("m", ["a", "b"], ["b", "a"]) == ["m: order differs: Python ['a', 'b'], JS ['b', 'a']"]
    assert camel("period_reply") == "periodReply" and camel("read") == "read"
