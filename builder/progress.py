"""bf build's words on stderr (docs/replies.md#bf-build): each step as it runs, then one summary.

On a terminal, a live display (rich): the step running and a bar of the build's steps, and while
notes are parsed and pages written, a bar of each count (`notes 1,204/1,204 parsed`). Elsewhere
(a pipe, a CI log), a plain line per step and count once the build passes ~2 s.
Either way one summary follows: each phase's time and files, files written and reused, notes kept
out by rule, problems by kind with their first paths, and what a local build skipped (said here
once, not as a warning line). `--quiet` makes none of it.
"""
from __future__ import annotations

import sys
import time
from collections import Counter
from types import MappingProxyType

from .emit.emitters import EMITTERS

# The build's steps as a person reads them, in order. What the build tells (runner.Phases.tell) is
# a phase of the checklist or a stage's name; a stage belongs to the step of its scope.
STEPS = ("parse", "views", "pages", "search index", "site files", "full-text index", "swap")
OF_SCOPE = MappingProxyType({"views": "pages", "index": "search index", "site": "site files",
                             "content": "full-text index"})
STEP_OF = MappingProxyType({"parse": "parse", "views": "views", "lunr": "search index", "content": "full-text index",
                            "swap": "swap", **{s.name: OF_SCOPE[s.scope] for s in EMITTERS}})
FIRST_PATHS = 3   # paths named per kind of problem; bf check lists them all
DONE = MappingProxyType({"notes": "parsed", "pages": "written"})   # what a count counts, said after it
EVERY = 1.0       # seconds between a count's plain lines, but for its last


class Progress:
    """A build's `progress` (build.build): called with each timing bucket or step as it starts,
    `count(text)` with what the step running did. `live`: the terminal display (None: whether
    `stream` is a terminal); `after`: seconds before plain lines start."""

    def __init__(self, stream=None, after: float = 2.0, live: bool | None = None):
        self.stream, self.after = stream or sys.stderr, after   # looked up now: a caller may have replaced it
        self.start = time.perf_counter()
        self.step = None
        self.display = self.bar = None
        self.counts: dict[str, object] = {}   # what → its task on the display, else when its last line was said
        if live if live is not None else _is_terminal(self.stream):
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Display, SpinnerColumn, \
                TextColumn, TimeElapsedColumn
            self.display = Display(SpinnerColumn(), TextColumn("{task.fields[label]}{task.description}"), BarColumn(),
                                   MofNCompleteColumn(), TextColumn("{task.fields[unit]}"), TimeElapsedColumn(),
                                   console=Console(file=self.stream, force_terminal=True), transient=True)
            self.display.start()
            self.bar = self.display.add_task("parse", total=len(STEPS), label="bf build: ", unit="steps")

    def __call__(self, phase: str) -> None:
        step = STEP_OF.get(phase, phase)
        if step == self.step:
            return
        self.step = step
        if self.display is not None:
            done = STEPS.index(step) if step in STEPS else self.display.tasks[0].completed
            self.display.update(self.bar, description=step, completed=max(done, self.display.tasks[0].completed))
            return
        elapsed = time.perf_counter() - self.start
        if elapsed >= self.after:
            self.stream.write(f"bf build: {step}… ({elapsed:.1f} s)\n")

    def count(self, text: str) -> None:
        """What the step running did (`parse: 1,204 notes, 310 records`): a line above the bar on
        a terminal, a plain line elsewhere once the build passes `after`."""
        if self.display is not None:
            self.display.console.print(f"bf build: {text}", highlight=False)
        elif time.perf_counter() - self.start >= self.after:
            self.stream.write(f"bf build: {text}\n")

    def tally(self, what: str, done: int, total: int) -> None:
        """How far the step running is: `done` of `total` notes parsed or pages written. A bar of
        its own on a terminal; elsewhere, once the build passes `after`, a plain line each
        EVERY seconds and one at the end."""
        if self.display is not None:
            if what not in self.counts:
                self.counts[what] = self.display.add_task(what, total=total, label="  ", unit=DONE.get(what, ""))
            self.display.update(self.counts[what], completed=done, total=total)
            return
        now = time.perf_counter()
        if now - self.start >= self.after and (done == total or now - self.counts.get(what, 0.0) >= EVERY):
            self.counts[what] = now
            self.stream.write(f"bf build: {what} {done:,}/{total:,} {DONE.get(what, '')}".rstrip() + "\n")

    def close(self) -> None:
        """The live display ended (a build's end, or its failure): the terminal is the shell's again."""
        if self.display is not None:
            self.display.stop()
            self.display = None

    def done(self, report) -> None:
        self.close()
        self.stream.write("".join(line + "\n" for line in summary(report, time.perf_counter() - self.start)))
        self.stream.flush()


def summary(report, elapsed: float) -> list[str]:
    """The lines that end a build: what it wrote, how long each phase took, what it kept out and why."""
    lines = [f"bf build: {report.files:,} files ({report.files - report.reused:,} written, {report.reused:,} reused)"
             f" in {elapsed:.2f} s → {report.out}"]
    files = Counter()
    for stage in EMITTERS:
        files[stage.phase] += report.emitted.get(stage.name, 0)
    # time spent in each phase, wherever it ran: phases run beside one another add up past the wall time
    lines += [f"  {phase:<12}{seconds:7.2f} s" + (f"  {files[phase]:,} files" if files[phase] else "")
              for phase, seconds in report.timings.items()]
    for brain, kept in report.withheld.items():
        if kept:
            lines.append(f"  kept out of {brain}: " + ", ".join(f"{n:,} {rule}" for rule, n in sorted(kept.items())))
    kinds = Counter(p["kind"] for p in report.problems)
    if kinds:
        lines.append(f"  {len(report.problems):,} problem(s); bf check lists them all:")
    for kind, n in sorted(kinds.items()):
        paths = [p["path"] for p in report.problems if p["kind"] == kind]
        more = f", … {n - FIRST_PATHS:,} more" if n > FIRST_PATHS else ""
        lines.append(f"    {kind} ({n:,}): {', '.join(paths[:FIRST_PATHS])}{more}")
    lines += [f"  {notice}" for notice in report.notices]
    return lines


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
