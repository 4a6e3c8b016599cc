"""Another checkout's builds for `scripts/bench --base DIR` (a worktree of an earlier commit with
its own .venv): the same child commands as this checkout's, run by that checkout's python from
its own folder, so its `builder` and its benchmark answer. A checkout whose benchmark predates
the child build as this one calls it (`--child-build BRAIN OUT --child-now NOW`) builds through
this checkout's bench/childbuild.py, run as a file with that checkout's `builder` (full builds
only: its rebuilds need its own `--child-watch`).
`child(None)` is this checkout's."""
from __future__ import annotations

import os
from pathlib import Path

from . import CHILD, CHILD_ENV


def child(checkout: Path | None) -> tuple[list[str], dict, Path | None]:
    """(the command that starts the benchmark's child, its environment, its working folder)."""
    if checkout is None:
        return CHILD, CHILD_ENV, None
    python = checkout / ".venv" / "bin" / "python"
    # a checkout from before bench/ left the package runs its benchmark as builder.bench
    module = "bench" if (checkout / "bench" / "__main__.py").is_file() else "builder.bench"
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    if not _takes_child_now(checkout / module.replace(".", "/")):
        return [str(python), str(Path(__file__).with_name("childbuild.py"))], env, checkout
    return [str(python), "-m", module], env, checkout


def _takes_child_now(source: Path) -> bool:
    """Whether the benchmark at `source` (a package folder, or a module without its .py) parses
    `--child-now`, the last option of its child build (62d2828's took `--child-build` without it)."""
    files = sorted(source.glob("*.py")) if source.is_dir() else [source.with_suffix(".py")]
    return any(f.is_file() and "--child-now" in f.read_text("utf-8") for f in files)
