"""Source coverage (docs/brain.md#_sourcejson): is each source delivering, as of the build instant?"""
from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from itertools import groupby
from operator import attrgetter
from statistics import median

from ..kernel import refs
from ..kernel.model import Brain, Record, Source
from ..kernel.times import rfc3339

NEEDS_ATTENTION = ("failed", "never_collected", "overdue", "silent")


def records_by_source(brain: Brain) -> dict[str, list[Record]]:
    out: dict[str, list[Record]] = {name: [] for name in brain.sources}
    for name, run in groupby(brain.records.values(), key=attrgetter("source")):   # runs: a loop in C
        out.setdefault(name, []).extend(run)
    return out


def status(source: Source, records: list[Record], as_of: datetime) -> str:
    if source.status == "failed":
        return "failed"
    ran_ok = source.last_run is not None and source.status in ("ok", None)
    if source.configured and not records and not ran_ok:
        return "never_collected"
    cadence = timedelta(days=source.cadence_days) if source.cadence_days else None
    # Lacking _source.json, the newest observation stands in for the last successful run.
    last = source.last_run if ran_ok else max((r.observed for r in records if r.observed), default=None)
    if cadence and last is not None and as_of - last > 2 * cadence:
        return "overdue"
    times = sorted(r.time for r in records if r.time is not None and r.time <= as_of)
    if times:
        gaps = [b - a for a, b in zip(times, times[1:])]
        limit = max(4 * cadence if cadence else timedelta(0), 4 * median(gaps) if gaps else timedelta(0))
        if limit and as_of - times[-1] > limit:
            return "silent"
    return "ok"


def coverage(brain: Brain, source: Source, records: list[Record], as_of: datetime) -> dict:
    """The source's coverage (a dict callers never change)."""
    state = status(source, records, as_of)
    ref = f"memories/{source.name}"
    newest = max((r.time for r in records if r.time is not None and r.time <= as_of), default=None)
    cadence = source.cadence_days
    return {
        "brain": brain.name, "ref": ref, "uri": refs.uri(brain.name, ref), "kind": "source",
        "source": source.name, "title": source.title, "status": state, "needs_attention": state in NEEDS_ATTENTION,
        "priority": source.priority, "configured": source.configured,
        "cadence": (f"{int(cadence)}d" if float(cadence).is_integer() else f"{cadence}d") if cadence else None,
        "last_run": rfc3339(source.last_run), "run_status": source.status, "error": source.error,
        "records": len(records), "undated": sum(1 for r in records if r.time is None),
        "newest": rfc3339(newest),
    }


def all_coverage(brain: Brain, as_of: datetime, memo=None) -> dict[str, dict]:
    """Every source's coverage; `memo` (a memo.Memo, kept by the caller): the last build's of
    each source whose records are the same objects (a 50,000-record source's sorts cost 0.04 s)."""
    by_source = records_by_source(brain)
    if memo is None:
        return {name: coverage(brain, src, by_source.get(name, []), as_of) for name, src in sorted(brain.sources.items())}
    return {name: memo(name, (src, tuple(by_source.get(name, ())), as_of),
                       partial(coverage, brain, src, by_source.get(name, []), as_of))
            for name, src in sorted(brain.sources.items())}
