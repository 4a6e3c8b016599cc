"""load(root) → Brain: discover → parse (with a cache) → resolve. Nothing here writes files."""
from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from ..kernel.config import load_config
from ..kernel.fingerprint import listing
from ..kernel.model import Brain, Problem, Source
from ..kernel.parallel import SERIAL, Counted, Spread, chunks
from .discover import discover
from .rediscover import rediscover
from .gittimes import commit_times
from .pagenames import settle
from .notes import MAX_NOTE_BYTES, NoteError, parse_note
from . import publish
from .records import MAX_RECORD_BYTES, RecordError, parse_record, parse_source_status
from .reach import reaches
from .resolve import Resolved, Resolver, build_names, known_identities, missing_files, resolve_links


# A file modified this recently may change again within its clock's granularity keeping its
# stat (git's "racy" files): its digest is not remembered by its stat.
RACY_NS = 2_000_000_000


@dataclass
class LoadMemo:
    """What the last load of a brain in this process left for the next (parsecache.Cache keeps it):
    `stats`: path → (its stat, sha256 of its bytes), so a file whose stat is what it was is not
    read again; `resolved`: (the resolver's inputs, resolve.Resolved);
    `listing`: what the fingerprint recorded of the brain's files (kernel/fingerprint.listing);
    `identities`: the identities each item names (resolve.known_identities); `names`: the last
    (notes, identities, claimed names) (resolve.build_names); `found`: (the
    folders skipped, what discovery found), for the next load after file events (rediscover.py);
    `brain`: the name `resolved` was made under (its problems name it)."""
    stats: dict = field(default_factory=dict)
    resolved: tuple = (None, None)
    listing: object = None
    identities: dict = field(default_factory=dict)
    found: tuple = (None, None)
    names: tuple | None = None
    brain: str = ""


def load(root: Path, *, skip: set[Path] = frozenset(), cache: dict | None = None,
         memo: LoadMemo | None = None, changed: set[Path] | None = None, spread: Spread = SERIAL, tally=None) -> Brain:
    """Parse the brain at `root`. `cache` maps (ref, sha-of-bytes, config) → Note, and ("record",
    path, sha-of-bytes) → Record, and is updated in place (an unchanged file keeps its object).
    `memo` (updated in place) spares reading unchanged files and resolving unchanged items' links.
    `changed`: the paths file events named since the load that left `memo`, which discovery
    then looks at alone (rediscover.py); None: walk the brain. `spread`: the workers the runner
    allows the notes' parse (kernel/parallel.py); `tally("notes", done, total)`, of notes parsed."""
    root = Path(root)
    cfg = load_config(root)
    if cfg.site.theme:   # its templates and files are the site's look, not the brain's content
        skip = set(skip) | {root / cfg.site.theme}
    found = _found(root, skip, memo, changed)
    problems = [Problem(cfg.name, path, kind, msg) for path, kind, msg in found.skipped]
    cache = {} if cache is None else cache
    digest = _Digests(root, found.stats, memo.stats if memo else None, problems, cfg.name)
    withheld: dict[str, int] = {}
    notes, private, records = _parsed(found, digest, cache, cfg, problems, spread, withheld, tally)
    digest.remember()
    sources = _sources(root, cfg, found, problems)
    shown = {name: src for name, src in sources.items() if publish.source_published(cfg.sources.get(name), cfg.site.publish)}
    records, sources = _published_records(records, sources.keys() - shown.keys(), withheld), shown
    identities = known_identities(cfg.identities, notes, records, sources, memo.identities if memo else None)
    names = build_names(notes, identities, memo.names if memo else None)
    if memo:
        memo.names = (notes, identities, names)
    attachments = _safe_attachments(found.attachments, cfg, problems)
    moved, clashes = settle(cfg.name, notes, identities, sources, attachments)
    problems.extend(clashes)
    resolver = Resolver(notes, records, names, identities, sources, attachments)
    inputs = resolver.inputs()
    if memo and memo.brain != cfg.name:   # a renamed brain: every link problem names it anew
        memo.resolved, memo.brain = (None, None), cfg.name
    known = memo.resolved[1] if memo and memo.resolved[1] is not None else Resolved()
    links, link_problems = resolve_links(cfg.name, notes, records, resolver, known,
                                         reaches(memo.resolved[0], inputs) if memo else None)
    if memo:
        memo.resolved = (inputs, known)
    problems.extend(link_problems + missing_files(cfg.name, notes, found.holds))
    if private:
        used = {link.ref for link in links if link.status == "resolved"} | set(cfg.site.files())
        hidden = publish.private_attachments(private, attachments, resolver, used)
        if hidden:
            attachments = [rel for rel in attachments if rel not in hidden]
            withheld[publish.ATTACHMENT] = len(hidden)

    files = listing(root, found.stats, found.others, found.unread, memo.listing if memo else None)
    if memo:
        memo.listing = files
    git = commit_times(root)
    modified = {}
    for ref, note in notes.items():
        modified[ref] = note.modified or git.get(ref) or _mtime(found.stats[ref])
    return Brain(
        root=str(root.resolve()), config=cfg, notes=notes, modified=modified, records=records,
        sources=sources, links=tuple(links), names=names, identities=identities,
        attachments=tuple(attachments), problems=tuple(sorted(problems, key=lambda p: (p.path, p.kind, p.message))),
        listing=files, moved=moved, withheld=withheld, note_links=sum(map(len, map(known.links.__getitem__, notes))),   # resolve_links: notes first
    )


def _found(root: Path, skip: set[Path], memo: LoadMemo | None, changed: set[Path] | None):
    """discover(root, skip), or the last load's Found with the paths `changed` looked at again."""
    found, key = None, frozenset(skip)
    if changed is not None and memo is not None and memo.found[0] == key:
        base = root.resolve()
        rels = set()
        for path in changed:
            path = Path(os.path.abspath(path))
            try:   # the folder resolved, not the file: a changed link is itself, not its target
                rel = (path.parent.resolve() / path.name).relative_to(base).as_posix()
            except ValueError:
                continue   # another brain's
            rels.add("" if rel == "." else rel)
        found = rediscover(root, skip, memo.found[1], rels)
    if found is None:
        found = discover(root, skip)
    if memo is not None:
        memo.found = (key, found)
    return found


# Files a browser would run as a page or script on the site's own origin.
ACTIVE_ATTACHMENTS = (".html", ".htm", ".xhtml", ".xht", ".js", ".mjs", ".svg", ".svgz")


def _safe_attachments(paths: list[str], cfg, problems: list) -> list[str]:
    """Attachments to copy. Active content is copied only when the owner allows raw HTML."""
    if cfg.allow_html:
        return list(paths)
    keep = []
    for rel in paths:
        if rel.lower().endswith(ACTIVE_ATTACHMENTS):
            problems.append(Problem(cfg.name, rel, "unsafe_attachment",
                                    "active content (could run scripts on the site): not copied; set allow_html = true to publish it"))
        else:
            keep.append(rel)
    return keep


def _parsed(found, digest, cache: dict, cfg, problems: list, spread: Spread, withheld: dict,
            tally=None) -> tuple[dict, dict, dict]:
    """The brain's published notes, the notes kept out (brain/publish.py; counted by rule in
    `withheld`) and the records, each from `cache` while its bytes are those it was parsed from;
    `cache` is left holding what this brain still holds."""
    cfg_key = (cfg.timezone, cfg.fields, cfg.allow_html)
    read = {}
    for rel in found.notes:
        sha, data = digest(rel, MAX_NOTE_BYTES, lambda sha: (rel, sha, cfg_key) in cache)
        if sha is not None:
            read[rel] = ((rel, sha, cfg_key), data)
    misses = [(rel, data) for rel, (key, data) in read.items() if key not in cache]
    used = {}
    worth = len(misses) >= 200
    told = Counted(tally, "notes", len(read), done=len(read) - len(misses)) if tally else None
    # sixteen small chunks a worker, taken as each is done: the workers end nearly together
    with spread.mapped(_parse_chunk, chunks(misses, spread.workers(worth) * 16), cfg, worth=worth,
                       each=told) as parsed_notes:
        # the records are read and parsed here while the workers parse the notes
        records = _records(found.records, digest, cache, used, problems, cfg.name)
        parsed = {rel: note for part in parsed_notes() for rel, note in part.items()}

    notes, private = {}, {}
    for rel, (key, _) in read.items():
        note = cache.get(key) or parsed[rel]
        if isinstance(note, NoteError):
            problems.append(Problem(cfg.name, rel, note.kind, str(note)))
            continue
        used[key] = note
        rule = publish.note_rule(note.frontmatter, cfg.site.publish)
        if rule is None:
            notes[rel] = note
        else:
            private[rel] = note
            withheld[rule] = withheld.get(rule, 0) + 1
    cache.clear()           # keep only what this brain still holds
    cache.update(used)
    return notes, private, records


def _published_records(records: dict, hidden: set[str], withheld: dict) -> dict:
    """`records` but those of the `hidden` sources (brain/publish.py)."""
    if not hidden:
        return records
    kept = {ref: rec for ref, rec in records.items() if rec.source not in hidden}
    withheld[publish.SOURCE] = len(records) - len(kept)
    return kept


def _records(rels: list[str], digest: "_Digests", cache: dict, used: dict, problems: list, brain: str) -> dict:
    """ref → Record of the record files at `rels`, from `cache` where their bytes are unchanged
    (each one taken marked in `used`); a malformed one is a problem."""
    records, kept = {}, digest.unchanged(rels, cache, used)
    for rel in rels:
        rec = kept.get(rel)
        if rec is not None:   # the common case of a rebuild, spared the rest
            records[rec.ref] = rec
            continue
        _, source, filename = rel.split("/")
        sha, data = digest(rel, MAX_RECORD_BYTES, lambda sha: ("record", rel, sha) in cache)
        if sha is None:
            continue
        key = ("record", rel, sha)   # kept in memory only (parsecache.py)
        rec = cache.get(key)
        if rec is None:
            try:
                rec = parse_record(source, filename[:-len(".json")], data)
            except RecordError as exc:
                problems.append(Problem(brain, rel, exc.kind, str(exc)))
                continue
        used[key] = rec
        records[rec.ref] = rec
    return records


def _parse_chunk(cfg, items: list[tuple[str, bytes]]) -> dict:
    """rel → Note, or the NoteError that says why it is skipped (runs in a worker)."""
    out = {}
    for rel, data in items:
        try:
            out[rel] = parse_note(rel, data, cfg)
        except NoteError as exc:
            out[rel] = exc
    return out


def _read(root: Path, rel: str, problems: list, brain: str, limit: int) -> bytes | None:
    try:
        # O_NOFOLLOW: a file swapped for a link after discovery is still never followed.
        fd = os.open(root / rel, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            # Read at most limit + 1 bytes: a huge file costs no memory, and the parser still
            # sees it is too large (it may have grown since any stat).
            size = os.fstat(fh.fileno()).st_size
            if size > limit:
                problems.append(Problem(brain, rel, "too_large", f"file is {size} bytes; the limit is {limit}"))
                return None
            return fh.read(limit + 1)
    except OSError as exc:
        problems.append(Problem(brain, rel, "unreadable", f"cannot read: {exc.strerror}"))
        return None


class _Digests:
    """sha256 of a file's bytes, read at most limit + 1 bytes (_read), or taken from the last load
    in this process (`memo`: path → (stat, sha)) when the file's stat is unchanged and `known(sha)`
    says its parsed object is still at hand."""

    def __init__(self, root: Path, stats: dict, memo: dict | None, problems: list, brain: str):
        self.root, self.stats, self.memo, self.problems, self.brain = root, stats, memo, problems, brain
        self.now, self.seen = time.time_ns(), {}

    def __call__(self, rel: str, limit: int, known) -> tuple[str | None, bytes | None]:
        stat = self.stats.get(rel)
        old = self.memo.get(rel) if self.memo is not None else None
        if old is not None and old[0] == stat and known(old[1]):
            self.seen[rel] = old
            return old[1], None
        data = _read(self.root, rel, self.problems, self.brain, limit)
        if data is None:
            return None, None
        sha = hashlib.sha256(data).hexdigest()
        if stat is not None and self.now - stat[0] > RACY_NS:
            self.seen[rel] = (stat, sha)
        return sha, data

    def unchanged(self, rels: list[str], cache: dict, used: dict) -> dict:
        """rel → its record, for the records at `rels` whose stat is the last load's and whose
        object is in `cache` (then marked `used`). One loop with its lookups bound: a call per
        record weighs on a rebuild at 50k records."""
        out: dict = {}
        if self.memo is None:
            return out
        memo, stats, found, seen = self.memo.get, self.stats.get, cache.get, self.seen
        for rel in rels:
            old = memo(rel)
            if old is not None and old[0] == stats(rel):
                key = ("record", rel, old[1])
                rec = found(key)
                if rec is not None:
                    seen[rel] = old
                    used[key] = rec
                    out[rel] = rec
        return out

    def remember(self) -> None:
        if self.memo is not None:
            self.memo.clear()
            self.memo.update(self.seen)


def _mtime(stat: tuple) -> datetime:
    """Whole seconds, as git's commit times (discover's stat: mtime in ns first)."""
    return datetime.fromtimestamp(stat[0] // 1_000_000_000, timezone.utc)


def _sources(root: Path, cfg, found, problems) -> dict[str, Source]:
    status = {}
    for rel in found.source_files:
        name = rel.split("/")[1]
        data = _read(root, rel, problems, cfg.name, MAX_RECORD_BYTES)
        if data is None:
            continue
        try:
            status[name] = parse_source_status(data)
        except RecordError as exc:
            problems.append(Problem(cfg.name, rel, exc.kind, str(exc)))
    names = sorted(set(cfg.sources) | set(found.source_dirs) | set(status))
    out = {}
    for name in names:
        conf = cfg.sources.get(name)
        st = status.get(name, {})
        out[name] = Source(
            name=name, title=conf.title if conf else name, cadence_days=conf.cadence_days if conf else None,
            priority=conf.priority if conf else "normal", configured=conf is not None,
            last_run=st.get("last_run"), status=st.get("status"), error=st.get("error"))
    return out
