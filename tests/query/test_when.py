"""query/when.py: the date a query names, as a period key; its JS twin (site/engine/when.js)
gives the same key for every text."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from builder.query.when import period_of

ROOT = Path(__file__).resolve().parents[2]
CASES = {
    "What did Nate do for Joanna on 25 May, 2022?": "2022-05-25",
    "where did she travel in July 2022": "2022-07",
    "notes from 2026-03-03": "2026-03-03",
    "March 3rd, 2026 standup": "2026-03-03",
    "the 1st of Sept. 2023": "2023-09-01",
    "Dec 2024 budget": "2024-12",
    "meeting 2026-13": "2026",      # no month 13: the year alone
    "on 32 May 2020 or 2021": "2020-05",
    "In 1999": "1999",
    "in 2150": None,
    "may I ask": None,
    "version 12345": None,
    "２０２２ in full-width digits": None,
    "ſept 2020": "2020",           # ASCII letters only, in both runtimes
}


@pytest.mark.parametrize("text,key", CASES.items())
def test_period_of(text, key):
    assert period_of(text) == key


def test_js_twin_agrees(node):
    texts = list(CASES) + ["2026-00-10 x", "JUNE 5 2021", "5th of jun 2021", "aug., 2020", "x 2020-7"]
    script = ("import('./site/engine/when.js').then(({ periodOf }) => {"
              " const texts = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
              " console.log(JSON.stringify(texts.map(periodOf))) })")
    proc = subprocess.run([node, "-e", script], input=json.dumps(texts).encode(), capture_output=True, cwd=ROOT,
                          timeout=60, check=True)
    assert json.loads(proc.stdout) == [period_of(t) for t in texts]
