"""Every page declares its language (`<html lang>`): brain.toml's `language`, else `en`; a
note's `lang:` front matter overrides it for that note's page, when it is a language tag."""
from __future__ import annotations

import re

from builder.kernel.pageurls import page_file

NOTES = {
    "notes/plain.md": "# Plain\n\nIn the brain's language.\n",
    "notes/french.md": "---\nlang: fr-CA\n---\n# Français\n\nUne note en français.\n",
    "notes/odd.md": "---\nlang: \"not a tag!\"\n---\n# Odd\n\nA lang that is no language tag.\n",
    "memories/chat/m1.json": '{"text": "Hallo", "time": "2026-11-30T10:00:00Z"}\n',
}


def lang(site, path: str) -> str:
    return re.search(r'<html lang="([^"]*)">', (site / path).read_text(encoding="utf-8")).group(1)


def test_pages_take_the_brain_language_and_notes_their_own(make_brain, build_site, tmp_path):
    brain = make_brain(tmp_path, {"brain.toml": 'language = "de"\n', **NOTES})
    site = tmp_path / "site"
    build_site(brain, site)
    assert lang(site, page_file("brain", "notes/french.md")) == "fr-CA"
    assert lang(site, page_file("brain", "notes/plain.md")) == "de"
    assert lang(site, page_file("brain", "notes/odd.md")) == "de"
    for ref in ["home", "notes", "memories/chat", "memories/chat/2026-11-30", "2026-11"]:
        assert lang(site, page_file("brain", ref)) == "de", ref
    assert lang(site, "search.html") == lang(site, "404.html") == "de"


def test_without_a_language_pages_are_english(make_brain, build_site, tmp_path):
    brain = make_brain(tmp_path, NOTES)
    build_site(brain, tmp_path / "site")
    assert lang(tmp_path / "site", page_file("brain", "home")) == "en"
    assert lang(tmp_path / "site", page_file("brain", "notes/french.md")) == "fr-CA"
