"""The benchmark (`scripts/bench`): beside the package, never shipped in the wheel. It imports
`builder` as a library; `builder` never imports it.

bench/ is no installed package, so a child process it starts (`python -m bench --child-build …`)
finds it through CHILD_ENV: the repository's root on PYTHONPATH, as scripts/bench sets it."""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHILD = [sys.executable, "-m", "bench"]
CHILD_ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
