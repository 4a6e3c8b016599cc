"""A date the query names, as a period (docs/replies.md, "Matching and ranking").
JS twin: site/engine/when.js — the same patterns, tried in the same order.

People ask "what did we decide on 3 March 2026?" or "in July 2025": the records placed then are
likelier answers. The first date written in full wins, tried in this order: an ISO day
(2026-03-03), a day with an English month name (3 March 2026, March 3rd, 2026), an ISO month
(2026-03), a month name with its year (March 2026), then a year alone (1900–2099). It becomes
a period key (kernel/periods.py), read in each brain's timezone by the caller; the index
multiplies the score of a hit placed in that period by scoring.WHEN_BOOST.
"""
from __future__ import annotations

import re

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")
_NAME = (r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
         r"|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DAY = r"([0-9]{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)[0-9]{2})"
_GAP = "[ \t]+"
# (pattern, which groups are year, month, day). ASCII only (re.A): JS's \b and /i know no more.
PATTERNS = (
    (re.compile(r"\b([0-9]{4})-([0-9]{2})-([0-9]{2})\b", re.A), (1, 2, 3)),
    (re.compile(rf"\b{_DAY}(?:{_GAP}of)?{_GAP}{_NAME},?{_GAP}{_YEAR}\b", re.I | re.A), (3, 2, 1)),
    (re.compile(rf"\b{_NAME}{_GAP}{_DAY},?{_GAP}{_YEAR}\b", re.I | re.A), (3, 1, 2)),
    (re.compile(r"\b([0-9]{4})-([0-9]{2})\b", re.A), (1, 2, 0)),
    (re.compile(rf"\b{_NAME},?{_GAP}{_YEAR}\b", re.I | re.A), (2, 1, 0)),
    (re.compile(rf"\b{_YEAR}\b", re.A), (1, 0, 0)),
)


def _month(text: str) -> int:
    return int(text) if text.isdigit() else [m[:3] for m in MONTHS].index(text[:3].lower()) + 1


def period_of(text: str) -> str | None:
    """The period key (YYYY-MM-DD, YYYY-MM or YYYY) of the first date `text` names, or None."""
    for pattern, (y, m, d) in PATTERNS:
        for found in pattern.finditer(text):
            year = found[y]
            month = _month(found[m]) if m else 0
            day = int(found[d]) if d else 0
            if (m and not 1 <= month <= 12) or (d and not 1 <= day <= 31):
                continue
            return year + (f"-{month:02d}" if month else "") + (f"-{day:02d}" if day else "")
    return None
