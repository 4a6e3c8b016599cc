"""Print the code layout for docs/code.md: one line per module, its docstring's first line (Python)
or its first comment line (JS)."""
import ast
import sys
from pathlib import Path

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]


def first_py(path: Path) -> str:
    return (ast.get_docstring(ast.parse(path.read_text("utf-8"))) or "").strip().split("\n")[0]


def first_js(path: Path) -> str:
    return next((line[2:].strip() for line in path.read_text("utf-8").splitlines() if line.startswith("//")), "")


for base, pattern, first in (("builder", "*.py", first_py), ("bench", "*.py", first_py), ("site", "*.js", first_js)):
    for path in sorted((ROOT / base).rglob(pattern)):
        if "__pycache__" not in path.parts and "vendor" not in path.parts:
            print(f"{path.relative_to(ROOT).as_posix():40s} {first(path)}"[:150])
