"""The wheel carries builder/ with templates/, site/ and schemas/, and not the
benchmark (bench/): build it from a clean copy of the repository, list its files, install it
into a fresh venv and build the example brain with that venv's `bf`.

The fresh venv takes bf's dependencies from this interpreter's site-packages (a .pth file),
so the test needs no network beyond `python -m build`'s own isolated build environment;
bf itself is imported from the wheel, which the test checks."""
from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from builder.emit.assets import OPTIONAL

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-12-02T12:00:00Z"
IGNORE = shutil.ignore_patterns(".git", ".venv", "venv", "build", "dist", "*.egg-info", "tests", "node_modules",
                                "_site", ".bf-cache", "__pycache__", ".pytest_cache", ".hypothesis")


def run(*cmd, **kwargs):
    result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{cmd} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, the source copy it was built from)."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    shutil.copytree(ROOT, src, ignore=IGNORE)
    run(sys.executable, "-m", "build", "--wheel", "--outdir", base / "dist", src)
    (wheel,) = (base / "dist").glob("bf-*.whl")
    return wheel, src


def test_the_wheel_holds_the_package_and_not_the_benchmark(built):
    """Every module under builder/ ships; bench/, tests/ and scripts/ stay in the checkout."""
    wheel, _ = built
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"builder", next(t for t in tops if t.endswith(".dist-info"))}, tops
    assert not [n for n in names if n.split("/")[0] == "bench" or n.rsplit("/", 1)[-1].startswith("bench")]
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "builder").rglob("*.py") if "__pycache__" not in p.parts}
    assert "builder/cli.py" in modules and modules <= set(names), sorted(modules - set(names))


@pytest.fixture(scope="module")
def installed(built, tmp_path_factory) -> tuple[Path, Path]:
    """(the venv, the source copy the wheel was built from)."""
    wheel, src = built
    base = tmp_path_factory.mktemp("venv")
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    purelib = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(purelib) / "bf_test_deps.pth").write_text("\n".join(sorted(here)) + "\n")
    run(python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel)
    return env_dir, src


@pytest.mark.slow
def test_wheel_holds_the_data_folders(installed):
    env_dir, _ = installed
    python = env_dir / "bin" / "python"
    where = run(python, "-c", "import builder, builder.kernel.resources as r; print(builder.__file__); "
                              "print(r.resource_dir('templates'))", cwd=env_dir).stdout.split()
    assert where[0].startswith(str(env_dir)), "bf was not imported from the installed wheel"
    assert where[1] == str(Path(where[0]).parent / "_data" / "templates")


@pytest.mark.slow
def test_installed_bf_builds_the_example(installed, tmp_path):
    env_dir, src = installed
    site = tmp_path / "site"
    run(env_dir / "bin" / "bf", "build", src / "examples/brain", "--out", site, "--now", NOW, "--no-pagefind",
        "--quiet", cwd=tmp_path)
    note = (site / "brain/projects/new-website.html").read_text(encoding="utf-8")
    assert note.startswith("<!doctype html>") and "<h1" in note and "New website" in note
    assert (site / "_bf/manifest.json").is_file()
    assert (site / "_bf/vectors/table.json").is_file()     # the token table ships in the wheel
    shipped = {p.relative_to(src / "site").as_posix() for p in (src / "site").rglob("*")
               if p.is_file() and not p.name.startswith(".")}
    shipped = {rel for rel in shipped if not rel.startswith(tuple(f + "/" for f in OPTIONAL.values()))}   # no math
    assert shipped and all((site / "_bf" / rel).is_file() for rel in shipped)
    schemas = sorted(p.name for p in (src / "schemas").glob("*.json"))
    assert schemas and sorted(p.name for p in (site / "schemas").glob("*.json")) == schemas
