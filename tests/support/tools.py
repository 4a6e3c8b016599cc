"""External tools some tests need (chromium, node, git): skip without them, but FAIL under CI=true.

A CI install that lost chromium or node must not turn into a green run of skipped tests.

    need("node", "apt-get install nodejs")   # → the tool's path; skips (or fails in CI) when missing
    have("node", "...")                      # → True/False; a missing tool fails in CI

`tool` is a name looked up on PATH or a path to an executable. tests/conftest.py wraps them
as the `node` and `git` fixtures; tests/browser/conftest.py uses `need` for chromium.
"""
from __future__ import annotations

import os
import shutil

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


def have(tool: str, hint: str) -> bool:
    if shutil.which(tool):
        return True
    if in_ci():
        pytest.fail(f"{tool} is missing ({hint}); CI=true, so tests that need it fail instead of skipping",
                    pytrace=False)
    return False


def need(tool: str, hint: str) -> str:
    if not have(tool, hint):
        pytest.skip(f"{tool} is missing ({hint}); set CI=true to make this a failure")
    return shutil.which(tool)
