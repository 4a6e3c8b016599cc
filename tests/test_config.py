"""brain.toml (docs/brain.md#braintoml): defaults, and errors that name the key (exit 2 from bf build, no traceback)."""
from __future__ import annotations

import json

import pytest

from builder.kernel.config import load_config, site_urls
from builder.kernel.errors import ConfigError


def test_defaults(make_brain, tmp_path):
    cfg = load_config(make_brain(tmp_path, {}, name="My Brain!"))
    assert (cfg.name, cfg.title, cfg.timezone, cfg.base_url, cfg.language) == ("my-brain", "my-brain", "UTC", "/", "en")
    assert cfg.fields == ("status", "priority", "due", "owner")
    assert (cfg.sources, cfg.identities, cfg.allow_html) == ({}, {}, False)


def test_full_config(make_brain, tmp_path):
    cfg = load_config(make_brain(tmp_path, {"brain.toml": """
name = "work"
title = "Our brain"
language = "zh-Hans"
timezone = "Europe/Berlin"
base_url = "/my-repo"
fields = ["status"]
allow_html = true
[sources.brief]
title = "Morning brief"
cadence = "1d"
priority = "low"
[identities]
"person:alice" = ["Alice", "alice@example.com"]
"""}))
    assert (cfg.name, cfg.title, cfg.timezone, cfg.base_url, cfg.fields, cfg.allow_html) == (
        "work", "Our brain", "Europe/Berlin", "/my-repo/", ("status",), True)
    assert cfg.language == "zh-Hans"
    brief = cfg.sources["brief"]
    assert (brief.title, brief.cadence_days, brief.priority) == ("Morning brief", 1, "low")
    assert cfg.identities == {"person:alice": ("Alice", "alice@example.com")}


@pytest.mark.parametrize("toml, named", [
    ('colour = "red"\n', "'colour'"),
    ('name = "Bad Name"\n', "name"),
    ('name = "schemas"\n', "name"),
    ('timezone = "Mars/Olympus"\n', "timezone"),
    ('timezone = 5\n', "timezone"),
    ('base_url = "no-slash"\n', "base_url"),
    ('site_url = "example.com/x"\n', "site_url"),
    ('site_url = "ftp://example.com/"\n', "site_url"),
    ('site_url = "https://example.com/?q=1"\n', "site_url"),
    ('site_url = "https://exa mple.com/"\n', "site_url"),
    ('site_url = 3\n', "site_url"),
    ('site_url = "https://example.com/a/"\nbase_url = "/b/"\n', "base_url"),
    ('fields = "status"\n', "fields"),
    ('allow_html = "yes"\n', "allow_html"),
    ('title = 3\n', "title"),
    ('language = "English"\n', "language"),
    ('language = "en_US"\n', "language"),
    ('language = 7\n', "language"),
    ('[sources.brief]\ncadence = "daily"\n', "sources.brief.cadence"),
    ('[sources.brief]\npriority = "high"\n', "sources.brief.priority"),
    ('[sources.brief]\ncolour = "x"\n', "'colour'"),
    ('sources = 3\n', "sources"),
    ('[identities]\n"alice" = ["A"]\n', "identities.alice"),
    ('[identities]\n"person:a" = "A"\n', "identities.person:a"),
    ('name = \n', "brain.toml"),                      # TOML syntax error
])
def test_errors_name_the_key(make_brain, tmp_path, toml, named):
    root = make_brain(tmp_path, {"brain.toml": toml})
    with pytest.raises(ConfigError) as exc:
        load_config(root)
    assert named in exc.value.message
    assert exc.value.message.startswith("invalid input: brain.toml")


@pytest.mark.parametrize("toml", ['colour = "red"\n', '[sources.x]\ncadence = "often"\n', "= broken"])
def test_bf_build_exits_2_with_json_and_no_traceback(make_brain, tmp_path, bf, toml):
    root = make_brain(tmp_path, {"brain.toml": toml, "a.md": "x"})
    code, out, err = bf("build", root, "--out", tmp_path / "site", "--no-pagefind", "--quiet")
    assert code == 2 and out == ""
    reply = json.loads(err)
    assert reply["code"] == "invalid_input" and "brain.toml" in reply["error"]
    assert "Traceback" not in err
    assert not (tmp_path / "site").exists()


def test_non_utf8_brain_toml_is_a_config_error(make_brain, tmp_path):
    root = make_brain(tmp_path, {"brain.toml": b'title = "caf\xe9"\n'})
    with pytest.raises(ConfigError):
        load_config(root)


def test_site_url_sets_base_url_to_its_path(make_brain, tmp_path):
    cfg = load_config(make_brain(tmp_path, {"brain.toml": 'site_url = "https://me.github.io/repo"\n'}))
    assert (cfg.site_url, cfg.base_url, cfg.base_url_given) == ("https://me.github.io/repo/", "/repo/", False)
    agreeing = load_config(make_brain(tmp_path, {"brain.toml": 'site_url = "https://me.github.io/repo/"\nbase_url = "/repo"\n'}, name="b2"))
    assert (agreeing.base_url, agreeing.base_url_given) == ("/repo/", True)


def test_build_flags_over_brain_toml(make_brain, tmp_path):
    plain = load_config(make_brain(tmp_path, {}))
    assert site_urls(None, None, plain) == (None, None)
    assert site_urls(None, "/x/", plain) == (None, "/x/")
    assert site_urls("https://h.org/x", None, plain) == ("https://h.org/x/", "/x/")
    assert site_urls("https://h.org/x/", "/x", plain) == ("https://h.org/x/", "/x/")
    from_toml = load_config(make_brain(tmp_path, {"brain.toml": 'site_url = "https://h.org/a/"\n'}, name="t"))
    assert site_urls(None, None, from_toml) == ("https://h.org/a/", "/a/")
    assert site_urls("https://other.org/", None, from_toml) == ("https://other.org/", "/")   # --site-url wins
    written = load_config(make_brain(tmp_path, {"brain.toml": 'base_url = "/a/"\n'}, name="w"))
    with pytest.raises(ConfigError, match="brain.toml: base_url: '/a/' conflicts"):
        site_urls("https://h.org/b/", None, written)
    with pytest.raises(ConfigError, match="--base-url"):
        site_urls("https://h.org/b/", "/", plain)
