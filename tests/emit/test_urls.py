"""emit/urls.crumbs: the one breadcrumb trail of note pages and listing pages."""
from builder.emit.urls import crumbs


def test_crumbs_link_every_parent_unless_told_which_have_pages():
    assert crumbs("b", "a/b/c.md", "C") == [
        ("home", "b/home.html"), ("a", "b/a.html"), ("b", "b/a/b.html"), ("C", None)]
    assert crumbs("b", "memories/chat/2026-12-01", "2026-12-01", known={"memories"}) == [
        ("home", "b/home.html"), ("memories", "b/memories.html"), ("chat", None), ("2026-12-01", None)]
    assert crumbs("b", "top.md", "Top") == [("home", "b/home.html"), ("Top", None)]
