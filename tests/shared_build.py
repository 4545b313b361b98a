"""Expensive builds made once per test session and shared by its pytest-xdist workers (a site build,
say): the first worker to ask makes it in a folder of the session, the others wait for it.

A module-scoped fixture alone would be built once per *worker* that runs a test of the module — twice
under ``pytest -n 2`` when the module's tests are spread over both workers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

WAIT = 900  # seconds a worker waits for another one's build (a site build under heavy load: ~2 min)


def shared_folder(factory: pytest.TempPathFactory, name: str) -> Path:
    """A folder shared by the xdist workers of this session (the session's own folder without xdist)."""
    base = factory.getbasetemp()
    return (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / name


def once_per_session(
    factory: pytest.TempPathFactory, name: str, make: Callable[[Path], dict[str, Any]]
) -> tuple[Path, dict[str, Any]]:
    """``make(folder)`` run once in this session, in the folder ``name`` of the session; returns the
    folder and what ``make`` returned (plain JSON data). A failed build fails every test that asks for
    it, with the builder's error."""
    folder = shared_folder(factory, name)
    done = folder / "done.json"
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        deadline = time.monotonic() + WAIT
        while not done.exists():
            if time.monotonic() > deadline:
                pytest.fail(f"{name}: так и не собрано другим процессом за {WAIT} с")
            time.sleep(0.2)
    else:
        outcome: dict[str, Any] = {"error": "сборка прервана"}
        try:
            outcome = {"value": make(folder)}
        except BaseException:
            outcome = {"error": traceback.format_exc()}
            raise
        finally:  # the other workers wait for this file: write it whatever happened
            done.write_text(json.dumps(outcome, ensure_ascii=False), encoding="utf-8")
    outcome = json.loads(done.read_text(encoding="utf-8"))
    if "error" in outcome:
        pytest.fail(f"{name}: сборка не удалась:\n{outcome['error']}")
    return folder, outcome["value"]


ROOT = Path(__file__).resolve().parents[1]


def reference_export(factory: pytest.TempPathFactory) -> Path:
    """The whole suite in process on the reference engine, once per session: its results
    (``reference.json``) and its test vectors (``vectors/``). tests/test_engines.py compares them with
    the same suite through ``berserk-engine serve`` and replays the vectors; tests/test_vector_verdicts.py
    holds the vector runners' verdicts to them — one run for both."""

    def make(folder: Path) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "tests/test_rulebook.py", "-q", "-p", "no:cacheprovider",
             "-p", "no:xdist", "--berserk-isolation", "none", "--berserk-parse-cache", str(ROOT),
             "--berserk-results", str(folder / "reference.json"),
             "--berserk-export", str(folder / "vectors")],
            cwd=ROOT, capture_output=True, text=True, check=False, timeout=900,
        )  # fmt: skip
        if done.returncode != 0:
            raise AssertionError(done.stdout[-3000:] + done.stderr[-3000:])
        return {}

    folder, _ = once_per_session(factory, "berserk-reference-export", make)
    return folder


JS_ENGINE = "node runners/js/example/engine.mjs"  # the example engine in JavaScript, as its README runs it


def js_engine_check(factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """``check`` of the whole suite on the example engine in JavaScript, once per session: its results
    (``js.json``), its JUnit report (``junit.xml``), and ``{"code", "stdout", "stderr"}`` of the
    command. tests/test_capabilities.py holds the verdict to what the engine declares (not applicable
    apart from failed), tests/test_vector_verdicts.py holds the vector runners to the same verdicts —
    two sides of one run. Needs ``node`` on PATH (the callers skip or fail without it first)."""

    def make(folder: Path) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-m", "berserk_rules.cli", "check", "--engine", JS_ENGINE,
             "--results", str(folder / "js.json"), "--junit", str(folder / "junit.xml")],
            cwd=ROOT, capture_output=True, text=True, check=False, timeout=900,
        )  # fmt: skip
        return {"code": done.returncode, "stdout": done.stdout, "stderr": done.stderr}

    return once_per_session(factory, "berserk-js-check", make)
