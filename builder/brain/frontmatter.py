"""Split and parse a note's YAML front block. Anchors/aliases are refused (no YAML bombs)."""
from __future__ import annotations

import yaml


class FrontmatterError(ValueError):
    pass


class _NoAliasLoader(yaml.SafeLoader):
    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise FrontmatterError(f"line {event.start_mark.line + 2}: YAML aliases (*name) are not allowed")
        return super().compose_node(parent, index)


# libyaml's loader is ~5x faster (a fifth of parsing a note went to PyYAML's pure-Python one), but
# it composes aliases without a hook and recurses on the C stack: a block that could hold an alias
# or deep nesting, and any block libyaml refuses (for the same message every time), goes to the
# pure-Python loader, which refuses aliases and nesting it cannot handle.
_FAST = getattr(yaml, "CSafeLoader", None)
NESTING_FAST = 64


def _load(block: str):
    if _FAST is not None and "*" not in block and block.count("[") + block.count("{") < NESTING_FAST:
        try:
            return yaml.load(block, Loader=_FAST)
        except yaml.YAMLError:
            pass
    return yaml.load(block, Loader=_NoAliasLoader)


# Dates stay datetime.date/datetime as PyYAML gives them; everything else is plain data.
def split(text: str) -> tuple[dict, str, int]:
    """(frontmatter, body, number of characters before the body)."""
    if not text.startswith("---"):
        return {}, text, 0
    lines = text.splitlines(keepends=True)
    if lines[0].rstrip("\r\n") != "---":
        return {}, text, 0
    consumed = len(lines[0])
    for line in lines[1:]:
        consumed += len(line)
        if line.rstrip("\r\n") in ("---", "..."):
            block = text[len(lines[0]):consumed - len(line)]
            try:
                data = _load(block)
            except FrontmatterError:
                raise
            except RecursionError:      # "[[[[…" thousands deep: PyYAML's parser recurses per level
                raise FrontmatterError("nested too deeply") from None
            except yaml.YAMLError as exc:
                mark = getattr(exc, "problem_mark", None)
                where = f"line {mark.line + 2}: " if mark else ""
                raise FrontmatterError(f"{where}{getattr(exc, 'problem', None) or exc}") from None
            if data is None:
                data = {}
            if not isinstance(data, dict):
                raise FrontmatterError(f"expected a mapping of keys, got {type(data).__name__}")
            return data, text[consumed:], consumed
    raise FrontmatterError("front block opened with '---' is never closed")
