"""kernel/text.plain: Markdown → one line of text for excerpts and the search store."""
from __future__ import annotations

import random
import re

from builder.kernel import text


# plain()'s last two steps as the regexes they stand for (it runs them as str.replace and split)
MARKS, SPACES = re.compile(r"[*_`~]{1,3}"), re.compile(r"\s+")


def every_pass(markdown_text: str) -> str:
    """plain() without its skips: every pattern run on every text."""
    out = markdown_text
    for pattern, repl, _ in text._MARKUP:
        out = pattern.sub(repl, out)
    return SPACES.sub(" ", MARKS.sub("", out)).strip()


def test_plain_drops_the_markup_people_write():
    source = "## Plan\n> [!note]- Folded\n- [x] ship **it** with [[Pricing#Tiers|tiers]] and [docs](x.md) ==now== ^b1\n```\ncode\n```"
    assert text.plain(source) == "Plan Folded ship it with tiers and docs now"


def test_skipping_a_pass_whose_literal_is_absent_never_changes_the_result():
    rng = random.Random(7)
    pieces = list("ab #>-*+1.)[]|!^=$`~_<>()\n\t xX\u00a0\u3000\x1c\u2028") + ["```", "[[", "]]", "](", "==", "$$", "^id", "\n## ", "\n> [!tip]+ "]
    for _ in range(20000):
        sample = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert text.plain(sample) == every_pass(sample), repr(sample)


def test_the_whitespace_split_is_the_regex_one():
    """`str.split()` and `.strip()` split on exactly the characters `\\s` matches, at every code point."""
    for code in range(0x110000):
        ch = chr(code)
        assert bool(SPACES.fullmatch(ch)) == (("a" + ch + "b").split() == ["a", "b"]), hex(code)
