"""Engines as processes (``check --engine``): the reference server, broken engines, wrong ones.

* The reference engine through ``berserk-engine serve`` gives the same result for every scenario
  as the engine called in process — the whole suite, every request and answer checked against
  the schemas on the way.
* A broken engine (garbage, an exit in the middle of a scenario, a hang, a schema violation, a
  wrong id) makes exactly those scenarios ``error`` with a clear message; one that answers
  «unsupported» is not applicable, not an error; every other scenario still runs and reports —
  serially and under pytest-xdist.
* A wrong protocol version is an error of every scenario, found at once (no restart storm).
* A last-in-first-out Queue speaks the protocol perfectly: its scenarios *fail* (rules), they are
  not errors (engine).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from berserk_rules.commands.export import collect
from berserk_rules.harness.checked import ProcessDriver
from berserk_rules.harness.protocol import EngineProcess
from berserk_rules.report.vectors import replay
from tests.project_kit import CARD, PASSING, ROOT, feature, make_project
from tests.shared_build import once_per_session, reference_export
from tests.wrong_drivers import WRONG

ENGINE = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'broken_engine.py'}"
# the per-request limit of the broken-engine run: one scenario waits it out («зависание»); a whole
# second was too little for an ordinary answer on a loaded two-core machine (the test was flaky)
HANG_TIMEOUT = 3

BROKEN = {  # scenario -> (card, what its error says)
    "мусор": ("Мусор", "decision(): ответ движка — не строка JSON"),
    "обрыв": ("Обрыв", "decision(): движок завершился (код выхода 7)"),
    "зависание": ("Зависание", f"decision(): движок не ответил за {HANG_TIMEOUT} с"),
    "схема": ("Схема", "нет обязательного поля «options»"),
    "чужой номер": ("Чужой", "decision(): ответ с номером 999, а ждали"),
}


def check(project: Path, *args: str) -> tuple[int, str, dict]:
    command = [sys.executable, "-m", "berserk_rules.cli", "check", *args]
    done = subprocess.run(command, cwd=project, capture_output=True, text=True, check=False, timeout=180)
    results_file = project / "build" / "results.json"
    results = json.loads(results_file.read_text(encoding="utf-8")) if results_file.exists() else {}
    return done.returncode, done.stdout + done.stderr, results


@pytest.fixture(scope="module")
def reference_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole suite twice, at the same time: through ``berserk-engine serve``, and in process
    (recording the test vectors, ``shared_build.reference_export``) — both once per session."""

    def make(tmp: Path) -> dict[str, str]:
        served = subprocess.Popen(
            [sys.executable, "-m", "berserk_rules.cli", "check", "--engine", "berserk-engine serve",
             "--results", str(tmp / "served.json")],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        try:
            export = reference_export(tmp_path_factory)
        finally:
            out, _ = served.communicate(timeout=600)
        assert served.returncode == 0, out
        (tmp / "in-process.json").symlink_to(export / "reference.json")
        (tmp / "vectors").symlink_to(export / "vectors", target_is_directory=True)
        return {}

    return once_per_session(tmp_path_factory, "berserk-reference-served", make)[0]


@pytest.mark.slow  # the whole suite twice (reference_runs)
def test_reference_server_gives_the_same_results_as_in_process(reference_runs: Path) -> None:
    a = json.loads((reference_runs / "in-process.json").read_text(encoding="utf-8"))
    b = json.loads((reference_runs / "served.json").read_text(encoding="utf-8"))
    assert b["engine"]["command"] == "berserk-engine serve"
    assert b["engine"]["name"] == a["engine"]["name"]
    assert a["summary"] == b["summary"] and a["summary"]["passed"] == a["summary"]["total"]
    assert {s["id"]: (s["status"], s.get("log")) for s in a["scenarios"]} == {
        s["id"]: (s["status"], s.get("log")) for s in b["scenarios"]
    }


@pytest.mark.slow  # the whole suite twice (reference_runs)
def test_vectors_replay_on_the_reference_server_without_pytest_bdd(reference_runs: Path) -> None:
    """The exported vectors validate, and replayed by plain code through the protocol they pass."""
    index = collect(reference_runs / "vectors")  # validates every vector against its schema
    assert len(index["vectors"]) > 100
    assert all(v["complete"] for v in index["vectors"])
    engine = EngineProcess([str(Path(sys.executable).parent / "berserk-engine"), "serve"])
    try:
        failures = {}
        checks = 0
        for entry in index["vectors"]:
            vector = json.loads((reference_runs / "vectors" / entry["path"]).read_text(encoding="utf-8"))
            checks += sum(step["op"] in ("check", "rejected") for step in vector["steps"])
            problems = replay(vector, ProcessDriver(engine, vector["id"]))
            if problems:
                failures[vector["id"]] = problems
    finally:
        engine.close()
    assert not failures, failures
    assert checks > 200  # the vectors do check something


@pytest.mark.slow  # the whole suite twice (reference_runs)
def test_a_wrong_engine_fails_the_vectors(reference_runs: Path) -> None:
    """Replay is a real check: the LIFO engine fails the vectors of 401.3."""
    index = collect(reference_runs / "vectors")
    engine = EngineProcess([sys.executable, str(ROOT / "tests" / "engines" / "broken_engine.py"), "--lifo"])
    try:
        failed = set()
        for entry in index["vectors"]:
            if "401.3" not in entry["rules"]:
                continue
            vector = json.loads((reference_runs / "vectors" / entry["path"]).read_text(encoding="utf-8"))
            if replay(vector, ProcessDriver(engine, vector["id"])):
                failed.add(vector["id"])
    finally:
        engine.close()
    assert failed


NEW_FORMS = ("exists", "log")  # check forms beyond «the value at the path equals»


def _old_forms_only(vector: dict) -> dict:
    steps = [s for s in vector["steps"] if not any(form in s for form in NEW_FORMS)]
    return {**vector, "steps": steps}


@pytest.mark.slow  # the whole suite twice (reference_runs)
@pytest.mark.parametrize("wrong", WRONG, ids=lambda d: d.__name__)
def test_new_check_forms_catch_what_the_old_ones_did_not(reference_runs: Path, wrong: type) -> None:
    """An engine that hides defenders, forgets «Броня» or keeps prevention out of its log passes
    every check of the old form in the exported vectors, and fails the ones the steps now record
    with ``exists`` and ``log``."""
    index = collect(reference_runs / "vectors")
    caught = {}
    for entry in index["vectors"]:
        vector = json.loads((reference_runs / "vectors" / entry["path"]).read_text(encoding="utf-8"))
        if not any(form in step for step in vector["steps"] for form in NEW_FORMS):
            continue
        failures = replay(vector, wrong())
        if failures:
            caught[vector["id"]] = failures
            assert replay(_old_forms_only(vector), wrong()) == [], vector["id"]
    assert caught, f"{wrong.__name__}: ни один вектор не заметил ошибки"
    assert all("(check)" in f for failures in caught.values() for f in failures), caught


def broken_project(root: Path) -> Path:
    blocks = [PASSING.format(name="до поломок")]
    blocks += [CARD.format(name=name, card=card) for name, (card, _) in BROKEN.items()]
    blocks.append(CARD.format(name="не умеет", card="Неумеха"))
    blocks.append(PASSING.format(name="после поломок"))
    return make_project(root, {"broken.feature": feature(*blocks)})


# under pytest-xdist (two more workers, each importing everything and starting its engine): slow tier
@pytest.mark.parametrize("workers", ["0", pytest.param("2", marks=pytest.mark.slow)])
def test_broken_engine_errors_only_its_scenarios(tmp_path: Path, workers: str) -> None:
    project = broken_project(tmp_path)
    code, output, results = check(project, "--engine", ENGINE, "--timeout", str(HANG_TIMEOUT), "-n", workers)
    assert code == 1, output
    assert "Traceback" not in output.split("short test summary")[0][-2000:]
    by_name = {s["name"]: s for s in results["scenarios"]}
    assert by_name["до поломок"]["status"] == by_name["после поломок"]["status"] == "passed"
    for name, (_, said) in BROKEN.items():
        record = by_name[name]
        assert (record["status"], record.get("error")) == ("error", "engine"), record
        assert said in record["message"], record["message"]
    # «unsupported» is not the engine's error: the scenario is not applicable to it (issue 18)
    unsupported = by_name["не умеет"]
    assert unsupported["status"] == "not applicable" and "error" not in unsupported, unsupported
    assert "decision(): движок этого не поддерживает: решения не умею" in unsupported["message"]
    assert results["engine"]["name"] == "сломанный движок (нарочно)"
    assert results["engine"]["command"] == ENGINE


def test_wrong_protocol_version_is_every_scenarios_error(tmp_path: Path) -> None:
    project = broken_project(tmp_path)
    code, output, results = check(project, "--engine", f"{ENGINE} --protocol 2.0")
    assert code == 1, output
    assert {s["status"] for s in results["scenarios"]} == {"error"}
    message = results["scenarios"][0]["message"]
    assert "говорит на протоколе версии 2.0, а berserk-rules — на версии 1.1" in message


def test_lifo_engine_fails_the_queue_rules(tmp_path: Path) -> None:
    project = make_project(tmp_path, {})
    (project / "features" / "part-4").mkdir()
    shutil.copy(ROOT / "features" / "part-4" / "401-ochered.feature", project / "features" / "part-4")
    code, output, results = check(project, "--engine", f"{ENGINE} --lifo")
    assert code == 1, output
    statuses = {s["status"] for s in results["scenarios"]}
    assert statuses == {"passed", "failed"}, statuses  # wrong rules, never an engine error
    assert any("401.3" in s["rules"] for s in results["scenarios"] if s["status"] == "failed")
