"""Refs, bf:// addresses and the ref → file mapping (docs/replies.md#refs-and-bf-addresses, docs/site.md#ref--file). Table-driven, like Quartz's path tests."""
from __future__ import annotations

import pytest

from builder.kernel import refs


@pytest.mark.parametrize("brain, ref, variant, expected", [
    ("brain", "projects/new-website.md", (), "brain/projects/new-website.md.json"),
    ("brain", "", (), "brain/home.json"),
    ("brain", "home", (), "brain/home.json"),
    ("brain", "Projects/A.md", (), "brain/~50rojects/~41.md.json"),
    ("brain", "projects/new-website.md#decision", (), "brain/projects/new-website.md~23decision.json"),
    ("brain", "chat:who?", (), "brain/chat~3awho~3f.json"),
    ("brain", "concepts/café-menü.md", (), "brain/concepts/caf~c3~a9-men~c3~bc.md.json"),
    ("brain", "concepts/tone of voice.md", (), "brain/concepts/tone~20of~20voice.md.json"),
    ("brain", ".hidden", (), "brain/~2ehidden.json"),
    ("brain", "..x", (), "brain/~2e.x.json"),
    ("brain", "chat:😀!.", (), "brain/chat~3a~f0~9f~98~80~21..json"),
    ("brain", "tags/website/launch", (), "brain/tags/website/launch.json"),
    ("brain", "x.md", ("o4096",), "brain/x.md~~o4096.json"),
    ("brain", "x.md", ("r", "cites", "o50"), "brain/x.md~~r~~cites~~o50.json"),
    ("brain", "x_y.md", (), "brain/x~5fy.md.json"),
    ("brain", "a~b", (), "brain/a~7eb.json"),
])
def test_ref_file_table(brain, ref, variant, expected):
    assert refs.ref_file(brain, ref, *variant) == expected


def test_case_variants_never_collide_even_case_folded():
    variants = ["notes/Readme.md", "notes/README.md", "notes/readme.md", "Notes/readme.md",
                "chat:ABC", "chat:abc", "chat:Abc#1", "chat:abc#1"]
    files = [refs.ref_file("b", r) for r in variants]
    assert len({f.lower() for f in files}) == len(variants)


def test_escaped_text_never_holds_the_variant_separator():
    # "~~" only ever comes from variants: a ref containing "~~" cannot imitate one.
    assert refs.ref_file("b", "x.md~~o50") != refs.ref_file("b", "x.md", "o50")
    assert "~~" not in refs.escape_segment("a~~b")


def test_long_segments_are_shortened_with_a_hash_and_stay_distinct():
    a, b = "x" * 200 + "a", "x" * 200 + "b"
    fa, fb = refs.escape_segment(a), refs.escape_segment(b)
    assert len(fa) == 80 + 2 + 16 and fa != fb and fa[:80] == "x" * 80


@pytest.mark.parametrize("ref, address", [
    ("projects/a.md", "bf://brain/projects/a.md"),
    ("projects/a.md#decision", "bf://brain/projects/a.md#decision"),
    ("issues:new-website#12", "bf://brain/issues:new-website%2312"),
    ("chat:who?", "bf://brain/chat:who%3F"),
    ("chat:100%", "bf://brain/chat:100%25"),
    ("person:alice", "bf://brain/person:alice"),
    ("home", "bf://brain/home"),
])
def test_uri_round_trip(ref, address):
    assert refs.uri("brain", ref) == address
    assert refs.split_address(address) == ("brain", ref)


def test_split_address_without_scheme():
    assert refs.split_address("projects/a.md") == (None, "projects/a.md")


@pytest.mark.parametrize("text, expected", [
    ("", "home"), ("home", "home"), ("/", "home"), ("projects/", "projects"), ("tags/web/", "tags/web"),
    ("  projects  ", "projects"), ("projects/a.md", "projects/a.md")])
def test_normalize(text, expected):
    assert refs.normalize(text) == expected
