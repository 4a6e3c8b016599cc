"""A new user's first minutes: the README's quick-start command, run verbatim in a fresh clone, and
every command with relative paths from a working directory other than the brain's parent.

The quick-start command is read out of README.md, so README and test cannot drift. It installs
bf into a fresh venv with `pip install .` (dependencies from the package index, as a user gets them)
and ends in `bf serve` on port 8000, which the test stops after fetching two pages."""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-12-02T12:00:00Z"


def quick_start_command() -> str:
    """The first ```sh block under "## Quick start" in README.md, as one command line."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "README.md: no ```sh block under ## Quick start"
    return block.group(1).strip()


def fresh_clone(dest: Path) -> Path:
    """`git clone` of this repository, with the working tree's tracked and new files laid over it
    (in CI the two are equal; locally this tests what is about to be committed)."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(dest)], check=True)
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode("utf-8").split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
        elif not src.exists() and (dest / rel).exists():
            (dest / rel).unlink()     # deleted in the working tree
    return dest


def fetch(url: str, deadline: float, proc: subprocess.Popen | None = None) -> str:
    """GET `url`, retrying until it answers or `deadline` (time.monotonic) passes."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:
                return resp.read().decode("utf-8")
        except OSError as exc:
            if proc is not None and proc.poll() is not None:
                out = proc.stdout.read() if proc.stdout else ""
                pytest.fail(f"the command ended (exit {proc.returncode}) before serving {url}:\n{out[-4000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"{url} did not answer: {exc}")
            time.sleep(0.5)


def title_of(html: str) -> str:
    return re.search(r"<title>(.*?)</title>", html, re.S).group(1)


def port_free(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) != 0


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.slow
def test_readme_quick_start_runs_verbatim_in_a_fresh_clone(tmp_path):
    command = quick_start_command()
    assert "bf serve" in command and "examples/brain" in command
    url = re.search(r"<(http://127\.0\.0\.1:\d+/)>", (ROOT / "README.md").read_text(encoding="utf-8")).group(1)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    assert port_free(port), f"port {port} is busy: the quick start serves there"
    clone = fresh_clone(tmp_path / "bf")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "BF_SITE")}
    proc = subprocess.Popen(["bash", "-c", command], cwd=clone, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        home = fetch(url, time.monotonic() + 600, proc)
        note = fetch(url + "brain/projects/new-website.html", time.monotonic() + 10)
    finally:
        stop(proc)
    assert "Example Co. — new website brain" in title_of(home)
    assert title_of(note).startswith("New website")
    assert (clone / "_site" / "pagefind" / "bundles.json").is_file(), "the quick start builds the pagefind bundles"


def bf(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "builder", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


@pytest.mark.slow
def test_every_command_takes_relative_paths_from_another_cwd(tmp_path):
    """Brain in work/brains/b, site in work/out/site, commands run from work/elsewhere."""
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples" / "brain", work / "brains" / "b")
    here = work / "elsewhere"
    here.mkdir()
    built = bf("build", "../brains/b", "--out", "../out/site", "--now", NOW, "--quiet", cwd=here)
    assert built.returncode == 0, built.stderr
    assert (work / "out" / "site" / "pagefind" / "bundles.json").is_file()
    assert not (here / "_site").exists() and not (here / "out").exists()

    found = bf("search", "pricing", "--site", "../out/site", cwd=here)
    assert found.returncode == 0 and '"ref"' in found.stdout, found.stderr
    read = bf("read", "projects/new-website.md", cwd=here, env={"BF_SITE": "../out/site"})
    assert read.returncode == 0 and '"page": "note"' in read.stdout, read.stderr
    recall = bf("recall", "pricing", "--site", "../out/site", cwd=here)
    assert recall.returncode == 0 and '"memories"' in recall.stdout, recall.stderr
    check = bf("check", "../brains/b", cwd=here)
    assert check.returncode in (0, 1) and '"problems"' in check.stdout, check.stderr

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "builder", "serve", "--out", "../out/site", "--port", str(port)],
                            cwd=here, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        page = fetch(f"http://127.0.0.1:{port}/brain/projects/new-website.html", time.monotonic() + 30, proc)
    finally:
        stop(proc)
    assert title_of(page).startswith("New website")


def test_build_with_no_brain_builds_the_current_folder(tmp_path):
    brain = tmp_path / "b"
    shutil.copytree(ROOT / "examples" / "brain", brain)
    done = bf("build", "--now", NOW, "--no-pagefind", "--quiet", cwd=brain)
    assert done.returncode == 0, done.stderr
    assert (brain / "_site" / "brain" / "projects" / "new-website.html").is_file()
    again = bf("build", "--now", NOW, "--no-pagefind", "--quiet", cwd=brain)
    assert again.returncode == 0, again.stderr   # its own _site is not read as part of the brain
    assert "_site" not in bf("check", cwd=brain).stdout


def test_build_with_no_brain_elsewhere_is_a_clear_error(tmp_path):
    done = bf("build", cwd=tmp_path)
    assert done.returncode == 2
    assert '"code": "invalid_input"' in done.stderr and "brain.toml" in done.stderr


def pages_workflow(doc: str) -> str:
    """The ```yaml block under "## Publish on GitHub Pages" in `doc`."""
    section = (ROOT / doc).read_text(encoding="utf-8").split("## Publish on GitHub Pages", 1)[1]
    return re.search(r"```yaml\n(.*?)```", section, re.S).group(1)


def test_the_pages_workflow_installs_bf_as_the_quick_start_does(tmp_path):
    import yaml
    text = pages_workflow("README.md")
    assert pages_workflow("docs/site.md") == text   # one workflow, shown twice
    workflow = yaml.safe_load(text)
    steps = workflow["jobs"]["build"]["steps"]
    bf = next(s for s in steps if s.get("with", {}).get("repository"))
    assert bf["with"] == {"repository": "${{ env.BF_REPOSITORY }}", "ref": "${{ env.BF_REF }}", "path": ".bf"}
    assert {"run": "pip install ./.bf"} in steps and "git+" not in text and "OWNER" not in text
    assert workflow["env"]["BRAIN"] == "."
    # the build step, as the workflow runs it, on a vault at a repository's root (bf's checkout in .bf)
    # and in a subfolder
    build = next(s["run"] for s in steps if s.get("run", "").startswith("bf build"))
    for brain, notes in ((".", tmp_path / "root"), ("notes", tmp_path / "sub" / "notes")):
        (notes / ".bf").mkdir(parents=True)
        (notes / ".bf" / "README.md").write_text("# bf's own readme\n", encoding="utf-8")
        (notes / "index.md").write_text("# Home\n", encoding="utf-8")
        repo = tmp_path / "root" if brain == "." else tmp_path / "sub"
        command = build.replace('"${{ steps.pages.outputs.base_url }}/"', "https://me.github.io/vault/")
        run = subprocess.run(command + " --no-pagefind --no-embeddings -q", shell=True, cwd=repo, capture_output=True,
                             text=True, env=dict(os.environ, BRAIN=brain, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}"))
        assert run.returncode == 0 and run.stderr == "", run.stderr
        assert (repo / "_site" / "sitemap.xml").is_file() and not list((repo / "_site").rglob("*README*.html"))
