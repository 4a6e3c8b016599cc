"""Parallel parse and emit give the very bytes a one-process build gives."""
import builder.brain as brain_module
import builder.emit.emitters as emitters_module
import builder.kernel.parallel as parallel_module
from builder.benchgen import generate


def _tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_parallel_build_equals_serial_build(tmp_path, build_site, monkeypatch):
    brain = tmp_path / "brain"
    generate(brain, notes=220, records_per_note=1, seed=5)   # over both parallel thresholds
    build_site(brain, tmp_path / "parallel")
    for module in (parallel_module, emitters_module, brain_module):
        monkeypatch.setattr(module, "cores", lambda: 1)
    build_site(brain, tmp_path / "serial")
    assert _tree(tmp_path / "parallel") == _tree(tmp_path / "serial")
