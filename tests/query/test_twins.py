"""True twins (docs/code.md#twins; as lunr.py mirrors lunr.js): every module of the query engine,
builder/query/X.py, has a JS module site/engine/X.js with the same public functions and classes,
named alike (snake_case → camelCase) and in the same order; so do the kernel modules both sides
share. Deliberate differences are the short table below, each with its reason — a new one must be
written there, so a drift cannot pass unnoticed.

Browser modules that re-do part of what the build does (MIRRORS: links.js, page.js, navdata.js)
are checked export by export: each names the Python function it mirrors, or says why only the
browser has it.

A constant both runtimes need is written once, in Python: a JS twin or mirror holding a
constant of the same name holds its value, written there by `python tests/query/test_twins.py`; the
test fails when a value differs."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
ENGINE = SITE / "engine"

# Python module (relative to builder/) → its JS twin (relative to site/engine/).
KERNEL = {**{f"kernel/{m}.py": f"{m}.js" for m in ("refs", "pageurls", "periods", "packs", "errors", "listing", "text")},
          "vectors/wordpiece.py": "wordpiece.js",
          **{f"bm25/{m}.py": f"bm25/{m}.js" for m in ("tokenizer", "trimmer", "stemmer", "unitable", "pipeline",
                                                   "scoring", "reader", "blocks")}}

# (Python module, name): why only one side has it. "py:" names exist only in Python, "js:" only in JS.
EXCEPTIONS = {
    # the build or the Python shell only: the browser never does it
    ("kernel/packs.py", "py:pack"): "packs are written by the build; the browser only inflates them",
    ("kernel/packs.py", "py:packAll"): "packs are written by the build; the browser only inflates them",
    ("kernel/packs.py", "py:cut"): "Python cuts one value from a pack's bytes (a record's pages, a note's text, a "
                                   "term's posting); the browser parses the packs it fetches",
    ("kernel/packs.py", "py:read"): "reads a pack from disk; the browser fetches through site.js",
    ("kernel/packs.py", "py:members"): "files of gzip members are written by the build",
    ("kernel/packs.py", "py:readMember"): "reads a member's bytes from disk; the browser asks for them by a Range "
                                          "request (site.js loadMember)",
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
    ("query/search.py", "js:prefetch"): "the browser asks for a search's first files at once; Python reads them from disk",
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


# Browser module (under site/) → each of its exports: the Python function it mirrors
# ("module.py:name", relative to builder/, and the JS comment above it names "module.py name"),
# or "browser: why" when only the browser does it.
MIRRORS = {
    "links.js": {
        "pagePath": "emit/urls.py:page_path",
        "recordPageRef": "emit/urls.py:record_page_ref",
        "recordPath": "emit/urls.py:record_url",
        "relationAnchor": "emit/urls.py:relation_anchor",
        "itemPath": "emit/html.py:ref_url",
    },
    "page.js": {
        "el": "browser: a DOM element; the build writes HTML text",
        "itemNode": "emit/listing_pages.py:_item_fragment",
        "movedTo": "browser: 404.html's redirect from an older build's address (the build writes no page there)",
        "wire": "browser: the page's buttons",
    },
    "navdata.js": {
        "folderTree": "browser: fetches the tree emit/navigation.py writes (folder_tree)",
        "notes": "emit/navigation.py:note_ids",
        "noteGraph": "browser: fetches the graph emit/navigation.py writes",
        "unpackGraph": "emit/navigation.py:edges",
        "currentRef": "browser: the note the page shows, from its <meta name=bf-ref>",
    },
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


def mirror_pairs() -> list[tuple[str, Path, Path]]:
    """(Python module, its file, the browser module mirroring part of it), from MIRRORS."""
    return sorted({(m, ROOT / "builder" / m, SITE / js) for js, names in MIRRORS.items()
                   for m in (v.split(":")[0] for v in names.values() if not v.startswith("browser:"))})


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


def test_every_export_of_a_mirror_is_declared():
    """Each export of links.js, page.js and navdata.js is in MIRRORS, and each Python function
    named there exists, with the JS comment above its mirror naming it."""
    problems = []
    for js, declared in MIRRORS.items():
        text = (SITE / js).read_text("utf-8")
        exported = [next(g for g in m.groups() if g) for m in JS_EXPORT.finditer(text)]
        if exported != list(declared):
            problems.append(f"{js}: exports {exported}, MIRRORS lists {list(declared)}")
        for name, what in declared.items():
            if what.startswith("browser:"):
                continue
            module, py_name = what.split(":")
            tree = ast.parse((ROOT / "builder" / module).read_text("utf-8"))
            if py_name not in {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}:
                problems.append(f"{js} {name}: builder/{module} has no {py_name}")
            at = re.search(rf"^export (?:async )?function {name} ", text, re.M)
            above = text[:at.start()].rstrip("\n").rsplit("\n\n", 1)[-1] if at else ""
            if f"{Path(module).name} {py_name}" not in above:
                problems.append(f"{js} {name}: its comment does not name {Path(module).name} {py_name}")
    assert not problems, "\n".join(problems)


# --- constants both runtimes need ------------------------------------------------------------
JS_CONST = re.compile(r"^((?:export )?const ([A-Z][A-Z0-9_]*) = )('(?:[^'\\\n]|\\.)*'|-?[0-9][0-9a-fA-FxX._]*|\[[^\n]*\])"
                      r"(?=\s*(?://[^\n]*)?$)", re.M)


def py_constants(path: Path) -> dict[str, int | float | str]:
    """The module's NAME = number or string, at its top level."""
    out = {}
    for node in ast.parse(path.read_text("utf-8")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
            node.target if isinstance(node, ast.AnnAssign) and node.value is not None else None
        if isinstance(target, ast.Name) and target.id.isupper():
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if isinstance(value, (int, float, str, tuple)) and not isinstance(value, bool):
                out[target.id] = value
    return out


def js_literal(value) -> str:
    """A constant as JS: a string or number, or a tuple of JSON values as an array literal."""
    if isinstance(value, str):
        return "'" + value.encode("unicode_escape").decode("ascii").replace("'", "\\'") + "'"
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(map(js_literal, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{js_literal(str(k))}: {js_literal(v)}" for k, v in value.items()) + "}"
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    return repr(value)


def js_value(literal: str):
    """What a JS constant's literal holds, as Python (an array as lists, as json reads it)."""
    if not literal.startswith("["):
        return ast.literal_eval(literal)
    # a JS array of JSON values: Python reads it once null, true and false outside strings are its own
    words = {"null": "None", "true": "True", "false": "False"}
    return ast.literal_eval(re.sub(r"'(?:[^'\\]|\\.)*'|\b(null|true|false)\b",
                                   lambda m: words[m.group(1)] if m.group(1) else m.group(0), literal))


def same(literal: str, value) -> bool:
    if isinstance(value, tuple):   # as arrays both ways: tuples and lists alike
        return json.loads(json.dumps(js_value(literal))) == json.loads(json.dumps(value))
    return js_value(literal) == value


FORMATS = ROOT / "builder" / "kernel" / "formats.py"   # every format's version, which any JS module may hold


def shared_constants() -> list[tuple[Path, str, str, int | float | str, int]]:
    """(JS file, name, its JS literal, the Python value, where the literal starts) of every
    constant a JS twin or mirror shares by name with its Python module or kernel/formats.py."""
    out, formats = [], py_constants(FORMATS)
    for _, py, js in pairs() + mirror_pairs():
        if not js.is_file():
            continue
        values = formats | py_constants(py)
        for m in JS_CONST.finditer(js.read_text("utf-8")):
            if m.group(2) in values:
                out.append((js, m.group(2), m.group(3), values[m.group(2)], m.start(3)))
    return out


def test_shared_constants_hold_the_python_value():
    found = shared_constants()
    names = {(js.name, name) for js, name, *_ in found}
    assert {("page.js", "LISTED_EXCERPT"), ("navdata.js", "EXPLORER"), ("navdata.js", "GRAPH"),
            ("text.js", "EXCERPT_CHARS"), ("listing.js", "PAGE_ITEMS"), ("vector.js", "FIT"),
            ("excerpt.js", "SPACE"), ("store.js", "STORE_FORMAT"), ("data.js", "DATA_FORMAT"),
            ("vectorstore.js", "VECTORS_FORMAT"), ("scoring.js", "LUNR_FORMAT"), ("site.js", "BUNDLE_VERSION"),
            ("search.js", "ITEM_FIELDS"), ("search.js", "RECORD_FIELDS")} <= names, sorted(names)
    wrong = [f"{js.relative_to(ROOT)} {name} = {literal}, Python has {value!r}"
             for js, name, literal, value, _ in found if not same(literal, value)]
    assert not wrong, "python tests/query/test_twins.py writes the Python values:\n" + "\n".join(wrong)


def test_a_constant_is_written_as_js():
    assert [js_literal(v) for v in (160, 0.05, 100.0, "bf-data-2", "it's\t")] == \
        ["160", "0.05", "100.0", "'bf-data-2'", "'it\\'s\\t'"]
    assert all(ast.literal_eval(js_literal(v)) == v for v in ("a'b", " \t\n\x0b", "é→", 7))


def write_constants() -> list[str]:
    """Writes each shared constant's Python value into its JS file; returns what changed."""
    changed = []
    found = shared_constants()
    for js in sorted({c[0] for c in found}):
        text = js.read_text("utf-8")
        for _, name, literal, value, start in sorted((c for c in found if c[0] == js), key=lambda c: -c[4]):
            if not same(literal, value):   # a value unchanged keeps its spelling ('\f', 0x…)
                text = text[:start] + js_literal(value) + text[start + len(literal):]
                changed.append(f"{js.relative_to(ROOT)} {name} = {js_literal(value)}")
        if text != js.read_text("utf-8"):
            js.write_text(text, "utf-8")
    return changed


if __name__ == "__main__":
    print("\n".join(write_constants()) or "every shared constant holds its Python value")
