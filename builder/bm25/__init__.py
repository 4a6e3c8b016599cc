"""Text analysis for any script (a Python port of lunr.js 2.3.9's English stemmer for Latin
words) and a sharded BM25 index shared with ``site/engine/bm25/`` (FORMAT.md)."""
from .index import FIELD_BOOSTS, index_files, write_index
from .pipeline import STOP_WORDS, analyze, analyze_pairs, analyze_query_word, name_key, query_terms, query_words
from .reader import FormatError, IndexReader
from .scoring import FORMAT
from .stemmer import stem
from .tokenizer import split, tokenize
from .trimmer import trim

__all__ = [
    "FIELD_BOOSTS", "FORMAT", "FormatError", "IndexReader", "index_files", "name_key", "write_index",
    "STOP_WORDS", "analyze", "analyze_pairs", "analyze_query_word", "query_terms", "query_words",
    "stem", "split", "tokenize", "trim",
]
