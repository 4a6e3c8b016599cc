"""One Markdown file → Note (docs/brain.md#notes): frontmatter keys, sections, links, tasks."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from builder.brain.notes import NoteError, parse_note
from builder.kernel.config import BrainConfig

CFG = BrainConfig(name="brain", title="brain", timezone="UTC", base_url="/", fields=("status", "priority", "due", "owner"))


def note(text: str, ref: str = "n.md", cfg: BrainConfig = CFG):
    return parse_note(ref, text.encode("utf-8"), cfg)


# --- title ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, title, from_h1", [
    ("---\ntitle: From FM\n---\n# Heading one\n", "From FM", False),
    ("# Heading one\n\nbody\n", "Heading one", True),
    ("body only\n", "my-note", False),
    ("---\ntitle: '  '\n---\nbody\n", "my-note", False),   # blank title falls back
])
def test_title_fallbacks(text, title, from_h1):
    n = note(text, "folder/my-note.md")
    assert (n.title, n.title_from_h1) == (title, from_h1)


def test_title_h1_is_not_a_section_but_a_frontmatter_titled_h1_is():
    assert [s.id for s in note("# Title\n\n## Part\n").sections] == ["part"]
    assert [s.id for s in note("---\ntitle: T\n---\n# Big\n## Part\n").sections] == ["big", "part"]


# --- type ---------------------------------------------------------------------------------

@pytest.mark.parametrize("ref, text, expected", [
    ("projects/a.md", "x", "project"),
    ("actions/a.md", "x", "action"),
    ("projects/sub/a.md", "x", None),          # not a direct child
    ("actions/a/b.md", "x", None),
    ("a.md", "x", None),
    ("projects/a.md", "---\ntype: person\n---\n", "person"),
    ("people/a.md", "---\ntype: person\n---\n", "person"),
])
def test_type_defaults_for_direct_children_only(ref, text, expected):
    assert note(text, ref).type == expected


def test_projects_default_to_stale_after_30d_others_have_none():
    assert note("x", "projects/a.md").stale_after_days == 30
    assert note("x", "a.md").stale_after_days is None
    assert note("---\nstale_after: 6w\n---\n", "a.md").stale_after_days == 42
    assert note("---\nstale_after: 3m\n---\n", "projects/a.md").stale_after_days == 90


def test_bad_stale_after_is_a_frontmatter_problem_naming_the_key():
    with pytest.raises(NoteError) as exc:
        note("---\nstale_after: soon\n---\n")
    assert exc.value.kind == "frontmatter" and "stale_after" in str(exc.value)


# --- tags, aliases, entities, fields --------------------------------------------------------

def test_tags_from_list_comma_string_and_inline_but_not_code():
    text = ("---\ntags: [a, website/launch]\n---\n"
            "Body #inline and #nested/tag, not #123 nor a#b.\n\n"
            "`#incode` and\n\n```\n#infence\n```\n\n    #indented\n")
    assert note(text).tags == ("a", "inline", "nested/tag", "website/launch")
    assert note("---\ntags: 'x, y ,z'\n---\n").tags == ("x", "y", "z")
    assert note("---\ntags: ['#hash']\n---\n").tags == ("hash",)


def test_aliases_and_entities_as_lists_or_strings():
    n = note("---\naliases: [Alpha, Beta]\nentities: person:alice\n---\n")
    assert n.aliases == ("Alpha", "Beta")
    assert n.entities == ("person:alice",)


def test_declared_fields_only_and_scalars_only():
    n = note("---\nstatus: active\npriority: 2\nowner: [a, b]\nbudget: 100\n---\n")
    assert n.fields == {"status": "active", "priority": 2}


# --- times ----------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["date", "start", "end", "due"])
def test_each_event_key_gives_the_event_time(key):
    assert note(f"---\n{key}: 2026-12-10\n---\n").event == datetime(2026, 12, 10, tzinfo=timezone.utc)


def test_date_wins_over_start_and_due():
    n = note("---\ndue: 2026-12-20\ndate: 2026-12-10\nstart: 2026-12-11\n---\n")
    assert n.event == datetime(2026, 12, 10, tzinfo=timezone.utc)


def test_instant_event_in_the_brain_timezone():
    cfg = BrainConfig(name="b", title="b", timezone="Europe/Berlin", base_url="/", fields=())
    n = note("---\nstart: 2027-01-14T09:00:00+01:00\n---\n", cfg=cfg)
    assert n.event == datetime(2027, 1, 14, 8, tzinfo=timezone.utc)
    day = note("---\ndate: 2026-12-10\n---\n", cfg=cfg)
    assert day.event == datetime(2026, 12, 9, 23, tzinfo=timezone.utc)   # local midnight


@pytest.mark.parametrize("key", ["modified", "updated"])
def test_modified_and_updated_override_the_modification_time(key):
    n = note(f"---\n{key}: 2026-11-30T16:00:00Z\n---\n")
    assert n.modified == datetime(2026, 11, 30, 16, tzinfo=timezone.utc)
    assert note("x").modified is None


def test_deprecated_and_summary():
    n = note("---\ndeprecated: true\nsummary: Short.\n---\n")
    assert n.deprecated and n.summary == "Short."
    assert note("---\ndescription: Desc.\n---\n").summary == "Desc."
    assert not note("---\ndeprecated: 'yes'\n---\n").deprecated   # only a real true closes a note


# --- sections ------------------------------------------------------------------------------

def test_github_slugs_with_repeats_punctuation_and_unicode():
    text = ("# T\n\n## Notes\n\n## Notes\n\n## Notes\n\n## Who owns it?\n\n"
            "## Café — Menü\n\n## 日本語 見出し\n\n## C++ & `code`\n")
    assert [s.id for s in note(text).sections] == [
        "notes", "notes-1", "notes-2", "who-owns-it", "café--menü", "日本語-見出し", "c--code"]


def test_section_titles_chain_parents_and_refs_use_the_slug():
    n = note("---\ntitle: Note\n---\n## Parent\n### Child\n## Other\n", "a/n.md")
    assert [(s.ref, s.title, s.level) for s in n.sections] == [
        ("a/n.md#parent", "Note — Parent", 2),
        ("a/n.md#child", "Note — Parent — Child", 3),
        ("a/n.md#other", "Note — Other", 2)]


def test_section_byte_ranges_and_lines_count_the_frontmatter():
    text = "---\ntitle: N\n---\nintro é\n## A\naé\n### B\nb\n## C\nc\n"
    n = note(text)
    data = text.encode("utf-8")
    a, b, c = n.sections
    assert (a.line, b.line, c.line) == (5, 7, 9)
    assert data[a.start:a.end].decode() == "## A\naé\n### B\nb\n"
    assert data[b.start:b.end].decode() == "### B\nb\n"
    assert data[c.start:c.end].decode() == "## C\nc\n"


def test_heading_inside_code_is_not_a_section():
    assert note("```\n# not\n## not\n```\n## Yes\n").sections[0].id == "yes"
    assert len(note("```\n# not\n## not\n```\n## Yes\n").sections) == 1


# --- links ----------------------------------------------------------------------------------

def test_wikilink_forms():
    text = "[[Plain]] [[Target|label]] [[Note#Some Heading]] [[#Local]] ![[Embedded]] ![[pic.png]]\n"
    got = [(l.target, l.label, l.heading, l.embed, l.kind, l.line) for l in note(text).links]
    assert got == [
        ("Plain", "", "", False, "wikilink", 1),
        ("Target", "label", "", False, "wikilink", 1),
        ("Note", "", "Some Heading", False, "wikilink", 1),
        ("", "", "Local", False, "wikilink", 1),
        ("Embedded", "", "", True, "wikilink", 1),
        ("pic.png", "", "", True, "wikilink", 1)]


def test_relative_markdown_links_resolve_against_the_note_folder():
    text = ("---\ntitle: x\n---\n[a](../concepts/glossary.md#billing-terms) [b](sib%20ling.md) "
            "[web](https://x.org/a.md) [abs](/a.md) [img](pic.png) [out](../../escape.md)\n")
    got = [(l.target, l.heading, l.kind, l.line) for l in note(text, "projects/p.md").links]
    assert got == [("concepts/glossary.md", "billing-terms", "markdown", 4),
                   ("projects/sib ling.md", "", "markdown", 4)]


def test_markdown_links_without_an_extension_are_note_links_as_obsidian_reads_them():
    text = ("[a](Scope) [b](Scope/save#returns) [c](./sibling) [d](../up%20there) [e](folder/) "
            "[f](pic.png) [g](https://x.org/Scope) [h](../../escape)\n")
    got = [(l.target, l.heading, l.kind) for l in note(text, "api/View.md").links]
    assert got == [("Scope", "", "markdown"), ("Scope/save", "returns", "markdown"),
                   ("api/sibling", "", "markdown"), ("up there", "", "markdown")]


def test_relations_become_links_with_their_own_names():
    text = ('---\nrelations:\n  cites: ["[[Concept]]", concepts/glossary.md]\n'
            '  depends-on: repo:github.com/example/x\n---\n[[Body]]\n')
    got = sorted((l.relation, l.target, l.kind) for l in note(text).links)
    assert got == [("cites", "Concept", "wikilink"), ("cites", "concepts/glossary.md", "markdown"),
                   ("depends-on", "repo:github.com/example/x", "identity"), ("links", "Body", "wikilink")]


def test_wikilinks_in_code_are_not_links():
    assert note("`[[A]]`\n\n```\n[[B]]\n```\n").links == ()


# --- tasks ----------------------------------------------------------------------------------

def test_tasks_carry_section_ref_line_and_due():
    text = ("---\ntitle: T\n---\n- [ ] outside\n## Must\n- [ ] one 📅 2026-12-10\n"
            "- [x] two due:2026-12-11\n* [X] three\n1. [ ] four\n```\n- [ ] in code\n```\n")
    got = [(t.ref, t.line, t.text, t.done, t.due) for t in note(text, "a.md").tasks]
    assert got == [
        ("a.md", 4, "outside", False, None),
        ("a.md#must", 6, "one", False, "2026-12-10"),
        ("a.md#must", 7, "two", True, "2026-12-11"),
        ("a.md#must", 8, "three", True, None),
        ("a.md#must", 9, "four", False, None)]


@pytest.mark.parametrize("line, text, due", [
    ("ship 📅 2026-12-10", "ship", "2026-12-10"),
    ("call due:2026-12-11 about **x**", "call about **x**", "2026-12-11"),
    ("📅2026-12-10 first", "first", "2026-12-10"),
    ("a 📅 2026-12-10 b 📅 2026-12-12", "a b 📅 2026-12-12", "2026-12-10"),   # the first is the due day
    ("overdue:2026-12-10 is a word", "overdue:2026-12-10 is a word", None),
    ("📅 2026-02-30 is no day", "📅 2026-02-30 is no day", None),
    ("`due:2026-12-12` in code", "`due:2026-12-12` in code", None),
])
def test_task_text_loses_its_due_marker_and_keeps_the_day(line, text, due):
    (task,) = note(f"- [ ] {line}\n").tasks
    assert (task.text, task.due) == (text, due)


def test_excerpt_drops_task_due_markers_too():
    assert note("Intro.\n\n- [ ] ship 📅 2026-12-10 now\n- [x] done due:2026-11-01\n").excerpt == "Intro. ship now done"


def test_body_renders_each_task_due_marker_as_a_slot():
    n = note("- [ ] open 📅 2026-12-10 then\n- [x] done due:2026-11-01\n- [ ] `due:2026-12-12` in code\n"
             "\nA paragraph with due:2026-12-13 is no task.\n")
    dues = [value for kind, value in n.slots if kind == "due"]
    assert dues == [("2026-12-10", False), ("2026-11-01", True)]
    assert "📅" not in n.html and "due:2026-11-01" not in n.html
    assert " open \x00" in n.html and "\x00 then" in n.html     # the marker's place, words kept around it
    assert "<code>due:2026-12-12</code>" in n.html and "due:2026-12-13 is no task" in n.html


# --- errors -----------------------------------------------------------------------------------

@pytest.mark.parametrize("data, kind", [
    (b"\xff\xfe bad", "encoding"),
    (b"---\ntitle: [unclosed\n---\n", "frontmatter"),
    (b"---\ntitle: x\n", "frontmatter"),
    (b"---\n- a list\n---\n", "frontmatter"),
    (b"---\na: &x 1\nb: *x\n---\n", "frontmatter"),
])
def test_bad_files_raise_note_errors_with_a_kind(data, kind):
    with pytest.raises(NoteError) as exc:
        parse_note("n.md", data, CFG)
    assert exc.value.kind == kind


def test_sha256_is_of_the_file_bytes():
    import hashlib
    data = "---\ntitle: é\n---\nbody\n".encode("utf-8")
    assert parse_note("n.md", data, CFG).sha256 == hashlib.sha256(data).hexdigest()
