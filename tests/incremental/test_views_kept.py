"""The views a compute keeps from the last one in this process equal the views made from scratch.

views.compute, given what the last compute left (bf serve --watch: views/delta.py, memo.py,
graph.py), makes again only what the changed refs reach. After every random edit of
brain_edits.py (and every move of the build instant) its views, View for View, equal a compute
from scratch of the same brain: a finer check than the site comparison every 10th rebuild of
test_rebuild_equals_full, which a later edit can hide.
"""
from __future__ import annotations

import random

from builder.brain import LoadMemo, load
from builder.views import ViewsMemo, compute
from builder.views.graph import graph

from brain_edits import Editor
from test_rebuild_equals_full import NOW, small_brain

EDITS = 80


def test_kept_views_equal_fresh(tmp_path):
    brain = small_brain(tmp_path)
    editor = Editor(brain, random.Random(7), NOW)
    cache, memo = {}, LoadMemo()
    kept = ViewsMemo()
    done = []
    for step in range(EDITS + 1):
        b = load(brain, cache=cache, memo=memo)
        views = compute(b, editor.now, graph(b, kept.graph, kept.changes), kept)
        fresh = compute(b, editor.now, graph(b))
        assert views == fresh, f"step {step}, after: " + "; ".join(done)
        done.append(editor.step())
