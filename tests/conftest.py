"""Fixtures shared by every test folder.

- `NOW`: the pinned build instant every test build uses.
- `make_brain(tmp_path, files, name="brain") -> Path` (fixture returning a factory):
  writes `files` ({brain-relative path: str | bytes}) into `tmp_path/name` and returns
  that folder. str is written as UTF-8; bytes as is.
- `build_site(brain, out, **kwargs) -> BuildReport` (fixture returning a function):
  `builder.build.build([brain], out, now=NOW, pagefind=False, **kwargs)`.
- `example_site` (session): `examples/brain` built once with `--now NOW --no-pagefind`
  into a session temp folder. Shared: read it, never write into it.
- `bf(*args) -> (exit code, stdout, stderr)` (fixture): runs the CLI in-process.
- `pagefind_runs()` (fixture returning a function): the page lists of every pagefind run
  (`builder.emit.pagefind.index_pages`) since the test began, in order. Kept in a file, since
  a build runs pagefind in a forked child (runner.py).
- `node`, `git` (fixtures): the tool's path; the test is skipped without it, or fails when
  CI=true (tests/support/tools.py, also importable as `tools` from any test).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

NOW = "2026-12-02T12:00:00Z"
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "brain"
SUPPORT = ROOT / "tests" / "support"
if str(SUPPORT) not in sys.path:
    sys.path.insert(0, str(SUPPORT))

from tools import need  # noqa: E402


def _make_brain(tmp_path: Path, files: dict, name: str = "brain") -> Path:
    root = Path(tmp_path) / name
    root.mkdir(parents=True, exist_ok=True)
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def make_brain():
    return _make_brain


@pytest.fixture
def build_site():
    from builder.build import build

    def run(brain: Path, out: Path, **kwargs):
        kwargs.setdefault("now", NOW)
        kwargs.setdefault("pagefind", False)
        return build([Path(brain)], Path(out), **kwargs)
    return run


@pytest.fixture(scope="session")
def example_site(tmp_path_factory) -> Path:
    from builder.cli import main
    out = tmp_path_factory.mktemp("example") / "site"
    code = main(["build", str(EXAMPLE), "--out", str(out), "--now", NOW, "--no-pagefind", "--quiet"])
    assert code == 0
    return out


@pytest.fixture
def bf(capsys):
    from builder.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err
    return run


@pytest.fixture
def pagefind_runs(monkeypatch, tmp_path):
    import json
    from builder.emit import pagefind
    log, real = tmp_path / "pagefind-runs.jsonl", pagefind.index_pages

    def counted(site, pages, out, **options):
        with log.open("a", encoding="utf-8") as f:
            f.write(json.dumps(pages) + "\n")
        return real(site, pages, out, **options)
    monkeypatch.setattr(pagefind, "index_pages", counted)
    return lambda: [json.loads(line) for line in log.read_text("utf-8").splitlines()] if log.exists() else []


@pytest.fixture
def node() -> str:
    return need("node", "apt-get install nodejs")


@pytest.fixture
def git() -> str:
    return need("git", "apt-get install git")
