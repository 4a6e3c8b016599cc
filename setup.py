"""Packaging hook (metadata lives in pyproject.toml).

templates/, site/ and schemas/ sit at the top of the repository (SPEC §1) but must ship
inside the wheel: builder/kernel/resources.py looks for them as builder/_data/<name> first.
"""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DATA = ("templates", "site", "schemas")


class BuildPyWithData(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):   # an editable install reads the folders in place
            return
        target = Path(self.build_lib) / "builder" / "_data"
        for name in DATA:
            shutil.copytree(HERE / name, target / name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "node_modules", ".*"))


setup(cmdclass={"build_py": BuildPyWithData})
