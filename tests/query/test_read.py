"""bf read against a built site (docs/replies.md#bf-read, docs/replies.md#errors-and-exit-codes): replies, paging, exit codes, staleness."""
from __future__ import annotations

import hashlib
import json
import os
import shutil

from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "brain"


def read(bf, site, *args):
    code, out, err = bf("read", *args, "--site", site)
    return code, (json.loads(out) if out else None), (json.loads(err) if err else None)


def test_note_read(bf, example_site):
    code, reply, err = read(bf, example_site, "projects/new-website.md")
    assert code == 0 and err is None
    data = (EXAMPLE / "projects/new-website.md").read_bytes()
    assert reply["text"].encode("utf-8") == data and reply["sha256"] == hashlib.sha256(data).hexdigest()
    assert reply["as_of"] == "2026-12-02T12:00:00Z" and reply["uri"] == "bf://brain/projects/new-website.md"


def test_address_and_trailing_slash_forms(bf, example_site):
    _, by_ref, _ = read(bf, example_site, "projects/new-website.md")
    _, by_uri, _ = read(bf, example_site, "bf://brain/projects/new-website.md")
    assert by_ref == by_uri


@pytest.mark.parametrize("ref", ["issues:new-website#12", "bf://brain/issues:new-website%2312",
                                 "chat:who-owns-the-domain?", "bf://brain/chat:who-owns-the-domain%3F"])
def test_record_ids_with_hash_and_question_mark(bf, example_site, ref):
    code, reply, _ = read(bf, example_site, ref)
    assert code == 0 and reply["page"] == "record"
    assert reply["ref"] == refs_decoded(ref)


def refs_decoded(ref):
    from builder.kernel.refs import split_address
    return split_address(ref)[1]


def test_section_read_carries_the_files_sha(bf, example_site):
    code, reply, _ = read(bf, example_site, "projects/new-website.md#decision")
    data = (EXAMPLE / "projects/new-website.md").read_bytes()
    assert code == 0 and reply["page"] == "section"
    assert reply["sha256"] == hashlib.sha256(data).hexdigest()
    assert reply["text"].startswith("## Decision")


def test_paged_read_concatenates_to_the_file(bf, example_site):
    data = (EXAMPLE / "concepts/style-guide.md").read_bytes()
    offset, parts, pages = 0, [], 0
    while offset is not None:
        code, reply, _ = read(bf, example_site, "concepts/style-guide.md", "--offset", str(offset))
        assert code == 0 and reply["offset"] == offset and reply["total_bytes"] == len(data)
        parts.append(reply["text"])
        offset, pages = reply["next_offset"], pages + 1
    assert "".join(parts).encode("utf-8") == data and pages >= 2


@pytest.mark.parametrize("args, code, kind", [
    (["projects/nothing.md"], 3, "not_found"),
    (["bf://other/projects/new-website.md"], 3, "not_found"),
    (["projects/new-website.md#"], 2, "invalid_input"),
    (["bf://brain/projects/new-website.md#"], 2, "invalid_input"),
    (["projects/new-website.md", "--offset", "5"], 2, "invalid_input"),     # fits in one page
    (["concepts/style-guide.md", "--offset", "7"], 2, "invalid_input"),     # not a page boundary
    (["projects/new-website.md", "--offset", "-1"], 2, "invalid_input"),
    (["projects/new-website.md", "--offset", "x"], 2, "invalid_input"),
    (["projects/new-website.md", "--rel", "nonsense"], 2, "invalid_input"),
    (["2026-13"], 2, "invalid_input"),
    (["a\x01b"], 2, "invalid_input"),
    (["projects/new-website.md", "--bogus"], 2, "invalid_input"),
])
def test_error_exit_codes_with_json_on_stderr(bf, example_site, args, code, kind):
    got, reply, err = read(bf, example_site, *args)
    assert (got, reply) == (code, None)
    assert set(err) == {"error", "code"} and err["code"] == kind


def test_no_site_is_index_missing(bf, tmp_path):
    code, reply, err = read(bf, tmp_path / "nowhere", "home")
    assert (code, reply, err["code"]) == (5, None, "index_missing")
    assert err["error"].startswith("index missing for site")


def test_incompatible_site_is_index_missing(bf, tmp_path, example_site):
    site = tmp_path / "site"
    shutil.copytree(example_site, site)
    manifest = json.loads((site / "_bf/manifest.json").read_text())
    (site / "_bf/manifest.json").write_text(json.dumps(dict(manifest, bundle_version=-1)))
    assert read(bf, site, "home")[0] == 5


def test_stale_after_a_brain_file_changes(bf, tmp_path, build_site):
    brain = tmp_path / "brain"
    shutil.copytree(EXAMPLE, brain)
    site = tmp_path / "site"
    build_site(brain, site)
    code, reply, _ = read(bf, site, "projects/new-website.md")
    assert code == 0 and "stale" not in reply and "notice" not in reply
    target = brain / "concepts/glossary.md"
    st = target.stat()
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    # an edit in place is seen by a reply that returns the file (docs/replies.md#problems-and-staleness)
    code, reply, _ = read(bf, site, "concepts/glossary.md")
    assert code == 0 and reply["stale"] == {"built_at": "2026-12-02T12:00:00Z", "changed": 1}
    assert "bf build" in reply["notice"]
    code, reply, _ = read(bf, site, "projects/new-website.md")
    assert code == 0 and "stale" not in reply
    (brain / "concepts/new.md").write_text("# New\n", encoding="utf-8")   # a new file: every reply sees it
    code, reply, _ = read(bf, site, "projects/new-website.md")
    assert code == 0 and reply["stale"]["changed"] == 1


def read_all_printed(bf, site, ref):
    """Every page of a read as the CLI prints it by default: [(printed bytes, reply)]."""
    offset, out = 0, []
    while offset is not None:
        code, text, err = bf("read", ref, "--offset", offset, "--site", site)
        assert code == 0, err
        out.append((len(text.encode("utf-8")), json.loads(text)))
        offset = out[-1][1]["next_offset"]
    return out


FLAT = "---\ntitle: Flat\n---\n" + "Words é 日本 😀 and \"quotes\" \\ without any heading.\n" * 2000


def test_paged_read_stays_within_32k_as_printed_when_stale(bf, make_brain, build_site, tmp_path):
    brain = make_brain(tmp_path, {"flat.md": FLAT})
    site = tmp_path / "site"
    build_site(brain, site)
    fresh = read_all_printed(bf, site, "flat.md")
    (brain / "new.md").write_text("added after the build\n", encoding="utf-8")
    stale = read_all_printed(bf, site, "flat.md")
    assert len(stale) == len(fresh) > 2
    assert [r["offset"] for _, r in stale] == [r["offset"] for _, r in fresh]
    assert "".join(r["text"] for _, r in stale).encode("utf-8") == FLAT.encode("utf-8")
    for printed, reply in stale:
        assert printed <= 32 * 1024
        assert reply["stale"]["changed"] == 1 and "bf build" in reply["notice"]
    assert max(printed for printed, _ in stale) > 30 * 1024        # pages are still filled


def test_paged_read_caps_the_problems_of_unavailable_brains(bf, make_brain, tmp_path):
    from builder.build import build
    from builder.kernel.refs import ref_file
    names = ["main"] + [f"gone-{i}-" + "x" * 200 for i in range(3)]
    roots = [make_brain(tmp_path, {"flat.md": FLAT} if n == "main" else {"a.md": "a\n"}, name=n) for n in names]
    site = tmp_path / "site"
    build(roots, site, now="2026-12-02T12:00:00Z", pagefind=False)
    for name in names[1:]:
        (site / ref_file(name, "home")).unlink()
        (site / "_bf" / name / "fingerprint.json.gz").unlink()
    (roots[0] / "new.md").write_text("added after the build\n", encoding="utf-8")
    pages = read_all_printed(bf, site, "flat.md")
    assert len(pages) > 2
    for printed, reply in pages:
        assert printed <= 32 * 1024 and "stale" in reply
        assert [p["brain"] for p in reply["problems"]] == names[1:3] and reply["problems_omitted"] == 1
