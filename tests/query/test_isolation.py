"""The import graph of builder/: no cycles, and imports only point the allowed way (docs: STYLE.md,
"brain → views → emit; query reads only the built site").

Every module under builder/ is parsed with `ast`; every import counts, including ones inside
functions (a lazy import is still a dependency). `from pkg import name` is an edge to the
submodule pkg.name when there is one, else to pkg itself (its __init__).
"""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "builder"

# The shells: they may import anything (cli and mcp are further limited by ONLY_FROM).
SHELLS = ("builder.__main__", "builder.cli", "builder.mcp", "builder.serve", "builder.watch", "builder.build",
          "builder.bench", "builder.benchquality", "builder.benchrebuild", "builder.api")
# The package's public face: builder.open_site / builder.Site load builder.api inside a function
# (README "## Python"), so `import builder` stays light. The one edge from the kernel to a shell.
FACADE = {("builder", "builder.api")}
LAYERS = ("builder.brain", "builder.views", "builder.emit", "builder.query")

# importer (a module or a package and everything under it) → what it may not import.
# "kernel" is every other top-level module (model, errors, refs, text, times, listing, ...).
RULES = [
    ("builder.query",  ("builder.brain", "builder.views", "builder.emit")),  # reads only the built site
    ("builder.brain",  ("builder.views", "builder.emit", "builder.query")),  # parse + resolve → model
    ("builder.views",  ("builder.brain", "builder.emit", "builder.query")),  # model + as_of → data
    ("builder.emit",   ("builder.brain",)),                                  # writes views; may call query/
    ("builder.bm25", LAYERS),                                              # a library of its own
    ("kernel",         LAYERS + SHELLS),                                     # shared by all: depends on none
]
# module → the only modules that may import it.
ONLY_FROM = {
    "builder.cli": {"builder.__main__"},
    "builder.mcp": {"builder.cli"},      # `bf mcp` starts the server
}
# Cycles tolerated for now, each with its reason. Remove an entry once its cycle is gone.
KNOWN_CYCLES = [
]


def modules() -> dict[str, tuple[Path, bool]]:
    """dotted name → (file, is a package __init__)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    graph = {}
    for name, (path, package) in mods.items():
        here = name.split(".") if package else name.split(".")[:-1]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name.split(".")[0] == "builder"}
            elif isinstance(node, ast.ImportFrom):
                base = here[:len(here) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                if module.split(".")[0] != "builder":
                    continue
                for alias in node.names:
                    sub = f"{module}.{alias.name}"
                    targets.add(sub if sub in mods else module)
        unknown = sorted(t for t in targets if t not in mods)
        assert not unknown, f"{path}: imports {unknown}, which are not modules under builder/"
        targets.discard(name)
        graph[name] = {t for t in targets if (name, t) not in FACADE}
    return graph


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def kernel_modules() -> set[str]:
    """builder/__init__ and every top-level module that is not a shell."""
    return {n for n, (_, package) in modules().items()
            if n == "builder" or (n.count(".") == 1 and not package and n not in SHELLS)}


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
    assert "builder.model" in graph["builder.emit.html"]    # from ..model import SLOT


def test_no_import_cycles():
    found = [sorted(c) for c in cycles(import_graph()) if c not in KNOWN_CYCLES]
    assert not found, "import cycles (break them; a shared name belongs in a lower module):\n" + \
        "\n".join(" ↔ ".join(c) for c in found)


def test_imports_point_the_allowed_way():
    bad, kernel = [], kernel_modules()
    for name, targets in sorted(import_graph().items()):
        for importer, forbidden in RULES:
            if (name in kernel if importer == "kernel" else _under(name, importer)):
                bad += [f"{name} → {t}  ({importer} may not import {f})"
                        for t in sorted(targets) for f in forbidden if _under(t, f)]
        for t in sorted(targets):
            if t in ONLY_FROM and name not in ONLY_FROM[t]:
                bad.append(f"{name} → {t}  (only {sorted(ONLY_FROM[t])} may import {t})")
    assert not bad, "forbidden imports:\n" + "\n".join(bad)


def test_rules_name_real_modules():
    graph = import_graph()
    for prefix in [r for r, _ in RULES if r != "kernel"] + list(SHELLS) + list(ONLY_FROM):
        assert any(_under(m, prefix) for m in graph), prefix
    assert all(c <= set(graph) for c in KNOWN_CYCLES)
    assert {"builder", "builder.model", "builder.errors", "builder.scrub"} <= kernel_modules()
    assert not kernel_modules() & {"builder.cli", "builder.build", "builder.views", "builder.bm25"}


def test_query_engine_never_imports_brain_or_views():
    code = ("import sys, builder.query.read, builder.query.search, builder.query.recall, builder.mcp;"
            "print(sorted(m for m in sys.modules if m.startswith(('builder.brain', 'builder.views', 'builder.emit'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_lexical_search_does_not_import_numpy():
    """numpy costs ~50 ms of a cold `bf search` (SPEC §11: ≤ 0.4 s); only the vector arm uses it."""
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
