"""The example brain as browser tests open it (the `example_site` fixture in tests/browser/conftest.py)."""
from __future__ import annotations

from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"
EXAMPLE_NOW = "2026-12-02T12:00:00Z"


DIAGRAM = ("```mermaid\ngraph LR\n  A[Start here] --> B{Is it a long decision label?}\n  B -->|yes| C[Do the first thing]\n"
           "  B -->|no| D[Do the other thing]\n  C --> E[Finish with a long label]\n  D --> E\n```\n")
# A small brain of the notes that load the most (tests/browser/test_layout_shift.py,
# test_accessibility.py): a diagram with maths and callouts, a Chinese note, an Arabic one.
SCRIPTS_BRAIN = {
    "brain.toml": 'title = "My brain"\n',
    "notes/diagram.md": "# Diagram\n\nInline maths $e^{i\\pi}+1=0$ in a line.\n\n" + DIAGRAM +
                        "\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n\n> [!note] A note\n> Callout text.\n\n"
                        "> [!warning]- Folded\n> Hidden.\n\nSee [[zh]] and [[ar]].\n\n" +
                        "\n\n".join(f"Paragraph {i} to fill the page." for i in range(12)) + "\n",
    "notes/zh.md": "---\nlang: zh\n---\n# 中文笔记\n\n" + "\n\n".join("这是一个中文段落，用来测试页面的布局是否稳定。" * 3 for _ in range(6)) +
                   "\n\n[[diagram]]\n",
    "notes/ar.md": "---\nlang: ar\n---\n# ملاحظة عربية\n\n" + "\n\n".join("هذه فقرة عربية فيها كلمة English في الوسط، وتنتهي بنقطة."
                                                                   for _ in range(4)) + "\n\n- عنصر أول\n- عنصر ثانٍ مع [[diagram]]\n",
}


def opened(page, url: str):
    """`page` at `url` once bf.js has run (window.bf is set)."""
    page.goto(url)
    page.wait_for_function("window.bf !== undefined")
    return page


def page_of(site: Path, ref: str, brain: str = "brain") -> str:
    """The site path of `ref`'s page in a built site, as bf.js finds it: the readable path, or the
    one the manifest's `moved` gives a ref that lost a collision."""
    import json
    from builder.kernel.pageurls import page_file
    entry = next(b for b in json.loads((site / "_bf" / "manifest.json").read_bytes())["brains"] if b["name"] == brain)
    return page_file(brain, ref, entry.get("moved"))


def served_brain(root: Path, notes: dict[str, str], now: str):
    """A brain of `notes` (path → text) written under `root`, built without pagefind at `now` and
    served: a generator of its base URL, for a module fixture to yield from."""
    from builder.build import build
    from httpserver import StaticServer
    for rel, text in notes.items():
        (root / "brain" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "brain" / rel).write_text(text, encoding="utf-8")
    build([root / "brain"], root / "site", now=now, pagefind=False)
    server = StaticServer(root / "site", "/")
    try:
        yield server.base_url
    finally:
        server.close()
