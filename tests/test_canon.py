"""Canonical JSON (builder/kernel/canon.py): orjson's bytes, and json's where orjson refuses."""
import json

from builder.kernel.canon import canonical_json, canonical_text


def _json(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def test_the_bytes_are_sorted_compact_and_unescaped():
    value = {"b": [1, "é", None, True, 0.5], "a": {"z": "\u2028\x1f", "é": -3}}
    assert canonical_json(value) == _json(value)
    assert canonical_text(value) == _json(value).decode("utf-8")


def test_what_orjson_refuses_is_written_as_json_wrote_it():
    for value in ({"rating": 123456789012345678901234567890}, {"a": {10: "x", 9: "y"}}):
        assert canonical_json(value) == _json(value)


def test_a_field_holding_an_integer_beyond_64_bits_builds(make_brain, build_site, tmp_path):
    brain = make_brain(tmp_path, {
        "brain.toml": 'name = "brain"\nfields = ["rating"]\n',
        "notes/a.md": "---\nrating: 123456789012345678901234567890\n---\n# A\n\nText.\n",
    })
    build_site(brain, tmp_path / "site")
    reply = json.loads((tmp_path / "site" / "brain" / "notes" / "a.md.json").read_text(encoding="utf-8"))
    assert reply["fields"] == {"rating": 123456789012345678901234567890}
