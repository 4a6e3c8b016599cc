"""Build progress on stderr: silent for quick builds, one line per phase once a build passes ~2 s."""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, stream=None, after: float = 2.0):
        self.stream, self.after = stream or sys.stderr, after   # looked up now: a caller may have replaced it
        self.start = time.perf_counter()
        self.last = None

    def __call__(self, phase: str) -> None:
        elapsed = time.perf_counter() - self.start
        if phase != self.last and elapsed >= self.after:
            self.stream.write(f"bf build: {phase}… ({elapsed:.1f} s)\n")
        self.last = phase

    def done(self, report) -> None:
        for notice in report.notices:
            self.stream.write(f"bf build: {notice}\n")
        if report.withheld:
            said = ", ".join(f"{n} {rule}" for rule, n in sorted(report.withheld.items()))
            self.stream.write(f"bf build: kept out of the site: {said}\n")
        elapsed = time.perf_counter() - self.start
        self.stream.write(f"bf build: {report.files} files ({report.reused} unchanged) in {elapsed:.2f} s"
                          f" → {report.out}; {len(report.problems)} problem(s)\n")
