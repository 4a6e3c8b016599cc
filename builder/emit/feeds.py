"""Feeds and discovery: sitemap.xml, robots.txt, an Atom feed of each brain's recently changed
notes and one per source of its records (docs/site.md "Feeds and discovery").

They need the site's absolute URL (`--site-url` or the first brain's `site_url`); without one
the build writes none of them and says so once (build.py). Every date comes from the brain
(a note's modified time, a record's edited/observed/event time), never from the clock, and
every list is sorted, so the same brain gives the same bytes.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..kernel import refs
from ..kernel.model import Brain
from ..kernel.text import cut
from ..kernel.times import rfc3339
from .urls import absolute, attachment_path, page_path, record_urls
from .stage import SiteContext, Stage, paths
from .writer import Writer

ATOM = "http://www.w3.org/2005/Atom"
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
FEED_ENTRIES = 50        # a feed is what changed lately, not an archive: readers poll it whole
SITEMAP_URLS = 50_000    # the sitemaps.org limit of one file; past it sitemap.xml becomes an index
SUMMARY_CHARS = 320      # as an item's excerpt in replies
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")   # no XML 1.0 can hold them


def notes_feed(brain: str) -> str:
    """Site path of a brain's feed of notes. Under _bf/ (bf's own folder): no note or attachment
    of a brain can claim it."""
    return f"_bf/feeds/{refs.escape_segment(brain)}.xml"


def source_feed(brain: str, source: str) -> str:
    return f"_bf/feeds/{refs.escape_segment(brain)}/{refs.escape_segment(source)}.xml"


def page_feeds(brain: Brain, ref: str) -> list[tuple[str, str]]:
    """(title, site path) of the feeds a page of `ref` announces: its brain's notes, and on a
    source's pages (memories/SOURCE, its days) that source's records. [] without a site URL."""
    if brain.config.site_url is None:
        return []
    feeds = [(f"{brain.config.title}: recently changed notes", notes_feed(brain.name))]
    parts = ref.split("/")
    if len(parts) >= 2 and parts[0] == "memories" and parts[1] in brain.sources:
        source = brain.sources[parts[1]]
        feeds.append((f"{brain.config.title}: {source.title}", source_feed(brain.name, source.name)))
    return feeds


def emit_feeds(writer: Writer, brains: list[Brain], as_of: str) -> list[str]:
    """Write the feeds, sitemap and robots.txt of a site whose HTML is all written; returns the
    paths written ([] without a site URL)."""
    site = brains[0].config.site_url
    if site is None:
        return []
    files: dict[str, bytes] = {}
    for brain in brains:
        title = brain.config.title
        files[notes_feed(brain.name)] = _feed(site, notes_feed(brain.name), page_path(brain, "home"),
                                              f"{title}: recently changed notes", title, _note_entries(brain), as_of)
        by_source = _record_entries(brain)
        for name, source in sorted(brain.sources.items()):
            path = source_feed(brain.name, name)
            files[path] = _feed(site, path, page_path(brain, f"memories/{name}"), f"{title}: {source.title}",
                                title, by_source.get(name, []), as_of)
    files |= _sitemaps(site, _pages(writer, brains), _lastmods(brains))
    files["robots.txt"] = f"User-agent: *\nDisallow:\n\nSitemap: {absolute(site, 'sitemap.xml')}\n".encode()
    for path, data in sorted(files.items()):
        writer.write(path, data, "feeds")
    return sorted(files)


# --- Atom ---------------------------------------------------------------------------------------
# An entry is (updated, title, site path, summary).

def _note_entries(brain: Brain) -> list[tuple]:
    return _newest([(brain.modified[ref], note.title, page_path(brain, ref), note.excerpt)
                    for ref, note in brain.notes.items() if brain.modified.get(ref) is not None])


def _record_entries(brain: Brain) -> dict[str, list[tuple]]:
    """source → its newest dated records (edited, else observed, else event time)."""
    urls = record_urls(brain)
    by_source: dict[str, list[tuple]] = {}
    for ref, rec in brain.records.items():
        if rec.modified is not None:
            by_source.setdefault(rec.source, []).append(
                (rec.modified, rec.title or rec.id, urls[ref], cut(rec.text, SUMMARY_CHARS)))
    return {source: _newest(entries) for source, entries in by_source.items()}


def _newest(entries: list[tuple]) -> list[tuple]:
    """The FEED_ENTRIES newest; ties by site path, so the order never depends on the order files were read."""
    entries.sort(key=lambda e: e[2])
    entries.sort(key=lambda e: e[0], reverse=True)
    return entries[:FEED_ENTRIES]


def _feed(site: str, path: str, page: str, title: str, author: str, entries: list[tuple], as_of: str) -> bytes:
    """An Atom feed (RFC 4287) at site path `path`, the HTML page `page` its alternate. An empty
    feed is 'updated' at the build instant: it has no entry to take a date from."""
    feed = ET.Element("feed", xmlns=ATOM)
    ET.SubElement(feed, "id").text = absolute(site, path)
    ET.SubElement(feed, "title").text = NOT_XML.sub("", title)
    ET.SubElement(feed, "updated").text = rfc3339(entries[0][0]) if entries else as_of
    ET.SubElement(feed, "link", rel="self", type="application/atom+xml", href=absolute(site, path))
    ET.SubElement(feed, "link", rel="alternate", type="text/html", href=absolute(site, page))
    ET.SubElement(ET.SubElement(feed, "author"), "name").text = NOT_XML.sub("", author)
    ET.SubElement(feed, "generator").text = "bf"
    for updated, entry_title, target, summary in entries:
        entry = ET.SubElement(feed, "entry")
        url = absolute(site, target)
        ET.SubElement(entry, "id").text = url
        ET.SubElement(entry, "title").text = NOT_XML.sub("", entry_title)
        ET.SubElement(entry, "updated").text = rfc3339(updated)
        ET.SubElement(entry, "link", rel="alternate", type="text/html", href=url)
        if summary:
            ET.SubElement(entry, "summary").text = NOT_XML.sub("", summary)
    return _xml(feed)


# --- sitemap ------------------------------------------------------------------------------------

def _pages(writer: Writer, brains: list[Brain]) -> list[str]:
    """Every HTML page written: not 404.html (served for any missing path), not attachments."""
    copied = {attachment_path(b.name, rel) for b in brains for rel in b.attachments}
    return sorted(p for p in writer.written if p.endswith(".html") and p != "404.html" and p not in copied)


def _lastmods(brains: list[Brain]) -> dict[str, str]:
    return {page_path(b, ref): rfc3339(when)[:10] for b in brains for ref, when in b.modified.items()
            if when is not None and ref in b.notes}


def _sitemaps(site: str, pages: list[str], lastmod: dict[str, str]) -> dict[str, bytes]:
    """sitemap.xml listing every page; past SITEMAP_URLS pages, sitemap-N.xml files and
    sitemap.xml as their index."""
    parts = [pages[i:i + SITEMAP_URLS] for i in range(0, len(pages), SITEMAP_URLS)] or [[]]
    files = {}
    for n, part in enumerate(parts, 1):
        urlset = ET.Element("urlset", xmlns=SITEMAP)
        for page in part:
            url = ET.SubElement(urlset, "url")
            ET.SubElement(url, "loc").text = absolute(site, page)
            if page in lastmod:
                ET.SubElement(url, "lastmod").text = lastmod[page]
        files["sitemap.xml" if len(parts) == 1 else f"sitemap-{n}.xml"] = _xml(urlset)
    if len(parts) > 1:
        index = ET.Element("sitemapindex", xmlns=SITEMAP)
        for name in sorted(files, key=lambda f: int(f[8:-4])):
            ET.SubElement(ET.SubElement(index, "sitemap"), "loc").text = absolute(site, name)
        files["sitemap.xml"] = _xml(index)
    return files


def _xml(root: ET.Element) -> bytes:
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


@paths
def _stage(ctx: SiteContext) -> None:
    emit_feeds(ctx.writer, list(ctx.brains), ctx.as_of)


FEEDS = Stage("feeds", "site", "feeds", _stage, needs=("pages", "site pages"))   # the sitemap lists every page written
