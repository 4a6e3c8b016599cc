"""What a built site is: its bundle version, where its manifest lies, the search modes it answers."""
from .formats import BUNDLE_VERSION  # noqa: F401  (the site's layout: kernel/formats.py)

MANIFEST = "_bf/manifest.json"
MODES = ("hybrid", "lexical", "semantic")   # bf search --mode (docs/replies.md#bf-search); builder/query/vector.py
