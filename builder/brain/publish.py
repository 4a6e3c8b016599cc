"""What a site publishes (docs/brain.md#publishing): the rules that keep a note, a source's
records or an attachment out. What they keep out is gone from the model before anything is
resolved, so no page, reply, index, listing or link can name it."""
from __future__ import annotations

# The rules, as the build's summary names what each kept out.
DRAFT = "notes marked draft: true"
PRIVATE = "notes marked publish: false"
UNMARKED = "notes not marked publish: true"     # [site] publish = "explicit"
SOURCE = "records of unpublished sources"
ATTACHMENT = "attachments only unpublished notes use"

# Frontmatter values read as yes and no: YAML 1.1 words (`yes`, `off`) come through as text
# from a YAML 1.2 parser, and a quoted "false" means false to the person who wrote it.
_YES = frozenset({"true", "yes", "on"})
_NO = frozenset({"false", "no", "off"})


def _flag(value) -> bool | None:
    """True, False, or None for a value that says neither."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        return True if word in _YES else False if word in _NO else None
    return None


def note_rule(frontmatter: dict, mode: str) -> str | None:
    """The rule that keeps a note out, or None when it is published. Fails closed: a `publish`
    value that says neither yes nor no keeps the note out."""
    if _flag(frontmatter.get("draft")) is True:
        return DRAFT
    publish = _flag(frontmatter.get("publish")) if "publish" in frontmatter else None
    if "publish" in frontmatter and publish is not True:
        return PRIVATE
    if mode == "explicit" and publish is not True:
        return UNMARKED
    return None


def source_published(conf, mode: str) -> bool:
    """A source's records are published unless brain.toml's `[sources.NAME] publish = false`;
    in explicit mode only with `publish = true`."""
    publish = conf.publish if conf is not None else None
    return publish is True if mode == "explicit" else publish is not False


def private_attachments(private_notes: dict, attachments: list[str], resolver, used: set[str]) -> set[str]:
    """The attachments the private notes link or embed that no published item uses (`used`)."""
    out = set()
    for ref, note in private_notes.items():
        for raw in note.links:
            path = resolver.attachment(ref, raw.target) if raw.target else None
            if path is not None and path not in used:
                out.add(path)
    return out & set(attachments)
