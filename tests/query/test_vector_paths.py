"""The vector arm scores in plain integers when numpy is not loaded (a cold `bf search`) and with
numpy when it is (bf mcp): both exact, so both give the same neighbours in the same order, ties
and cut alike (builder/query/vectorstore.BrainVectors.nearest)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from builder.query.site import open_site
from builder.query.store import open_store
from builder.query.vectorstore import BrainVectors, table

ROOT = Path(__file__).resolve().parents[2]


def _nearest(site_path: Path, text: str, probe: int | None, hide_numpy: bool, monkeypatch) -> list:
    import numpy   # noqa: F401  (loaded, unless hidden below)
    with monkeypatch.context() as m:
        if hide_numpy:
            m.setitem(sys.modules, "numpy", None)
        site = open_site(site_path)
        store = open_store(site, "brain")
        vectors = BrainVectors(site, store)
        q = table(site).query(text, vectors.weights())
        qq = sum(v * v for v in q)
        return vectors.nearest(q, qq, None, 12, probe)


@pytest.mark.parametrize("probe", [1, 3, 16])
@pytest.mark.parametrize("text", ["pricing page launch", "chat about the deploy", "survey"])
def test_plain_integers_and_numpy_give_the_same_neighbours(example_site, monkeypatch, text, probe):
    plain = _nearest(example_site, text, probe, True, monkeypatch)
    with_numpy = _nearest(example_site, text, probe, False, monkeypatch)
    assert plain and plain == with_numpy
    assert [sim for sim, _ in plain] == sorted((sim for sim, _ in plain), reverse=True)


def test_a_cold_search_does_not_import_numpy_and_answers_as_a_warm_one(example_site):
    run = ("import sys; from builder.cli import main; code = main(sys.argv[1:]); "
           "print('numpy' in sys.modules, file=sys.stderr); raise SystemExit(code)")
    done = subprocess.run([sys.executable, "-c", run, "search", "pricing page", "--site", str(example_site)],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    assert done.stderr.strip().splitlines()[-1] == "False"
    from builder.query.search import search
    import numpy   # noqa: F401  (the warm path: numpy's)
    assert json.loads(done.stdout)["items"] == search(open_site(example_site), "pricing page")["items"]
