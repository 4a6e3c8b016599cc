"""Every versioned format bf writes, named and numbered once (docs/code.md#twins).

A reader refuses a file of another version, and a build does not reuse one: bump a format's
version when what it holds changes in a way an older reader would misread. The browser's engine
holds the formats it reads under the same names (store.js, data.js, vectorstore.js,
bm25/scoring.js, search.js), written from here by `python tests/query/test_twins.py`; a test fails while one
differs. What each format holds: the docs each line names.
"""
from __future__ import annotations

# The layout of a built site (docs/site.md#search-data); the manifest says it and a query engine
# refuses a site of another bundle version.
BUNDLE_VERSION = 11
# The sharded BM25 index (builder/bm25/FORMAT.md).
LUNR_FORMAT = "bf-lunr-11"
# Each brain's search store: the metadata, and the texts as gzip members a search reads by range
# (docs/site.md#search-data).
STORE_FORMAT = "bf-search-5"
# What a search item copies from its store entry (docs/replies.md#the-reply), written once here:
# (field, the value an entry without it gives, whether recall quotes it). The store leaves a field
# out when it holds that value (views/documents._compact); both engines make an item from these
# (query/search.item_of, search.js itemOf) and recall quotes those marked (query/recall.py,
# recall.js). ITEM_FIELDS are every item's, RECORD_FIELDS a record's besides; a note's or a
# section's title is its own (the entry's title, or the section's heading path).
ITEM_FIELDS = (("type", None, True), ("tags", [], True), ("fields", {}, False), ("entities", [], True),
               ("modified", None, True))
RECORD_FIELDS = (("title", "", True), ("time", None, True), ("observed", None, True))
# The compact data: listings, timeline and cards as packs (docs/data.md).
DATA_FORMAT = "bf-data-2"
# The vector arm's rows (read by Range), buckets, token table and the brain's token weights (docs/site.md#search-data).
VECTORS_FORMAT = "bf-vectors-6"
# The full-text bundles bf keeps between builds: pagefind's extended build, one index per page language.
PAGEFIND_FORMAT = 2
# The staleness fingerprint: the published files and a digest of the rest (docs/site.md#staleness).
FINGERPRINT_FORMAT = 4
# The parse cache in the cache folder (builder/parsecache.py).
PARSE_CACHE_FORMAT = 2
