"""kernel/text.plain: Markdown → one line of text for excerpts and the search store."""
from __future__ import annotations

import random

from builder.kernel import text


def every_pass(markdown_text: str) -> str:
    """plain() without its skips: every pattern run on every text."""
    out = markdown_text
    for pattern, repl, _ in text._MARKUP:
        out = pattern.sub(repl, out)
    return out.strip()


def test_plain_drops_the_markup_people_write():
    source = "## Plan\n> [!note]- Folded\n- [x] ship **it** with [[Pricing#Tiers|tiers]] and [docs](x.md) ==now== ^b1\n```\ncode\n```"
    assert text.plain(source) == "Plan Folded ship it with tiers and docs now"


def test_skipping_a_pass_whose_literal_is_absent_never_changes_the_result():
    rng = random.Random(7)
    pieces = list("ab #>-*+1.)[]|!^=$`~_<>()\n\t xX") + ["```", "[[", "]]", "](", "==", "$$", "^id", "\n## ", "\n> [!tip]+ "]
    for _ in range(20000):
        sample = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert text.plain(sample) == every_pass(sample), repr(sample)


def test_around_cuts_a_long_line_to_the_link_in_its_context():
    line = "Lead words " * 12 + "then the [[Pricing]] page we wrote, " + "and more after it " * 12
    flat = text.plain(line)
    got = text.around(flat, "Pricing")
    assert got.startswith("…") and got.endswith("…") and len(got) <= text.BACKLINK_CHARS
    assert "Pricing page we wrote" in got and got.index("Pricing") <= text.BACKLINK_LEAD + 1
    assert flat[flat.index(got[1:40]) - 1] == " "      # starts on a word
    assert text.around("A short [[x]] line", "x") == "A short [[x]] line"
    missing = text.around("word " * 60, "absent")
    assert missing == text.cut("word " * 60, text.BACKLINK_CHARS) and not missing.startswith("…")
