"""Issue 18 in Chromium: every page of the Obsidian test vault (tests/fixtures/obsidian) shows no
raw Obsidian syntax, KaTeX and Mermaid draw, callouts fold, code is coloured, in light and dark;
screenshots go to tests/artifacts/obsidian-*.png. Build-side checks: tests/emit/test_obsidian_vault.py."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

from crawl import crawl, screenshot
from pages_ready import escaped_pages

VAULT = Path(__file__).resolve().parents[1] / "fixtures" / "obsidian"
NOW = "2026-12-02T12:00:00Z"
SHOWCASE = "obsidian/Syntax/Showcase.html"
EMBEDS = "obsidian/Syntax/Embeds.html"
BLOCK_IDS = ["intro-para", "list-item", "the-table", "sync-e2e", "palette-summary"]
RAW = [re.compile(p) for p in (r"%%", r"==", r"\$\$", r"```\s*mermaid", r"\^(?:%s)\b" % "|".join(BLOCK_IDS),
                               r"\[![a-z]+\]", r"zqx")]

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    from builder.build import build
    out = tmp_path_factory.mktemp("obsidian") / "site"
    build([VAULT], out, now=NOW, pagefind=False)
    return out


@pytest.fixture
def base(site, serve_site):
    return serve_site(site, "/my-repo/")


def _settled(page):
    """Wait for obsidian.js: KaTeX runs at once; Mermaid marks the page when drawn."""
    page.wait_for_load_state("load")
    if page.locator("pre.mermaid").count():
        page.wait_for_function("document.documentElement.dataset.bfDiagrams === 'drawn'")


def test_no_raw_obsidian_syntax_on_any_page(page, base, site):
    pages = sorted(p.relative_to(site).as_posix() for p in (site / "obsidian").rglob("*.html"))
    assert SHOWCASE in pages and len(pages) > 20
    for rel in pages:
        page.goto(base + rel)
        _settled(page)
        text = page.locator("body").inner_text()
        found = [r.pattern for r in RAW if r.search(text)]
        assert not found, (rel, found)


def test_the_vault_crawls_clean_at_readable_paths(page, base, site):
    visited, pages = set(), sorted((site / "obsidian").rglob("*.html"))
    for path in pages:   # home lists few of the vault's undated notes: start wherever the last crawl did not reach
        url = base + path.relative_to(site).as_posix()
        if quote(url, safe=":/") in visited:
            continue
        report = crawl(page, url, "/my-repo/")
        broken = [b for b in report["broken"] if "/pagefind/" not in b[1]]   # built without pagefind
        assert broken == [] and escaped_pages(report) == []
        visited |= set(report["visited"])
    assert len(visited) > len(pages)


def test_math_diagrams_callouts_code_and_anchors(page, base):
    external = []
    page.on("request", lambda r: external.append(r.url) if urlsplit(r.url).netloc != urlsplit(base).netloc else None)
    page.goto(base + SHOWCASE)
    _settled(page)
    assert page.locator(".math-inline > math").count() == 1
    assert page.locator(".math-display > math[display=block]").count() == 1
    # drawn by the browser in the site's maths font, taller than a line: a fraction or an integral
    assert page.locator(".math-display > math").evaluate("m => getComputedStyle(m).fontFamily").startswith('"bf Math"')
    assert page.evaluate("document.fonts.check('1em \"bf Math\"')")
    assert page.locator(".math-display > math").bounding_box()["height"] > 30
    assert page.locator("pre.mermaid svg").count() == 1
    assert page.locator("pre.mermaid svg").first.bounding_box()["height"] > 50
    assert page.locator("mark").all_inner_texts() == ["highlighted phrase"]
    # every callout type: its colour and icon
    kinds = page.eval_on_selector_all(".callout", "els => els.map(e => [e.className, getComputedStyle(e).borderLeftColor,"
                                                  " getComputedStyle(e.querySelector('.callout-icon')).maskImage])")
    assert len(kinds) == 14 and all(icon.startswith("url(") for _, _, icon in kinds)
    colours = {cls.split()[1]: colour for cls, colour, _ in kinds}
    assert colours["callout-tip"] == "rgb(0, 191, 188)" and colours["callout-danger"] == "rgb(233, 49, 71)"
    # folding: [!question]- is closed, [!warning]+ open
    folded = page.locator("details.callout-question")
    assert not folded.locator("p", has_text="Hidden until opened").is_visible()
    folded.locator("summary").click()
    assert folded.locator("p", has_text="Hidden until opened").is_visible()
    assert page.locator("details.callout-warning p", has_text="Shown, and foldable").is_visible()
    # code coloured at build time
    keyword = page.locator(".highlight .k").first
    assert keyword.inner_text() == "def"
    assert keyword.evaluate("e => getComputedStyle(e).color") != page.locator(".highlight .n").first.evaluate(
        "e => getComputedStyle(e).color")
    assert page.locator('[id="^the-table"]').evaluate("e => e.tagName") == "TABLE"
    screenshot(page, "obsidian-showcase-light")
    assert not external


def test_dark_mode_redraws_diagrams_and_colours_code(page, base):
    page.emulate_media(color_scheme="dark")
    page.goto(base + SHOWCASE)
    _settled(page)
    background = page.locator("pre.mermaid svg").first.evaluate("e => e.outerHTML")
    assert page.locator(".highlight .k").first.evaluate("e => getComputedStyle(e).color") == "rgb(255, 123, 114)"
    page.emulate_media(color_scheme="light")
    page.wait_for_function("(old) => document.querySelector('pre.mermaid svg') && "
                           "document.querySelector('pre.mermaid svg').outerHTML !== old", arg=background)
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(300)
    _settled(page)
    screenshot(page, "obsidian-showcase-dark")


def test_embeds_show_blocks_sections_and_stop_cycles(page, base):
    page.goto(base + EMBEDS)
    _settled(page)
    bodies = page.locator(".embed > .embed-body")
    assert "highlighted phrase" in bodies.nth(0).inner_text()
    assert bodies.nth(1).inner_text().strip() == "second item with an id"
    assert page.locator(".embed .math-display > math").count() == 1   # the Math section, typeset here too
    assert page.locator(".embed-cut").count() == 1                 # Cycle A → Cycle B → (A: title only)
    assert page.locator("img[src$='diagram.png']").evaluate("e => e.complete && e.naturalWidth") == 8
    screenshot(page, "obsidian-embeds")
    page.locator("a.internal", has_text="the table").click()
    assert page.url.endswith("Showcase.html#%5Ethe-table") or page.url.endswith("#^the-table")
    assert page.evaluate("document.getElementById(decodeURIComponent(location.hash.slice(1))).tagName") == "TABLE"
    page.goto(base + "obsidian/index.html")
    assert page.locator(".body .link-broken").all_inner_texts() == ["Nowhere at all"]
    assert page.locator(".body .link-ambiguous").all_inner_texts() == ["Security"]
    screenshot(page, "obsidian-home")
