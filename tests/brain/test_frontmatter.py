"""The front block's two YAML loaders (brain/frontmatter.py): libyaml's for speed, PyYAML's pure
one for aliases, deep nesting and error messages. Both must give a note the same frontmatter."""
from __future__ import annotations

import pytest
import yaml

from builder.brain import frontmatter
from builder.brain.frontmatter import FrontmatterError, split

BLOCKS = [
    "title: A note\ntags: [a, b/c]\naliases:\n  - One\n  - 'Two: three'\n",
    "date: 2026-03-01\nstart: 2026-03-01T09:30:00+01:00\ndue: 2026-03-02 10:00\n",
    "rating: 4.5\ncount: 12\nflag: yes\nnone: ~\nempty:\nlist: []\nmap: {}\n",
    "summary: >\n  folded\n  text\nbody: |\n  kept\n  lines\n",
    "entities: [person:ana, 'org:bf']\nauthor: \"Zoë «quoted»\"\nnested: {a: {b: [1, 2, {c: d}]}}\n",
    "title: a & b\nnote: not an *alias here* inside a string\n",
]


@pytest.mark.parametrize("block", BLOCKS)
def test_the_fast_loader_gives_what_the_pure_loader_gives(block):
    assert frontmatter._load(block) == yaml.load(block, Loader=frontmatter._NoAliasLoader)


def test_an_alias_is_refused_whichever_loader_sees_the_block():
    with pytest.raises(FrontmatterError, match="aliases"):
        split("---\na: &x [1]\nb: *x\n---\nbody")


def test_deep_nesting_is_a_problem_not_a_crash():
    with pytest.raises(FrontmatterError):
        split("---\na: " + "[" * 5000 + "\n---\nbody")


def test_a_block_libyaml_refuses_has_the_pure_loaders_message():
    block = "a: b: c\n"
    with pytest.raises(yaml.YAMLError) as pure:
        yaml.load(block, Loader=frontmatter._NoAliasLoader)
    with pytest.raises(FrontmatterError) as ours:
        split(f"---\n{block}---\nbody")
    assert pure.value.problem in str(ours.value)
