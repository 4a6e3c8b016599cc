"""Copy the browser runtime (site/) and the reply schemas (schemas/) into the build."""
from __future__ import annotations

from pathlib import Path

from ..kernel.resources import resource_dir
from .writer import Writer


def _copy_tree(writer: Writer, source: Path, prefix: str) -> None:
    for path in sorted(source.rglob("*")):
        if path.is_file() and not path.name.startswith(".") and "__pycache__" not in path.parts:
            writer.copy(path, f"{prefix}/{path.relative_to(source).as_posix()}")


def emit_assets(writer: Writer) -> None:
    _copy_tree(writer, resource_dir("site"), "_bf")
    _copy_tree(writer, resource_dir("schemas"), "schemas")
    writer.write(".nojekyll", b"", "site")


def emit_attachments(writer: Writer, brain_name: str, root: Path, attachments, path_for) -> None:
    for rel in attachments:
        writer.copy(root / rel, path_for(brain_name, rel))
