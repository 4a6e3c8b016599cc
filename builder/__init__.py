"""bf: publish and query a brain as a static site.

Python API (see README "## Python"): `open_site(path)` returns a `builder.api.Site` with
`search`, `read`, `recall` and `types`, each returning the dict the CLI prints; every
failure raises `BfError` (`.code`, `.exit`, `.message`). Kept light: the CLI imports this
package on every start, so the query modules load only when a site is opened."""
__version__ = "0.1.0"
from .kernel.bundle import BUNDLE_VERSION, MANIFEST, MODES  # noqa: E402,F401  (the site's layout; stdlib-free)

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
