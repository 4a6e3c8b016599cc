"""brain.toml: load and validate (docs/brain.md#braintoml). Errors name the key, what was expected and what was found."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from .errors import ConfigError

DEFAULT_FIELDS = ("status", "priority", "due", "owner")
RESERVED_NAMES = frozenset({"schemas", "pagefind", "search", "_bf", "assets"})
DURATION = re.compile(r"^(\d+)([dwmy])$")
TOP_KEYS = frozenset({"name", "title", "language", "timezone", "base_url", "site_url", "fields", "sources", "identities",
            "allow_html", "site", "theme"})
SITE_KEYS = frozenset({"logo", "favicon", "accent", "accent_dark", "nav", "footer", "extra_css", "extra_js", "publish"})
#: [site] publish: "all" publishes every note but those kept out (`draft: true`, `publish: false`);
#: "explicit" only notes with `publish: true` (docs/brain.md#publishing).
PUBLISH_MODES = ("all", "explicit")
COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
SOURCE_KEYS = frozenset({"title", "cadence", "priority", "publish"})
#: A BCP 47 language tag as pages declare it (`<html lang>`): a 2–3 letter language, then subtags
#: (script, region, variant) of letters and digits: `en`, `zh-Hans`, `pt-BR`, `de-CH-1996`.
LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*")


@dataclass(frozen=True)
class SourceConfig:
    name: str
    title: str
    cadence_days: float | None
    priority: str
    publish: bool | None = None   # None: as [site] publish says (docs/brain.md#publishing)


@dataclass(frozen=True)
class SiteConfig:
    """How the site looks ([site] and `theme`): files are brain-relative paths checked to exist."""
    logo: str | None = None
    favicon: str | None = None
    accent: str | None = None
    accent_dark: str | None = None
    nav: tuple[tuple[str, str], ...] = ()    # (title, url)
    footer: str = ""                         # Markdown
    extra_css: tuple[str, ...] = ()
    extra_js: tuple[str, ...] = ()
    theme: str | None = None                 # a folder: brain-relative, or absolute from --theme
    publish: str = "all"                     # PUBLISH_MODES
    digest: str = ""                         # of every file above and the theme's (emit/look.py)

    def files(self) -> tuple[str, ...]:
        """The brain's files the site copies (into _own/)."""
        return tuple(f for f in (self.logo, self.favicon) if f) + self.extra_css + self.extra_js


@dataclass(frozen=True)
class BrainConfig:
    name: str
    title: str
    timezone: str
    base_url: str
    fields: tuple[str, ...]
    sources: dict[str, SourceConfig] = field(default_factory=dict)
    identities: dict[str, tuple[str, ...]] = field(default_factory=dict)
    allow_html: bool = False
    language: str = "en"          # pages' <html lang>; a note's `lang:` overrides it for its page
    site_url: str | None = None   # the site's absolute URL, ending in "/" (feeds, sitemap, og:url)
    base_url_given: bool = False  # base_url was written, not derived: it may conflict with a site URL
    site: SiteConfig = SiteConfig()


def check_site_url(text, key: str) -> str:
    """An absolute http(s) URL with a host, returned ending in "/"; a ConfigError naming `key` otherwise.
    A query or fragment is refused: page paths are appended to it."""
    parts = urlsplit(text) if isinstance(text, str) else None
    if (parts is None or any(c.isspace() or c in '<>"\\' for c in text) or parts.scheme not in ("http", "https")
            or not parts.hostname or parts.query or parts.fragment):
        raise ConfigError(f"{key}: expected an absolute http(s) URL like https://me.github.io/my-repo/, got {text!r}")
    return text if text.endswith("/") else text + "/"


def url_path(url: str) -> str:
    """The path of a site URL from check_site_url(): where the site is served, as base_url says it."""
    return urlsplit(url).path or "/"


def _prefix(path: str) -> str:
    """'/x', 'x/', '/x/' → '/x/'; '' and '/' → '/'."""
    inner = path.strip("/")
    return f"/{inner}/" if inner else "/"


def site_urls(flag_site: str | None, flag_base: str | None, first: BrainConfig) -> tuple[str | None, str | None]:
    """A build's (site URL, base_url): --site-url, else the first brain's site_url; base_url is
    --base-url, else the one brain.toml writes, else the site URL's path. A written base_url that
    is not the site URL's path is an error: the feeds' and pages' absolute URLs would disagree."""
    site = check_site_url(flag_site, "--site-url") if flag_site is not None else first.site_url
    if site is None:
        return None, flag_base
    path = url_path(site)
    given, key = (flag_base, "--base-url") if flag_base is not None else (first.base_url, "brain.toml: base_url")
    if (flag_base is not None or first.base_url_given) and _prefix(given) != _prefix(path):
        raise ConfigError(f"{key}: {given!r} conflicts with the site URL's path {path!r} ({site}); "
                          "drop it (base_url defaults to the site URL's path) or make them agree")
    return site, path


def slug_name(text: str) -> str:
    slug = re.sub(r"[^a-z0-9-]+", "-", text.lower()).strip("-")
    return slug or "brain"


def duration_days(text: str, key: str) -> float:
    """'14d', '6w', '3m', '1y' → days; a clear error naming `key` otherwise."""
    m = DURATION.match(str(text).strip())
    if not m:
        raise ConfigError(f"{key}: expected a duration like 14d, 6w, 3m or 1y, got {text!r}")
    n, unit = int(m.group(1)), m.group(2)
    return n * {"d": 1, "w": 7, "m": 30, "y": 365}[unit]


def language_tag(value) -> str | None:
    """`value` when it is a language tag pages can declare, else None."""
    return value if isinstance(value, str) and LANGUAGE_TAG.fullmatch(value) else None


def _expect(cond: bool, key: str, expected: str, got) -> None:
    if not cond:
        raise ConfigError(f"brain.toml: {key}: expected {expected}, got {got!r}")


def load_config(root: Path) -> BrainConfig:
    path = root / "brain.toml"
    data: dict = {}
    if path.is_file() and not path.is_symlink():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"brain.toml: {exc}") from None
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise ConfigError(f"brain.toml: unknown key {unknown[0]!r} (valid keys: {', '.join(sorted(TOP_KEYS))})")
    name = data.get("name", slug_name(root.resolve().name))
    _expect(isinstance(name, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]*", name or "") is not None,
            "name", "lower-case letters, digits and '-'", name)
    _expect(name not in RESERVED_NAMES, "name", f"a name other than {sorted(RESERVED_NAMES)}", name)
    title = data.get("title", name)
    _expect(isinstance(title, str), "title", "a string", title)
    language = data.get("language", "en")
    _expect(language_tag(language) is not None, "language", "a language tag like en, de or zh-Hans", language)
    tz = data.get("timezone", "UTC")
    _expect(isinstance(tz, str), "timezone", "an IANA time zone name", tz)
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise ConfigError(f"brain.toml: timezone: expected an IANA time zone name, got {tz!r}") from None
    site = check_site_url(data["site_url"], "brain.toml: site_url") if "site_url" in data else None
    base_url = data.get("base_url", url_path(site) if site else "/")
    _expect(isinstance(base_url, str) and base_url.startswith("/"), "base_url", "a path starting with '/'", base_url)
    base_url = base_url if base_url.endswith("/") else base_url + "/"
    if site and _prefix(base_url) != _prefix(url_path(site)):
        raise ConfigError(f"brain.toml: base_url: {base_url!r} conflicts with site_url's path {url_path(site)!r}; "
                          "drop base_url (it defaults to site_url's path) or make them agree")
    fields = data.get("fields", list(DEFAULT_FIELDS))
    _expect(isinstance(fields, list) and all(isinstance(f, str) for f in fields), "fields", "a list of strings", fields)
    allow_html = data.get("allow_html", False)
    _expect(isinstance(allow_html, bool), "allow_html", "true or false", allow_html)
    return BrainConfig(
        name=name, title=title, timezone=tz, language=language, base_url=base_url,
        fields=tuple(fields), sources=_sources(data.get("sources", {})),
        identities=_identities(data.get("identities", {})), allow_html=allow_html,
        site_url=site, base_url_given="base_url" in data, site=_site(root, data.get("site", {}), data.get("theme")),
    )


def _sources(table) -> dict[str, SourceConfig]:
    _expect(isinstance(table, dict), "sources", "a table of sources", table)
    out = {}
    for name, spec in sorted(table.items()):
        _expect(isinstance(spec, dict), f"sources.{name}", "a table", spec)
        unknown = sorted(set(spec) - SOURCE_KEYS)
        if unknown:
            raise ConfigError(f"brain.toml: sources.{name}: unknown key {unknown[0]!r} (valid keys: {', '.join(sorted(SOURCE_KEYS))})")
        cadence = spec.get("cadence")
        days = duration_days(cadence, f"brain.toml: sources.{name}.cadence") if cadence is not None else None
        priority = spec.get("priority", "normal")
        _expect(priority in ("low", "normal"), f"sources.{name}.priority", "'low' or 'normal'", priority)
        title = spec.get("title", name)
        _expect(isinstance(title, str), f"sources.{name}.title", "a string", title)
        publish = spec.get("publish")
        _expect(publish is None or isinstance(publish, bool), f"sources.{name}.publish", "true or false", publish)
        out[name] = SourceConfig(name=name, title=title, cadence_days=days, priority=priority, publish=publish)
    return out


def _identities(table) -> dict[str, tuple[str, ...]]:
    _expect(isinstance(table, dict), "identities", "a table of identity = [aliases]", table)
    out = {}
    for ident, aliases in sorted(table.items()):
        _expect(re.fullmatch(r"[A-Za-z][\w.-]*:\S+", ident) is not None, f"identities.{ident}", "an identity like person:alice", ident)
        _expect(isinstance(aliases, list) and all(isinstance(a, str) for a in aliases),
                f"identities.{ident}", "a list of alias strings", aliases)
        out[ident] = tuple(aliases)
    return out


def local_file(root: Path, value, key: str, folder: bool = False) -> str:
    """A path inside the brain (no URL, absolute path or '..'), naming a file (or `folder`) there."""
    what = "folder" if folder else "file"
    _expect(isinstance(value, str) and value.strip() != "", key, f"a path to a {what} in the brain", value)
    parts = Path(value).parts
    local = not (Path(value).is_absolute() or ":" in value or "\\" in value or ".." in parts or value.startswith("/"))
    _expect(local, key, "a path inside the brain, not a URL, an absolute path or '..'", value)
    path = root / value
    found = path.is_dir() if folder else path.is_file()
    inside = found and path.resolve().is_relative_to(root.resolve())   # no link out of the brain
    _expect(inside, key, f"an existing {what} in the brain", value)
    return Path(value).as_posix()


def _files(root: Path, value, key: str) -> tuple[str, ...]:
    listed = [value] if isinstance(value, str) else value
    _expect(isinstance(listed, list), key, "a path or a list of paths", value)
    return tuple(local_file(root, v, f"{key}[{i}]") for i, v in enumerate(listed))


def _nav(value) -> tuple[tuple[str, str], ...]:
    _expect(isinstance(value, list), "site.nav", "a list of {title, url} tables", value)
    out = []
    for i, link in enumerate(value):
        key = f"site.nav[{i}]"
        _expect(isinstance(link, dict) and set(link) == {"title", "url"}, key, "a table {title, url}", link)
        title, url = link["title"], link["url"]
        _expect(isinstance(title, str) and title.strip() != "", f"{key}.title", "a non-empty string", title)
        safe = isinstance(url, str) and url.strip() != "" and not any(c.isspace() or c in '<>"\\' for c in url)
        scheme = urlsplit(url).scheme if safe else ""
        _expect(safe and scheme in ("", "http", "https", "mailto"), f"{key}.url",
                "a site path or an http(s) or mailto: URL", url)
        out.append((title, url))
    return tuple(out)


def _colour(table: dict, key: str) -> str | None:
    value = table.get(key)
    _expect(value is None or isinstance(value, str) and COLOUR.fullmatch(value) is not None,
            f"site.{key}", "a hex colour like #2563eb", value)
    return value


def _site(root: Path, table, theme) -> SiteConfig:
    _expect(isinstance(table, dict), "site", "a table", table)
    unknown = sorted(set(table) - SITE_KEYS)
    if unknown:
        raise ConfigError(f"brain.toml: site: unknown key {unknown[0]!r} (valid keys: {', '.join(sorted(SITE_KEYS))})")
    one = {k: local_file(root, table[k], f"site.{k}") if k in table else None for k in ("logo", "favicon")}
    footer = table.get("footer", "")
    _expect(isinstance(footer, str), "site.footer", "a Markdown string", footer)
    publish = table.get("publish", "all")
    _expect(publish in PUBLISH_MODES, "site.publish", " or ".join(map(repr, PUBLISH_MODES)), publish)
    return SiteConfig(
        **one, accent=_colour(table, "accent"), accent_dark=_colour(table, "accent_dark"),
        nav=_nav(table.get("nav", [])), footer=footer,
        extra_css=_files(root, table.get("extra_css", []), "site.extra_css"),
        extra_js=_files(root, table.get("extra_js", []), "site.extra_js"),
        theme=local_file(root, theme, "theme", folder=True) if theme is not None else None, publish=publish)
