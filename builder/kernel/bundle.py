"""What a built site is: its bundle version, where its manifest lies, the search modes it answers."""
# The layout of a built site; a query engine refuses a site of another bundle version.
BUNDLE_VERSION = 11  # 2: compact data (docs/data.md); 3: its files and the search files are gzip packs (packs.py);
                     # 4: sections computed from their note's reply (query/sections.py); 5: fingerprints are packs
                     # 6: index lengths in l/ files (bf-lunr-6), card ids stable under insertion (bf-data-2)
                     # 7: vector pages for lexical candidates, the vocabulary in shards (bf-vectors-4),
                     #    index doc ids by group with room, stable when a record is added (bf-lunr-7)
                     # 8: facets (f/) and placed instants (p/) in the index: scoped searches filter hits without metadata (bf-lunr-8)
                     # 9: adjacent pairs (a/) in the index: a phrase search reads the text of fewer hits (bf-lunr-9)
                     # 10: big postings in binary (b/K.bin), read without parsing (bf-lunr-10)
                     # 11: each l/ file's least lengths in meta.json, exact top-k by block bounds (bf-lunr-11)
MANIFEST = "_bf/manifest.json"
MODES = ("hybrid", "lexical", "semantic")   # bf search --mode (docs/replies.md#bf-search); builder/query/vector.py
