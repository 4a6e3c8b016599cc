"""Text analysis for any script (a Python port of lunr.js 2.3.9's English stemmer for Latin
words) and a sharded BM25 index shared with ``site/engine/bm25/`` (FORMAT.md)."""
from .pipeline import STOP_WORDS, analyze, analyze_pairs, analyze_query_word, name_key, query_terms, query_words
from .reader import FormatError, IndexReader
from .scoring import FORMAT
from .stemmer import stem
from .tokenizer import split, tokenize
from .trimmer import trim


def __getattr__(name: str):
    """The index writer's names, imported when first asked: a query never writes an index, and
    the writer's imports (its arrays, the build's workers) are a cold `bf search`'s to spare."""
    if name in ("FIELD_BOOSTS", "index_files", "write_index"):
        from . import index
        return getattr(index, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "FIELD_BOOSTS", "FORMAT", "FormatError", "IndexReader", "index_files", "name_key", "write_index",
    "STOP_WORDS", "analyze", "analyze_pairs", "analyze_query_word", "query_terms", "query_words",
    "stem", "split", "tokenize", "trim",
]
