"""The benchmark runs end to end on a tiny brain and reports every field (SPEC §11).

Numbers are not checked (no timing asserts): only that each field is there, and is a
number or null with a stated reason. One run feeds all the tests.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bench.gen import HUB_LINKERS, generate, queries
from bench.rebuild import EDITS
from bench.run import PHASES

ROOT = Path(__file__).resolve().parents[1]
FIELDS = [
    "notes", "records", "cpus", "load_avg_1m", "create_file_us", "generate_s", "raw_note_bytes", "raw_record_text_bytes",
    "raw_text_bytes", "build_s", "build_notes_per_s", "build_files_written", "build_problems",
    "build_peak_rss_mb", "build_children_peak_rss_mb", "build_total_pss_peak_mb", "site_bytes", "site_bytes_per_note", "pagefind_bytes",
    "search_data_bytes", "search_data_to_raw_ratio", "rebuild_s", "rebuild_without_pagefind_s",
    "rebuild_files_written", "queries", "stock_lunr_build_s", "stock_lunr_bytes", "stock_lunr_p50_ms",
    "stock_lunr_p95_ms", "stock_lunr_empty_replies", "stock_lunr_bytes_to_raw_note_ratio",
    "bf_index_build_s", "bf_index_bytes", "bf_index_p50_ms", "bf_index_p95_ms", "bf_index_empty_replies",
    "bf_index_bytes_to_raw_note_ratio", "search_warm_p50_ms", "search_warm_p95_ms", "search_empty_replies",
    "search_cold_process_s", "mcp_search_p50_ms", "mcp_search_p95_ms", "mcp_search_empty_replies",
    "query_peak_rss_mb", "read_cold_process_s", "read_peak_rss_mb",
    "ratio_stock_to_bf_search_p50_ms", "ratio_stock_to_bf_search_p95_ms",
] + [f"ratio_stock_to_bf_index_{k}" for k in ("build_s", "bytes", "p50_ms", "p95_ms")] + [
    f"{tag}_phase_{phase}_s" for tag in ("build", "rebuild") for phase in PHASES] + [
    f"rebuild_{edit}_{key}" for edit in EDITS + ("body_edit_cold",)
    for key in ("s", "without_pagefind_s", "files_written")] + [
    "rebuild_title_edit_backlinks", "first_view_files", "first_view_bytes_gz", "first_view_html_bytes_gz",
    "first_view_with_graph_bytes_gz", "graph_data_bytes_gz"] + [
    f"phone_{what}_{stat}" for what in ("scoped_first_result_s", "scoped_final_list_s", "scoped_first_result_kb",
                                        "scoped_final_list_kb", "dialog_field_s", "dialog_first_result_s")
    for stat in ("p50", "max")] + ["phone_scoped_cls_max", "phone_queries"]


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> list[dict]:
    work = tmp_path_factory.mktemp("bench")
    proc = subprocess.run([ROOT / "scripts" / "bench", "--notes", "40", "--records-per-note", "2",
                           "--reps", "1", "--workdir", str(work), "--base", str(ROOT),
                           "--phone-queries", "1", "0", "0"],   # one cold page of each kind: the fields, not the figures
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_one_object_per_size(rows):
    assert len(rows) == 1
    assert rows[0]["notes"] == 40 and rows[0]["records"] == 80


def test_every_field_is_numeric_or_null_with_reason(rows):
    row = rows[0]
    missing = [k for k in FIELDS if k not in row]
    assert not missing
    reasons = row["null_reasons"]
    for key in FIELDS:
        value = row[key]
        if value is None:
            assert isinstance(reasons.get(key), str) and reasons[key], key
        else:
            assert isinstance(value, (int, float)) and not isinstance(value, bool), (key, value)
    assert set(reasons) <= set(FIELDS)


def test_the_mcp_round_trip_is_measured_over_the_same_queries(rows):
    """bf mcp answers the benchmark's queries as the in-process search does (as many empty)."""
    row = rows[0]
    assert row["mcp_search_p50_ms"] is not None, row["null_reasons"].get("mcp_search_p50_ms")
    assert row["mcp_search_p50_ms"] <= row["mcp_search_p95_ms"]
    assert row["mcp_search_empty_replies"] == row["search_empty_replies"]


def test_the_query_mix_is_timed_in_a_fresh_session(rows):
    """80 queries (20 frequent, 20 rare, 20 of three frequent terms, 20 scoped), listed, each
    timed once in a fresh bf mcp session; a cold bf search of a frequent term."""
    row = rows[0]
    assert row["mix_mcp_p50_ms"] is not None, row["null_reasons"].get("mix_mcp_p50_ms")
    assert row["mix_mcp_p50_ms"] <= row["mix_mcp_p95_ms"] and row["cold_search_frequent_s"] > 0
    mix = row["mix_queries"]
    assert len(mix) == 80 and all(len(q.split()) == 3 for q, _ in mix[40:60])
    assert all(scope for _, scope in mix[60:]) and not any(scope for _, scope in mix[:60])


def test_the_generated_brain_builds_without_problems(rows):
    assert rows[0]["build_problems"] == 0


def test_generation_is_deterministic(tmp_path):
    a, b = generate(tmp_path / "a", 30, 2), generate(tmp_path / "b", 30, 2)
    files_a = sorted(p.relative_to(a.root) for p in a.root.rglob("*") if p.is_file())
    assert files_a == sorted(p.relative_to(b.root) for p in b.root.rglob("*") if p.is_file())
    assert all((a.root / p).read_bytes() == (b.root / p).read_bytes() for p in files_a)
    assert queries(a) == queries(b)


def test_the_issue_shape_is_the_brain_issue_14_describes(tmp_path):
    """1–4 sections a note, records in chat and issues (about four in five in chat), 50 authors."""
    corpus = generate(tmp_path / "brain", 200, 5, shape="issue")
    assert {len(n["headings"]) for n in corpus.notes} <= {1, 2, 3, 4}
    by_source = {d.name: sum(1 for _ in d.iterdir()) for d in (corpus.root / "memories").iterdir()}
    assert set(by_source) == {"chat", "issues"} and 0.7 < by_source["chat"] / corpus.records < 0.9
    authors = {json.loads(f.read_text())["author"] for f in (corpus.root / "memories").rglob("*.json")}
    assert len(corpus.people) == 50 and authors <= {f"person:{p}" for p in corpus.people}
    toml = (corpus.root / "brain.toml").read_text()
    assert "[sources.chat]" in toml and "[sources.mail]" not in toml


def test_the_edited_title_has_the_promised_backlinks(tmp_path):
    """The title edit reaches HUB_LINKERS notes or more: count the notes naming notes[0] by title or alias."""
    corpus = generate(tmp_path / "brain", 300, 0)
    hub = corpus.notes[0]
    names = [hub["title"], *hub["aliases"]]
    linking = [n for n in corpus.notes[1:]
               if any(f"[[{name}]]" in n["body"] or f"[[{name}|" in n["body"] or f"[[{name}#" in n["body"]
                      for name in names)]
    assert len(linking) == corpus.hub_backlinks >= HUB_LINKERS


def test_each_benchmarked_edit_reaches_the_site(rows):
    """A rebuild after a no-op edit would write no file: each edit's rebuild writes some."""
    row = rows[0]
    assert row["rebuild_title_edit_backlinks"] == row["notes"] - 1   # 40 notes: all the others link it
    for edit in EDITS:
        assert row[f"rebuild_{edit}_files_written"] > 0, edit


def test_a_base_checkout_builds_and_rebuilds_the_same_brain_in_the_same_run(rows):
    """--base DIR (here this checkout, through its .venv as any other): the same full build and
    edits, each beside this checkout's figure with their ratio."""
    row = rows[0]
    assert row["base_build_files_written"] == row["build_files_written"]
    for edit in EDITS + ("body_edit_cold",):
        assert row[f"base_rebuild_{edit}_files_written"] > 0, edit   # the edit reached the base's site too
        assert row[f"ratio_base_to_this_rebuild_{edit}_s"] > 0, edit
    assert row["ratio_base_to_this_build_s"] > 0


def test_query_set_mixes_every_kind(tmp_path):
    kinds = {kind for kind, _, _ in queries(generate(tmp_path / "brain", 60, 1))}
    assert kinds == {"common", "rare", "multi", "phrase", "scoped"}


def test_site_bytes_and_files_are_reported_by_kind(rows):
    row = rows[0]
    kinds = row["site_by_kind"]
    assert {"note_pages", "note_replies", "cards", "lists", "record_data", "index"} <= set(kinds)
    assert row["site_files"] == sum(k["files"] for name, k in kinds.items() if name != "pagefind")
    assert sum(k["bytes"] for name, k in kinds.items() if name != "pagefind") == row["site_bytes"]
    assert all(k["bytes_per_note"] == round(k["bytes"] / row["notes"]) for k in kinds.values())


def test_the_file_creation_probe_creates_new_files_and_keeps_them(tmp_path):
    from bench.run import PROBE_FILES, _create_cost
    assert _create_cost(tmp_path) > 0 and _create_cost(tmp_path) > 0   # a kept --workdir: new names
    assert len(list((tmp_path / "create-probe").iterdir())) == 2 * PROBE_FILES


def test_total_memory_counts_the_children_of_a_command():
    """bench/memory.py sums PSS over a process and its descendants: a child holding 200 MB counts."""
    import sys
    import time
    from bench.memory import PeakPss
    hold = "x = bytearray(200 * 2**20); x[::4096] = b'1' * len(x[::4096]); import time; time.sleep(3)"
    proc = subprocess.Popen(["/bin/sh", "-c", f"{sys.executable} -c \"{hold}\"; true"])
    sampler = PeakPss(proc.pid)
    proc.wait()
    peak = sampler.stop()
    assert peak is not None and peak >= 190, peak


def test_the_phone_measurement_loads_the_search_page_and_the_dialog(rows):
    """bench/phone.py: a cold scoped search page and a dialog search under phone throttling."""
    from bench.phone import CHROMIUM
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    row = rows[0]
    assert row["phone_queries"] == 1, row["null_reasons"].get("phone_queries")
    assert 0 < row["phone_scoped_first_result_s_p50"] <= row["phone_scoped_final_list_s_p50"]
    assert 0 < row["phone_scoped_first_result_kb_p50"] <= row["phone_scoped_final_list_kb_p50"]
    assert row["phone_dialog_field_s_max"] >= 0 and row["phone_dialog_first_result_s_p50"] > 0
