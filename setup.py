"""The wheel carries the suite: rules/, features/ and what runs them, under berserk_rules/suite/.

Everything else is in pyproject.toml. The corpus and the scenarios live at the top of the checkout
(where they are edited); a package can only carry files inside itself, so ``build_py`` copies them
into the package being built, laid out as a project (berserk_rules/rulebook/project.py: SUITE_FOLDERS,
SUITE_FILES, :func:`~berserk_rules.rulebook.project.installed_suite`). An editable install copies nothing:
there the checkout itself is the project.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# The same lists as berserk_rules/rulebook/project.py (SUITE_FOLDERS, SUITE_FILES); tests/test_packaging.py
# checks that they agree. Not imported from there: the build must not import the package.
SUITE_FOLDERS = ("rules", "features", "runners")
SUITE_FILES = (
    "pyproject.toml",
    "conftest.py",
    "tests/test_rulebook.py",
    "docs/protocol.md",
    "docs/step-reference.md",
    "suite-manifest.json",
    "CHANGELOG-suite.md",
    "LICENSE",
)
SKIPPED = shutil.ignore_patterns("__pycache__", "*.pyc", ".*", "node_modules")


class BuildWithSuite(build_py):
    """``build_py`` that also lays the suite into ``berserk_rules/suite/`` of the build."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "berserk_rules" / "suite"
        shutil.rmtree(target, ignore_errors=True)
        for folder in SUITE_FOLDERS:
            shutil.copytree(HERE / folder, target / folder, ignore=SKIPPED)
        for name in SUITE_FILES:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(HERE / name, target / name)


setup(cmdclass={"build_py": BuildWithSuite})
