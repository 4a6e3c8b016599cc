"""Where templates/, site/ and schemas/ live: inside the installed wheel, or beside a source checkout."""
from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]   # builder/, where a wheel keeps _data/


def resource_dir(name: str) -> Path:
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bf is installed without its {name}/ folder")
