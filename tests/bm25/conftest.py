import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


@pytest.fixture
def run_node(node):
    """Run tests/bm25/<script> in node with a JSON payload on stdin (`node`: tests/conftest.py,
    skips without node, fails under CI=true)."""

    def run(script, payload):
        proc = subprocess.run(
            [node, str(HERE / script)], input=json.dumps(payload).encode(),
            capture_output=True, cwd=ROOT, timeout=300)
        assert proc.returncode == 0, proc.stderr.decode()
        return json.loads(proc.stdout)

    return run
