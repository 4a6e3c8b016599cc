"""bf: publish and query a brain as a static site.

Python API (see README "## Python"): `open_site(path)` returns a `builder.api.Site` with
`search`, `read`, `recall` and `types`, each returning the dict the CLI prints; every
failure raises `BfError` (`.code`, `.exit`, `.message`). Kept light: the CLI imports this
package on every start, so the query modules load only when a site is opened."""
__version__ = "0.1.0"
# The layout of a built site; a query engine refuses a site of another bundle version.
BUNDLE_VERSION = 9   # 2: compact data (docs/data.md); 3: its files and the search files are gzip packs (packs.py);
                     # 4: sections computed from their note's reply (query/sections.py); 5: fingerprints are packs
                     # 6: index lengths in l/ files (bf-lunr-6), card ids stable under insertion (bf-data-2)
                     # 7: vector pages for lexical candidates, the vocabulary in shards (bf-vectors-4),
                     #    index doc ids by group with room, stable when a record is added (bf-lunr-7)
                     # 8: facets (f/) and placed instants (p/) in the index: scoped searches filter hits without metadata (bf-lunr-8)
                     # 9: adjacent pairs (a/) in the index: a phrase search reads the text of fewer hits (bf-lunr-9)
MANIFEST = "_bf/manifest.json"
MODES = ("hybrid", "lexical", "semantic")   # bf search --mode (SPEC §5); builder/query/vector.py

from .kernel.errors import BfError  # noqa: E402  (stdlib-free, tiny)

__all__ = ["BfError", "Site", "open_site", "__version__"]


def open_site(path=None):
    """Open the built site at `path` (default: $BF_SITE, else ./_site) for queries; the path
    is resolved against the current directory now. Raises BfError ("index_missing", exit 5)
    when no compatible site is there. See builder.api.Site."""
    from .api import open_site as _open
    return _open(path)


def __getattr__(name):   # builder.Site without importing the query engine up front
    if name == "Site":
        from .api import Site
        return Site
    raise AttributeError(f"module 'builder' has no attribute {name!r}")
