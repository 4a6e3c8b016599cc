"""The vendored libraries a site ships: KaTeX and Mermaid only when some page loads them."""
from __future__ import annotations

from pathlib import Path

from builder.build import build

NOW = "2026-12-02T12:00:00Z"


def _brain(root: Path, body: str) -> Path:
    root.mkdir(exist_ok=True)
    (root / "brain.toml").write_text('title = "t"\n', encoding="utf-8")
    (root / "a.md").write_text(f"# A\n\n{body}\n", encoding="utf-8")
    (root / "b.md").write_text("# B\n\n![[A]]\n", encoding="utf-8")
    return root


def _vendor(site: Path) -> set[str]:
    return {p.name for p in (site / "_bf" / "vendor").iterdir() if p.is_dir()}


def test_a_site_ships_katex_and_mermaid_only_while_a_page_loads_them(tmp_path):
    brain, site = _brain(tmp_path / "brain", "Plain words."), tmp_path / "site"
    build([brain], site, now=NOW, pagefind=False)
    assert _vendor(site) == set()
    assert (site / "_bf" / "vendor" / "LICENSE-lunr.txt").is_file()   # the rest of site/vendor stays

    _brain(brain, "$$e^{i\\pi} + 1 = 0$$")
    build([brain], site, now=NOW, pagefind=False)
    assert _vendor(site) == {"katex"}
    pages = [(site / "brain" / name).read_text(encoding="utf-8") for name in ("a.html", "b.html")]
    assert all("vendor/katex/katex.min.js" in page for page in pages)   # b embeds a's math

    _brain(brain, "```mermaid\ngraph TD; A-->B\n```\n\n$x$")
    build([brain], site, now=NOW, pagefind=False)
    assert _vendor(site) == {"katex", "mermaid"}
    assert (site / "_bf" / "vendor" / "katex" / "fonts").is_dir()
