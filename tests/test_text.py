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
