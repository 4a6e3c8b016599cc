"""Port of lunr.js 2.3.9 ``lunr.trimmer``.

lunr.js strips ``/^\\W+/`` and ``/\\W+$/`` without the ``u`` flag, so ``\\W``
is ASCII-only: accented letters and other scripts are trimmed away at the
ends. lunr.py's trimmer uses Unicode ``\\W`` and differs.
"""
from __future__ import annotations

import re

_LEAD = re.compile(r"^[^A-Za-z0-9_]+")
_TRAIL = re.compile(r"[^A-Za-z0-9_]+\Z")


def trim(token: str) -> str:
    return _TRAIL.sub("", _LEAD.sub("", token, count=1), count=1)
