"""Every versioned format is named and numbered once, in builder/kernel/formats.py
(docs/code.md#twins): no other module of the package spells a format's version, and each JS
module that checks one holds it under the same name (tests/query/test_twins.py writes it)."""
from __future__ import annotations

import re
from pathlib import Path

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
