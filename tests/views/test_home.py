"""docs/replies.md#home--page-home: home sections; the site root; the example brain."""
from views_brain import NOW


def test_sections(views_read):
    s = views_read("home")["sections"]
    assert [i["ref"] for i in s["projects"]["items"]] == [
        "projects/amb.md", "projects/evidence.md", "projects/fresh.md", "projects/identity.md",
        "projects/linked.md", "projects/old.md"]          # done and deprecated ones are closed
    assert [i["ref"] for i in s["actions"]["items"]] == ["actions/do.md"]
    assert [t["title"] for t in s["tasks"]["items"]] == ["future task", "plain task"]
    assert s["activity"]["counts"] == [{"source": "brief", "count": 1, "priority": "low"},
                                       {"source": "chat", "count": 1}, {"source": "deploys", "count": 1}]
    assert s["activity"]["notes_changed"] == 5


def test_low_priority_leaves_upcoming_and_changed(views_read):
    s = views_read("home")["sections"]
    refs = {i["ref"] for i in s["upcoming"]["items"]} | {i["ref"] for i in s["changed"]["items"]}
    assert not {"events/low.md", "brief:coming", "brief:today"} & refs


def test_root_index_and_home_page(views_site):
    index = (views_site / "index.html").read_text()
    assert 'href="vb/home.json"' in index and "in 8 days" in index
    assert (views_site / "vb" / "home.html").is_file()


def test_period_page_html_has_chart_and_navigation(views_site):
    html = (views_site / "vb" / "2026-10-25.html").read_text()
    assert "<svg" in html and 'rel="next"' in html and 'data-bf-json="bf://vb/2026-10-25"' in html


def test_example_brain_home_has_every_section(example_site):
    from builder.query.read import read
    from builder.query.site import open_site
    s = read(open_site(example_site), "home")["sections"]
    for name in ("projects", "actions", "upcoming", "changed", "reminders", "tasks"):
        assert s[name]["items"], name
    assert s["activity"]["counts"]
