"""Every versioned format is named and numbered once, in builder/kernel/formats.py
(docs/code.md#twins): no other module of the package spells a format's version, and each JS
module that checks one holds it under the same name (tests/query/test_twins.py writes it)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from jsonschema import Draft202012Validator

from builder.kernel import formats

ROOT = Path(__file__).resolve().parents[1]
NAMED = {name: value for name, value in vars(formats).items() if name.isupper()}


def test_formats_names_every_format():
    assert {"BUNDLE_VERSION", "LUNR_FORMAT", "STORE_FORMAT", "DATA_FORMAT", "VECTORS_FORMAT", "PAGEFIND_FORMAT",
            "FINGERPRINT_FORMAT", "PARSE_CACHE_FORMAT"} <= NAMED.keys()


def test_no_other_module_spells_a_format_version():
    strings = [v for v in NAMED.values() if isinstance(v, str)]
    found = []
    for path in sorted((ROOT / "builder").rglob("*.py")):
        if path.name == "formats.py":
            continue
        text = path.read_text("utf-8")
        found += [f"{path.relative_to(ROOT)} spells {v!r}" for v in strings if re.search(rf"['\"]{re.escape(v)}['\"]", text)]
        found += [f"{path.relative_to(ROOT)}: {m.group(0)!r}" for m in re.finditer(
            r"^(?:[A-Z_]*FORMAT|BUNDLE_VERSION)\s*=\s*[0-9'\"].*$", text, re.M)]
    assert not found, "\n".join(found)


def test_the_browser_holds_each_format_it_reads_once():
    """A format string appears in the engine's JS only as its named constant."""
    strings = {v: n for n, v in NAMED.items() if isinstance(v, str)}
    problems = []
    for path in sorted((ROOT / "site" / "engine").rglob("*.js")):
        text = path.read_text("utf-8")
        for value, name in strings.items():
            for m in re.finditer(rf"['\"]{re.escape(value)}['\"]", text):
                line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
                if not re.match(rf"(?:export )?const {name} = $", line):
                    problems.append(f"{path.relative_to(ROOT)}: {value!r} outside const {name}")
    assert not problems, "\n".join(problems)


# The item's own fields, made by the engine rather than copied from its store entry
# (query/search.item_of): who it is, where it ranked, its excerpt and a record's source.
OWN = {"kind", "brain", "ref", "uri", "title", "excerpt", "score", "lexical_score", "similarity", "path", "source"}


def _item_schema() -> dict:
    return json.loads((ROOT / "schemas" / "search-reply.schema.json").read_text("utf-8"))


def test_the_search_item_schema_and_the_declared_store_fields_agree():
    """A field the schema names that no declaration copies, or one declared that the schema does
    not name (docs/code.md, "A field of a search item"), fails here."""
    item = _item_schema()["$defs"]["item"]
    declared = [name for name, *_ in formats.ITEM_FIELDS + formats.RECORD_FIELDS]
    assert len(declared) == len(set(declared))
    assert set(item["properties"]) - OWN == set(declared) - OWN
    assert {name for name, *_ in formats.ITEM_FIELDS} <= set(item["required"])
    assert {name for name, *_ in formats.RECORD_FIELDS} - set(item["required"]) <= set(item["then"]["required"])


def test_each_declared_default_is_a_value_the_schema_allows():
    """An entry without a field gives its declared value: a reply holding it must validate."""
    schema = _item_schema()
    for name, default, quoted in formats.ITEM_FIELDS + formats.RECORD_FIELDS:
        assert isinstance(quoted, bool)
        part = {"$defs": schema["$defs"], **schema["$defs"]["item"]["properties"][name]}
        errors = list(Draft202012Validator(part).iter_errors(default))
        assert not errors, (name, default, errors[0].message)
