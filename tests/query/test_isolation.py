"""The import graph of builder/ and the benchmark bench/: no cycles, and imports only point the
allowed way (docs/code.md: the kernel depends on nothing; brain → model → views → emit; the built
site → query → the shells; bench → builder, never back).

Every module under builder/ and bench/ is parsed with `ast`; every import counts, including ones inside
functions (a lazy import is still a dependency). `from pkg import name` is an edge to the
submodule pkg.name when there is one, else to pkg itself (its __init__).
"""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "builder"
# The benchmark: beside the package, not in the wheel (tests/test_wheel.py). It may import any
# module of builder/; no module of builder/ may import it.
BENCH = "bench"

# What each package may import besides itself (docs/code.md, "What each package may import").
# `builder` is the package's face (builder/__init__: its version and constants, open_site).
MAY_IMPORT = {
    "builder":         ("builder.kernel",),                     # and builder.api lazily (FACADE)
    "builder.kernel":  (),                                     # shared by all: depends on none
    "builder.bm25":    ("builder.kernel",),                     # the index format, both sides
    "builder.vectors": ("builder.kernel",),                     # the token table and tokenizer
    "builder.brain":   ("builder.kernel",),                     # parse + resolve → model
    "builder.views":   ("builder.kernel", "builder.bm25"),      # model + as_of → data
    "builder.emit":    ("builder.kernel", "builder.bm25", "builder.vectors", "builder.views",
                        "builder.query"),                       # writes views; may call query/
    "builder.query":   ("builder.kernel", "builder.bm25", "builder.vectors"),  # reads only the built site
}
# The shells are every module at the top of builder/ (entry points and their helpers: build, cli,
# mcp, serve, bench*, …): they may import anything, and no package imports them.
# The package's public face: builder.open_site / builder.Site load builder.api inside a function
# (README "## Python"), so `import builder` stays light. The one edge from the face to a shell:
# allowed, and in the graph like any other (api → query → kernel never leads back to builder).
FACADE = {("builder", "builder.api")}
# module → the only modules that may import it.
ONLY_FROM = {
    "builder.cli": {"builder.__main__"},
    "builder.mcp": {"builder.cli"},      # `bf mcp` starts the server
}
# Cycles tolerated for now, each with its reason. Remove an entry once its cycle is gone.
KNOWN_CYCLES = [
]


def modules(*tops: str) -> dict[str, tuple[Path, bool]]:
    """dotted name → (file, is a package __init__), of builder/ (or the packages `tops` names)."""
    found = {}
    for path in sorted(p for top in tops or ("builder",) for p in (ROOT / top).rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def import_graph() -> dict[str, set[str]]:
    mods = modules("builder", BENCH)
    graph = {}
    for name, (path, package) in mods.items():
        here = name.split(".") if package else name.split(".")[:-1]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name.split(".")[0] in ("builder", BENCH)}
            elif isinstance(node, ast.ImportFrom):
                base = here[:len(here) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                if module.split(".")[0] not in ("builder", BENCH):
                    continue
                for alias in node.names:
                    sub = f"{module}.{alias.name}"
                    targets.add(sub if sub in mods else module)
        unknown = sorted(t for t in targets if t not in mods)
        assert not unknown, f"{path}: imports {unknown}, which are not modules under builder/ or bench/"
        targets.discard(name)
        graph[name] = targets
    return graph


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def package_of(name: str) -> str:
    """builder.emit.html → builder.emit; a top-level module (a shell) or builder → itself; bench.X → bench."""
    if _under(name, BENCH):
        return BENCH
    return ".".join(name.split(".")[:2]) if name.count(".") >= 2 or name in MAY_IMPORT else name


def shells() -> set[str]:
    return {n for n, (_, package) in modules().items() if n.count(".") == 1 and not package}


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_graph_sees_every_module_and_lazy_imports():
    graph = import_graph()
    assert {"builder", "builder.cli", "builder.query.search", "builder.views"} <= set(graph)
    assert "builder.build" in graph["builder.cli"]          # imported inside a function
    assert "builder.kernel.model" in graph["builder.emit.html"]    # from ..kernel.model import SLOT
    assert {"bench.childbuild", "bench.real", "bench.gen"} <= graph["bench.run"]   # its own parts
    assert "builder.build" in graph["bench.childbuild"]   # builder as a library, imported inside a function


def test_the_face_imports_api_without_a_cycle():
    """builder → api (open_site) is an edge of the graph, and no cycle goes through it."""
    graph = import_graph()
    assert "builder.api" in graph["builder"]
    assert not [c for c in cycles(graph) if "builder" in c or "builder.api" in c]


def test_no_import_cycles():
    found = [sorted(c) for c in cycles(import_graph()) if c not in KNOWN_CYCLES]
    assert not found, "import cycles (break them; a shared name belongs in a lower module):\n" + \
        "\n".join(" ↔ ".join(c) for c in found)


def forbidden_edges(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for name, targets in sorted(graph.items()):
        here = package_of(name)
        for t in sorted(targets):
            there = package_of(t)
            if here in MAY_IMPORT and there != here and there not in MAY_IMPORT[here] and (name, t) not in FACADE:
                bad.append(f"{name} → {t}  ({here} may import only {list(MAY_IMPORT[here]) or 'itself'})")
            if there == BENCH and here != BENCH:
                bad.append(f"{name} → {t}  (nothing under builder/ imports the benchmark)")
            if t in ONLY_FROM and name not in ONLY_FROM[t]:
                bad.append(f"{name} → {t}  (only {sorted(ONLY_FROM[t])} may import {t})")
    return bad


def test_imports_point_the_allowed_way():
    bad = forbidden_edges(import_graph())
    assert not bad, "forbidden imports:\n" + "\n".join(bad)


def test_the_rules_cover_every_module():
    """Every module is in a package MAY_IMPORT rules, a shell, or the package's face: a new
    package must say what it may import."""
    graph = import_graph()
    ruled = (*MAY_IMPORT, BENCH)
    loose = sorted(m for m in graph if m != "builder" and package_of(m) not in ruled and m not in shells())
    assert not loose, loose
    assert set(MAY_IMPORT) <= set(graph) and set(ONLY_FROM) <= shells()
    assert {"builder.build", "builder.cli", "builder.scrub", "builder.parsecache"} <= shells()
    assert package_of("builder.kernel.refs") == "builder.kernel" and package_of("builder.cli") == "builder.cli"
    assert all(c <= set(graph) for c in KNOWN_CYCLES)


def test_a_forbidden_edge_is_reported():
    graph = import_graph()
    graph["builder.kernel.refs"] |= {"builder.views.items", "builder.cli"}   # kernel → a view, a shell
    graph["builder.views.items"] |= {"builder.build"}                         # a package → a shell
    graph["builder.cli"] |= {"bench.gen"}                                     # the product → the benchmark
    assert forbidden_edges(graph) == [
        "builder.cli → bench.gen  (nothing under builder/ imports the benchmark)",
        "builder.kernel.refs → builder.cli  (builder.kernel may import only itself)",
        "builder.kernel.refs → builder.cli  (only ['builder.__main__'] may import builder.cli)",
        "builder.kernel.refs → builder.views.items  (builder.kernel may import only itself)",
        "builder.views.items → builder.build  (builder.views may import only ['builder.kernel', 'builder.bm25'])"]


def documented_rules() -> dict[str, tuple[str, ...]]:
    """docs/code.md's table "What each package may import": package → its "may import" column."""
    doc = (ROOT / "docs" / "code.md").read_text("utf-8")
    rules = {}
    for line in doc.splitlines():
        m = re.match(r"\| `builder/(\w+)`[^|]*\| ([^|]*) \|", line)
        if m:
            name = "builder" if m.group(1) == "__init__" else f"builder.{m.group(1)}"
            rules[name] = tuple("builder" if n == "builder" else f"builder.{n}"
                                for n in re.findall(r"`(\w+)`", m.group(2)))
    return rules


def test_the_doc_states_these_rules():
    documented = documented_rules()
    assert set(documented) == set(MAY_IMPORT)
    assert {k: set(v) for k, v in documented.items()} == {k: set(v) for k, v in MAY_IMPORT.items()}


def test_the_doc_draws_this_layout():
    """docs/code.md's layout is scripts/layout.py's output (regenerate it when modules move)."""
    doc = (ROOT / "docs" / "code.md").read_text("utf-8")
    drawn = doc[doc.index("## Layout"):].split("```\n")[1]
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "layout.py")], capture_output=True, text=True,
                         check=True).stdout
    assert drawn == out, "docs/code.md's layout is stale: run python scripts/layout.py"


def test_query_engine_never_imports_brain_or_views():
    code = ("import sys, builder.query.read, builder.query.search, builder.query.recall, builder.mcp;"
            "print(sorted(m for m in sys.modules if m.startswith(('builder.brain', 'builder.views', 'builder.emit'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_lexical_search_does_not_import_numpy():
    """numpy costs ~50 ms of a cold `bf search` (docs/performance.md#targets: ≤ 0.4 s); only the vector arm uses it."""
    code = ("import sys; import builder.cli, builder.query.search, builder.query.vector, builder.vectors; "
            "sys.exit('numpy' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent).returncode == 0


# Module names two packages share, each pair the two sides of one thing (issue 20: otherwise one
# name, one module). Python↔JS twins are checked in test_twins.py.
SHARED_NAMES = {
    "coverage": "views/ computes each source's coverage at build time; query/ reports it in search replies",
    "data": "emit/ writes the compact data (docs/data.md); query/ reads it",
    "vectors": "builder/vectors/ is the token table and embedder; emit/vectors.py writes a site's vectors",
}


def test_no_two_modules_share_a_name_unless_listed():
    names: dict[str, list[str]] = {}
    for name, (path, package) in modules().items():
        if name != "builder":
            names.setdefault(name.rsplit(".", 1)[-1], []).append(name)
    shared = {n: sorted(where) for n, where in names.items() if len(where) > 1}
    assert set(shared) == set(SHARED_NAMES), shared
