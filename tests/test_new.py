"""bf new DIR: a scaffolded brain checks clean, builds with no problems and answers queries."""
from __future__ import annotations

import json

from builder.kernel.config import SITE_KEYS, TOP_KEYS


def test_new_brain_builds_with_no_problems(tmp_path, bf):
    brain = tmp_path / "my-brain"
    code, out, err = bf("new", brain)
    assert code == 0, err
    assert json.loads(out)["files"] == [".bfignore", ".github/workflows/pages.yml", ".gitignore", "brain.toml", "index.md", "memories/journal/entry-1.json",
                                        "memories/journal/entry-2.json", "projects/first-project.md"]
    code, out, err = bf("check", brain)
    assert (code, json.loads(out)["count"]) == (0, 0), out
    site = tmp_path / "site"
    code, out, err = bf("build", brain, "--out", site, "--no-pagefind", "--quiet")
    assert code == 0, err
    code, out, err = bf("search", "first project", "--site", site)
    assert json.loads(out)["items"][0]["ref"] == "projects/first-project.md"
    code, out, err = bf("read", "memories/journal", "--site", site)
    assert code == 0 and len(json.loads(out)["items"]) == 2
    page = (site / "my-brain" / "projects" / "first-project.html").read_text(encoding="utf-8")
    assert page.count(">First project</h") == 1          # one title: no `title:` repeating the note's H1
    code, out, err = bf("read", "projects/first-project.md", "--site", site)
    assert [s["title"] for s in json.loads(out)["outline"]] == ["Next steps"]   # no section repeating the title


def test_new_brain_toml_names_every_key(tmp_path, bf):
    brain = tmp_path / "b"
    bf("new", brain)
    text = (brain / "brain.toml").read_text(encoding="utf-8")
    for key in TOP_KEYS - {"sources", "identities", "site"}:
        assert f"{key} = " in text, key
    assert "# [site]" in text and all(f"# {key} = " in text for key in SITE_KEYS - {"accent_dark"})
    assert "[sources.journal]" in text and "[identities]" in text and "cadence" in text and "priority" in text


def test_new_refuses_a_folder_that_holds_files(tmp_path, bf):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "keep.md").write_text("mine\n", encoding="utf-8")
    code, out, err = bf("new", tmp_path / "b")
    assert code == 2 and json.loads(err)["code"] == "invalid_input"
    assert (tmp_path / "b" / "keep.md").read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["keep.md"]


def test_new_writes_the_pages_workflow_and_a_gitignore(tmp_path, bf):
    from test_quickstart import pages_workflow
    brain = tmp_path / "b"
    bf("new", brain)
    workflow = (brain / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
    assert workflow == pages_workflow("README.md")
    assert "actions/cache@" in workflow and "path: .bf-cache" in workflow
    assert (brain / ".gitignore").read_text(encoding="utf-8").split("\n")[1:3] == ["_site/", ".bf-cache/"]
