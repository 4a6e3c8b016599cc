"""HTML pages: a Jinja2 environment over templates/ and the Markdown body of a note.

Every URL in a page is relative to that page (404.html excepted: it uses base_url),
so a site works at / and under a GitHub Pages project path alike.
"""
from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path
from datetime import date
from functools import lru_cache
from urllib.parse import unquote

from ..kernel.embeds import embeddable, fragment_key, page_assets
from ..kernel.model import SLOT, Brain, Link
from .days import due_badge
from .imagesize import image_size
from .look import environment as look_environment, guarded
from ..kernel.mdlinks import SCHEME, joined, md_target
from .urls import absolute, attachment_path, page_path, record_url, relative

IMAGE = re.compile(r"\.(png|jpe?g|gif|svg|webp|avif)$", re.I)
MAX_EMBED_DEPTH = 4   # ![[A]] in ![[B]] in …: deeper embeds show as a link (as would a cycle)
# languages written right to left (primary subtags), and the scripts that are: a tag's script
# subtag decides when it has one (az-Arab is, ar-Latn is not)
RTL_LANGUAGES = frozenset({"ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "nqo", "ps", "sd", "syr", "ug", "ur", "yi"})
RTL_SCRIPTS = frozenset({"adlm", "arab", "hebr", "nkoo", "rohg", "syrc", "thaa"})


@lru_cache(maxsize=4)
def environment(theme: str | None = None, digest: str = ""):
    """bf's templates, under a theme's when there is one (emit/look.py)."""
    env = look_environment(theme, digest)
    env.filters["pagefind_filter"] = pagefind_filter
    env.filters["page_assets"] = page_assets
    env.filters["absolute_url"] = lambda path, site_url: absolute(site_url, path)
    env.filters["direction"] = direction
    return env


def _named(brain: Brain, ref: str, label: str) -> str:
    """A link's title attribute naming the note it leads to, when its text does not ("first-project",
    an alias, a Markdown link's words): a tooltip, and the page graph's node label (site/graph.js)."""
    note = brain.notes.get(ref)
    return f' title="{html.escape(note.title)}"' if note is not None and note.title != label else ""


def direction(lang: str | None) -> str:
    """'rtl' for a language tag written right to left (ar, he-IL, fa, ku-Arab…), else 'ltr'."""
    head, *rest = (lang or "").lower().split("-")
    script = next((part for part in rest if len(part) == 4 and part.isalpha()), None)
    return "rtl" if (script in RTL_SCRIPTS if script else head in RTL_LANGUAGES) else "ltr"


def compile_templates(theme: str | None = None) -> None:
    """Compile every template now (bf serve --watch, once its first build is done): that build
    renders in forked workers, so the server would compile them on the first save, while a reader waits."""
    env = environment(theme)
    for name in env.list_templates():
        env.get_template(name)


def checked(theme: str | None, digest: str) -> None:
    """Compile the theme's templates before anything is written: a syntax error ends the build."""
    if theme is None:
        return
    env = environment(theme, digest)
    for path in sorted(Path(theme).rglob("*.html")):
        name = path.relative_to(theme).as_posix()
        if not name.startswith("static/"):
            guarded(lambda: env.get_template(name))


def pagefind_filter(value) -> str:
    """A pagefind filter value, escaped twice more than autoescape does. pagefind's UI puts filter
    values into innerHTML, so a tag `<img onerror=…>` must reach it as `&lt;img…`; and pagefind
    1.5.2 decodes entities of a filter value twice (measured: content="&amp;lt;b&amp;gt;" is
    stored as "<b>"). tests/hostile/test_hostile_browser.py guards this."""
    return html.escape(html.escape(str(value), quote=False), quote=False)


def render(template: str, page: str, **context) -> str:
    """Render `template` as the page at site path `page`; `url(path)` gives relative URLs. The
    theme is the one of `look` (common()'s SiteConfig)."""
    context.setdefault("url", lambda path: relative(page, path))
    context.setdefault("page_path", page)
    look = context.get("look")
    env = environment(look.theme, look.digest if look.theme else "") if look is not None else environment()
    return guarded(lambda: env.get_template(template).render(**context))


def ref_url(brain: Brain, ref: str) -> str:
    """Site path of the page showing `ref`: sections are anchors on their note's page, records
    anchors on their source's day page (urls.record_url)."""
    record = record_url(brain, ref)
    if record is not None:
        return record
    note, hash_, section = ref.partition("#")
    if hash_ and note.endswith(".md"):
        return page_path(brain, note) + "#" + section
    return page_path(brain, ref)


class NoteRenderer:
    """Renders note bodies with links resolved by the brain's link table (never re-resolving):
    `outgoing` is each source's links in the table's order (views/graph.Graph.outgoing)."""

    def __init__(self, brain: Brain, outgoing: dict[str, tuple[Link, ...]]):
        self.brain, self.outgoing = brain, outgoing

    def _link(self, source: str, target: str, heading: str) -> Link | None:
        """How `source`'s link to `target` (#heading) resolved: the last such link in the table."""
        return next((l for l in reversed(self.outgoing.get(source, ())) if l.target == target and l.heading == heading), None)

    def body(self, ref: str, today: date, page: str | None = None) -> str:
        """The note's parse-time HTML with its slots filled for its page, or for `page` (home shows
        the vault's front page: listing_pages.FRONT); due badges are worded against `today`, the
        build instant's day."""
        return self._fill(ref, self.brain.notes[ref].html, page or page_path(self.brain, ref), today, (ref,))

    def _fill(self, ref: str, text: str, page: str, today: date, stack: tuple) -> str:
        """`text` (HTML of note `ref`, whole or a fragment) with its slots filled for `page`;
        `stack` is the chain of notes embedding it."""
        note = self.brain.notes[ref]

        def fill(m: re.Match) -> str:
            kind, value = note.slots[int(m.group(1))]
            if kind == "link":
                return self._wikilink(ref, page, value, today, stack)
            if kind == "tag":
                return html.escape(relative(page, page_path(self.brain, f"tags/{value}")))
            if kind == "note_link":
                href, title = value
                target = self._note_target(ref, href)
                if target is None:
                    return f'<span class="link-broken" title="broken: no note at {html.escape(href)}">'
                extra = f' title="{html.escape(title)}"' if title else _named(self.brain, target, "")
                return f'<a class="internal" href="{html.escape(self._href(ref, page, href))}"{extra}>'
            if kind == "note_link_close":
                return "</a>" if self._note_target(ref, value) else "</span>"
            if kind == "due":
                return due_badge(*value, today)
            return html.escape(self._href(ref, page, value))
        return SLOT.sub(fill, text)

    def _target_url(self, page: str, link) -> str:
        ref = link.ref
        if ref in self.brain.notes and link.heading.startswith("^"):   # a block id
            return relative(page, page_path(self.brain, ref)) + "#" + link.heading
        if ref in self.brain.notes and link.heading:
            note = self.brain.notes[ref]
            sid = next((s.id for s in note.sections if s.heading == link.heading or s.id == link.heading), "")
            return relative(page, page_path(self.brain, ref)) + (f"#{sid}" if sid else "")
        if ref not in self.brain.notes and ref not in self.brain.records and ref not in self.brain.identities:
            return relative(page, attachment_path(self.brain.name, ref))
        return relative(page, ref_url(self.brain, ref))

    def _wikilink(self, source: str, page: str, meta: dict, today: date = None, stack: tuple = ()) -> str:
        link = self._link(source, meta["target"], meta["heading"])
        heading = "" if meta["heading"].startswith("^") and meta["target"] else meta["heading"]   # a block id is not shown
        label = meta["label"] or meta["target"] + (f" › {heading}" if heading and meta["target"] else heading)
        text = html.escape(label)
        if link is None or link.status != "resolved":
            status = link.status if link else "broken"
            why = "several notes claim this name" if status == "ambiguous" else "nothing has this name"
            return f'<span class="link-{status}" title="{status}: {why}">{text}</span>'
        url = html.escape(self._target_url(page, link))
        if meta["embed"]:
            if IMAGE.search(link.ref):
                size = image_size(Path(self.brain.root) / link.ref)
                sized = f' width="{size[0]}" height="{size[1]}"' if size else ""
                return f'<img src="{url}" alt="{html.escape(meta["label"] or posixpath.basename(link.ref))}"{sized} loading="lazy">'
            if link.ref in self.brain.notes:
                return self._embed(link, url, page, today, stack)
        return f'<a class="internal" href="{url}"{_named(self.brain, link.ref, label)}>{text}</a>'

    def _embed(self, link, url: str, page: str, today: date, stack: tuple) -> str:
        """`![[Note]]`, `![[Note#Heading]]`, `![[Note#^block]]`: the note, section or block shown
        in place (its links and tags made relative to this page). A cycle, or depth past
        MAX_EMBED_DEPTH, shows only the title line; so does a heading or block not found."""
        target = self.brain.notes[link.ref]
        shown = target.title + (f" › {link.heading}" if link.heading and not link.heading.startswith("^") else "")
        head = f'<p class="embed-title"><a class="internal" href="{url}">{html.escape(shown)}</a></p>'
        key = fragment_key(target, link.heading) if link.heading else None
        if link.heading and key is None:
            return f'<div class="embed embed-missing" title="no such section or block">{head}</div>'
        if link.ref in stack or len(stack) > MAX_EMBED_DEPTH:
            return f'<div class="embed embed-cut" title="embedded above, or too deep">{head}</div>'
        start, end = target.fragments[key] if key else (0, len(target.html))
        inner = self._fill(link.ref, embeddable(target.html[start:end]), page, today, stack + (link.ref,))
        # pagefind leaves the embedded text to its own page, as the lunr index does (it indexes `text`)
        return f'<div class="embed">{head}<div class="embed-body">{inner}</div></div>'

    @staticmethod
    def _target_path(source: str, href: str) -> str:
        """The brain-relative path a relative href in note `source` points at."""
        return joined(posixpath.dirname(source), unquote(href.partition("#")[0]))

    def _note_target(self, source: str, href: str) -> str | None:
        target = self._target_path(source, href)
        return target if target in self.brain.notes else None

    def _href(self, source: str, page: str, href: str) -> str:
        if not href or SCHEME.match(href) or href.startswith(("#", "/", "//")):
            if re.match(r"^\s*(javascript|vbscript|data):", href, re.I):
                return "#"
            return href
        _, hash_, frag = href.partition("#")
        target = self._target_path(source, href)
        if target in self.brain.notes:
            return relative(page, page_path(self.brain, target)) + (f"#{frag}" if hash_ else "")
        if target in self.brain.attachments:
            return relative(page, attachment_path(self.brain.name, target))
        named = md_target(posixpath.dirname(source), href)
        link = self._link(source, named[0], named[1]) if named and named[2] else None
        if link is not None and link.status == "resolved" and link.ref in self.brain.notes:
            return self._target_url(page, link)   # a note link as Obsidian reads it (kernel/mdlinks.py)
        return href
