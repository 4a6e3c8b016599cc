"""Readable page paths can meet (brain/pagenames.py): every case is settled by the documented
order, the loser moves to a stable suffixed path that every link uses, and `bf check` names both."""
from __future__ import annotations

import hashlib
import json
import re

import pytest

from builder.brain import load
from builder.brain.pagenames import settle
from builder.kernel.pageurls import page_file

ON = "date: 2026-11-20\n---\n"


def suffixed(stem: str, ref: str) -> str:
    return f"brain/{stem}-{hashlib.sha256(ref.encode()).hexdigest()[:6]}.html"


def clash(brain, loser: str, winner: str) -> dict:
    """The page_collision problem `bf check` reports for `loser` against `winner`."""
    found = [p for p in load(brain).problems if p.kind == "page_collision" and repr(loser) in p.message]
    assert len(found) == 1, found
    assert repr(winner) in found[0].message
    return found[0]


CASES = [
    # files, loser, winner, stem of the loser's page
    ({"projects.md": "# P\n", "projects/a.md": "# A\n"}, "projects", "projects.md", "projects"),
    ({"home.md": "# H\n"}, "home.md", "home", "home"),
    ({"memories.md": "# M\n"}, "memories.md", "memories", "memories"),
    ({"tags/website.md": "# W\n", "t.md": "---\ntags: [website]\n---\n# t\n"}, "tags/website.md", "tags/website",
     "tags/website"),
    ({"Plan.md": "# P\n", "plan.md": "# p\n"}, "plan.md", "Plan.md", "plan"),
    ({"a b.md": "# ab\n", "a-b.md": "# a-b\n"}, "a b.md", "a-b.md", "a-b"),
    ({"person/alice.md": "# Alice\n", "x.md": "# X\n\n[[person:alice]]\n"}, "person:alice", "person/alice.md", "person/alice"),
    ({"2026-11-20.md": "---\n" + ON + "# Daily\n"}, "2026-11-20", "2026-11-20.md", "2026-11-20"),
]


@pytest.mark.parametrize("files, loser, winner, stem", CASES, ids=[c[1] for c in CASES])
def test_each_collision_is_settled_and_reported(tmp_path, make_brain, build_site, files, loser, winner, stem):
    brain = make_brain(tmp_path, {"index.md": "# Index\n", **files})
    site = build_site(brain, tmp_path / "site").out
    moved = json.loads((site / "_bf/manifest.json").read_bytes())["brains"][0]["moved"]
    assert page_file("brain", loser, moved) == suffixed(stem, loser)
    assert (site / suffixed(stem, loser)).is_file()
    shown = re.search(r'<meta name="bf-ref" content="([^"]*)">', (site / suffixed(stem, loser)).read_text("utf-8"))[1]
    assert shown == loser
    kept = re.search(r'<meta name="bf-ref" content="([^"]*)">', (site / page_file("brain", winner)).read_text("utf-8"))[1]
    assert kept == winner
    problem = clash(brain, loser, winner)
    assert problem.path in (loser, winner)


def test_a_note_named_tags_meets_no_page(tmp_path, make_brain, build_site):
    brain = make_brain(tmp_path, {"tags.md": "# T\n", "t.md": "---\ntags: [a]\n---\n# t\n"})
    site = build_site(brain, tmp_path / "site").out
    assert '<meta name="bf-ref" content="tags.md">' in (site / "brain/tags.html").read_text("utf-8")
    assert (site / "brain/tags/a.html").is_file() and not load(brain).problems


def test_a_note_yields_to_an_html_attachment(tmp_path, make_brain, build_site):
    brain = make_brain(tmp_path, {"brain.toml": 'name = "brain"\nallow_html = true\n', "x/page.md": "# Page\n",
                                  "x/page.html": "<p>hand-made</p>", "a.md": "# A\n\n[[x/page]]\n"})
    site = build_site(brain, tmp_path / "site").out
    assert (site / "brain/x/page.html").read_text() == "<p>hand-made</p>"
    assert 'href="x/page-' in (site / "brain/a.html").read_text("utf-8")
    clash(brain, "x/page.md", "x/page.html")


def test_links_and_listings_use_the_moved_path(tmp_path, make_brain, build_site):
    brain = make_brain(tmp_path, {"projects.md": "# P\n", "projects/a.md": "# A\n\n[[projects]] and [[projects/a]]\n"})
    site = build_site(brain, tmp_path / "site").out
    note = (site / "brain/projects/a.html").read_text("utf-8")
    assert f'<a href="../{suffixed("projects", "projects").removeprefix("brain/")}">projects</a>' in note   # the crumb: the folder
    assert '<a class="internal" href="../projects.html"' in note   # the note


class Bare:
    tags = ()


def test_the_suffix_is_stable_and_never_meets_another_path():
    notes = {"a b.md": Bare, "a-b.md": Bare, "A B.md": Bare}
    moved, problems = settle("brain", notes, {}, {}, [])
    assert set(moved) == {"a b.md", "A B.md"} and len(problems) == 2
    assert len({page_file("brain", ref, moved) for ref in notes}) == 3
    assert settle("brain", notes, {}, {}, [])[0] == moved
    again, _ = settle("brain", {**notes, "zzz.md": Bare}, {}, {}, [])
    assert again == moved


def test_one_ref_in_two_roles_meets_only_others():
    notes = {"tags/x/a.md": Bare, "2026/b.md": Bare}
    notes["t.md"] = type("Tagged", (), {"tags": ("x",)})
    assert settle("brain", notes, {}, {}, []) == ({}, [])


def test_case_and_nfc_fold_into_one_key():
    moved, _ = settle("brain", {"Café.md": Bare, "cafe\u0301.md": Bare}, {}, {}, [])
    assert list(moved) == ["cafe\u0301.md"]
