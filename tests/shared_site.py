"""The site of the real docs built once per test session and read by every test that checks it:
``tests/test_site.py`` (statuses, anchors, the search index, incremental builds) and the browser tests
(``tests/test_browser*.py``, served over HTTP), and the pages of the directives that have no site of
their own to be checked in (the card language's constructions, the engine's phrase catalogue).

Three builds into one folder, as ``berserk-rules site`` builds between runs (issue 28: one chain
instead of a build for ``test_site`` and another for the browser):

1. *first* — every scenario of rule 401.7 passed, the others not run (a full build);
2. *again* — nothing changed (Sphinx reads and writes almost nothing; the search index must stay);
3. *second* — the browser's run (:func:`browser_results`): every scenario passed but the first of
   401.7, which failed with its step, starting position and log, and the second of 401.7 carries
   the game step by step. The pages that show results are read again; the site is left in this
   state, the one the browser tests visit.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from shared_build import once_per_session

from berserk_rules.commands.site import build_site
from berserk_rules.rulebook.features import ScenarioRef, load_scenarios
from berserk_rules.rulebook.project import project_root

ROOT = project_root()
RULE = "401.7"
NAME = "berserk-site-401.7"  # the session folder (shared_build)

FAILED_MESSAGE = "Ожидалось: у героя игрока Б ран: 1, на деле: 0"
POSITION = {
    "turn": 3,
    "active": "А",
    "start": "turn",
    "cards": {"Часовой": {"type": "существо", "cost": 2, "strike": 1, "life": 3}},
    "players": {
        "А": {
            "play": [{"card": "Часовой", "wounds": 1}],
            "hand": ["Часовой"],
            "coins": {"open": 2, "closed": 1},
        },
        "Б": {"hero": {"name": "Герой Б", "life": 20, "wounds": 2}},
    },
}
LOG = [
    {"seq": 1, "turn": 3, "event": "phase", "text": "Фаза восстановления", "rule": "303"},
    {
        "seq": 2,
        "turn": 3,
        "event": "coin",
        "text": "Игрок А получает открытый маркер монеты",
        "rule": "304.1",
    },
    {"seq": 3, "turn": 3, "event": "pass", "text": "Игрок Б пасует", "rule": "401.7"},
    {"seq": 4, "turn": 4, "event": "phase", "text": "Фаза восстановления", "rule": "303"},
]


# the game step by step of another scenario of 401.7 (issue 19, item 2: tests/test_browser_replay.py)
BOARD = {
    "turn": 3,
    "active": "А",
    "phase": "restoration",
    "play": [{"name": "Часовой", "owner": "А", "life": 3, "strike": 1, "wounds": 1}],
    "queue": [],
    "players": {"А": {"hero": {"name": "Герой А", "life": 20}, "coins": {"open": 2, "closed": 1}}},
}
STEPS = [
    {"keyword": "Дано", "text": "идёт ход 3", "line": 3},
    {"keyword": "", "text": "Начало партии", "start": True, "log": [0, 1], "board": BOARD},
    {
        "keyword": "Когда",
        "text": "игрок А получает монету",
        "line": 4,
        "log": [1, 3],
        "board": {**BOARD, "phase": "choice", "queue": [{"text": "Ранить на 1", "controller": "Б"}]},
    },
    {"keyword": "Тогда", "text": "у игрока А 3 открытых монеты", "line": 5, "log": [3, 3]},
    {"keyword": "Когда", "text": "ход переходит", "line": 6, "log": [3, 4], "board": {**BOARD, "turn": 4}},
]


def scenario_record(ref: ScenarioRef, status: str) -> dict[str, Any]:
    """A scenario's record of a results file, with the status and no message."""
    return {
        "id": ref.id,
        "name": ref.name,
        "file": ref.file,
        "line": ref.line,
        "rules": list(ref.rules),
        "tags": list(ref.tags),
        "status": status,
        "message": None,
        "duration": 0.01,
    }


def _write(path: Path, records: list[dict[str, Any]], engine: dict[str, str], run: dict[str, Any]) -> None:
    data = {
        "schema": 1,
        "engine": engine,
        **run,  # started, finished, duration
        "summary": {},
        "scenarios": records,
    }
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    # make sure the file is newer than the previous build, whatever the file system's resolution
    future = time.time() + 5
    os.utime(path, (future, future))


def first_results(path: Path, scenarios: list[ScenarioRef]) -> None:
    """The first run: every scenario of 401.7 passed, the others not run."""
    records = [scenario_record(ref, "passed" if RULE in ref.rules else "not run") for ref in scenarios]
    run = {"started": "2026-11-29T10:00:00", "finished": "2026-11-29T10:00:01", "duration": 1.0}
    _write(path, records, {"name": "тестовый движок", "version": "0"}, run)


def browser_results(path: Path, scenarios: list[ScenarioRef]) -> tuple[str, str]:
    """The browser's run: every scenario passed but the first of 401.7 (failed, with the failed step,
    the starting position and the log); the second of 401.7 has the game step by step. Returns the
    failed scenario's id and file."""
    of_rule = [ref for ref in scenarios if RULE in ref.rules]
    failed = of_rule[0]
    records = []
    for ref in scenarios:
        record = scenario_record(ref, "passed")
        if ref is failed:
            record.update(
                status="failed",
                message=FAILED_MESSAGE,
                failed_step={
                    "file": ref.file,
                    "line": ref.line + 5,
                    "keyword": "Тогда",
                    "text": "у героя игрока Б ран: 1",
                },
                position=POSITION,
                log=LOG,
            )
        if ref is of_rule[1]:
            record.update(position=POSITION, log=LOG, steps=STEPS)
        records.append(record)
    run = {"started": "2026-11-29T10:00:00+00:00", "finished": "2026-11-29T10:00:02+00:00", "duration": 2.0}
    _write(path, records, {"name": "тестовый движок", "version": "7"}, run)
    return failed.id, failed.file


def _build(folder: Path, results: Path) -> list[Any]:
    warnings = folder / "warnings.txt"
    code = build_site(ROOT, folder / "site", results, doctrees=folder / "doctrees", warnings=warnings)
    return [code, warnings.read_text(encoding="utf-8")]


def _make(folder: Path) -> dict[str, Any]:
    scenarios = load_scenarios(ROOT)
    if not [ref for ref in scenarios if RULE in ref.rules][1:]:
        raise AssertionError(f"меньше двух сценариев с тегом @rule-{RULE}: сайт нечем проверить")
    site = folder / "site"
    results = folder / "results.json"
    first_results(results, scenarios)
    first = _build(folder, results)
    (folder / "first-part-4.html").write_text((site / "rules" / "part-4.html").read_text("utf-8"), "utf-8")
    (folder / "first-searchindex.js").write_text((site / "searchindex.js").read_text("utf-8"), "utf-8")
    _build(folder, results)
    (folder / "again-searchindex.js").write_text((site / "searchindex.js").read_text("utf-8"), "utf-8")
    failed, failed_file = browser_results(results, scenarios)
    second = _build(folder, results)
    return {"first": first, "second": second, "failed": failed, "failed_file": failed_file}


def site_401_7(factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The session's folder of the three builds (``site/``, ``doctrees/``, ``first-part-4.html``,
    ``first-searchindex.js``, ``again-searchindex.js``) and what they gave: ``first`` and ``second``
    as [status code, warnings], ``failed`` and ``failed_file`` of the browser's run."""
    return once_per_session(factory, NAME, _make)
