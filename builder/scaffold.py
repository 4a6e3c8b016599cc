"""bf new DIR: a small brain that builds with no problems, the way `mkdocs new` starts a user off.

Every brain.toml key is present, commented, with its default (docs/brain.md explains them).
The two records are dated an hour or two before scaffolding, so the first build shows them as recent
(and never as upcoming).
"""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

from .kernel.config import slug_name
from .kernel.errors import InvalidInput
from .kernel.times import rfc3339

BRAIN_TOML = '''\
# The brain's settings; every key is optional. See docs/brain.md.
name = "{name}"               # lower-case letters, digits, '-': used in bf:// addresses (default: the folder's name)
title = "{title}"             # shown on the home page (default: the name)
# language = "en"             # the pages' language (<html lang>); a note's `lang:` overrides it
# timezone = "UTC"            # IANA zone periods (days, weeks, months) are computed in
# site_url = "https://me.github.io/my-repo/"   # the site's absolute URL: feeds, sitemap.xml, og:url (base_url follows its path)
# base_url = "/"              # site prefix, e.g. "/my-repo/" for a GitHub Pages project site
# fields = ["status", "priority", "due", "owner"]   # single-value frontmatter fields shown in listings
# allow_html = false          # publish raw HTML in notes and active attachments (html, js, svg)
# theme = "theme"             # a folder whose templates override bf's (theme/note.html), its static/ copied

# How the site looks (docs/brain.md, Site look): files are paths in this brain.
# [site]
# logo = "assets/logo.svg"
# favicon = "assets/icon.svg"
# accent = "#0b57c2"          # and accent_dark for the dark scheme
# nav = [{{ title = "Blog", url = "https://example.com/" }}]
# footer = "Made with bf"     # Markdown
# extra_css = ["assets/site.css"]
# extra_js = ["assets/site.js"]
# publish = "explicit"        # publish only notes marked publish: true (default "all": every note
#                             # but those with draft: true or publish: false; docs/brain.md, Publishing)

# One table per source of records (a folder memories/SOURCE/ also makes a source).
[sources.journal]
title = "Journal"
# cadence = "1d"              # how often a collector should deliver: "overdue" when a run is late
# priority = "low"            # low: records leave period items, "changed" and home "upcoming"
# publish = false             # keep this source's records off the site (explicit mode: true to publish)

# Explicit aliases of identities (type:name); identities are case-sensitive.
[identities]
"person:me" = ["Me"]
'''

INDEX_MD = '''\
# {title}

Welcome to your brain. Notes are Markdown files; link them with wikilinks such as
[[First project]]. Records collected from sources live in `memories/SOURCE/ID.json`.

- Build the site: `bf build` (in this folder), then `bf serve`.
- Ask it: `bf search "first project"`, `bf read projects/first-project.md`.
'''

PROJECT_MD = '''\
---
status: active
owner: person:me
tags: [getting-started]
---
# First project

What this project is about, in a sentence or two.

## Next steps

- [ ] Write the second note and link it here
- [x] Create the brain with `bf new`
'''

BFIGNORE = '''\
# Files and folders bf never publishes (gitignore syntax).
drafts/
*.tmp
'''


# The GitHub Pages workflow, as README.md shows it (tests/test_new.py compares them).
PAGES_WORKFLOW = """\
name: Publish brain
on:
  push:
    branches: [main]
  workflow_dispatch:
permissions:
  contents: read
  pages: write
  id-token: write
concurrency:
  group: pages
  cancel-in-progress: true
env:
  BF_REPOSITORY: you/bf     # the repository you cloned bf from: git -C bf remote get-url origin
  BF_REF: v0.1.0            # a tag or commit of it: git -C bf rev-parse HEAD
  BRAIN: .                  # the vault at the repository's root; a subfolder: BRAIN: notes
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0                     # the full history: note dates come from git
      - uses: actions/checkout@v4            # bf itself, as the quick start installs it: from its repository
        with:
          repository: ${{ env.BF_REPOSITORY }}
          ref: ${{ env.BF_REF }}
          path: .bf                          # a dot folder: never part of the brain
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - run: pip install ./.bf
      - id: pages
        uses: actions/configure-pages@v5     # its base_url output is the site's address
      - uses: actions/cache@v4               # the build's cache (.bf-cache beside _site): a push starts warm
        with:
          path: .bf-cache
          key: bf-${{ env.BF_REF }}-${{ hashFiles(format('{0}/brain.toml', env.BRAIN)) }}-${{ github.sha }}
          restore-keys: bf-${{ env.BF_REF }}-${{ hashFiles(format('{0}/brain.toml', env.BRAIN)) }}-
      - run: bf build "$BRAIN" --out _site --site-url "${{ steps.pages.outputs.base_url }}/"
      - uses: actions/upload-pages-artifact@v3
        with:
          path: _site
  deploy:
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: ${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
"""

GITIGNORE = '''\
# What bf builds (_site) and keeps between builds (.bf-cache, restored by the Pages workflow).
_site/
.bf-cache/
'''


def scaffold(root: Path) -> list[str]:
    """Write a new brain into `root` (absent or empty); returns the files written, sorted."""
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise InvalidInput("dir", f"{root} already exists and is not an empty folder")
    name = slug_name(root.name)
    title = root.name.replace("-", " ").replace("_", " ").strip().capitalize() or "My brain"
    start = datetime.now(timezone.utc).replace(second=0, microsecond=0) - timedelta(hours=2)
    files = {
        "brain.toml": BRAIN_TOML.format(name=name, title=title),
        "index.md": INDEX_MD.format(title=title),
        "projects/first-project.md": PROJECT_MD,
        ".bfignore": BFIGNORE,
        ".gitignore": GITIGNORE,
        ".github/workflows/pages.yml": PAGES_WORKFLOW,
    }
    for i, (offset, text) in enumerate([(timedelta(0), "Started the brain with bf new."),
                                        (timedelta(hours=1), "Wrote the first project.")], 1):
        record = {"title": f"Journal entry {i}", "text": text, "time": rfc3339(start + offset),
                  "author": "person:me", "refs": ["projects/first-project.md"]}
        files[f"memories/journal/entry-{i}.json"] = json.dumps(record, indent=2) + "\n"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return sorted(files)
