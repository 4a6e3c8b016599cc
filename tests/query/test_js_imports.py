"""The browser modules (site/**/*.js) import one another without a cycle, as builder/ does
(test_isolation.py): a module shared by two others belongs in a third they both import.

Every relative module path written in a module counts as an edge: its static imports, its
`import('./x.js')` calls, and a path it hands to import() through a variable (bf.js's
whenNear) or to a worker (graph.js)."""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from test_isolation import cycles

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
MODULE_PATH = re.compile(r"""['"](\.{1,2}/[^'"\s]+\.m?js)['"]""")


def js_modules() -> list[str]:
    return sorted(p.relative_to(SITE).as_posix() for p in SITE.rglob("*.js") if "vendor" not in p.parts)


def js_graph() -> dict[str, set[str]]:
    """module (path under site/) → the modules it names."""
    mods = set(js_modules())
    graph = {}
    for name in mods:
        text = (SITE / name).read_text("utf-8")
        targets = {posixpath.normpath(posixpath.join(posixpath.dirname(name), m)) for m in MODULE_PATH.findall(text)}
        unknown = sorted(targets - mods)
        assert not unknown, f"site/{name}: names {unknown}, which are not modules under site/"
        graph[name] = targets - {name}
    return graph


def test_the_graph_sees_static_and_dynamic_imports():
    graph = js_graph()
    assert "engine/read.js" in graph["bf.js"] and "page.js" in graph["bf.js"]   # static; import('./page.js')
    assert {"graph.js", "related.js"} <= graph["bf.js"]                          # handed to import() by whenNear
    assert "engine/packs.js" in graph["engine/bm25/reader.js"]                   # a ../ path


def test_no_js_import_cycles():
    found = [" ↔ ".join(sorted(c)) for c in cycles(js_graph())]
    assert not found, "import cycles among site/**/*.js (move the shared part into a module both import):\n" + \
        "\n".join(found)


def test_a_js_cycle_is_found():
    graph = js_graph()
    graph["explorer.js"] = graph["explorer.js"] | {"bf.js"}
    assert {"bf.js", "explorer.js"} in cycles(graph)
