"""A crashing, hanging or lying engine is one scenario's error; the verdict is the run's own.

The Python driver of ``tests/crash_driver.py`` misbehaves in chosen scenarios of a small project:
a segfault, ``os.abort()``, ``os._exit(3)``, a hang, NaN in an observation, an exception. Each of
those scenarios is an ``error`` naming the signal, exit code, time limit or field; the scenarios
around them pass; the results are written — serially and under pytest-xdist alike.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.project_kit import CARD, PASSING, ROOT, as_from_a_terminal, feature, make_project, snapshot

CASES = {  # scenario name -> (card, what the error says)
    "сегфолт": ("Сегфолт", "сигнал SIGSEGV (11)"),
    "аборт": ("Аборт", "сигнал SIGABRT (6)"),
    "выход": ("Выход", "код выхода 3"),
    "зависание": ("Зависание", "не ответил за 1 с"),
    "не число": ("НеЧисло", "decision(): поле options[0].weight: nan — не число JSON"),
    "исключение": ("Исключение", "KeyError"),
}


def crash_project(root: Path) -> Path:
    blocks = [PASSING.format(name="до поломок")]
    for name, (card, _) in CASES.items():
        blocks.append(CARD.format(name=name, card=card))
    blocks.append(PASSING.format(name="после поломок"))
    project = make_project(root, {"crash.feature": feature(*blocks)})
    shutil.copy(ROOT / "tests" / "crash_driver.py", project / "crash_driver.py")
    return project


def run_check(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "berserk_rules.cli", "check", *args]
    return subprocess.run(command, cwd=project, capture_output=True, text=True, check=False, timeout=120)


# under pytest-xdist (two more workers, each importing everything and starting its engine): slow tier
@pytest.mark.parametrize("workers", ["0", pytest.param("2", marks=pytest.mark.slow)])
def test_crashes_are_errors_of_their_scenarios(tmp_path: Path, workers: str) -> None:
    project = crash_project(tmp_path)
    done = run_check(project, "--driver", "crash_driver:CrashDriver", "--timeout", "1", "-n", workers)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    results = json.loads((project / "build" / "results.json").read_text(encoding="utf-8"))
    by_name = {s["name"]: s for s in results["scenarios"]}
    assert by_name["до поломок"]["status"] == "passed"
    assert by_name["после поломок"]["status"] == "passed"
    for name, (_, said) in CASES.items():
        record = by_name[name]
        assert (record["status"], record.get("error")) == ("error", "engine"), record
        assert said in record["message"], record["message"]
    assert results["summary"]["error"] == len(CASES)
    assert results["engine"]["name"] == "движок, который падает (нарочно)"
    assert "ЕСТЬ ОШИБКИ" in done.stdout


def test_each_run_reports_its_own_verdict(tmp_path: Path) -> None:
    """A wrong engine's run and a plain run in one checkout, at the same time: neither reports
    the other's verdict; the results file holds the run that finished last, complete."""
    project = crash_project(tmp_path)
    command = [sys.executable, "-m", "berserk_rules.cli", "check", "-n", "0", "--timeout", "1"]
    wrong = subprocess.Popen(
        [*command, "--driver", "crash_driver:CrashDriver", "--", "-k", "до or выход"],
        cwd=project,
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(0.5)
    plain = subprocess.run([*command, "--", "-k", "поломок"], cwd=project, capture_output=True, text=True)
    wrong_out, _ = wrong.communicate(timeout=120)
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "всё в порядке" in plain.stdout
    assert wrong.returncode == 1, wrong_out
    assert "ЕСТЬ ОШИБКИ" in wrong_out
    results = json.loads((project / "build" / "results.json").read_text(encoding="utf-8"))
    assert results["summary"]["total"] == len(CASES) + 2
    # no run files left (the parses check keeps for the next run are no run's)
    assert not [p for p in (project / "build").iterdir() if p.name not in ("results.json", ".cache")]


def test_ctrl_c_is_one_line_and_keeps_the_complete_results(tmp_path: Path) -> None:
    project = crash_project(tmp_path / "project")
    complete = project / "build" / "results.json"
    complete.parent.mkdir()
    complete.write_text('{"schema": 1, "scenarios": []}\n', encoding="utf-8")
    before = snapshot(project, parse_cache=False)
    hanging = tmp_path / "hanging"  # outside the project: the driver creates it when it hangs
    command = [sys.executable, "-m", "berserk_rules.cli", "check", "-n", "0", "--timeout", "600"]
    command += ["--driver", "crash_driver:CrashDriver", "--", "-k", "до or зависание"]
    proc = subprocess.Popen(
        command,
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=as_from_a_terminal,  # Ctrl-C reaches it even if this session ignores SIGINT
        env={**os.environ, "CRASH_DRIVER_HANGING": str(hanging)},
    )
    try:
        # The readiness signal: the second scenario's engine is inside its hang (the first one has
        # passed). No sleep guesses how long that takes on a loaded machine; the bound only keeps a
        # broken run from hanging the test.
        deadline = time.monotonic() + 300
        while not hanging.exists():
            assert proc.poll() is None, "check ended before the hanging scenario"
            assert time.monotonic() < deadline, "the hanging scenario never started"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C does
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130
    text = err.decode()
    assert "Traceback" not in text and "KeyboardInterrupt" not in out.decode()
    assert text.strip().splitlines() == [
        "berserk-rules check: прервано (Ctrl-C) — результаты не записаны, build/results.json остался "
        "от прошлого полного прогона"
    ]
    assert snapshot(project, parse_cache=False) == before
