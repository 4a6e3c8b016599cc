"""Pages that look finished (issue 64), measured in Chromium on one small Obsidian-style brain
built once: the activity chart is drawn in both schemes with an axis and a name; listed summaries
are kept when their first sentence starts with the note's title; a note page's breadcrumbs start
where its title does, its fields name people, its backlinks list a note once, and its graph is
as tall as its nodes need, each named by its note's title; home has one title and no empty sections, and shows the vault's index.md above its dashboard."""
from __future__ import annotations

import pytest

from builder.kernel.pageurls import page_file
from example import opened, served_brain

pytestmark = pytest.mark.browser

NOW = "2026-12-02T12:00:00Z"
DAY = NOW[:10]
NOTES = {
    "brain.toml": 'title = "My brain"\n[identities]\n"person:me" = ["Me"]\n',
    "notes/hub.md": "---\nowner: person:me\nstatus: active\n---\n# Hub\n\n## One\n\nSee [[first-steps]] and [[first-steps]] again.\n\n"
                    "## Two\n\nMore.\n",
    "notes/first-steps.md": "# First steps\n\nBack to [[Hub]].\n\nAnd [[Hub]] once more.\n",
    "notes/diagram.md": f"---\nmodified: {DAY}T09:00:00Z\ntags: [demo]\n---\n# Diagram\n\n"
                        "Diagram is a note with a chart. It shows the flow.\n",
    "notes/plan.md": f"---\ntitle: Plan\nmodified: {DAY}T10:00:00Z\n---\n# Plan\n\nWe start on Monday.\n",
    "index.md": "# Welcome\n\nThe front page of the vault: start at [[Plan]].\n\n## Projects\n\nNone yet.\n",
    "memories/chat/m1.json": f'{{"text": "Hello there", "time": "{DAY}T10:00:00Z"}}\n',
    "memories/chat/m2.json": f'{{"text": "Hello again", "time": "{DAY}T11:00:00Z"}}\n',
}

# WCAG's contrast ratio of two computed colours ("rgb(r, g, b)")
CONTRAST = """([a, b]) => {
  const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4 }); return 0.2126 * r + 0.7152 * g + 0.0722 * b }
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p)
  return (x + 0.05) / (y + 0.05)
}"""


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    yield from served_brain(tmp_path_factory.mktemp("finished"), NOTES, NOW)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_activity_chart_stands_out_with_an_axis_and_a_name(chromium, base, scheme):
    context = chromium.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    try:
        page = opened(context.new_page(), base + page_file("brain", DAY))
        colours = page.evaluate("""() => [getComputedStyle(document.querySelector('.chart rect')).fill,
                                          getComputedStyle(document.body).backgroundColor]""")
        assert page.evaluate(CONTRAST, colours) >= 3, colours          # WCAG 1.4.11: graphics 3:1
        assert page.locator(".chart .chart-base").count() == 1
        assert page.locator(".activity .chart-axis").inner_text().split() == ["00", "23"]
        assert [page.locator(f".activity .chart-{end}").inner_text() for end in ("top", "zero")] == ["2", "0"]
        name = page.locator(".chart").get_attribute("aria-label")
        assert name.startswith("Activity: 4 items from 00 to 23") and "most (2)" in name, name
    finally:
        context.close()


def test_a_summary_that_starts_with_the_title_is_listed(page, base):
    for ref in ("notes", "tags/demo", DAY):
        opened(page, base + page_file("brain", ref))
        got = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('ul.items > li')].map((li) =>
            [li.querySelector('a').textContent, li.querySelector('.excerpt')?.textContent]))""")
        assert got["Diagram"] == "Diagram is a note with a chart. It shows the flow.", ref
        if "Plan" in got:      # the H1 repeating `title:` is not the summary's first words
            assert got["Plan"] == "We start on Monday.", ref


def test_the_note_page_reads_as_words_on_one_grid(chromium, base):
    page = chromium.new_page(viewport={"width": 1280, "height": 800})
    try:
        opened(page, base + page_file("brain", "notes/hub.md"))
        crumb, title = (page.locator(s).first.bounding_box()["x"] for s in (".crumbs a", "main h1"))
        assert abs(crumb - title) < 1, (crumb, title)
        fields = page.evaluate("""() => [...document.querySelectorAll('dl.fields dt')].map((dt) =>
            [dt.textContent, dt.nextElementSibling.textContent,
             dt.nextElementSibling.getBoundingClientRect().left - dt.getBoundingClientRect().right])""")
        assert [f[:2] for f in fields] == [["owner", "Me"], ["status", "active"]]
        assert all(gap < 12 for *_, gap in fields), fields             # each value beside its name
        assert page.locator("dl.fields a").get_attribute("href").endswith("person/me.html")
        page.locator("aside.side").scroll_into_view_if_needed()
        page.locator("section.graph svg.graph-svg").wait_for()
        nodes = page.evaluate("""() => [...document.querySelectorAll('.graph-svg a.hop-1')].map((a) =>
            [a.getAttribute('aria-label'), a.querySelector('text').textContent])""")
        assert nodes == [["First steps", "First steps"]]          # the note's title, not "first-steps"
        assert page.locator("section.graph svg.graph-svg").bounding_box()["height"] < 300
        opened(page, base + page_file("brain", "notes/first-steps.md"))
        assert page.locator("section.backlinks").inner_text().split() == ["Backlinks", "Linked", "from", "1", "Hub"]
    finally:
        page.close()


def test_home_has_one_title_and_no_empty_sections(page, base):
    opened(page, base + page_file("brain", "home"))
    assert page.title() == "My brain"
    assert page.locator(".home .empty").count() == 0
    assert "actions" not in page.evaluate("[...document.querySelectorAll('.home h2')].map((h) => h.id)")


def test_home_shows_the_vaults_front_page_above_its_dashboard(page, base):
    opened(page, base + page_file("brain", "home"))
    front = page.locator(".home > .front")
    assert front.locator("p").first.inner_text() == "The front page of the vault: start at Plan."
    assert front.locator("a").first.get_attribute("href").endswith("notes/plan.html")
    below = page.evaluate("""() => [...document.querySelectorAll('.home > section')].every((s) =>
        document.querySelector('.home > .front').compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING)""")
    assert below                                                   # above every section of the dashboard
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map((e) => e.id)")
    assert len(ids) == len(set(ids)), ids                          # its "Projects" is not home's
