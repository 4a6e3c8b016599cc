"""Feeds and discovery (builder/emit/feeds.py, docs/site.md "Feeds and discovery"): with a site
URL the build writes sitemap.xml, robots.txt and Atom feeds and links them from every page;
without one it writes none of them and says so once."""
from __future__ import annotations

from html import escape
import json
import re
import xml.etree.ElementTree as ET
from urllib.parse import unquote
from pathlib import Path

import pytest

from builder.emit import feeds
from builder.emit.pages import OG_DESCRIPTION
from builder.query.read import read
from builder.query.site import open_site
from builder.kernel.text import cut

SITE = "https://example.github.io/brain-site/"
ATOM = "{http://www.w3.org/2005/Atom}"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from builder.cli import main
    out = tmp_path_factory.mktemp("feeds") / "site"
    assert main(["build", str(EXAMPLE), "--out", str(out), "--now", "2026-12-02T12:00:00Z",
                 "--no-pagefind", "--quiet", "--site-url", SITE.rstrip("/")]) == 0
    return out


def _pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*.html")} - {"404.html"}


def test_sitemap_lists_every_page_with_absolute_urls(site):
    root = ET.parse(site / "sitemap.xml").getroot()
    assert root.tag == f"{SM}urlset"
    locs = [u.findtext(f"{SM}loc") for u in root.iter(f"{SM}url")]
    assert all(loc.startswith(SITE) for loc in locs)
    assert len(locs) == len(set(locs))
    listed = {unquote(loc[len(SITE):]) or "index.html" for loc in locs}   # sitemaps hold percent-encoded URLs
    assert listed == _pages(site)
    note = next(u for u in root.iter(f"{SM}url") if u.findtext(f"{SM}loc").endswith("projects/new-website.html"))
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", note.findtext(f"{SM}lastmod"))


def test_robots_points_at_the_sitemap(site):
    assert f"Sitemap: {SITE}sitemap.xml" in (site / "robots.txt").read_text().splitlines()


def _check_feed(site: Path, rel: str) -> list[ET.Element]:
    feed = ET.parse(site / rel).getroot()
    assert feed.tag == f"{ATOM}feed"
    for tag in ("id", "title", "updated"):
        assert feed.findtext(f"{ATOM}{tag}"), tag
    assert feed.find(f"{ATOM}author/{ATOM}name") is not None
    self_link = feed.find(f"{ATOM}link[@rel='self']").get("href")
    assert self_link == feed.findtext(f"{ATOM}id") == SITE + rel
    entries = feed.findall(f"{ATOM}entry")
    for entry in entries:
        for tag in ("id", "title", "updated"):
            assert entry.findtext(f"{ATOM}{tag}"), tag
        assert entry.find(f"{ATOM}link").get("href").startswith(SITE + "brain/")
    updated = [e.findtext(f"{ATOM}updated") for e in entries]
    assert updated == sorted(updated, reverse=True)
    if entries:
        assert feed.findtext(f"{ATOM}updated") == updated[0]
    return entries


def test_notes_feed_is_valid_atom_newest_first(site):
    entries = _check_feed(site, "_bf/feeds/brain.xml")
    assert 0 < len(entries) <= feeds.FEED_ENTRIES
    links = {e.find(f"{ATOM}link").get("href") for e in entries}
    assert SITE + "brain/projects/new-website.html" in links
    assert all(e.findtext(f"{ATOM}summary") for e in entries)


def test_a_feed_per_source_links_records_on_their_day_pages(site):
    sources = json.loads((site / "_bf/manifest.json").read_text())["brains"][0]["sources"]
    assert sorted(p.stem for p in (site / "_bf/feeds/brain").glob("*.xml")) == sources
    entries = _check_feed(site, "_bf/feeds/brain/chat.xml")
    assert entries
    for entry in entries:
        page, _, anchor = entry.find(f"{ATOM}link").get("href")[len(SITE):].partition("#")
        assert page.startswith("brain/memories/chat/") and (site / page).is_file() and anchor


def test_pages_carry_feed_sitemap_and_open_graph_tags(site):
    html = (site / "brain/memories/chat.html").read_text()
    assert '<meta property="og:url" content="https://example.github.io/brain-site/brain/memories/chat.html">' in html
    assert '<meta property="og:title" content="Team chat">' in html
    assert '<meta property="og:description" content="Source Team chat: 22 items">' in html   # no excerpt: what it lists
    assert '<link rel="sitemap" type="application/xml" href="../../sitemap.xml">' in html
    alternates = re.findall(r'<link rel="alternate" type="application/atom\+xml" title="[^"]*" href="([^"]*)">', html)
    assert alternates == ["../../_bf/feeds/brain.xml", "../../_bf/feeds/brain/chat.xml"]
    note = (site / "brain/projects/new-website.html").read_text()
    description = re.search(r'<meta property="og:description" content="([^"]*)">', note).group(1)
    card = next(i for i in read(open_site(site), "projects")["items"] if i["ref"] == "projects/new-website.md")
    assert len(card["excerpt"]) > OG_DESCRIPTION and description == escape(cut(card["excerpt"], OG_DESCRIPTION))
    title = re.search(r"<h1 [^>]*data-pagefind-meta=\"title\">\s*([^<]*?)\s*</h1>", note).group(1)
    assert f'<meta property="og:title" content="{title}">' in note
    assert 'content="https://example.github.io/brain-site/">' in (site / "index.html").read_text()


def test_base_url_follows_the_site_url(site):
    manifest = json.loads((site / "_bf/manifest.json").read_text())
    assert manifest["brains"][0]["base_url"] == "/brain-site/"
    assert 'href="/brain-site/_bf/bf.css"' in (site / "404.html").read_text()


def test_a_conflicting_base_url_is_invalid_input(bf, tmp_path):
    code, _, err = bf("build", EXAMPLE, "--out", tmp_path / "s", "--quiet", "--site-url", SITE, "--base-url", "/other/")
    assert code == 2
    reply = json.loads(err)
    assert reply["code"] == "invalid_input" and "--base-url" in reply["error"] and "/brain-site/" in reply["error"]
    assert not (tmp_path / "s").exists()


def test_a_bad_site_url_is_invalid_input(bf, tmp_path):
    code, _, err = bf("build", EXAMPLE, "--out", tmp_path / "s", "--site-url", "example.com/x")
    assert code == 2 and "--site-url" in json.loads(err)["error"]


def test_without_a_site_url_none_is_written_and_the_build_says_so_once(bf, tmp_path):
    code, _, err = bf("build", EXAMPLE, "--out", tmp_path / "s", "--now", "2026-12-02T12:00:00Z", "--no-pagefind")
    assert code == 0
    assert err.count("feeds and sitemap skipped") == 1 and "--site-url" in err
    site = tmp_path / "s"
    assert not (site / "sitemap.xml").exists() and not (site / "robots.txt").exists()
    assert not (site / "_bf/feeds").exists()
    page = (site / "brain/memories/chat.html").read_text()
    assert "application/atom+xml" not in page and 'rel="sitemap"' not in page and "og:url" not in page
    assert "og:title" in page


def test_site_url_from_brain_toml_and_feeds_capped(make_brain, build_site, tmp_path):
    files = {"brain.toml": 'site_url = "https://notes.example.org"\n'}
    for i in range(feeds.FEED_ENTRIES + 10):
        files[f"n{i:02d}.md"] = f"---\nmodified: 2026-11-{1 + i % 28:02d}T10:{i:02d}:00Z\n---\n# Note {i}\n\nText {i}.\n"
    brain = make_brain(tmp_path, files)
    report = build_site(brain, tmp_path / "s")
    assert report.notices == []
    feed = ET.parse(tmp_path / "s/_bf/feeds/brain.xml").getroot()
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == feeds.FEED_ENTRIES
    assert entries[0].findtext(f"{ATOM}title") == "Note 55"      # 2026-11-28T10:55, the newest
    assert entries[0].findtext(f"{ATOM}id") == "https://notes.example.org/brain/n55.html"
    first = (tmp_path / "s/_bf/feeds/brain.xml").read_bytes()
    build_site(brain, tmp_path / "again")
    assert (tmp_path / "again/_bf/feeds/brain.xml").read_bytes() == first


def test_sitemap_splits_into_an_index_past_the_limit(monkeypatch):
    monkeypatch.setattr(feeds, "SITEMAP_URLS", 2)
    files = feeds._sitemaps(SITE, ["a.html", "b.html", "c.html"], {"a.html": "2026-11-01"})
    assert sorted(files) == ["sitemap-1.xml", "sitemap-2.xml", "sitemap.xml"]
    index = ET.fromstring(files["sitemap.xml"])
    assert index.tag == f"{SM}sitemapindex"
    assert [s.findtext(f"{SM}loc") for s in index] == [SITE + "sitemap-1.xml", SITE + "sitemap-2.xml"]
    second = ET.fromstring(files["sitemap-2.xml"])
    assert [u.findtext(f"{SM}loc") for u in second] == [SITE + "c.html"]


def test_feed_text_drops_characters_xml_cannot_hold():
    data = feeds._feed(SITE, "_bf/feeds/b.xml", "b/home.html", "T\x0b", "A", [], "2026-12-02T12:00:00Z")
    assert ET.fromstring(data).findtext(f"{ATOM}title") == "T"


def test_hostile_titles_and_text_stay_text_in_feeds(make_brain, build_site, tmp_path):
    title = 'A </title><script>x()</script> & ]]> "q"'
    record = {"title": title, "text": "bad \x0b char <b>bold</b>", "time": "2026-11-30T10:00:00Z"}
    brain = make_brain(tmp_path, {"brain.toml": 'site_url = "https://h.org/"\n[sources.chat]\n',
                                  "n.md": f"---\ntitle: '{title}'\nmodified: 2026-11-30T10:00:00Z\n---\nBody.\n",
                                  "memories/chat/r1.json": json.dumps(record)})
    build_site(brain, tmp_path / "s")
    for path, summary in (("_bf/feeds/brain.xml", "Body."), ("_bf/feeds/brain/chat.xml", "bad  char <b>bold</b>")):
        entry = ET.parse(tmp_path / "s" / path).getroot().find(f"{ATOM}entry")
        assert entry.findtext(f"{ATOM}title") == title
        assert entry.findtext(f"{ATOM}summary") == summary
