"""What no module of builder/ may hold or do at its top level (docs/code.md, "State" and "The build").

- No mutable container at module level: a module-level dict, list or set is a constant, so it is
  a MappingProxyType, a tuple or a frozenset; what is worth keeping belongs to a memo its caller
  owns (emit/state.py), or to an lru_cache of a pure function. `__all__` lists are Python's
  convention; the benchmark's modules (bench*.py) are no part of a build or a query.
- No module but the runner (builder/runner.py) starts a process for the build: kernel/parallel.py
  holds the means (and alone imports multiprocessing), and only the runner uses them, those that
  start a child beside the build (`Forked`, `served`) and the workers of a stage's own work
  (`fork_map`, `fork_each`, `mapped`) alike. A stage spreads its work only through the
  `Spread` the runner hands it (its context's `spread`).
"""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "builder"
MUTABLE = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
MUTABLE_CALLS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray"}
PROCESS_MEANS = {"multiprocessing", "os.fork", "os.forkpty"}
STARTERS = {"Forked", "served", "fork_map", "fork_each", "mapped"}
RUNNER = "runner.py"
MEANS = "kernel/parallel.py"


def _sources(benchmark: bool = True):
    for path in sorted(PACKAGE.rglob("*.py")):
        if not benchmark and path.parent == PACKAGE and path.name.startswith("bench"):
            continue
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text("utf-8"), str(path))


def _mutable(value) -> bool:
    if isinstance(value, MUTABLE):
        return True
    return isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", None)) in MUTABLE_CALLS


def mutable_module_state(tree: ast.Module) -> list[str]:
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None and _mutable(node.value):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found += [f"{ast.unparse(t)} (line {node.lineno})" for t in targets if ast.unparse(t) != "__all__"]
    return found


def test_no_module_holds_a_mutable_container():
    bad = {rel: names for rel, tree in _sources(benchmark=False) if (names := mutable_module_state(tree))}
    assert not bad, "module-level mutable containers (make them immutable, or a memo's):\n" + \
        "\n".join(f"builder/{rel}: {', '.join(names)}" for rel, names in bad.items())


def test_the_check_sees_a_mutable_container():
    tree = ast.parse("A = {}\nB: list = []\nC = dict(x=1)\nD = (1, 2)\nE = frozenset({1})\n__all__ = []\ndef f():\n    g = {}\n")
    assert mutable_module_state(tree) == ["A (line 1)", "B (line 2)", "C (line 3)"]


def _uses(tree: ast.Module) -> set[str]:
    """The imported modules and names, and attribute calls like os.fork, a module uses."""
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            used |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            used |= {alias.name for alias in node.names} | {f"{node.module}.{alias.name}" for alias in node.names}
            used.add(node.module or "")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            used.add(f"{node.value.id}.{node.attr}")
    return used


def test_no_module_but_the_runner_forks():
    means = {rel: sorted(_uses(tree) & PROCESS_MEANS) for rel, tree in _sources()}
    assert {rel for rel, used in means.items() if used} == {MEANS}, means
    starters = {rel for rel, tree in _sources() if _uses(tree) & STARTERS}
    assert starters <= {RUNNER, MEANS}, starters
    assert RUNNER in starters


LONGEST = 60
# Functions longer than LONGEST lines, each with its reason; shorten one and drop its entry.
LONG = {
    "bm25/stemmer.py:_porter": "a line-for-line port of lunr.js's stemmer, checked against it as a twin",
}


def test_no_function_is_longer_than_60_lines_but_those_listed():
    long = {f"{rel}:{node.name}" for rel, tree in _sources(benchmark=False) for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno >= LONGEST}
    assert long == set(LONG), long
