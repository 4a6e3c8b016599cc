"""`python -m bench` (what scripts/bench runs): the benchmark's command line, bench/run.py."""
import sys

from .run import main

sys.exit(main())
