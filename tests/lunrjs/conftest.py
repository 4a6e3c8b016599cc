import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


@pytest.fixture
def run_node():
    """Run tests/lunrjs/<script> in node with a JSON payload on stdin."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH")

    def run(script, payload):
        proc = subprocess.run(
            [node, str(HERE / script)], input=json.dumps(payload).encode(),
            capture_output=True, cwd=ROOT, timeout=300)
        assert proc.returncode == 0, proc.stderr.decode()
        return json.loads(proc.stdout)

    return run
