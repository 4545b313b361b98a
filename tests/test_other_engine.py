"""The engine author's path, end to end: run the real scenarios on another engine's driver,
see what fails, list the known failures, and get a green run that cannot rot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def check(tmp_path: Path, *extra: str) -> tuple[int, str, dict]:
    results = tmp_path / "results.json"
    command = [
        sys.executable,
        "-m",
        "berserk_rules.cli",
        "check",
        "--driver",
        "tests.lifo_driver:LifoDriver",
        "--results",
        str(results),
        "-n",
        "0",
        # The author's path is what is tested here, not crash isolation (tests/test_isolation.py):
        # the driver runs in the pytest process, which halves the time of the two full runs.
        "--isolation",
        "none",
        *extra,
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    return done.returncode, done.stdout + done.stderr, json.loads(results.read_text(encoding="utf-8"))


@pytest.mark.slow  # the whole suite, twice, on another engine
def test_another_engine_runs_the_same_scenarios(tmp_path: Path) -> None:
    code, output, results = check(tmp_path)
    assert code == 1, output
    assert results["engine"]["name"] == "LIFO-движок (нарочно неверный)"
    failed = [s for s in results["scenarios"] if s["status"] == "failed"]
    passed = [s for s in results["scenarios"] if s["status"] == "passed"]
    assert failed and passed, "a wrong Queue order breaks some rules, not all"
    assert any("401.3" in s["rules"] for s in failed)
    assert any("402.1" in s["rules"] for s in failed)
    assert all(s["status"] in ("passed", "failed") for s in results["scenarios"])

    # The author lists the failures as known; the run is green and each is a strict xfail.
    known = tmp_path / "known.toml"
    known.write_text(
        "".join(f'[[xfail]]\nscenario = "{s["id"]}"\nreason = "Очередь LIFO"\n\n' for s in failed),
        encoding="utf-8",
    )
    code, output, results = check(tmp_path, "--", "--berserk-known-failures", str(known))
    assert code == 0, output
    statuses = {s["id"]: s["status"] for s in results["scenarios"]}
    assert all(statuses[s["id"]] == "xfail" for s in failed)
