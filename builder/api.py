"""bf as a Python library: query a built site without the CLI.

    from builder import open_site, BfError
    site = open_site("_site")
    site.search("pricing", scope="memories", limit=5)
    site.read("projects/new-website.md")
    site.recall("pricing", budget=4000)
    site.types()

Each method returns the dict `bf search|read|recall|types` prints (the same query functions,
the same JSON value; `--dense` only drops nulls from the printed text), a fresh copy the
caller may change. Every failure the CLI reports with an exit code raises `builder.BfError`
(a subclass, in fact: InvalidInput, NotFound, Incomplete, IndexMissing …) carrying `.code`,
`.exit` and `.message`; the message is not scrubbed (the CLI hides local paths as <brain>
and ~, a library caller sees them as they are).

A Site stays open across rebuilds: before each call it looks at the manifest's file and
reopens the site when a rebuild swapped in another build id, as `bf mcp` does. Indexes and
files are read lazily and kept warm between calls of the same build.
"""
from __future__ import annotations

import os
from pathlib import Path

from .kernel.errors import InvalidInput
from .query.site import LiveSite, find_site
from .query.site import Site as _OpenSite


def _own(value):
    """A copy of a JSON value: the engine's warm caches share lists and dicts between replies
    (a source's coverage, an item's tags), so a caller who edits a reply must not edit them."""
    if isinstance(value, dict):
        return {k: _own(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_own(v) for v in value]
    return value


def _brains(brains) -> list[str] | None:
    """None, one name, or several; the CLI's repeatable --brain."""
    if brains is None:
        return None
    if isinstance(brains, str):
        return [brains]
    if isinstance(brains, (list, tuple)) and all(isinstance(b, str) for b in brains):
        return list(brains)
    raise InvalidInput("brain", "must be a brain name or a list of names")


class Site:
    """A built site, opened for queries. Create it with `builder.open_site(path)`."""

    def __init__(self, path: str | os.PathLike | None = None):
        # Resolved against the cwd now (absolute from then on); None means $BF_SITE, else ./_site.
        self.path = Path(os.path.abspath(find_site(os.fspath(path) if path is not None else None)))
        self._live = LiveSite(self.path)
        self._current()     # a missing or incompatible site raises IndexMissing here

    def __repr__(self) -> str:
        build = self._live.site.build_id if self._live.site else None
        return f"<bf.Site {str(self.path)!r} build {build!r}>"

    def _current(self) -> _OpenSite:
        """The open site; reopened when the manifest on disk names another build."""
        return self._live.current()

    @property
    def build_id(self) -> str:
        """The build id of the site as it is on disk now."""
        return self._current().build_id

    @property
    def as_of(self) -> str:
        """The build's instant (RFC 3339), as replies report it in `as_of`."""
        return self._current().as_of

    def search(self, query: str, *, scope: str | None = None, type: str | None = None,
               path: str | None = None, limit: int = 10, brains=None, mode: str | None = None) -> dict:
        """`bf search QUERY [--scope] [--type] [--path] [--limit] [--brain …] [--mode]`: a search-reply."""
        from .query.search import search
        return _own(search(self._current(), query, scope=scope, type=type, path=path, limit=limit,
                           brains=_brains(brains), mode=mode))

    def read(self, ref: str, *, rel: str | None = None, offset: int = 0, brains=None) -> dict:
        """`bf read REF [--rel] [--offset] [--brain …]`: a read-reply ('' or 'home' for home)."""
        from .query.read import read
        return _own(read(self._current(), ref, rel=rel, offset=offset, brains=_brains(brains)))

    def recall(self, query: str, *, budget: int = 16000, scope: str | None = None, type: str | None = None,
               path: str | None = None, brains=None, mode: str | None = None) -> dict:
        """`bf recall QUERY [--budget] [--scope] [--type] [--path] [--brain …] [--mode]`: a recall-reply."""
        from .query.recall import recall
        return _own(recall(self._current(), query, budget=budget, scope=scope, type=type, path=path,
                           brains=_brains(brains), mode=mode))

    def similar(self, ref: str, *, limit: int = 10, scope: str | None = None, brains=None) -> dict:
        """`bf similar REF [--limit] [--scope] [--brain …]`: the notes and records nearest an item."""
        from .query.similar import similar
        return _own(similar(self._current(), ref, limit=limit, scope=scope, brains=_brains(brains)))

    def types(self, *, brains=None) -> dict:
        """`bf types [--brain …]`: the type values in use, with counts."""
        from .query.search import types
        return _own(types(self._current(), brains=_brains(brains)))


def open_site(path: str | os.PathLike | None = None) -> Site:
    """Open the built site at `path` (default: $BF_SITE, else ./_site), resolved against the
    current directory now. Raises BfError (code "index_missing", exit 5) when there is no
    site there or it was built by an incompatible version."""
    return Site(path)
