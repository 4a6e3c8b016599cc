"""bf serve: the site under its base_url, 404.html for missing files, the live script only in
served HTML, the event stream that tells an open page to reload or show a failed build, the
file-event filter, and the rebuild queue (no timing: builds are gated by events)."""
from __future__ import annotations

import json
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from builder import MANIFEST
from builder.emit.pagefind import PagefindError
from builder.kernel.errors import BuildError, ConfigError
from builder.serve import EVENTS, make_server, site_prefix
from builder.watch import BrainFilter, Rebuilder, WatchBuilds, watch_brains, watch_instant

WAIT = 60   # seconds: a generous bound for a stream message or a file event, never asserted on


@pytest.fixture
def served():
    servers = []

    def start(out):
        server = make_server(out, 0)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        host, port = server.server_address[:2]
        return f"http://{host}:{port}", server
    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url) as resp:
            return resp.status, resp.headers.get("Content-Type", ""), resp.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("Content-Type", ""), err.read().decode("utf-8")


def sha_of(body: str) -> str:
    return re.search(r'"sha": "([0-9a-f]+)"', body).group(1)


def test_serves_under_base_url_with_live_script(make_brain, build_site, tmp_path, served):
    brain = make_brain(tmp_path, {"index.md": "# Home\n\nHello.\n", "brain.toml": 'base_url = "/my-repo/"\n'})
    out = tmp_path / "site"
    build_site(brain, out)
    assert site_prefix(out) == "/my-repo/"
    origin, _ = served(out)
    status, ctype, body = get(origin + "/my-repo/")
    assert status == 200 and "html" in ctype
    assert "bf serve: live preview" in body and json.dumps(EVENTS) in body
    for page in out.rglob("*.html"):                                  # only in the served bytes
        assert "bf serve" not in page.read_text() and "bf-serve" not in page.read_text()
    status, _, body = get(origin + "/my-repo/_bf/manifest.json")
    assert status == 200 and '"build_id"' in body and "bf serve" not in body
    status, _, body = get(origin + "/")                                 # redirected to the prefix
    assert status == 200 and "bf serve: live preview" in body
    status, ctype, body = get(origin + "/my-repo/nope.html")
    assert status == 404 and "Not found" in body and "bf serve: live preview" in body
    status, _, _ = get(origin + "/elsewhere/index.html")
    assert status == 404


def test_serves_every_page_at_its_readable_url(make_brain, build_site, tmp_path, served):
    """A page at its path (percent-encoded by the browser) and, as GitHub Pages does, without .html;
    a note named as its folder wins /x over the folder's /x/ redirect."""
    brain = make_brain(tmp_path, {"Café menü.md": "# Menu\n", "projects.md": "# P\n", "projects/a b.md": "# AB\n"})
    out = tmp_path / "site"
    build_site(brain, out)
    origin, _ = served(out)
    for path, ref in [("brain/Caf%C3%A9-men%C3%BC.html", "Café menü.md"), ("brain/Caf%C3%A9-men%C3%BC", "Café menü.md"),
                      ("brain/projects", "projects.md"), ("brain/projects/a-b", "projects/a b.md")]:
        status, _, body = get(f"{origin}/{path}")
        assert status == 200 and f'<meta name="bf-ref" content="{ref}">' in body, path


class Stream:
    """The server-sent events of one open page, read message by message."""

    def __init__(self, origin: str, path: str, sha: str):
        query = urllib.parse.urlencode({"path": path, "sha": sha})
        self.resp = urllib.request.urlopen(f"{origin}{EVENTS}?{query}", timeout=WAIT)

    def next(self) -> dict | None:
        """The next message, None when the server ended the stream; keep-alives are skipped."""
        while True:
            line = self.resp.readline()
            if not line:
                return None
            if line.startswith(b"data: "):
                self.resp.readline()   # the blank line ending the event
                return json.loads(line[6:])

    def close(self):
        self.resp.close()


def _open_page(make_brain, build_site, tmp_path, served):
    """Two notes built and served, and the event stream of note a's open page."""
    brain = make_brain(tmp_path, {"notes/a.md": "# A\n\nFirst.\n", "notes/b.md": "# B\n\nOther.\n"})
    out = tmp_path / "site"
    build_site(brain, out)
    origin, server = served(out)
    path = "/brain/notes/a.html"
    _, _, body = get(origin + path)
    return brain, out, origin, server, path, body, Stream(origin, path, sha_of(body))


def test_an_open_page_reloads_only_when_its_own_bytes_change(make_brain, build_site, tmp_path, served):
    brain, out, origin, server, path, body, stream = _open_page(make_brain, build_site, tmp_path, served)
    first = stream.next()
    assert first == {"build": json.loads((out / MANIFEST).read_text())["build_id"], "error": None, "left_out": [], "reload": False}

    # Another note changes and the clock moves ("as of" on every page): this page stays.
    (brain / "notes" / "b.md").write_text("# B\n\nOther, edited.\n")
    build_site(brain, out, now="2026-12-02T13:00:00Z")
    server.live.publish(None, None)
    second = stream.next()
    assert second["build"] != first["build"] and second["reload"] is False

    # A failed build: the error reaches the page, which is still the same page.
    server.live.publish(None, "invalid input: brain.toml: Invalid value")
    assert stream.next() == {"build": second["build"], "error": "invalid input: brain.toml: Invalid value", "left_out": [], "reload": False}

    # Its own note changes: reload, and the stream ends (the reloaded page opens a new one).
    (brain / "notes" / "a.md").write_text("# A\n\nSecond.\n")
    build_site(brain, out, now="2026-12-02T13:00:00Z")
    server.live.publish(None, None)
    assert stream.next() == {"build": json.loads((out / MANIFEST).read_text())["build_id"], "error": None, "left_out": [], "reload": True}
    assert stream.next() is None
    stream.close()

    # A page served before a build it never heard of reloads as soon as it connects.
    stale = Stream(origin, path, sha_of(body))
    assert stale.next()["reload"] is True
    stale.close()


def test_a_note_a_save_breaks_is_named_on_the_open_page_which_stays(make_brain, build_site, tmp_path, served):
    brain, out, origin, server, path, body, stream = _open_page(make_brain, build_site, tmp_path, served)
    assert stream.next()["left_out"] == []
    good = (brain / "notes/a.md").read_text()
    (brain / "notes/a.md").write_text("---\ntitle: [\n---\n# A\n")
    server.live.publish(build_site(brain, out), None)
    broken = stream.next()
    assert broken["reload"] is False and broken["error"] is None   # the page stays as it last built
    assert broken["left_out"] == ["notes/a.md: malformed frontmatter: line 3: expected the node content, "
                                  "but found '<stream end>'; note not published"]
    (brain / "notes/a.md").write_text(good)
    server.live.publish(build_site(brain, out), None)
    fixed = stream.next()
    assert fixed["left_out"] == [] and fixed["error"] is None and get(origin + path)[0] == 200   # the page is back
    stream.close()


def test_the_terminal_names_what_a_rebuild_left_out():
    said = []
    bad = {"brain": "brain", "path": "notes/a.md", "kind": "frontmatter", "message": "malformed frontmatter; note not published"}
    rebuilder = Rebuilder(lambda changed: type("Report", (), {"files": 1, "reused": 0, "build_id": "x",
                                                              "problems": [bad]})(), lambda *a: None, said.append)
    assert rebuilder.rebuild()
    assert said[-1] == "bf serve: left out: notes/a.md: malformed frontmatter; note not published"


def report(build_id: str):
    return type("Report", (), {"files": 1, "reused": 0, "build_id": build_id})()


def test_a_save_during_a_build_queues_exactly_one_more(tmp_path):
    started, release = threading.Semaphore(0), threading.Event()
    calls, outcomes, later = [], [], []

    def slow_build(changed):
        calls.append(changed)
        started.release()
        release.wait()
        return report(f"b{len(calls)}")

    rebuilder = Rebuilder(slow_build, lambda report, error: outcomes.append((report.build_id, error)), log=lambda _: None,
                          later=lambda stop: later.append(len(calls)) or report(f"i{len(calls)}"))
    worker = threading.Thread(target=rebuilder.run, daemon=True)
    worker.start()
    rebuilder.request()
    assert started.acquire(timeout=WAIT)            # build 1 is running
    for n in range(5):                              # five saves while it runs
        rebuilder.request({("modified", f"/brain/{n}.md")})
    release.set()
    assert rebuilder.wait_idle(timeout=WAIT)
    assert len(calls) == 2 and outcomes == [("b1", None), ("b2", None), ("i2", None)]
    assert calls == [None, {Path(f"/brain/{n}.md") for n in range(5)}]   # the first walks; then what changed
    assert later == [2]     # not after build 1: a save was waiting, whose build leaves its own
    rebuilder.stop()
    worker.join(WAIT)
    assert not worker.is_alive()


def test_after_the_first_build_a_save_is_looked_at_alone():
    calls = []
    rebuilder = Rebuilder(lambda changed: calls.append(changed) or report(f"b{len(calls)}"), lambda *_: None,
                          log=lambda _: None)
    assert rebuilder.first()
    worker = threading.Thread(target=rebuilder.run, daemon=True)
    worker.start()
    rebuilder.request({("modified", "/brain/a.md")})
    assert rebuilder.wait_idle(timeout=WAIT)
    assert calls == [None, {Path("/brain/a.md")}]   # the first walks; the first save's build reads its path alone
    rebuilder.stop()
    worker.join(WAIT)


def test_a_save_while_the_search_is_indexed_stops_it_and_queues_one_build():
    indexing, calls, outcomes, logs = threading.Semaphore(0), [], [], []

    def later(stop):
        calls.append("later")
        if calls.count("later") == 1:
            indexing.release()
            assert stop.wait(WAIT)            # set by the saves below
            raise PagefindError("pagefind stopped")
        return report("indexed")

    rebuilder = Rebuilder(lambda changed: calls.append(changed) or report(f"b{len(calls)}"),
                          lambda report, error: outcomes.append((report and report.build_id, error)), logs.append, later)
    worker = threading.Thread(target=rebuilder.run, daemon=True)
    worker.start()
    rebuilder.request()
    assert indexing.acquire(timeout=WAIT)     # build 1 is published, its pages being indexed
    for n in range(3):
        rebuilder.request({("modified", f"/brain/{n}.md")})
    assert rebuilder.wait_idle(timeout=WAIT)
    assert calls == [None, "later", {Path(f"/brain/{n}.md") for n in range(3)}, "later"]
    assert outcomes == [("b1", None), ("b3", None), ("indexed", None)]   # the stopped one is no failure
    assert not any("failed" in line for line in logs)
    rebuilder.stop()
    worker.join(WAIT)


def test_a_watch_rebuild_shows_its_pages_then_ends_as_a_full_build(make_brain, build_site, tmp_path, monkeypatch):
    """The pages first, with the last search bundles; then the bundles, the site a full build's.
    Stopped in between (a newer save), the indexing build leaves the site it found."""
    brain = make_brain(tmp_path, {"notes/a.md": "# A\n\nFirst.\n", "notes/b.md": "# B\n\nOther.\n"})
    out = tmp_path / "site"
    monkeypatch.setattr("builder.watch.watch_instant", lambda: "2026-12-02T13:00:00Z")
    builds = WatchBuilds([brain], out, None)
    builds.build(None)
    bundles = (out / "pagefind" / "bundles.json").read_bytes()
    for text in ("Second, with zebras.", "Third, with otters."):
        (brain / "notes" / "a.md").write_text(f"# A\n\n{text}\n")
        builds.build({brain / "notes" / "a.md"})
        assert text in (out / "brain" / "notes" / "a.html").read_text()
        assert (out / "pagefind" / "bundles.json").read_bytes() == bundles
        if "zebras" in text:
            stop = threading.Event()
            stop.set()
            site = tree(out)
            with pytest.raises(BuildError, match="stopped"):
                builds.index(stop)
            assert tree(out) == site
    builds.index(threading.Event())
    assert (out / "pagefind" / "bundles.json").read_bytes() != bundles
    build_site(brain, tmp_path / "clean" / "site", now="2026-12-02T13:00:00Z", pagefind=True)
    assert tree(out) == tree(tmp_path / "clean" / "site")


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_watch_build_instant_is_the_clock_rounded_up_to_the_minute():
    from datetime import datetime, timezone
    assert watch_instant(datetime(2026, 12, 2, 13, 0, 0, tzinfo=timezone.utc)) == "2026-12-02T13:00:00Z"
    assert watch_instant(datetime(2026, 12, 2, 13, 0, 0, 1, tzinfo=timezone.utc)) == "2026-12-02T13:01:00Z"
    assert watch_instant(datetime(2026, 12, 31, 23, 59, 30, tzinfo=timezone.utc)) == "2027-01-01T00:00:00Z"


def test_a_failed_build_is_reported_and_the_next_good_one_clears_it(make_brain, build_site, tmp_path):
    brain = make_brain(tmp_path, {"notes/a.md": "# A\n\nFirst.\n"})
    out = tmp_path / "site"
    outcomes, logs = [], []
    seen = []
    rebuilder = Rebuilder(lambda changed: seen.append(changed) or build_site(brain, out),
                          lambda report, error: outcomes.append(error), log=logs.append)
    assert rebuilder.rebuild() is True
    good = (out / MANIFEST).read_bytes()
    (brain / "brain.toml").write_text("name = [\n")
    assert rebuilder.rebuild() is False
    assert (out / MANIFEST).read_bytes() == good                      # the last good site stays
    assert outcomes[-1].startswith("invalid input: brain.toml") and "build failed" in logs[-1]
    (brain / "brain.toml").write_text('name = "brain"\n')
    rebuilder.request({("modified", str(brain / "brain.toml"))})
    assert rebuilder.rebuild(rebuilder.changed) is True and outcomes[-1] is None
    assert seen[-1] is None       # after a failed build the next one walks: the failed one may have used up its paths

    def broken(changed):
        raise ConfigError("brain.toml: nonsense")
    assert Rebuilder(broken, lambda r, e: outcomes.append(e), log=logs.append).rebuild() is False
    assert outcomes[-1] == "invalid input: brain.toml: nonsense"


def test_the_filter_ignores_bf_own_folders_and_hidden_files(tmp_path):
    brain = tmp_path / "brain"
    keep = BrainFilter([brain], brain / "_site")
    assert keep(None, str(brain / "notes" / "a.md"))
    assert keep(None, str(brain / "brain.toml"))
    assert keep(None, str(brain / ".bfignore"))                        # it changes what is built
    assert not keep(None, str(brain / "_site" / "brain" / "a.html"))
    assert not keep(None, str(brain / ".bf-cache" / "_site.parse.jsonl"))
    assert not keep(None, str(brain / "._site.building-123" / "index.html"))
    assert not keep(None, str(brain / "notes" / ".a.md.swp"))
    assert not keep(None, str(brain / ".git" / "index"))
    elsewhere = BrainFilter([brain], tmp_path / "public")               # --out beside the brain
    assert not elsewhere(None, str(tmp_path / "public" / "index.html"))
    assert not elsewhere(None, str(tmp_path / ".public.old" / "index.html"))
    assert not elsewhere(None, str(tmp_path / ".bf-cache" / "public.files.json"))
    assert elsewhere(None, str(brain / "public" / "a.md"))               # a brain folder of that name


def test_file_events_reach_the_rebuilder(make_brain, tmp_path):
    brain = make_brain(tmp_path, {"notes/a.md": "# A\n"})
    seen, stop = [], threading.Event()
    arrived = threading.Event()

    def on_change(changes):
        seen.append({path for _, path in changes})
        arrived.set()

    watcher = threading.Thread(target=watch_brains, args=([brain], tmp_path / "site", on_change, stop, print), daemon=True)
    watcher.start()
    try:
        # Native events only flow once the watch is set up: write until one batch arrives.
        for attempt in range(WAIT * 4):
            (brain / "notes" / "b.md").write_text(f"# B\n\n{attempt}\n")
            if arrived.wait(0.25):
                break
        assert any(str(brain / "notes" / "b.md") in batch for batch in seen)
    finally:
        stop.set()
        watcher.join(WAIT)
    assert not watcher.is_alive()


def test_cli_serve_refuses_a_missing_site(bf, tmp_path):
    code, _, err = bf("serve", "--out", tmp_path / "none", "--port", "0")
    assert code == 5 and "index_missing" in err


def test_watching_falls_back_to_polling_when_file_events_cannot_start(monkeypatch, tmp_path):
    calls = []

    def fake_watch(*paths, force_polling=None, **kwargs):
        calls.append(force_polling)
        if not force_polling:
            raise OSError("OS file watch limit reached")
        yield {(1, str(tmp_path / "a.md"))}

    monkeypatch.setattr("builder.watch.watchfiles.watch", fake_watch)
    logs, batches = [], []
    watch_brains([tmp_path], tmp_path / "site", batches.append, threading.Event(), logs.append)
    assert calls == [None, True] and len(batches) == 1
    assert "polling" in logs[0]
