"""A person the query names (docs/replies.md, "Matching and ranking").
JS twin: site/engine/who.js — the same words, in the same order.

A question that names a person ("What did Caroline research?") asks first what that person said
or did. A person is named by a capitalised word of the query (ASCII letters and digits, not a
stop word): the identity `person:` + the word in lower case. Among the ranked pool, the items
naming such an identity (their `entity:` facets: a record's author, the people a note links or
names; a section its note's) weigh BOOST times more, as a named date weighs its period
(query/when.py). Measured on real long conversations: docs/decisions.md.
"""
from __future__ import annotations

import re

from ..bm25 import STOP_WORDS

BOOST = 1.5
WORD = re.compile(r"[A-Za-z0-9]+")


def people(text: str) -> list[str]:
    """The identities `text` may name (person:WORD), in the order written, each once."""
    out: list[str] = []
    for word in WORD.findall(text):
        key = "person:" + word.lower()
        if "A" <= word[0] <= "Z" and word.lower() not in STOP_WORDS and key not in out:
            out.append(key)
    return out
