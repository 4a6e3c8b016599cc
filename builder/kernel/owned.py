"""Whether a state file bf left beside a site (the parse cache, the site's file index) may be
trusted: read back only when this user owns it and no one else may write it, since its contents
are taken as what bf computed."""
from __future__ import annotations

import os


def ours(st: os.stat_result) -> bool:
    """Whether the file of `st` is this user's and writable by no group or other user."""
    return not ((hasattr(os, "getuid") and st.st_uid != os.getuid()) or st.st_mode & 0o022)
