"""What staleness compares against (builder/fingerprint.py): the brain's files, and each source
folder's files apart, in `_bf/BRAIN/fingerprint/` (read only when that folder changed)."""
from __future__ import annotations

from pathlib import Path

from ..fingerprint import fingerprint_records, recorded
from ..model import Brain
from .writer import Writer


def emit_fingerprint(writer: Writer, brain: Brain) -> None:
    """A site built inside its brain (`--out docs`) is not the brain's: the previous site must not count."""
    root = Path(brain.root)
    try:
        skip = [writer.out.resolve().relative_to(root).as_posix()]
    except ValueError:
        skip = []
    main, records = recorded(root, skip)
    writer.write_json(f"_bf/{brain.name}/fingerprint.json", main, brain.name)
    for folder, files in records.items():
        writer.write_json(fingerprint_records(brain.name, folder), files, brain.name)
