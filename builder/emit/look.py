"""How the site looks, as its owner configures it: [site] in the first brain's brain.toml and a
theme folder (its templates, at its top, override bf's of the same name, bf's own stay reachable
as "bf/NAME"; its static/ is copied to _theme/). docs/site.md lists the templates and their blocks."""
from __future__ import annotations

import hashlib
import traceback
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, PrefixLoader, TemplateError, select_autoescape

from ..kernel.config import SiteConfig
from ..kernel.errors import BuildError, ConfigError
from ..kernel.resources import resource_dir
from .recordtext import MARKDOWN

OWN = "_own"        # the brain's [site] files
THEME = "_theme"    # the theme's static/ files


def settled(site: SiteConfig, root: str, flag: str | None) -> SiteConfig:
    """`site` with its theme folder made absolute (--theme `flag` wins over brain.toml's) and a
    digest of every file it reads: a page's inputs (emit/reuse.py), so an edit renders again."""
    theme = Path(flag).resolve() if flag is not None else Path(root, site.theme) if site.theme else None
    if theme is not None and not theme.is_dir():
        raise ConfigError(f"--theme: expected a folder, got {flag!r}")
    digest = hashlib.sha256()
    files = [Path(root, f) for f in site.files()] + (sorted(p for p in theme.rglob("*") if p.is_file()) if theme else [])
    for path in files:
        digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return replace(site, theme=str(theme) if theme else None, digest=digest.hexdigest()[:16])


class _Environment(Environment):
    """Jinja's, with `a.b` on a plain dict answered by its key at once. Jinja tries getattr()
    first, and on a dict that raises (and is caught) for every key that is not a dict method: a
    page reads thousands of fields. Dict method names still go to Jinja's own lookup, so every
    answer is the one Jinja gives."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and type(attribute) is str and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


_DICT_NAMES = frozenset(dir(dict))


@lru_cache(maxsize=4)
def environment(theme: str | None = None, digest: str = "") -> Environment:
    """bf's templates under the theme's; one per `digest` of the look (SiteConfig.digest), so an
    edited theme is read again however close in time to the last build."""
    bf = FileSystemLoader(str(resource_dir("templates")))
    loaders = [FileSystemLoader(theme), bf] if theme else [bf]
    env = _Environment(loader=ChoiceLoader(loaders + [PrefixLoader({"bf": bf})]),
                      autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.globals["own"] = lambda rel: f"{OWN}/{rel}"
    return env


def guarded(run):
    """run(), a template error turned into a BuildError naming the template file and line."""
    try:
        return run()
    except TemplateError as exc:
        where = getattr(exc, "filename", None), getattr(exc, "lineno", None)
        if where[0] is None:   # a runtime error: the innermost frame in a template tells
            frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith(".html")]
            where = (frames[-1].filename, frames[-1].lineno) if frames else where
        raise BuildError(f"template error in {where[0] or '?'}, line {where[1] or '?'}: {exc}") from None


@lru_cache(maxsize=4)
def footer_html(text: str) -> str:
    """The [site] footer, Markdown without raw HTML (as a record's text)."""
    return MARKDOWN.render(text) if text else ""


def copy_look(writer, site: SiteConfig, root: str) -> None:
    for rel in site.files():
        writer.copy(Path(root, rel), f"{OWN}/{rel}")
    static = Path(site.theme, "static") if site.theme else None
    if static is not None and static.is_dir():
        for path in sorted(p for p in static.rglob("*") if p.is_file() and not p.name.startswith(".")):
            writer.copy(path, f"{THEME}/{path.relative_to(static).as_posix()}")
