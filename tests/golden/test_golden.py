"""Golden site (Pelican's tests/output/basic): examples/brain built with a pinned --now and
--no-pagefind, normalized (tests/golden/golden.py), must equal tests/golden/expected/.

A difference is either a bug or an intended change of output. For an intended one, run
scripts/update-golden and commit the new expected files with the change (tests/golden/README.md)."""
from __future__ import annotations

import difflib

import pytest

from golden import BRAIN, EXPECTED, build, normalized, read_expected

SHOWN = 5           # files whose diff is printed
LINES = 60          # diff lines printed per file


def report(expected: dict[str, str], actual: dict[str, str]) -> str:
    missing = sorted(expected.keys() - actual.keys())
    extra = sorted(actual.keys() - expected.keys())
    changed = sorted(k for k in expected.keys() & actual.keys() if expected[k] != actual[k])
    out = [f"the built site differs from tests/golden/expected/: {len(changed)} changed, "
           f"{len(missing)} no longer built, {len(extra)} new",
           "if the change is intended: scripts/update-golden, then commit tests/golden/expected/ "
           "and say in the commit message which files changed and why"]
    if missing:
        out.append("no longer built: " + ", ".join(missing[:20]) + (" …" if len(missing) > 20 else ""))
    if extra:
        out.append("new: " + ", ".join(extra[:20]) + (" …" if len(extra) > 20 else ""))
    for rel in changed[:SHOWN]:
        diff = list(difflib.unified_diff(expected[rel].splitlines(), actual[rel].splitlines(),
                                         f"expected/{rel}", f"built/{rel}", lineterm="", n=2))
        out += diff[:LINES] + ([f"… {len(diff) - LINES} more diff lines"] if len(diff) > LINES else [])
    if len(changed) > SHOWN:
        out.append(f"… and {len(changed) - SHOWN} more changed: " + ", ".join(changed[SHOWN:SHOWN + 30]))
    return "\n".join(out)


def test_example_site_matches_the_golden_tree(tmp_path):
    assert EXPECTED.is_dir(), "tests/golden/expected/ is missing: run scripts/update-golden"
    actual = normalized(build(BRAIN, tmp_path / "site"))
    expected = read_expected()
    if actual != expected:
        pytest.fail(report(expected, actual), pytrace=False)


def test_report_names_files_and_shows_a_diff():
    expected = {"a.json": "{\n \"x\": 1\n}\n", "gone.txt": "x\n", "same.txt": "s\n"}
    actual = {"a.json": "{\n \"x\": 2\n}\n", "new.txt": "y\n", "same.txt": "s\n"}
    text = report(expected, actual)
    assert "1 changed, 1 no longer built, 1 new" in text
    assert "no longer built: gone.txt" in text and "new: new.txt" in text
    assert "--- expected/a.json" in text and "- \"x\": 1" in text and "+ \"x\": 2" in text
