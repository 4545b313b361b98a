"""Capabilities decide what runs (issue 18, item 4), output made for fixing an engine (item 5), the
JavaScript pieces: the vector runner (``runners/js``) and a second engine (``runners/js/example``).

Node.js is needed for the JavaScript tests: without it they are skipped with the reason — unless
``CI`` or ``BERSERK_REQUIRE_NODE`` is set (``.ci/run``), then they fail."""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, ClassVar

import pytest

from berserk_rules.commands.check import failure_line
from berserk_rules.commands.known_failures import known_failures_toml
from berserk_rules.report.junit import junit_tree
from berserk_rules.report.matrix import Run, build, text_table
from berserk_rules.report.results import STATUSES
from berserk_rules.rulebook.features import ScenarioRef, load_scenarios
from berserk_rules.runner.capabilities import (
    NOT_APPLICABLE,
    Capabilities,
    CapabilityGuard,
    action_reason,
    covered,
    selected,
    static_reason,
)
from berserk_rules.runner.known_failures import load_known_failures
from tests.shared_build import js_engine_check

ROOT = Path(__file__).resolve().parent.parent
NODE_REQUIRED = bool(os.environ.get("CI") or os.environ.get("BERSERK_REQUIRE_NODE"))


def node() -> str:
    found = shutil.which("node")
    if found is None:
        reason = "нет node (Node.js): тесты раннера и движка на JavaScript пропущены"
        if NODE_REQUIRED:
            pytest.fail(f"{reason} (задан CI или BERSERK_REQUIRE_NODE)", pytrace=False)
        pytest.skip(reason)
    return found


def ref(file: str = "features/part-3/x.feature", rules=("303.1",), terms=()) -> ScenarioRef:
    return ScenarioRef(f"{file}:5", "сценарий", file, 5, tuple(rules), tuple(terms), (), (), ())


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "berserk_rules.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


# --- the reference engine's capabilities -------------------------------------------------------


def test_reference_capabilities_are_its_registries() -> None:
    import berserk_engine.catalogue  # noqa: F401
    from berserk_engine import actions
    from berserk_engine.serve import Session

    reply = Session().handle({"id": 0, "op": "handshake", "protocol": "1.0"})
    caps = reply["result"]["capabilities"]
    assert caps["decisions"] == list(actions.DECISIONS)
    assert set(caps["actions"]) == set(actions.ACTIONS) | set(actions.ANYTIME)
    # what issue 18 found declared by hand: 3 kinds and 8 actions, for 6 and 14
    assert len(caps["decisions"]) == 6 and len(caps["actions"]) == 14
    answered = {kind for kinds, _, _ in actions.DECISIONS.values() for kind in kinds}
    assert answered <= set(caps["actions"])
    assert not {"parts", "rules", "terms"} & set(caps)  # every Part and term: nothing left out
    assert caps["requests"] == ["deck"]  # and the optional deck request (its deck construction rules)
    assert caps["threads"] == 1  # it answers in one thread: held with the scenario on one CPU


def test_reference_capabilities_pass_the_schema() -> None:
    from berserk_engine.serve import Session

    from berserk_rules.harness import contract

    result = Session().handle({"id": 0, "op": "handshake", "protocol": "1.0"})["result"]
    assert contract.violations("protocol#/$defs/handshake_result", result) == []
    bad = {**result, "capabilities": {"parts": ["три"]}}
    assert contract.violations("protocol#/$defs/handshake_result", bad)


# --- what a scenario needs ---------------------------------------------------------------------


def test_absent_keys_mean_everything() -> None:
    caps = Capabilities.from_handshake({})
    assert not caps.everything  # … of the game: the optional requests are answered only when named
    assert caps.requests == frozenset()
    assert Capabilities.from_handshake({"requests": ["deck"]}).everything
    assert static_reason(caps, ref(rules=("401.7",), terms=("броня-х",))) is None
    assert action_reason(caps, {"type": "attack"}) is None


def test_parts_rules_terms_leave_scenarios_out_with_the_reason() -> None:
    caps = Capabilities.from_handshake({"parts": [3], "rules": ["303", "304.1"], "terms": ["броня-х"]})
    assert static_reason(caps, ref()) is None
    assert "часть 4" in str(static_reason(caps, ref("features/part-4/y.feature", ("401.7",))))
    assert "часть 5" in str(static_reason(caps, ref(rules=("303.1", "501.2"))))
    assert "правило 305.1" in str(static_reason(caps, ref(rules=("305.1",))))
    assert static_reason(caps, ref(rules=("304.1.2",))) is None
    assert "правило 304.2" in str(static_reason(caps, ref(rules=("304.2",))))
    assert "термин ответный-удар" in str(static_reason(caps, ref(terms=("ответный-удар",))))
    assert static_reason(caps, ref(terms=("броня-х",))) is None
    assert covered("303.1.2", frozenset({"303"})) and not covered("3031", frozenset({"303"}))


def test_an_undeclared_action_is_not_sent_and_an_undeclared_decision_is_an_error() -> None:
    from berserk_rules.harness.driver import Driver, EngineFailure, Unsupported

    class Fake(Driver):
        sent: ClassVar[list[dict]] = []

        def start(self, setup):
            pass

        def decision(self):
            return {"kind": "assign_defender"}

        def act(self, player, action):
            self.sent.append(action)

        def observe(self, player):
            return {}

        def log(self, player=None):
            return []

    guard = CapabilityGuard(
        Fake(), Capabilities.from_handshake({"actions": ["end_turn"], "decisions": ["choose_action"]})
    )
    guard.act("А", {"type": "end_turn"})
    with pytest.raises(Unsupported, match="attack"):
        guard.act("А", {"type": "attack", "attacker": "c1"})
    assert Fake.sent == [{"type": "end_turn"}]
    with pytest.raises(EngineFailure, match="assign_defender") as caught:
        guard.decision()
    assert not isinstance(caught.value, Unsupported)


def test_a_step_about_an_undeclared_decision_or_option_makes_the_scenario_not_applicable() -> None:
    from berserk_rules.harness.driver import Unsupported
    from berserk_rules.steps.context import ScenarioGame

    class Idle:
        def decision(self):
            raise AssertionError("the engine is not asked: the step is out of its capabilities")

    declared = {"decisions": ["choose_action"], "actions": ["end_turn", "pass"]}
    game = ScenarioGame(CapabilityGuard(Idle(), Capabilities.from_handshake(declared)))  # type: ignore[arg-type]
    with pytest.raises(Unsupported, match="решение вида declare_trigger"):
        game.pending("А", "declare_trigger")
    with pytest.raises(Unsupported, match="действие activate"):
        game.matching_options("А", "activate", "текст", "Гном")
    with pytest.raises(Unsupported, match="assign_defender"):
        game.expect(None, ["decision", "kind"], "assign_defender", "решение")
    guard = game.driver
    guard.require(decisions=("declare_trigger", "choose_action"), actions=("pass",))  # one of them is enough
    # everything declared (no keys): nothing is ever out
    CapabilityGuard(Idle(), Capabilities()).require(decisions=("x",), actions=("y",))  # type: ignore[arg-type]


LIMITED_POSITION = {
    "start": "choice",
    "cards": {
        "Гном": {
            "type": "существо",
            "strike": 2,
            "life": 3,
            "text": "[Закрыть]: ранить на 1 выбранное существо.",
        },
        "Страж": {"type": "существо", "strike": 1, "life": 4},
        "Огневой залп": {"type": "заклинание", "cost": 0, "text": "Ранить на 2 выбранное существо."},
    },
    "players": {"А": {"play": ["Гном"], "hand": ["Огневой залп"]}, "Б": {"play": ["Страж"]}},
}


def _option_steps() -> list[tuple[str, Any, tuple[Any, ...]]]:
    """Every step that asks whether an option of some action type is offered (or sends one it
    looks up first): (the action type, the step function, its arguments)."""
    from berserk_rules.steps import costs, glossary, observations, targets

    return [
        ("pass", observations.may_pass, ("А",)),
        ("pass", observations.may_not_pass, ("А",)),
        ("attack", observations.available_kinds, ("А", "атака ударом, передача хода")),
        ("attack", observations.may_attack, ("А", "Гном")),
        ("attack", observations.may_not_attack, ("А", "Гном")),
        ("defend", observations.may_defend_with, ("Б", "Страж")),
        ("defend", observations.may_not_defend_with, ("Б", "Страж")),
        ("attack", glossary.may_attack_target, ("А", "Гном", "Страж")),
        ("attack", glossary.may_not_attack_target, ("А", "Гном", "Страж")),
        ("play", glossary.may_play_target, ("А", "Огневой залп", "Страж")),
        ("play", glossary.may_not_play_target, ("А", "Огневой залп", "Страж")),
        ("activate", glossary.activate_only, ("А", "Гном")),
        ("play", costs.may_play, ("А", "Огневой залп")),
        ("play", costs.may_not_play, ("А", "Огневой залп")),
        ("play", costs.spell_targets, ("Огневой залп", "А", ["Страж"])),
        ("play", targets.target_bounds, ("А", "Огневой залп", 1, 1)),
    ]


@pytest.mark.parametrize("kind, step, args", _option_steps(), ids=lambda v: getattr(v, "__name__", None))
def test_a_step_about_an_option_of_an_undeclared_type_is_not_applicable(
    kind: str, step: Any, args: Any
) -> None:
    """An engine that declares no «{kind}» actions offers none: a step about such an option — that it
    is offered or that it is not — makes the scenario not applicable instead of failing it (or passing
    it for nothing). With the type declared the same step is judged (on the reference engine)."""
    from berserk_rules.harness.checked import InProcessDriver
    from berserk_rules.harness.driver import Unsupported
    from berserk_rules.reference.driver import ReferenceDriver
    from berserk_rules.steps.context import ScenarioGame

    def game_with(actions: list[str]) -> ScenarioGame:
        guard = CapabilityGuard(
            InProcessDriver(ReferenceDriver()), Capabilities.from_handshake({"actions": actions})
        )
        game = ScenarioGame(guard)
        game.setup["start"] = LIMITED_POSITION["start"]
        for name, card in LIMITED_POSITION["cards"].items():
            game.setup["cards"][name] = card
        for player, zones in LIMITED_POSITION["players"].items():
            for zone, names in zones.items():
                game.setup["players"][player][zone] = names
        return game

    with pytest.raises(Unsupported, match=f"действие {kind}"):
        step(game_with(["end_turn", "choose", "choose_cards"]), *args)
    try:
        step(game_with([kind, "end_turn", "choose", "choose_cards"]), *args)
    except Unsupported as exc:  # pragma: no cover - the failure message says which step
        raise AssertionError(f"{step.__name__}: declared, yet not applicable: {exc}") from exc
    except AssertionError:
        pass  # judged: this position may make the claim false, which is the step's own business


def test_selection_by_file_folder_and_line() -> None:
    r = ref("features/part-3/303-a.feature")
    assert selected(r, ["features/part-3"]) and selected(r, ["features/part-3/"])
    assert selected(r, ["features/part-3/303-a.feature"]) and selected(r, ["features/part-3/303-a.feature:5"])
    assert not selected(r, ["features/part-3/303-a.feature:6"]) and not selected(r, ["features/part-30"])


# --- reports -----------------------------------------------------------------------------------


def _results(statuses: list[str]) -> dict:
    scenarios = [
        {
            "id": f"features/part-3/a.feature:{n}",
            "name": f"s{n}",
            "file": "features/part-3/a.feature",
            "line": n,
            "rules": ["303.1"],
            "status": status,
            "message": "движок не заявил правило 303.1"
            if status == NOT_APPLICABLE
            else "ожидалось 2, получено 3",
            "duration": 0.0,
        }
        for n, status in enumerate(statuses, start=1)
    ]
    return {"engine": {"name": "мини", "version": "1"}, "started": "", "scenarios": scenarios}


def test_not_applicable_is_its_own_status_in_results_junit_and_matrix() -> None:
    assert NOT_APPLICABLE in STATUSES
    data = _results(["passed", NOT_APPLICABLE, "failed"])
    suites = junit_tree(data).getroot()
    assert (suites.get("tests"), suites.get("failures"), suites.get("skipped")) == ("3", "1", "1")
    skipped = suites.find(".//testcase[@name='s2']/skipped")
    assert skipped is not None and skipped.get("message", "").startswith("not applicable: движок не заявил")
    # a known failure is a skip to JUnit too, but not the same one: the type and the status say which
    known = junit_tree(_results([NOT_APPLICABLE, "xfail"])).getroot()
    kinds = [case.find("skipped").get("type") for case in known.iter("testcase")]  # type: ignore[union-attr]
    assert kinds == [NOT_APPLICABLE, "xfail"]
    statuses = [p.get("value") for p in known.iter("property") if p.get("name") == "status"]
    assert statuses == [NOT_APPLICABLE, "xfail"]
    matrix = build([Run("мини", "x.json", _results([NOT_APPLICABLE, NOT_APPLICABLE]))])
    assert matrix["rules"][0]["cells"][0]["status"] == NOT_APPLICABLE
    assert matrix["parts"][0]["cells"][0]["passed"] == 0  # never counted as passed
    assert matrix["failures"][0]["scenarios"] == []  # nor as failed
    assert matrix["parts"][0]["cells"][0]["not_applicable"] == 2
    assert "0/2 (∅ 2)" in text_table(matrix)


def test_failure_line_names_file_rule_step_and_message() -> None:
    scenario = _results(["failed"])["scenarios"][0]
    scenario["failed_step"] = {
        "file": "features/part-3/a.feature",
        "line": 9,
        "keyword": "Тогда",
        "text": "ход 4",
    }
    line = failure_line(scenario)
    assert line == "features/part-3/a.feature:1 [303.1] «Тогда ход 4» (строка 9): ожидалось 2, получено 3"


def test_known_failures_file_lists_the_failures_and_loads(tmp_path: Path) -> None:
    refs = load_scenarios(ROOT)
    data = _results([])
    data["scenarios"] = [
        {"id": refs[0].id, "status": "failed", "message": 'ожидалось "2"\nподробности'},
        {"id": refs[1].id, "status": "passed", "message": None},
        {"id": refs[2].id, "status": NOT_APPLICABLE, "message": "нет"},
        {"id": refs[3].id, "status": "error", "message": None},
    ]
    text = known_failures_toml(data, "r.json")
    assert tomllib.loads(text)["xfail"] == [
        {"scenario": refs[0].id, "reason": 'ожидалось "2"'},
        {"scenario": refs[3].id, "reason": "ошибка движка"},
    ]
    (tmp_path / "known.toml").write_text(text, encoding="utf-8")
    known = load_known_failures(tmp_path / "known.toml", refs, ROOT)
    assert set(known) == {refs[0].id, refs[3].id} and all(k.strict for k in known.values())


def test_known_failures_command(tmp_path: Path) -> None:
    results = tmp_path / "r.json"
    missing = cli("known-failures", str(results))
    assert missing.returncode == 2 and "нет такого файла результатов" in missing.stderr


# --- JavaScript --------------------------------------------------------------------------------


def test_js_runner_tests_pass() -> None:
    done = subprocess.run(
        [node(), "--test", "test/"], cwd=ROOT / "runners" / "js", capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# pass 9" in done.stdout


def test_js_runner_exits_non_zero_and_shows_expected_and_actual(tmp_path: Path) -> None:
    vector = {
        "id": "v:1",
        "name": "ход",
        "position": {"players": {"А": {}, "Б": {}}, "turn": 3, "start": "choice", "active": "А"},
        "steps": [
            {"op": "act", "player": "А", "action": {"type": "end_turn"}},
            {"op": "check", "viewer": None, "path": ["turn"], "expected": 5},
        ],
    }
    (tmp_path / "1.json").write_text(json.dumps(vector, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [node(), "runners/js/replay.mjs", "runners/js/example/engine.mjs", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "ожидалось: 5" in done.stdout and "получено:  4" in done.stdout


@pytest.mark.slow
def test_js_engine_verdict_keeps_not_applicable_apart(tmp_path_factory: pytest.TempPathFactory) -> None:
    """``check`` on the example engine in JavaScript (the session's run, ``shared_build``: the
    vector runners of tests/test_vector_verdicts.py are held to the same run)."""
    node()
    folder, done = js_engine_check(tmp_path_factory)
    assert done["code"] == 0, done["stdout"][-3000:] + done["stderr"][-3000:]
    data = json.loads((folder / "js.json").read_text(encoding="utf-8"))
    counts = data["summary"]
    assert counts["failed"] == counts["error"] == counts["not run"] == 0
    assert counts["passed"] >= 15 and counts[NOT_APPLICABLE] > counts["passed"]
    assert counts["passed"] + counts[NOT_APPLICABLE] == counts["total"]
    claimed = {"303.1", "304.1", "304.2", "305", "306.1", "310.3"}
    for scenario in data["scenarios"]:
        if scenario["status"] == "passed":  # what it claims, it passes — within its capabilities
            assert scenario["file"].startswith("features/part-3/")
            assert all(
                any(rule == c or rule.startswith(c + ".") for c in claimed) for rule in scenario["rules"]
            )
        else:
            assert scenario["message"]  # the reason
    reasons = " ".join(s["message"] for s in data["scenarios"] if s["status"] == NOT_APPLICABLE)
    assert "движок не заявил часть" in reasons and "не поддерживает" in reasons
    verdict = f"не применимы {counts[NOT_APPLICABLE]}, не запущены 0 — всё в порядке в заявленных движком"
    assert verdict in done["stdout"]
    root = ET.parse(folder / "junit.xml").getroot()
    assert root.get("skipped") == str(counts[NOT_APPLICABLE]) and root.get("failures") == "0"


def _small_project(root: Path, *files: str, extra: tuple[str, ...] = ()) -> Path:
    """A project with these feature files of the real one (and these other files of it): a run
    of ``check`` collects them, not the whole suite."""
    from tests.project_kit import make_project

    project = make_project(root, {})
    for name in (*files, *extra):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, project / name)
    return project


def test_check_selects_by_path_and_refuses_a_wrong_one(tmp_path: Path) -> None:
    node()
    results = tmp_path / "r.json"
    file = "features/part-3/304-faza-nakopleniya.feature"
    project = _small_project(tmp_path / "p", file, "features/part-4/401-ochered.feature")
    engine = f"node {ROOT / 'runners' / 'js' / 'example' / 'engine.mjs'}"
    run = functools.partial(cli, cwd=project)
    done = run("check", "--engine", engine, "--results", str(results), "--", file)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    data = json.loads(results.read_text(encoding="utf-8"))
    ran = [s for s in data["scenarios"] if s["status"] != "not run"]
    assert ran and {s["file"] for s in ran} == {file}
    # every selected scenario out of the engine's capabilities: nothing was checked, not green
    outside = run("check", "--engine", engine, "--results", str(results), "--", "features/part-4")
    assert outside.returncode == 1, outside.stdout[-2000:] + outside.stderr
    assert "НИ ОДИН СЦЕНАРИЙ НЕ ПРИМЕНИМ К ДВИЖКУ" in outside.stdout
    wrong = run("check", "--engine", engine, "--results", str(results), "--", "features/part-9")
    assert wrong.returncode == 2 and "features/part-9" in wrong.stderr


def test_export_says_which_scenarios_gave_no_vector_and_why(tmp_path: Path) -> None:
    from berserk_rules.commands.export import missing_vectors

    data = _results(["passed", "passed", "failed", "not run"])
    results = tmp_path / "r.json"
    results.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    ids = [s["id"] for s in data["scenarios"]]
    missing = missing_vectors(results, {ids[0]})
    assert [m["id"] for m in missing] == ids[1:]
    reasons = [m["reason"] for m in missing]
    assert "не начинает партию" in reasons[0]
    assert "failed: ожидалось 2, получено 3" in reasons[1]
    assert reasons[2].startswith("не выполнялся (not run")


def test_a_wrong_engine_gets_one_line_per_failure_and_a_ratchet_that_makes_it_green(tmp_path: Path) -> None:
    """The author's loop on one feature file: one line per failing scenario (file:line, rule, step,
    expected and actual; no traceback), ``known-failures`` writes the list, the next run is green."""
    file = "features/part-4/401-ochered.feature"
    results, known = tmp_path / "r.json", tmp_path / "known.toml"
    project = _small_project(
        tmp_path / "p", file, "features/part-3/304-faza-nakopleniya.feature", extra=("tests/lifo_driver.py",)
    )
    run = functools.partial(cli, cwd=project)

    driver = ["--driver", "tests.lifo_driver:LifoDriver", "--isolation", "none", "--results", str(results)]
    done = run("check", *driver, "--", file)
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr
    data = json.loads(results.read_text(encoding="utf-8"))
    failed = [s for s in data["scenarios"] if s["status"] == "failed"]
    assert failed and "Traceback" not in done.stdout
    lines = [line for line in done.stdout.splitlines() if line.startswith(f"{file}:")]
    assert len(lines) == len(failed)
    for scenario, line in zip(failed, lines, strict=True):
        assert line.startswith(f"{scenario['id']} [{', '.join(scenario['rules'])}] «")
        assert "(строка " in line
    assert any("ожидалось" in line for line in lines)

    listed = run("known-failures", str(results))
    assert listed.returncode == 0, listed.stderr
    known.write_text(listed.stdout, encoding="utf-8")
    assert listed.stdout.count("[[xfail]]") == len(failed)
    green = run("check", *driver, "--known-failures", str(known), "--", file)
    assert green.returncode == 0, green.stdout[-2000:] + green.stderr
    after = json.loads(results.read_text(encoding="utf-8"))["summary"]
    assert after["xfail"] == len(failed) and after["failed"] == 0


def test_the_site_knows_the_status() -> None:
    from berserk_rules.site.nodes import STATUS_ORDER, counts_text

    assert set(STATUSES) <= set(STATUS_ORDER)  # the worst status of a rule is always found
    assert counts_text(["passed", NOT_APPLICABLE, NOT_APPLICABLE]) == "не применим — 2, прошёл — 1"


def test_a_python_driver_declares_its_capabilities_as_a_class_attribute() -> None:
    from berserk_rules.harness.host import DriverSession
    from berserk_rules.reference.driver import ReferenceDriver

    class Partial(ReferenceDriver):
        capabilities: ClassVar[dict] = {"parts": [3], "actions": ["end_turn"]}

    reply = DriverSession(Partial).handle({"id": 0, "op": "handshake", "protocol": "1.0"})
    assert reply["result"]["capabilities"] == {"parts": [3], "actions": ["end_turn"]}
    declared = DriverSession(ReferenceDriver).handle({"id": 0, "op": "handshake"})["result"]["capabilities"]
    assert declared == {"requests": ["deck"]}


def test_check_names_the_commonest_reasons_of_not_applicable() -> None:
    from berserk_rules.commands.check import not_applicable_reasons

    def scenario(status: str, message: str = "") -> dict[str, str]:
        return {"status": status, "message": message}

    data = {
        "scenarios": [scenario("not applicable", "движок не заявил часть 7 (заявлены: 3)")] * 3
        + [scenario("not applicable", f"движок не заявил правило 30{n}.1") for n in range(6)]
        + [scenario("passed"), scenario("failed", "ожидалось 1")]
    }
    text = not_applicable_reasons(data, shown=2).splitlines()
    assert text[0] == "Не применимы (9) — чаще всего:"
    assert text[1].split(maxsplit=1) == ["3", "движок не заявил часть 7 (заявлены: 3)"]
    assert text[-1].split(maxsplit=1) == ["5", "ещё по 5 причинам (поле message в файле результатов)"]
    assert not_applicable_reasons({"scenarios": [scenario("passed"), scenario("failed")]}) == ""


def test_the_results_line_names_the_file_check_moves_the_run_to() -> None:
    from pathlib import Path

    from berserk_rules.runner.recorder import final_name

    assert final_name(Path("/p/build/.results.json.xye1sdox.run")) == Path("/p/build/results.json")
    assert final_name(Path("/p/build/mine.json")) == Path("/p/build/mine.json")


def test_the_matrix_counts_a_scenario_in_the_part_check_counts_it_in() -> None:
    """A glossary scenario (features/part-7/) about a rule of Part 4 is in Part 7 in check's summary
    (its folder): the matrix puts it there too, not in the rule's Part."""
    from berserk_rules.report.coverage import scenario_part
    from berserk_rules.report.matrix import Run, build

    scenario = {"id": "features/part-7/x.feature:3", "file": "features/part-7/x.feature", "line": 3}
    scenario |= {"rules": ["401.7"], "terms": ["очередь"], "status": "passed"}
    run = Run(label="движок", file="r.json", data={"scenarios": [scenario]})
    parts = {p["part"]: p["cells"][0]["total"] for p in build([run])["parts"]}
    assert parts == {scenario_part(scenario): 1} == {7: 1}
