"""What the runner does instead of its slower equivalents gives exactly what they gave:

* pytest-bdd's step lookup, remembered by collector, kind and text
  (:mod:`berserk_rules.runner.lookup`): each test module still gets its own step definitions, a
  module's own definition still wins over the conftest's, a step without definition is still one;
* pytest-bdd's copy of a data table (``Step.render_datatable``: ``copy.deepcopy``, then ``<param>``
  rendered) against :func:`berserk_rules.runner.tables.render_datatable`, on every table of
  ``features/`` and with an Examples row;
* ``contract.loads`` against :func:`berserk_rules.harness.replies.loads_response`, which also gives the
  text of the response's ``result`` (the schema checker's memory is keyed by it);
* a result the checker has not seen yet is still checked to be plain JSON (``1e999`` parses as
  infinity), whether it comes as a value or with its text;
* the reference driver served by the host stops copying, and answers the same.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from pytest_bdd.gherkin_parser import Cell, DataTable, Location, Row
from pytest_bdd.parser import FeatureParser

from berserk_rules.harness import contract
from berserk_rules.harness.replies import loads_response
from berserk_rules.reference.driver import ReferenceDriver
from berserk_rules.runner import tables

ROOT = Path(__file__).resolve().parents[1]

pytest_plugins = ["pytester"]

LOOKUP_FEATURE = """\
Feature: lookup
  Scenario: one
    Given a value
    Then it is <expected>

  Scenario: two
    Given a value
    Then it is <expected>

  Scenario: three
    Given nothing known
"""

LOOKUP_CONFTEST = """\
import pytest
from pytest_bdd import given, then, parsers

@given("a value", target_fixture="value")
def conftest_value():
    return "conftest"

@then(parsers.parse("it is {expected}"))
def check(value, expected):
    assert value == expected
"""

LOOKUP_MODULE = """\
from pytest_bdd import given, scenarios
{own}
scenarios("lookup_{name}.feature")
"""

OWN_STEP = """
@given("a value", target_fixture="value")
def own_value():
    return "{name}"
"""


def test_remembered_lookup_keeps_each_modules_own_steps(pytester: pytest.Pytester) -> None:
    """Three modules run the same step texts: one with a step of its own (it wins over the
    conftest's), two without (they get the conftest's) — the same outcomes as pytest-bdd's own
    lookup; «nothing known» has no definition in any of them."""
    pytester.makeconftest(LOOKUP_CONFTEST)
    for name, own, expected in (("a", True, "a"), ("b", False, "conftest"), ("c", True, "c")):
        pytester.makefile(".feature", **{f"lookup_{name}": LOOKUP_FEATURE.replace("<expected>", expected)})
        code = LOOKUP_MODULE.format(own=OWN_STEP.format(name=name) if own else "", name=name)
        pytester.makepyfile(**{f"test_lookup_{name}": code})
    remembered = pytester.runpytest("-p", "berserk_rules.pytest_plugin", "-p", "no:cacheprovider")
    remembered.assert_outcomes(passed=6, failed=3)
    # one report section per failed scenario (the short summary repeats the message in full when
    # pytest runs in CI, and cuts it elsewhere: it is not counted)
    sections = [line for line in remembered.stdout.lines if line.startswith("lookup_")]
    assert [line.count("нет определения шага «Given nothing known»") for line in sections] == [1, 1, 1]


def _all_tables() -> list[DataTable]:
    """Each data table of ``features/`` once (a background's tables belong to all its scenarios)."""
    found: dict[int, DataTable] = {}
    for path in sorted((ROOT / "features").rglob("*.feature")):
        feature = FeatureParser(str(path.parent), path.name).parse()
        for template in feature.scenarios.values():
            for step in template.all_background_steps + template._steps:
                if step.datatable is not None:
                    found[id(step.datatable)] = step.datatable
    return list(found.values())


def _objects(table: DataTable) -> list[object]:
    """Every mutable object of a table."""
    out: list[object] = [table, table.location, table.rows]
    for row in table.rows:
        out += [row, row.location, row.cells]
        for cell in row.cells:
            out += [cell, cell.location]
    return out


def test_the_installed_pytest_bdd_tables_fit() -> None:
    assert tables.fits(), "поля таблиц pytest-bdd изменились: обновите runner/tables.py"


def test_table_copy_equals_pytest_bdds_on_every_table_of_the_features() -> None:
    found = _all_tables()
    assert len(found) > 100
    original = tables.ORIGINAL.__func__
    for number, table in enumerate(found):
        for context in ({}, {"игрок": "А", "n": 3}) if number % 20 == 0 else ({},):
            ours, theirs = tables.render_datatable(table, context), original(table, context)
            assert ours == theirs
            assert not {id(o) for o in _objects(ours)} & {id(o) for o in _objects(table)}


def test_table_copy_renders_the_parameters_of_an_examples_row() -> None:
    at = Location(column=7, line=12)
    table = DataTable(
        location=at,
        rows=[Row(id="r", location=at, cells=[Cell(at, "<карта>"), Cell(at, "<нет> и <n>"), Cell(at, "3")])],
    )
    context = {"карта": "Гном", "n": 2}
    ours = tables.render_datatable(table, context)
    assert ours == tables.ORIGINAL.__func__(copy.deepcopy(table), context)
    assert [c.value for c in ours.rows[0].cells] == ["Гном", "<нет> и 2", "3"]
    assert table.rows[0].cells[0].value == "<карта>"  # the template stays as it was


RESPONSES = [
    '{"id": 1, "result": {"a": [1, 2.5, "x"], "b": null}}',
    '  {"result" :  [ ] , "id":2 }  \n',
    '{"id": 3, "result": null}',
    '{"id": 4, "error": {"kind": "engine", "message": "m"}}',
    '{"id": 5, "result": 1, "result": {"second": true}}',  # the last one wins, as in json.loads
    '{"result": "\\u0436 «ё» \\"кавычки\\"", "id": 6}',
    "{}",
    "[1, 2]",
    '"text"',
]
BROKEN = [
    "",
    "{",
    '{"id": 1,}',
    '{"id": 1 "result": 2}',
    '{"id": 1, "result": NaN}',
    '{"id": 1, "result": [Infinity]}',
    '{"id": 1} extra',
    '\ufeff{"id": 1}',
    '{"id": 1, "result": "\x01"}',
    "{'id': 1}",
]


@pytest.mark.parametrize("text", RESPONSES)
def test_response_reading_equals_strict_loads(text: str) -> None:
    value, result_text = loads_response(text)
    assert value == contract.loads(text) and type(value) is type(contract.loads(text))
    if isinstance(value, dict) and "result" in value:
        assert result_text is not None and contract.loads(result_text) == value["result"]
        assert text.count(result_text) >= 1
    else:
        assert result_text is None


@pytest.mark.parametrize("text", BROKEN)
def test_broken_responses_raise_what_strict_loads_raises(text: str) -> None:
    with pytest.raises(ValueError) as theirs:
        contract.loads(text)
    with pytest.raises(ValueError) as ours:
        loads_response(text)
    assert str(ours.value) == str(theirs.value)


def test_an_unseen_result_with_its_text_is_still_checked_to_be_plain_json() -> None:
    checker = contract.Checker()
    text = '{"seq": 1e999}'
    value, _ = loads_response('{"id": 1, "result": ' + text + "}")
    with pytest.raises(contract.ContractError, match="не число JSON"):
        checker.check("observation", value["result"], "observe(судья)", text, plain=True)


def test_the_served_reference_driver_answers_the_same_without_copies() -> None:
    from berserk_engine.selfplay import random_action, standard_position

    rng = random.Random(3)
    copying, served = ReferenceDriver(), ReferenceDriver()
    served.serve_over_wire()
    for driver in (copying, served):
        driver.start(standard_position(3))
    for _ in range(60):
        decision = copying.decision()
        assert json.dumps(decision) == json.dumps(served.decision())
        for viewer in (None, "А", "Б"):
            assert json.dumps(copying.observe(viewer)) == json.dumps(served.observe(viewer))
        if decision is None:
            break
        action = random_action(decision["options"], rng)
        copying.act(decision["player"], copy.deepcopy(action))
        served.act(decision["player"], copy.deepcopy(action))
    assert copying.log(None) == served.log(None)
    # the copying driver's answers are the caller's to change; the engine's state does not move
    seen = copying.observe(None)
    seen["players"].clear()
    assert copying.observe(None) == served.observe(None)


class _Answering:
    """A driver whose observation is whatever the test puts there."""

    name = "проба"
    version = "0"
    value: Any = None

    def __init__(self) -> None:
        pass

    def serve_over_wire(self) -> None:
        pass

    def start(self, setup: dict[str, Any]) -> None:
        pass

    def observe(self, player: str | None) -> Any:
        return _Answering.value

    def close(self) -> None:
        pass


class _Str(str):
    pass


@pytest.mark.parametrize(
    "value",
    [
        {"turn": 1, "play": [{"id": "c1", "wounds": 0}], "x": None, "y": 1.5, "z": True},
        {"turn": (1, 2)},
        {"cards": {1: "c1"}},
        {"cards": {"1": "a", 1: "b"}},
        {"weight": float("nan")},
        {"weight": float("inf")},
        {"set": {1, 2}},
        {"obj": object()},
        {_Str("ключ"): _Str("значение")},
        [1, [2, [3]]],
    ],
)
def test_the_host_refuses_exactly_what_is_not_plain_json(value: Any) -> None:
    """The host checks a driver's answer by reading its serialisation back (C speed) instead of
    walking it: the verdict is :func:`contract.json_problems`' (tuples, non-string keys, NaN, sets,
    objects refused; subclasses of str accepted), and a refusal names the field."""
    from berserk_rules.harness.host import DriverSession

    session = DriverSession(_Answering)  # type: ignore[arg-type]
    session.answer({"id": 1, "op": "start", "position": {}})
    _Answering.value = value
    reply = json.loads(session.answer({"id": 2, "op": "observe", "viewer": "А"}))
    problems = contract.json_problems(value)
    if problems:
        assert reply["error"]["kind"] == "engine"
        assert reply["error"]["message"] == "ValueError: observe(А): " + "; ".join(problems[:3])
    else:
        assert reply == {"id": 2, "result": json.loads(json.dumps(value, ensure_ascii=False))}


COUNTING_PLUGIN = """\
from berserk_rules.runner import lookup

CALLS = []
_original = lookup.ORIGINAL


def counted(request, step):
    CALLS.append(step.name)
    return _original(request, step)


lookup.ORIGINAL = counted
if {disable}:
    lookup.visible_steps = lambda manager, node: None


def pytest_sessionfinish(session):
    print(f"pytest-bdd looked up {{len(CALLS)}} steps")
"""


def test_listed_step_lookup_finds_what_pytest_bdds_lookup_finds(tmp_path: Path) -> None:
    """In the scenario run a new step text is tried against the step definitions listed once, without
    pytest-bdd's walk over every fixture — and the outcomes, the messages of a step without
    definition included, are those of pytest-bdd's own lookup (which runs when the listing is off)."""
    import subprocess
    import sys

    from tests.project_kit import PASSING, feature, make_project

    unknown = "  Сценарий: неизвестный шаг\n    Дано идёт фаза выбора игрока А\n"
    unknown += "    Тогда случилось нечто неведомое\n"
    outcomes = {}
    for disable in (False, True):
        root = make_project(
            tmp_path / str(disable),
            {"proba.feature": feature(PASSING.format(name="известный"), unknown)},
            {"counting.py": COUNTING_PLUGIN.format(disable=disable)},
        )
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "tests/test_rulebook.py",
                "-p",
                "counting",
                "-p",
                "no:cacheprovider",
            ],
            cwd=root,
            env={**os.environ, "PYTHONPATH": str(root)},
            capture_output=True,
            text=True,
            timeout=300,
        )
        looked = re.findall(r"pytest-bdd looked up \d+ steps", done.stdout)
        outcomes[disable] = (done.stdout.splitlines()[-1].strip("= ").split(" in ")[0], looked)
        assert "нет определения шага «Тогда случилось нечто неведомое»" in done.stdout, done.stdout[-3000:]
    assert outcomes[False][0] == outcomes[True][0] == "1 failed, 1 passed"
    assert outcomes[False][1] == ["pytest-bdd looked up 0 steps"]
    assert outcomes[True][1] == ["pytest-bdd looked up 3 steps"]  # once per distinct text


GC_FEATURE = """\
Feature: gc
  Scenario: thresholds
    Given the collector's thresholds are noted
"""

GC_STEPS = """\
import gc
from pytest_bdd import given, scenarios

scenarios("gc.feature")


@given("the collector's thresholds are noted")
def noted():
    with open("thresholds.txt", "w") as out:
        out.write(repr(gc.get_threshold()))
"""


@pytest.mark.parametrize("with_plain_test", [False, True])
def test_full_collections_wait_only_in_a_run_of_scenarios(
    pytester: pytest.Pytester, with_plain_test: bool
) -> None:
    """While a run of scenarios and nothing else runs, the collector collects only its young
    generations (what the run keeps grows to the end, and each full collection walked it all);
    a run with other tests keeps the thresholds; both give them back when the run ends."""
    import ast
    import gc

    before = gc.get_threshold()
    pytester.makefile(".feature", gc=GC_FEATURE)
    code = GC_STEPS + ("\n\ndef test_plain():\n    pass\n" if with_plain_test else "")
    pytester.makepyfile(test_gc=code)
    result = pytester.runpytest_inprocess("-p", "berserk_rules.pytest_plugin", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2 if with_plain_test else 1)
    during = ast.literal_eval((pytester.path / "thresholds.txt").read_text())
    assert during[:2] == before[:2]
    assert (during[2] == before[2]) is with_plain_test
    assert gc.get_threshold() == before


def _collected(*selection: str) -> tuple[list[str], str]:
    import subprocess
    import sys

    args = [arg for chosen in selection for arg in ("--berserk-select", chosen)]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/test_rulebook.py", "-p", "no:cacheprovider", "-p", "no:xdist",
         "--collect-only", "-q", *args],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    return ids, done.stdout + done.stderr


def test_a_selection_makes_tests_of_the_chosen_feature_files_only() -> None:
    """``--berserk-select``: pytest-bdd is given only the feature files a selection can choose from
    (``parsing.selected_features``), so a run of one file makes that file's tests, not all 828 to
    deselect 808 of them — and chooses exactly the scenarios the deselection chose before."""
    from berserk_rules.rulebook.features import load_scenarios
    from berserk_rules.runner.capabilities import selected

    scenarios = load_scenarios(ROOT)
    one = "features/part-3/304-faza-nakopleniya.feature"
    folder = "features/part-2"
    line = next(ref for ref in scenarios if ref.file == "features/part-4/401-ochered.feature")
    chosen = (one, folder, f"{line.file}:{line.line}")
    ids, output = _collected(*chosen)
    expected = [ref for ref in scenarios if selected(ref, chosen)]
    assert len(ids) == len(expected) > 20, output
    # made into tests: the scenarios of the three files only; the others of 401 (FILE:LINE) deselected
    made = sum(ref.file in (one, line.file) or ref.file.startswith(folder + "/") for ref in scenarios)
    assert f"{len(expected)}/{made} tests collected ({made - len(expected)} deselected)" in output, output
    files = {i.split("::")[0] for i in ids}
    assert files == {"tests/test_rulebook.py"}
    every, _ = _collected()
    assert len(every) == len(scenarios)  # without a selection: every feature file
