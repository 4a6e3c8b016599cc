"""bf: publish and query a brain as a static site."""
__version__ = "0.1.0"
# The layout of a built site; a query engine refuses a site of another bundle version.
BUNDLE_VERSION = 2   # 2: compact data (docs/data.md)
MANIFEST = "_bf/manifest.json"
