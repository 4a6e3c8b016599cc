"""The published reply schemas (docs/replies.md#bf-schema): load one by kind, or a validator for it.

The files in schemas/ are the contract; this module only finds and reads them, so the
CLI (`bf schema`), the MCP server (each tool's outputSchema) and the tests use the very
bytes the site ships under schemas/.
"""
from __future__ import annotations

import json
from functools import lru_cache

from .kernel.errors import InvalidInput
from .kernel.resources import resource_dir

KINDS = ("search-reply", "read-reply", "recall-reply", "error")


def path(kind: str):
    if kind not in KINDS:
        raise InvalidInput("kind", f"unknown schema {kind!r} (valid: {', '.join(KINDS)})")
    return resource_dir("schemas") / f"{kind}.schema.json"


def text(kind: str) -> str:
    return path(kind).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def _loaded(kind: str) -> str:
    return text(kind)


def load(kind: str) -> dict:
    """A fresh copy of the schema: callers (the MCP SDK) may annotate what they get."""
    return json.loads(_loaded(kind))


# Keywords that judge a value by itself, whatever their schema's other keywords say: two sets of
# them with no keyword in common judge as their union does.
_ON_ITSELF = frozenset({"type", "format", "pattern", "minLength", "maxLength", "minimum", "maximum", "enum",
                        "const", "description"})


def inlined(kind: str) -> dict:
    """The schema with each `$ref` replaced by the definition it names and `$defs` dropped: the
    same constraints with nothing to resolve. The MCP tools publish it as their outputSchema,
    since clients revalidate every result, and the Python SDK's validator follows each `$ref`
    anew, which costs a large part of a reply's validation (docs/replies.md#mcp)."""
    root = load(kind)
    defs = root.pop("$defs", {})

    def inline(node):
        if isinstance(node, list):
            return [inline(v) for v in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:   # the files refer only to their own "#/$defs/NAME", none to itself
            target = inline(defs[node["$ref"].removeprefix("#/$defs/")])
            rest = {k: inline(v) for k, v in node.items() if k != "$ref"}
            if not rest:
                return target
            if target.keys() <= _ON_ITSELF and not target.keys() & rest.keys():
                return {**rest, **target}   # one schema of both: nothing to descend into
            return {**rest, "allOf": [target, *rest.get("allOf", [])]}
        return {k: inline(v) for k, v in node.items()}
    return inline(root)


def validator(kind: str):
    """A Draft 2020-12 validator with format checking on (date-time, date)."""
    from jsonschema import Draft202012Validator
    schema = load(kind)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
