"""memories/SOURCE/ID.json → Record, and memories/SOURCE/_source.json → collector status."""
from __future__ import annotations

import hashlib
import json

from ..kernel.model import Record
from ..kernel.times import parse_instant

MAX_RECORD_BYTES = 1024 * 1024


class RecordError(ValueError):
    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def _load_object(data: bytes) -> dict:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError("encoding", f"not UTF-8 (byte {exc.start})") from None
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise RecordError("json", f"malformed JSON: {getattr(exc, 'msg', 'too deeply nested')}"
                          + (f" at line {exc.lineno} column {exc.colno}" if hasattr(exc, "lineno") else "")) from None
    if not isinstance(obj, dict):
        raise RecordError("json", f"expected a JSON object, got {type(obj).__name__}")
    return obj


def _strings(value) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, str))
    return ()


def _instant(obj: dict, key: str, where: str):
    value = obj.get(key)
    if value is None:
        return None
    parsed = parse_instant(value) if isinstance(value, str) else None
    if parsed is None:
        raise RecordError("record", f"{where}: expected an RFC 3339 instant, got {value!r}")
    return parsed


def parse_record(source: str, rid: str, data: bytes) -> Record:
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError("too_large", f"record is {len(data)} bytes; the limit is {MAX_RECORD_BYTES}")
    obj = _load_object(data)
    text = obj.get("text")
    if not isinstance(text, str):
        raise RecordError("record", "record has no string `text`" if text is None else "`text` must be a string")
    attributes = obj.get("attributes") if isinstance(obj.get("attributes"), dict) else {}
    relations = obj.get("relations") if isinstance(obj.get("relations"), dict) else {}
    title = obj.get("title") if isinstance(obj.get("title"), str) else ""
    return Record(
        ref=f"{source}:{rid}", source=source, id=rid, text=text,
        title=title.strip() or _title_from_text(text) or rid,
        time=_instant(obj, "time", "time"),
        observed=_instant(attributes, "observed", "attributes.observed"),
        edited=_instant(obj, "edited", "edited"),
        uri=obj.get("uri") if isinstance(obj.get("uri"), str) else None,
        author=obj.get("author") if isinstance(obj.get("author"), str) else None,
        refs=_strings(obj.get("refs")),
        relations={str(k): _strings(v) for k, v in sorted(relations.items())},
        priority=obj.get("priority") if isinstance(obj.get("priority"), str) else None,
        attributes=attributes,
        sha256=hashlib.sha256(data).hexdigest(),
        raw=obj,
        thread=obj["thread"] if isinstance(obj.get("thread"), str) and obj["thread"].strip() else None,
    )


def _title_from_text(text: str) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first[:80] + ("…" if len(first) > 80 else "")


def parse_source_status(data: bytes) -> dict:
    obj = _load_object(data)
    status = obj.get("status")
    if status not in (None, "ok", "failed"):
        raise RecordError("source", f"status: expected 'ok' or 'failed', got {status!r}")
    last_run = obj.get("last_run")
    parsed = parse_instant(last_run) if isinstance(last_run, str) else None
    if last_run is not None and parsed is None:
        raise RecordError("source", f"last_run: expected an RFC 3339 instant, got {last_run!r}")
    return {"status": status, "last_run": parsed, "error": obj.get("error") if isinstance(obj.get("error"), str) else None}
