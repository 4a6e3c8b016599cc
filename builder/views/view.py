"""View: one read's reply pages and the template that shows them (built by views/, written by emit/).
In its own module so the view modules can build Views without importing the views package."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class View:
    brain: str
    ref: str
    template: str | None          # None: a reply with no HTML page of its own (sections: anchors)
    pages: tuple[dict, ...]
    variant: tuple[str, ...] = ()  # ("r", relation) for relation pages
    extra: dict = field(default_factory=dict)
