"""A long multilingual brain for `scripts/bench --lang N`: what a person's vault holds and
the benchmark's shapes do not. Notes of at least 5 KB, each mostly in one of four languages
(Chinese, Arabic, Russian, a Latin-script one with diacritics) and quoting the others, with
sections, links to other notes and one link to a missing note per 300 words (a broken_link
problem each), and no records. Deterministic for a given seed and size.
"""
from __future__ import annotations

import random
from itertools import accumulate
from pathlib import Path

import yaml

from .gen import vocabulary

NOTE_BYTES = 5 * 1024
BROKEN_EVERY = 300     # words between two links to a missing note
LINK_EVERY = 100       # words between two links to another note
FOLDERS = ("wiki", "wiki/guides", "journal", "notes/reading", "projects")
# Per language: its tag, and how a word of it is drawn (syllables or characters of its script).
HAN = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]
KANA = [chr(c) for c in range(0x3041, 0x3097)]
ARABIC = list("ابتثجحخدذرزسشصضطظعغفقكلمنهوي")
HARAKAT = ["", "", "", "", "\u064e", "\u064f", "\u0650", "\u0651"]   # marks: step 1's NFD and Mn removal
CYRILLIC_ON = "б в г д ж з к л м н п р с т ф х ц ч ш щ бр пр ст тр кр гл".split()
CYRILLIC_V = "а е и о у ы э ю я ё".split()
LATIN_ACCENTS = str.maketrans("aeiou", "àéîöü")


def _han(rng: random.Random) -> str:
    word = "".join(rng.choices(HAN, k=rng.choice((1, 2, 2, 2, 3, 4))))
    return word + ("".join(rng.choices(KANA, k=2)) if rng.random() < 0.1 else "")


def _arabic(rng: random.Random) -> str:
    return "".join(ch + rng.choice(HARAKAT) for ch in rng.choices(ARABIC, k=rng.randint(3, 7)))


def _cyrillic(rng: random.Random) -> str:
    return "".join(rng.choice(CYRILLIC_ON) + rng.choice(CYRILLIC_V) for _ in range(rng.randint(1, 4)))


class _Language:
    """A Zipf-drawn vocabulary of one language, and how its sentences are joined."""

    def __init__(self, rng: random.Random, tag: str, words: list[str], space: str, stop: str):
        self.tag, self.words, self.space, self.stop = tag, words, space, stop
        self.cum = list(accumulate(1.0 / (rank + 1) ** 1.05 for rank in range(len(words))))

    def take(self, rng: random.Random, n: int) -> list[str]:
        return rng.choices(self.words, cum_weights=self.cum, k=n)


def languages(rng: random.Random) -> list[_Language]:
    latin = vocabulary(rng, 6000)
    latin = [w.translate(LATIN_ACCENTS) if rng.random() < 0.15 else w for w in latin]
    return [_Language(rng, "zh", sorted({_han(rng) for _ in range(6000)}), "", "。"),
            _Language(rng, "ar", sorted({_arabic(rng) for _ in range(6000)}), " ", "."),
            _Language(rng, "ru", sorted({_cyrillic(rng) for _ in range(6000)}), " ", "."),
            _Language(rng, "fr", latin, " ", ".")]


def generate_lang(root: Path, notes: int, seed: int = 11) -> dict:
    """Write the brain; returns {notes, note_bytes, broken_links}."""
    rng = random.Random(seed)
    langs = languages(rng)
    root = Path(root)
    titles = []
    for i in range(notes):
        lang = langs[i % len(langs)]
        titles.append((" ".join(lang.take(rng, rng.randint(2, 4))) if lang.space else "".join(lang.take(rng, 3)))
                      + f" {i}")
    total = broken = 0
    for i, title in enumerate(titles):
        lang = langs[i % len(langs)]
        front = {"title": title, "lang": lang.tag, "tags": [f"{lang.tag}/{rng.randint(1, 40)}"]}
        body, size, words = [], 0, 0
        while size < NOTE_BYTES:
            body.append(f"\n## {' '.join(lang.take(rng, rng.randint(1, 3)))} {len(body)}\n")
            for _ in range(rng.randint(2, 4)):
                other = rng.choice(langs) if rng.random() < 0.3 else lang
                n = rng.randint(8, 30)
                parts = other.take(rng, n)
                words += n
                if words // LINK_EVERY > (words - n) // LINK_EVERY:
                    parts.insert(rng.randrange(n), f"[[{rng.choice(titles)}]]")
                if words // BROKEN_EVERY > (words - n) // BROKEN_EVERY:
                    parts.insert(rng.randrange(n), f"[[{other.take(rng, 1)[0]} missing {rng.randrange(10 * notes)}]]")
                    broken += 1
                line = other.space.join(parts) + other.stop
                body.append(line)
                size += len(line.encode("utf-8"))
        text = "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=True) + "---\n" + "\n".join(body) + "\n"
        path = root / FOLDERS[i % len(FOLDERS)] / f"{i:05d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        path.write_bytes(data)
        total += len(data)
    (root / "brain.toml").write_text('name = "lang"\ntitle = "Multilingual brain"\n', encoding="utf-8")
    return {"notes": notes, "note_bytes": total, "broken_links": broken}
