"""emit/urls.crumbs: the one breadcrumb trail of note pages and listing pages."""
from types import SimpleNamespace

from builder.emit.urls import crumbs

B = SimpleNamespace(name="b", moved={})   # what page_path reads of a brain


def test_crumbs_link_every_parent_unless_told_which_have_pages():
    assert crumbs(B, "a/b/c.md", "C") == [
        ("home", "b/home.html"), ("a", "b/a.html"), ("b", "b/a/b.html"), ("C", None)]
    assert crumbs(B, "memories/chat/2026-12-01", "2026-12-01", known={"memories"}) == [
        ("home", "b/home.html"), ("memories", "b/memories.html"), ("chat", None), ("2026-12-01", None)]
    assert crumbs(B, "top.md", "Top") == [("home", "b/home.html"), ("Top", None)]


def test_crumbs_follow_a_parent_page_that_lost_its_path():
    moved = SimpleNamespace(name="b", moved={"a": "1f2e3d"})   # brain/pagenames.py moved folder `a`
    assert crumbs(moved, "a/c.md", "C") == [("home", "b/home.html"), ("a", "b/a-1f2e3d.html"), ("C", None)]
