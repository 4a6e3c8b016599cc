"""What a user may see of an error message: control characters escaped, local paths hidden.
Shared by cli.py (stderr) and mcp.py (tool errors), so neither imports the other."""
from __future__ import annotations

import os
import unicodedata


def scrub(text: str, roots=()) -> str:
    """Escape control/format characters and hide local paths (<brain>, ~). `roots`: brain
    folders, or a mapping of each to what shows instead (the CLI: the path as the user typed it)."""
    shown = roots if isinstance(roots, dict) else dict.fromkeys(roots, "<brain>")
    for root in sorted(shown, key=len, reverse=True):
        if root:
            text = text.replace(root, shown[root])
    home = os.path.expanduser("~")
    if home and home != "/":
        text = text.replace(home, "~")
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)
