"""A site its owner makes their own (emit/look.py): [site] in brain.toml and a theme folder."""
from __future__ import annotations

import json

import pytest

NOTE = "---\ntitle: Plan\n---\nThe plan for the site.\n"
SITE = '''name = "brain"
theme = "theme"
[site]
logo = "look/logo.svg"
favicon = "look/icon.svg"
accent = "#aa3300"
accent_dark = "#ffaa77"
extra_css = ["look/extra.css"]
extra_js = "look/extra.js"
footer = "Made by **us**, see [about](about.md.html)"
nav = [{ title = "Blog", url = "https://blog.example.com/" }]
'''
THEME_NOTE = '''{% extends "bf/note.html" %}
{% block main %}<div class="mine">{{ reply.title }} by the theme</div>{{ super() }}{% endblock %}
'''
FILES = {
    "brain.toml": SITE, "plan.md": NOTE,
    "look/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>", "look/icon.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    "look/extra.css": "body { color: red }", "look/extra.js": "console.log(1)",
    "theme/note.html": THEME_NOTE, "theme/static/theme.css": ".mine { color: blue }",
}


@pytest.fixture
def site(make_brain, build_site, tmp_path):
    out = tmp_path / "site"
    build_site(make_brain(tmp_path, FILES), out)
    return out


def test_a_theme_overrides_a_block_and_site_adds_css_logo_and_more(site):
    page = (site / "brain/plan.html").read_text()
    assert '<div class="mine">Plan by the theme</div>' in page and "The plan for the site." in page
    assert '<link rel="stylesheet" href="../_own/look/extra.css">' in page
    assert '<img src="../_own/look/logo.svg" alt="" height="28">' in page
    assert '<link rel="icon" href="../_own/look/icon.svg">' in page
    assert '<script defer src="../_own/look/extra.js"></script>' in page
    assert "--accent:#aa3300" in page and "--accent:#ffaa77" in page
    assert '<a href="https://blog.example.com/">Blog</a>' in page
    assert "Made by <strong>us</strong>" in page
    for path in ("_own/look/extra.css", "_own/look/logo.svg", "_own/look/extra.js", "_theme/theme.css"):
        assert (site / path).is_file()
    assert not (site / "brain/theme").exists()   # the theme is not the brain's content


def test_other_pages_keep_bf_templates_with_the_look(site):
    page = (site / "brain/home.html").read_text()
    assert "by the theme" not in page and '<img src="../_own/look/logo.svg"' in page


def test_every_page_links_bf_favicon_and_has_a_description(make_brain, build_site, tmp_path):
    out = tmp_path / "site"
    build_site(make_brain(tmp_path, {"plan.md": NOTE, "empty.md": ""}), out)
    assert (out / "_bf/favicon.svg").is_file()
    for page in ("index.html", "brain/plan.html", "brain/empty.html", "search.html", "404.html", "graph.html"):
        text = (out / page).read_text()
        assert "favicon.svg" in text and '<meta name="description" content="' in text, page
    assert '<meta name="description" content="The plan for the site.">' in (out / "brain/plan.html").read_text()
    assert '<meta name="description" content="empty · brain">' in (out / "brain/empty.html").read_text()


def test_a_broken_template_fails_the_build_naming_file_and_line_and_keeps_the_site(make_brain, build_site, tmp_path, bf):
    brain = make_brain(tmp_path, FILES)
    out = tmp_path / "site"
    build_site(brain, out)
    (brain / "theme/note.html").write_text('{% extends "bf/note.html" %}\n{% block main %}\n{% if %}\n{% endblock %}\n')
    code, _, err = bf("build", brain, "--out", out, "--no-pagefind", "--quiet")
    error = json.loads(err.strip().splitlines()[-1])
    assert code == 1 and error["code"] == "build_failed"
    assert "note.html" in error["error"] and "line 3" in error["error"]
    assert "by the theme" in (out / "brain/plan.html").read_text()   # the previous site stays


def test_a_runtime_template_error_names_the_template(make_brain, tmp_path, bf):
    brain = make_brain(tmp_path, FILES | {"theme/note.html": '{% extends "bf/note.html" %}\n{% block main %}\n{{ nothing.here }}\n{% endblock %}\n'})
    code, _, err = bf("build", brain, "--out", tmp_path / "site", "--no-pagefind", "--quiet")
    error = json.loads(err.strip().splitlines()[-1])
    assert code == 1 and "note.html" in error["error"] and "line 3" in error["error"]


def test_theme_flag_wins(make_brain, build_site, tmp_path):
    other = make_brain(tmp_path, {"note.html": '{% extends "bf/note.html" %}{% block main %}FLAG{% endblock %}'}, "other")
    out = tmp_path / "site"
    build_site(make_brain(tmp_path, FILES), out, theme=str(other))
    assert "FLAG" in (out / "brain/plan.html").read_text()


def test_a_site_file_linked_out_of_the_brain_is_refused(make_brain, tmp_path, bf):
    outside = make_brain(tmp_path, {"logo.svg": "<svg/>"}, "outside")
    brain = make_brain(tmp_path, FILES | {"brain.toml": 'name = "brain"\n[site]\nlogo = "out/logo.svg"\n'})
    (brain / "out").symlink_to(outside)
    code, _, err = bf("build", brain, "--out", tmp_path / "site", "--no-pagefind", "--quiet")
    assert code == 2 and "brain.toml: site.logo" in json.loads(err.strip().splitlines()[-1])["error"]


@pytest.mark.parametrize("line, key", [
    ('logo = "https://example.com/logo.png"', "site.logo"),
    ('logo = "/etc/passwd"', "site.logo"),
    ('logo = "../outside.png"', "site.logo"),
    ('logo = "missing.png"', "site.logo"),
    ('accent = "red"', "site.accent"),
    ('extra_css = ["look/extra.css", 3]', "site.extra_css[1]"),
    ('nav = [{ title = "x", url = "javascript:alert(1)" }]', "site.nav[0].url"),
    ('colour = "#fff"', "site"),
])
def test_invalid_site_values_are_config_errors_naming_the_key(make_brain, tmp_path, bf, line, key):
    brain = make_brain(tmp_path, FILES | {"brain.toml": f'name = "brain"\n[site]\n{line}\n'})
    code, _, err = bf("build", brain, "--out", tmp_path / "site", "--no-pagefind", "--quiet")
    error = json.loads(err.strip().splitlines()[-1])
    assert code == 2 and f"brain.toml: {key}" in error["error"], error


def test_listings_and_days_are_described_by_what_they_hold(example_site):
    def described(page):
        text = (example_site / page).read_text()
        return text.split('<meta name="description" content="', 1)[1].split('"', 1)[0]
    assert described("brain/projects.html") == "Folder projects: 6 items"
    assert described("brain/memories/chat/2026-11-12.html") == "Team chat, 2026-11-12: 1 record"
    assert described("brain/memories.html") == "Memories: 7 items"


def test_a_theme_flag_naming_no_folder_is_invalid_input(make_brain, tmp_path, bf):
    code, _, err = bf("build", make_brain(tmp_path, {"plan.md": NOTE}), "--out", tmp_path / "site",
                      "--theme", tmp_path / "nowhere", "--no-pagefind", "--quiet")
    assert code == 2 and "--theme" in json.loads(err.strip().splitlines()[-1])["error"]
