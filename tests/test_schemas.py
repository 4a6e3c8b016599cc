"""The published reply schemas (docs/replies.md#bf-schema): every reply the example site holds or the CLI gives
validates; broken replies do not; the schemas ship in the site and `bf schema` prints them."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from builder.query.read import read
from builder.query.site import open_site
from builder import schema
from replies import stored_replies

ROOT = Path(__file__).resolve().parents[1]
CHECK = Path(sys.executable).parent / "check-jsonschema"
PAGES = {"note", "section", "record", "folder", "tag", "period", "source", "undated", "identity",
         "relation", "home", "memories"}
REPO = "repo:github.com/example/new-website"


@lru_cache(maxsize=None)
def _validators(kind: str):
    """The published schema's validator, and the MCP outputSchema's (schema.inlined)."""
    inlined = schema.inlined(kind)
    assert "$ref" not in json.dumps(inlined) and "$defs" not in inlined
    return schema.validator(kind), Draft202012Validator(inlined, format_checker=Draft202012Validator.FORMAT_CHECKER)


def errors(kind: str, reply) -> list[str]:
    """The reply's errors under the published schema, which the MCP outputSchema, its $defs
    inlined, must find too: every reply these tests check, valid or broken, checks both."""
    published, inlined = ([f"{e.json_path}: {e.message}" for e in v.iter_errors(reply)] for v in _validators(kind))
    assert sorted(inlined) == sorted(published)
    return published


def site_replies(site: Path) -> list[tuple[str, dict]]:
    """(where, reply) for every reply page the site stores (files and compact data)."""
    return [(f"{ref} {options}", reply) for ref, options, reply in stored_replies(site)]


def cli_json(bf, *args) -> tuple[int, dict | None, dict | None]:
    code, out, err = bf(*args)
    return code, (json.loads(out) if out.strip() else None), (json.loads(err) if err.strip() else None)


@pytest.mark.parametrize("kind", schema.KINDS)
def test_schema_is_valid_2020_12_with_id_and_version(kind):
    s = schema.load(kind)
    Draft202012Validator.check_schema(s)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert s["$id"] == f"https://bf.example/schemas/{kind}.schema.json"
    assert s["version"].count(".") == 2
    # Added fields are accepted: nothing closes the top level.
    assert s.get("additionalProperties", True) is not False


def test_every_precomputed_reply_validates(example_site):
    replies = site_replies(example_site)
    assert len(replies) > 300
    pages, later = set(), 0
    for where, reply in replies:
        assert errors("read-reply", reply) == [], where
        pages.add(reply["page"])
        later += reply.get("offset", 0) > 0 and "total_bytes" in reply
    assert pages == PAGES and later >= 2     # every page kind, and later pages of paged reads


def test_site_ships_the_schemas(example_site, bf):
    for kind in schema.KINDS:
        shipped = example_site / "schemas" / f"{kind}.schema.json"
        assert shipped.read_bytes() == (ROOT / "schemas" / f"{kind}.schema.json").read_bytes()
        code, out, _ = bf("schema", "--kind", kind)
        assert code == 0 and json.loads(out) == schema.load(kind)


SEARCHES = [
    ("website",), ("pricing page",), ("zzz-nothing-matches",), ("website", "--scope", "projects"),
    ("website", "--scope", "projects/new-website.md"), ("launch", "--scope", "memories"),
    ("standup", "--scope", "memories/brief"), ("deploy", "--scope", "memories/deploys/undated"),
    ("website", "--scope", "person:alice"), ("launch", "--scope", "tags/website"),
    ("launch", "--scope", "7d"), ("launch", "--scope", "memories/brief/7d"),
    ("launch", "--scope", "tags/website/2026-12"), ("deploy", "--scope", f"{REPO}/7d"),
    ("website", "--type", "project"), ("website", "--path", "concepts/"), ("website", "--limit", "50"),
    ('"pricing page"',), ("website", "--scope", "nowhere/at-all"),
]
READS = [
    ("home",), ("",), ("projects",), ("projects/",), ("tags/website",), ("memories",), ("memories/brief",),
    ("memories/chat/undated",), ("person:alice",), (REPO,), ("2026-12",), ("2026-W49",), ("2020-01",),
    ("45d",), ("today",), ("projects/new-website.md",), ("projects/new-website.md#decision",),
    ("bf://brain/projects/new-website.md",), ("brief:2026-12-02",), ("projects/new-website.md", "--rel", "links"),
    ("projects/new-website.md", "--rel", "cites"), ("concepts/style-guide.md",),
]


@pytest.mark.parametrize("args", SEARCHES, ids=lambda a: " ".join(a))
def test_search_replies_validate(bf, example_site, args):
    code, reply, err = cli_json(bf, "search", *args, "--site", example_site)
    assert code == 0 and err is None
    assert errors("search-reply", reply) == []


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a) or "''")
def test_read_replies_validate(bf, example_site, args):
    code, reply, err = cli_json(bf, "read", *args, "--site", example_site)
    assert code == 0 and err is None
    assert errors("read-reply", reply) == []


def test_every_later_page_of_a_paged_read_validates(bf, example_site):
    offset, pages = 0, 0
    while offset is not None:
        code, reply, _ = cli_json(bf, "read", "concepts/style-guide.md", "--offset", offset, "--site", example_site)
        assert code == 0 and errors("read-reply", reply) == []
        offset, pages = reply["next_offset"], pages + 1
    assert pages >= 2


@pytest.mark.parametrize("args", [("website",), ("pricing page", "--budget", "500"), ("launch", "--scope", "memories"),
                                  ("zzz-nothing",), ("website", "--budget", "1")])
def test_recall_replies_validate(bf, example_site, args):
    code, reply, _ = cli_json(bf, "recall", *args, "--site", example_site)
    assert code == 0 and errors("recall-reply", reply) == []


ERRORS = [
    (2, ("search", "x", "--limit", "0")), (2, ("search", "x", "--limit", "51")), (2, ("search", "x" * 4097)),
    (2, ("search", "x", "--scope", "7d/2026-12")), (2, ("search", "x", "--scope", "memories/brief/x")),
    (2, ("search", "x", "--scope", "memories/brief#x")), (2, ("search", "x", "--scope", "projects/new-website.md#decision")),
    (2, ("search", "x", "--scope", "bf://brain/projects")), (2, ("search", "x", "--scope", "memories/breif")),
    (2, ("read", "2026-13")), (2, ("read", "projects/new-website.md#")), (2, ("read", "projects/new-website.md", "--offset", "7")),
    (2, ("read", "projects/new-website.md", "--rel", "nope")), (3, ("read", "projects/nope.md")),
    (2, ("recall", "x", "--budget", "0")), (2, ("recall", "x", "--budget", "1000001")),
    (2, ("read", "a\x07b")), (3, ("read", "a\u200bb")), (2, ("schema", "--kind", "nope")),
]


@pytest.mark.parametrize("want,args", ERRORS, ids=lambda a: " ".join(a)[:40] if isinstance(a, tuple) else str(a))
def test_error_replies_validate(bf, example_site, want, args):
    site = () if args[0] == "schema" else ("--site", example_site)
    code, out, err = cli_json(bf, *args, *site)
    assert out is None and errors("error", err) == []
    assert code == want == {"invalid_input": 2, "not_found": 3}[err["code"]]


def test_index_missing_error_validates(bf, tmp_path):
    code, _, err = cli_json(bf, "read", "home", "--site", tmp_path / "none")
    assert code == 5 and err["code"] == "index_missing" and errors("error", err) == []


def run_check(schema_kind: str, *reply_files: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(CHECK), "--schemafile", str(ROOT / "schemas" / f"{schema_kind}.schema.json"),
                           *map(str, reply_files)], capture_output=True, text=True, timeout=120)


def later_page(bf, site) -> dict:
    """The second page of the example's long chat record, as `bf read --offset` prints it."""
    ref = "chat:2026-11-19-workshop-transcript"
    first = json.loads(bf("read", ref, "--site", site)[1])
    code, out, err = bf("read", ref, "--offset", first["next_offset"], "--site", site)
    assert code == 0, err
    return json.loads(out)


def test_check_jsonschema_cli_accepts_saved_replies(bf, example_site, tmp_path):
    saved = {}
    for kind, args in (("read-reply", ("read", "projects/new-website.md")), ("read-reply", ("read", "home")),
                       ("search-reply", ("search", "website")), ("recall-reply", ("recall", "pricing"))):
        code, out, _ = bf(*args, "--site", example_site)
        assert code == 0
        path = tmp_path / f"{args[0]}-{len(saved)}.json"
        path.write_text(out, encoding="utf-8")
        saved.setdefault(kind, []).append(path)
    _, _, err = bf("read", "nope.md", "--site", example_site)
    (tmp_path / "error.json").write_text(err, encoding="utf-8")
    saved["error"] = [tmp_path / "error.json"]
    later = tmp_path / "later-page.json"
    later.write_text(json.dumps(later_page(bf, example_site)), encoding="utf-8")
    saved["read-reply"].append(later)
    for kind, files in saved.items():
        done = run_check(kind, *files)
        assert done.returncode == 0 and "ok -- validation done" in done.stdout, (kind, done.stdout, done.stderr)


# Deliberately broken replies: each must be rejected, so a schema accepting anything fails here.

def _note(example_site):
    """A note's reply as served: its stored page and the build instant answers add."""
    return read(open_site(example_site), "projects/new-website.md")


def _search(bf, example_site):
    return cli_json(bf, "search", "launch", "--scope", "memories", "--site", example_site)[1]


def _mutations(reply: dict, changes) -> list[tuple[str, dict]]:
    out = []
    for label, change in changes:
        broken = copy.deepcopy(reply)
        change(broken)
        out.append((label, broken))
    return out


def test_broken_read_replies_are_rejected(example_site, bf):
    note = _note(example_site)
    assert errors("read-reply", note) == []
    cases = _mutations(note, [
        ("missing sha256", lambda r: r.pop("sha256")), ("missing page", lambda r: r.pop("page")),
        ("title not a string", lambda r: r.update(title=5)), ("bad page enum", lambda r: r.update(page="notes")),
        ("bad instant", lambda r: r.update(modified="2026-11-10 09:00:00")),
        ("instant without Z", lambda r: r.update(as_of="2026-12-02T12:00:00+00:00")),
        ("month 13", lambda r: r.update(as_of="2026-13-02T12:00:00Z")),
        ("uri not bf://", lambda r: r.update(uri="https://x/projects/new-website.md")),
        ("bad link status", lambda r: r["links"][0].update(status="fine")),
        ("bad sha256", lambda r: r.update(sha256="abc")), ("tags not a list", lambda r: r.update(tags="website")),
        ("task due not a date", lambda r: r["tasks"][0].update(due="soon")),
        ("negative offset", lambda r: r.update(offset=-1)), ("bad claim kind", lambda r: r["claims"][0].update(kind="nick")),
    ])
    home = json.loads((example_site / "brain" / "home.json").read_bytes())
    cases += _mutations(home, [
        ("home without sections", lambda r: r.pop("sections")),
        ("bad coverage status", lambda r: r["sources"][0].update(status="fine")),
        ("needs_attention contradicts status", lambda r: r["sources"][0].update(status="failed", needs_attention=False)),
    ])
    later = later_page(bf, example_site)
    cases += _mutations(later, [("later page without its slice", lambda r: r.pop("record")),
                                ("later page without total_bytes", lambda r: r.pop("total_bytes"))])
    for label, broken in cases:
        assert errors("read-reply", broken), label


def test_broken_search_recall_and_error_replies_are_rejected(bf, example_site):
    reply = _search(bf, example_site)
    assert reply["items"] and errors("search-reply", reply) == []
    cases = _mutations(reply, [
        ("missing items", lambda r: r.pop("items")), ("score not a number", lambda r: r["items"][0].update(score="1")),
        ("bad item kind", lambda r: r["items"][0].update(kind="page")),
        ("record without time", lambda r: [i.pop("time") for i in r["items"] if i["kind"] == "record"]),
        ("bad modified", lambda r: r["items"][0].update(modified="yesterday")),
        ("excerpt too long", lambda r: r["items"][0].update(excerpt="x" * 321)),
    ])
    for label, broken in cases:
        assert errors("search-reply", broken), label
    recall = cli_json(bf, "recall", "pricing", "--budget", "800", "--site", example_site)[1]
    assert recall["memories"]["index_lines"] and errors("recall-reply", recall) == []
    for label, broken in _mutations(recall, [
        ("truncated false with index lines", lambda r: r.update(truncated=False)),
        ("missing spent_chars", lambda r: r.pop("spent_chars")), ("bad reason", lambda r: r["memories"]["index_lines"][0].update(reason="x")),
        ("budget 0", lambda r: r.update(budget=0)),
    ]):
        assert errors("recall-reply", broken), label
    for broken in ({"error": "not found: x"}, {"error": "x", "code": "oops"}, {"error": "not found: x", "code": "invalid_input"},
                   {"error": "invalid input: a\u0007", "code": "invalid_input"}):
        assert errors("error", broken), broken


def test_check_jsonschema_cli_rejects_a_broken_reply(example_site, tmp_path):
    broken = _note(example_site)
    broken["modified"] = "last week"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    done = run_check("read-reply", path)
    assert done.returncode == 1 and "ok -- validation done" not in done.stdout
