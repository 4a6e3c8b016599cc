"""The vendored files a site ships: the maths font (cut to the site's formulas) and Mermaid only when some
page uses them."""
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


def test_a_site_ships_the_maths_font_and_mermaid_only_while_a_page_uses_them(tmp_path):
    brain, site = _brain(tmp_path / "brain", "Plain words."), tmp_path / "site"
    build([brain], site, now=NOW, pagefind=False)
    assert _vendor(site) == set()
    assert (site / "_bf" / "vendor" / "LICENSE-lunr.txt").is_file()   # the rest of site/vendor stays

    _brain(brain, "$$e^{i\\pi} + 1 = 0$$")
    build([brain], site, now=NOW, pagefind=False)
    assert _vendor(site) == {"math"}
    assert sorted(p.name for p in (site / "_bf" / "vendor" / "math").iterdir()) == ["LICENSE", "bf-math.woff"]
    pages = [(site / "brain" / name).read_text(encoding="utf-8") for name in ("a.html", "b.html")]
    assert all("<math display=\"block\">" in page and "obsidian.js" in page for page in pages)   # b embeds a's math
    assert not any("katex" in page for page in pages)

    _brain(brain, "```mermaid\ngraph TD; A-->B\n```\n\n$x$")
    build([brain], site, now=NOW, pagefind=False)
    assert _vendor(site) == {"math", "mermaid"}


def test_the_maths_font_holds_the_glyphs_of_the_formulas_and_few_others(tmp_path):
    from fontTools.ttLib import TTFont
    brain, site = _brain(tmp_path / "brain", "$x^2 + \\alpha$ and $$\\int_0^1 f$$"), tmp_path / "site"
    build([brain], site, now=NOW, pagefind=False)
    font = site / "_bf" / "vendor" / "math" / "bf-math.woff"
    first = font.read_bytes()
    cmap = TTFont(font).getBestCmap()
    # the letters as a one-letter <mi> is drawn (maths italic), the operators, digits, the integral
    for ch in "\U0001d465\U0001d6fc\U0001d453+201\u222b":
        assert ord(ch) in cmap, ch
    assert ord("\U0001d467") not in cmap and ord("\u2211") not in cmap   # z and the sum are in no formula
    assert len(first) < 30_000 and "MATH" in TTFont(font)
    build([brain], site, now=NOW, pagefind=False)
    assert font.read_bytes() == first   # the same bytes for the same formulas, whenever built:
    from builder.emit.assets import MATH_FONT
    from builder.kernel.resources import resource_dir
    assert TTFont(font)["head"].modified == TTFont(resource_dir("site") / MATH_FONT)["head"].modified
