"""Python port of the lunr.js 2.3.9 English pipeline plus a sharded,
lunr-compatible BM25 index shared with ``site/engine/lunrindex.js``."""
from .index import FIELD_BOOSTS, IndexReader, write_index
from .pipeline import STOP_WORDS, analyze, analyze_query_word, query_words
from .stemmer import stem
from .tokenizer import split, tokenize
from .trimmer import trim

__all__ = [
    "FIELD_BOOSTS", "IndexReader", "write_index", "STOP_WORDS", "analyze",
    "analyze_query_word", "query_words", "stem", "split", "tokenize", "trim",
]
