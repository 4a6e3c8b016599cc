"""The query engine reads only the built site: importing it must not load the brain parser or views."""
import subprocess
import sys


def test_query_engine_never_imports_brain_or_views():
    code = ("import sys, builder.query.read, builder.query.search, builder.query.recall, builder.mcp;"
            "print(sorted(m for m in sys.modules if m.startswith(('builder.brain', 'builder.views', 'builder.emit'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
