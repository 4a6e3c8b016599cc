"""Copy the browser runtime (site/) and the reply schemas (schemas/) into the build."""
from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

from ..kernel.embeds import page_assets
from .mathfont import font_for, math_text
from ..kernel.resources import resource_dir
from .look import copy_look
from .stage import IndexContext, SiteContext, Stage, paths
from .urls import attachment_path
from .writer import Writer

# Vendored files that only pages holding maths or a diagram load (kernel/embeds.page_assets):
# a site with neither ships neither, as Quartz does (Mermaid alone is 2.7 MB). The maths font is
# never copied whole: the build writes the glyphs its formulas use (emit/mathfont.py).
OPTIONAL = MappingProxyType({"math": "vendor/math", "mermaid": "vendor/mermaid"})
MATH_FONT = "vendor/math/bf-math.otf"


def _copy_tree(writer: Writer, source: Path, prefix: str, skip: tuple[str, ...] = ()) -> None:
    for path in sorted(source.rglob("*")):
        rel = path.relative_to(source).as_posix()
        if (path.is_file() and not path.name.startswith(".") and "__pycache__" not in path.parts
                and not any(rel.startswith(folder + "/") for folder in skip)):
            writer.copy(path, f"{prefix}/{rel}")


def needed_libraries(brains) -> tuple[set[str], str]:
    """The OPTIONAL libraries some note's page loads (an embed shows another note's HTML, so the
    notes' own bodies tell), and the characters of every note's maths."""
    found: set[str] = set()
    maths: set[str] = set()
    for brain in brains:
        for note in brain.notes.values():
            wanted = page_assets(note.html)
            found |= {name for name, on in wanted.items() if on}
            if wanted["math"]:
                maths |= set(math_text(note.html))
    return found, "".join(sorted(maths))


def emit_assets(writer: Writer, brains) -> None:
    needed, maths = needed_libraries(brains)
    site = resource_dir("site")
    _copy_tree(writer, site, "_bf", tuple(p for k, p in OPTIONAL.items() if k not in needed or k == "math"))
    if maths:
        writer.write("_bf/vendor/math/bf-math.woff", font_for(maths, site / MATH_FONT), str(site / MATH_FONT))
        writer.copy(site / "vendor/math/LICENSE", "_bf/vendor/math/LICENSE")
    _copy_tree(writer, resource_dir("schemas"), "schemas")
    writer.write(".nojekyll", b"", "site")
    copy_look(writer, brains[0].config.site, brains[0].root)


def emit_attachments(writer: Writer, brain_name: str, root: Path, attachments, path_for) -> None:
    for rel in attachments:
        writer.copy(root / rel, path_for(brain_name, rel))


@paths
def _attachments(ctx: IndexContext) -> None:
    emit_attachments(ctx.writer, ctx.brain.name, Path(ctx.brain.root), ctx.brain.attachments, attachment_path)


@paths
def _assets(ctx: SiteContext) -> None:
    emit_assets(ctx.writer, list(ctx.brains))


ATTACHMENTS = Stage("attachments", "index", "render", _attachments)
ASSETS = Stage("assets", "site", "assets", _assets, beside=True)
