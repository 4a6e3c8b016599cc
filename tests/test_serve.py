"""bf serve: the site under its base_url, 404.html for missing files, the reload script only in
served HTML, and a rebuild when a watched brain changes (no timing: polls are called directly)."""
from __future__ import annotations

import threading
import urllib.error
import urllib.request

import pytest

from builder import MANIFEST
from builder.serve import Watcher, make_server, site_prefix


@pytest.fixture
def served():
    servers = []

    def start(out):
        server = make_server(out, 0)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        host, port = server.server_address[:2]
        return f"http://{host}:{port}"
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


def test_serves_under_base_url_with_reload_script(make_brain, build_site, tmp_path, served):
    brain = make_brain(tmp_path, {"index.md": "# Home\n\nHello.\n", "brain.toml": 'base_url = "/my-repo/"\n'})
    out = tmp_path / "site"
    build_site(brain, out)
    assert site_prefix(out) == "/my-repo/"
    origin = served(out)
    status, ctype, body = get(origin + "/my-repo/")
    assert status == 200 and "html" in ctype
    assert "bf serve: reload" in body and '"/my-repo/_bf/manifest.json"' in body
    assert "bf serve" not in (out / "index.html").read_text()          # only in the served bytes
    status, _, body = get(origin + "/my-repo/_bf/manifest.json")
    assert status == 200 and '"build_id"' in body and "bf serve" not in body
    status, _, body = get(origin + "/")                                 # redirected to the prefix
    assert status == 200 and "bf serve: reload" in body
    status, ctype, body = get(origin + "/my-repo/nope.html")
    assert status == 404 and "Not found" in body
    status, _, _ = get(origin + "/elsewhere/index.html")
    assert status == 404


def test_watcher_rebuilds_when_the_brain_changes(make_brain, tmp_path):
    brain = make_brain(tmp_path, {"notes/a.md": "# A\n\nFirst.\n"})
    out = tmp_path / "site"
    logs = []
    watcher = Watcher([brain], out, log=logs.append)
    assert watcher.check() is True                     # first poll builds
    first = (out / MANIFEST).read_text()
    assert watcher.check() is False                    # nothing changed
    (brain / "notes" / "b.md").write_text("# B\n\nSecond.\n")
    assert watcher.check() is True
    assert (out / MANIFEST).read_text() != first
    assert any("rebuilt" in line for line in logs)
    (brain / "brain.toml").write_text("nonsense = 1\n")  # a broken config is reported, never raised
    assert watcher.check() is False
    assert "build failed" in logs[-1]


def test_cli_serve_refuses_a_missing_site(bf, tmp_path):
    code, _, err = bf("serve", "--out", tmp_path / "none", "--port", "0")
    assert code == 5 and "index_missing" in err
