"""Excerpts (query words in context) and the search files a build writes (docs/replies.md#the-reply)."""
from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

from builder.bm25 import analyze_query_word
from builder.query.excerpt import _matches, _token_by_token, excerpt, has_phrase
from search_fixtures import site_dir

ROOT = Path(__file__).resolve().parents[2]


def terms(*words):
    return {analyze_query_word(w) for w in words}


def test_excerpt_windows_on_the_query_words():
    text = " ".join(f"w{i}" for i in range(200)) + " the pricing explanation " + " ".join(f"v{i}" for i in range(200))
    out = excerpt(text, terms("explanations"), "fallback")
    assert out.startswith("…") and out.endswith("…") and len(out) <= 320
    assert "pricing explanation" in out
    assert not out[1:].startswith(" ")      # starts on a word, not inside one


def test_excerpt_prefers_the_window_with_most_words():
    text = "alpha " + "x " * 300 + "alpha beta gamma " + "y " * 300
    out = excerpt(text, terms("alpha", "beta", "gamma"), "")
    assert "alpha beta gamma" in out


def test_excerpt_fallback_and_short_text():
    assert excerpt("short text here", terms("absent"), "the summary") == "the summary"
    assert excerpt("short text here", terms("text"), "the summary") == "short text here"
    long = "é" * 1000
    assert excerpt("zz", terms("absent"), long) == "é" * 319 + "…"


EXCERPT_PIECES = ["Pricing", "PRICES", "price-list", "İstanbul", "ΟΔΥΣΣΕΑΣ", "σοφός", "ΑΣ", "ας", "Straße", "東京都",
                  "Привет", "мир", "Ｔｏｋｙｏ", "ﬁnance", "😀emoji", "café", "cafe\u0301", "C++", "don't", "\u00a0",
                  "\u3000", "\ufeff", " ", "-", "\n"]


def excerpt_cases(n: int, seed: int) -> list[tuple[str, list[str]]]:
    """(text, query words) of every script, with the letters the analysis folds (full-width,
    ligatures, final sigma, İ, a combining accent) and every kind of separator."""
    rng = random.Random(seed)
    joints = ["", " ", "-", "\u2009", "\ufeff"]
    return [("".join(rng.choice(EXCERPT_PIECES) + rng.choice(joints) for _ in range(rng.randrange(1, 25))),
             rng.sample(EXCERPT_PIECES[:17], 3)) for _ in range(n)]


def test_excerpt_words_found_in_one_pass_are_those_found_token_by_token():
    """_matches finds the tokens to analyse with one regex pass over the analysed text (NFKC,
    lower case, σ for ς); where that moves positions (İ grows, ﬁ becomes fi) it goes token by
    token. Both must find the same words at the same places."""
    def same(text, words):
        words = {analyze_query_word(w) for w in words} - {""}
        got = _matches(text, words, None)
        assert got == _token_by_token(text, words, {t[:2] for t in words}, None), text
        return got

    assert same("ΑΣ\ufeffΒΑΣ ας", ["ΑΣ"]) == [(0, 2, "ασ"), (7, 9, "ασ")]
    assert same("İstanbul pricing", ["pricing"]) == [(9, 16, "price")]
    for text, words in excerpt_cases(500, 5):
        same(text, words)


def test_excerpt_finds_words_the_analysis_folds():
    """A token is matched by its term, whatever its letters before the analysis folds them."""
    for text, word, at in (("visit Ｔｏｋｙｏ today", "tokyo", 6), ("the ﬁnance team", "finance", 4), ("ΟΔΟΣ ας", "ας", 5)):
        assert [start for start, _, _ in _matches(text, terms(word), None)] == [at], text
        assert excerpt(text, terms(word), "FALLBACK") == text


def test_excerpt_counts_code_points():
    text = "😀 " * 400 + "needle " + "😀 " * 400
    out = excerpt(text, terms("needle"), "")
    assert len(out) <= 320 and "needle" in out


def test_phrase_is_ordered_and_skips_stop_words():
    assert has_phrase("the visitors want a clear explanation", ["visitor", "want"])
    assert not has_phrase("the visitors want a clear explanation", ["want", "visitor"])
    assert has_phrase("want a clear explanation", ["want", "clear"])


def test_build_writes_search_files():
    base = site_dir() / "_bf" / "search" / "brain"
    meta = json.loads((base / "meta.json").read_text("utf-8"))
    assert meta["format"] == "bf-search-5" and meta["notes"] == 25
    assert sum(meta["records"].values()) == 55
    assert set(meta["sources"]) == {"brief", "calendar", "chat", "deploys", "email", "issues", "survey"}
    notes = {}
    for k, head in enumerate(meta["note_chunks"]):             # chunks of 25 notes in ref order, each headed
        chunk = unpacked(base / "notes" / "m" / f"{k}.json")
        assert list(chunk)[0] == head and list(chunk) == sorted(chunk) and len(chunk) <= 25
        notes.update(chunk)
    assert list(notes) == sorted(notes) and len(notes) == 25
    assert "concepts/seo-ideas.md" not in notes                   # draft: not published
    assert notes["projects/brand-refresh.md"]["deprecated"] is True
    assert (base / "index" / "meta.json").is_file()
    refs = unpacked(base / "index" / "r" / "0.json")
    assert not any(r.isdigit() for r in refs if r is not None)  # never integer-like (None: an unused id)
    index_meta = json.loads((base / "index" / "meta.json").read_text("utf-8"))
    groups = {g: n for g, _, n in index_meta["groups"]}         # one span a group
    assert {g: n for g, n in groups.items() if g} == {s: n for s, n in meta["records"].items() if n}  # group: source
    chat = unpacked(base / "records" / "chat" / "m" / "0.json")
    assert meta["record_chunks"]["chat"] == [min(chat)]
    assert chat["chat:pinned-message"]["placed"] == "2026-11-30T10:00:00Z" and "time" not in chat["chat:pinned-message"]
    assert not (base / "records" / "chat.json").exists() and not (base / "notes.json").exists()
    assert not (base / "records" / "chat" / "0.json.gz").exists()
    assert "x" not in chat["chat:2026-11-19-workshop-transcript"]   # longer than RECORD_TEXT_MAX
    for ref, entry in [*notes.items(), *chat.items()]:   # each text a gzip member of its file, at its `x`
        if ref == "chat:2026-11-19-workshop-transcript":
            continue
        k, start, length = entry["x"]
        folder = base / "notes" if ":" not in ref else base / "records" / "chat" / "x"
        text = json.loads(gzip.decompress((folder / f"{k}.json.gz").read_bytes()[start:start + length]))
        assert isinstance(text, str if ":" in ref else dict) and text
    members = sorted(e["x"][1:] for e in chat.values() if "x" in e)   # the members make one gzip file
    stored = (base / "records" / "chat" / "x" / "0.json.gz").read_bytes()
    assert members[0][0] == 0 and sum(n for _, n in members) == len(stored)
    assert gzip.decompress(stored) == b"".join(gzip.decompress(stored[a:a + n]) for a, n in members)


def test_a_records_text_read_from_its_member_is_the_record_stores():
    """The search store's copy of a record's text (a gzip member) is the text the record store's
    reply pages give, whitespace runs as one space; a longer one is read from them."""
    from builder.emit import search_index
    from builder.query.site import open_site
    from builder.query.store import open_store
    site = open_site(site_dir())
    store = open_store(site, "brain")
    for source in store.sources():
        for pos in range(store.meta["records"][source]):
            entry = store.record_entry(store.record_ref(source, pos))
            kept = len(site.brain_data("brain").record_text(entry.ref)) <= search_index.RECORD_TEXT_MAX
            assert ("x" in entry.meta) == kept and store.text(entry) == site.brain_data("brain").record_text(entry.ref)


def unpacked(path):
    """The JSON a pack file holds: `path`.gz, gzip'd (docs/data.md)."""
    return json.loads(gzip.decompress(path.with_name(path.name + ".gz").read_bytes()))


def test_lunr_phase_is_timed(tmp_path):
    from builder.build import build
    from search_fixtures import NOW, ROOT
    report = build([ROOT / "examples" / "brain"], tmp_path / "site", now=NOW, pagefind=False)
    assert "lunr" in report.timings


def test_a_paged_records_text_is_read_whole_from_the_record_store(tmp_path):
    """Search keeps no copy of a record's text longer than RECORD_TEXT_MAX: excerpts and phrase
    checks read it from the record store, every page of a long record joined, whitespace runs as
    one space."""
    from builder.build import build
    from builder.query.search import search
    from builder.query.site import open_site
    brain = tmp_path / "b"
    (brain / "memories" / "chat").mkdir(parents=True)
    text = "alpha beta " * 4000 + "zebrafinch \x85\n lands here"   # > 32 KiB: the reply is paged
    (brain / "memories" / "chat" / "long.json").write_text(json.dumps({"text": text, "time": "2026-11-01T10:00:00Z"}))
    build([brain], tmp_path / "site", now="2026-12-02T12:00:00Z", pagefind=False, embeddings=False)
    site = open_site(tmp_path / "site")
    [item] = search(site, '"zebrafinch lands"')["items"]
    assert item["ref"] == "chat:long" and item["excerpt"].endswith("zebrafinch lands here")
    meta = json.loads(gzip.decompress((tmp_path / "site/_bf/search/b/records/chat/m/0.json.gz").read_bytes()))
    assert "x" not in meta["chat:long"] and not (tmp_path / "site/_bf/search/b/records/chat/x/0.json.gz").exists()


def test_note_meta_chunks_answer_every_note_and_folder(tmp_path, monkeypatch):
    """With chunks of 2 notes, every note and section is found by bisecting the chunks' first
    refs, and a folder exists exactly when a note's ref starts with it (its first note may
    head the next chunk)."""
    from builder.build import build
    from builder.emit import search_index
    from builder.query.site import open_site
    from builder.query.store import open_store
    monkeypatch.setattr(search_index, "NOTE_CHUNK", 2)
    build([ROOT / "examples" / "brain"], tmp_path / "site", now="2026-12-02T12:00:00Z", pagefind=False, embeddings=False)
    store = open_store(open_site(tmp_path / "site"), "brain")
    assert len(store.meta["note_chunks"]) == 13
    refs = [store.reader.ref(d) for _, first, count in store.reader.meta["groups"] for d in range(first, first + count)]
    notes = [r for r in refs if ":" not in r and "#" not in r]
    assert all(store.note_entry(r) is not None for r in refs if ":" not in r)
    assert store.note_entry("nope.md") is None and store.note_entry(notes[0] + "#nope") is None
    folders = {n.rsplit("/", 1)[0] for n in notes if "/" in n}
    assert folders and all(store.folder_exists(f) for f in folders)
    assert not any(store.folder_exists(f) for f in ("proj", "projects/new", "zzz", "", "a"))
