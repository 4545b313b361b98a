"""Gates on the tooling's code: berserk_rules type-checks under mypy (the engine's own check is in
tests/test_compiled.py), and vulture finds no dead code beyond the allow-list in pyproject.toml."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from berserk_rules.reference import compiled

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # a gate: mypy over the whole package (~20 s of CPU)
def test_rules_package_type_checks(tmp_path: Path) -> None:
    pytest.importorskip("mypy.api", reason="mypy — из набора dev: pip install -e '.[dev]'")
    # the engine under its import name (engine/berserk_engine/), so that its types count
    (tmp_path / "berserk_engine").symlink_to(compiled.engine_source(), target_is_directory=True)
    command = [sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-incremental"]
    done = subprocess.run(
        [*command, "--cache-dir", os.devnull, "berserk_rules"],
        cwd=ROOT,
        env={**os.environ, "MYPYPATH": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues found" in done.stdout


@pytest.mark.slow  # a gate: vulture over the whole project
def test_no_dead_code() -> None:
    pytest.importorskip("vulture", reason="vulture — из набора dev: pip install -e '.[dev]'")
    done = subprocess.run([sys.executable, "-m", "vulture"], cwd=ROOT, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, ""), done.stdout + done.stderr


def test_dead_code_is_found(tmp_path: Path) -> None:
    """The gate can fail: an unused function in a checked folder is reported."""
    pytest.importorskip("vulture", reason="vulture — из набора dev: pip install -e '.[dev]'")
    (tmp_path / "mod.py").write_text("def used():\n    pass\n\n\ndef forgotten():\n    pass\n\n\nused()\n")
    done = subprocess.run(
        [sys.executable, "-m", "vulture", str(tmp_path)], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 3 and "unused function 'forgotten'" in done.stdout, done.stdout
