"""The results keep what the site replays: the starting position and the step that failed."""

from __future__ import annotations

import json

import pytest

pytest_plugins = ["pytester"]

FEATURE = """\
# language: ru
@rule-1.1
Функция: Партия для сайта

  Сценарий: падает на третьем шаге
    Дано позиция
    Когда ход
    Тогда всё плохо

  Сценарий: проходит
    Дано позиция
    Тогда всё хорошо
"""

STEPS = """\
from pytest_bdd import given, scenarios, then, when

scenarios(".")


@given("позиция")
def position(request):
    request.node.user_properties.append(("berserk_position", {"turn": 3, "players": {"А": {}}}))


@when("ход")
def turn():
    pass


@then("всё плохо")
def bad():
    assert 1 == 2, "движок ошибся"


@then("всё хорошо")
def good():
    pass
"""


def test_position_and_failed_step_in_results(pytester: pytest.Pytester) -> None:
    pytester.makefile(".feature", **{"features/replay": FEATURE})
    pytester.makepyfile(test_replay_scenarios=STEPS)
    pytester.makeconftest('pytest_plugins = ["berserk_rules.pytest_plugin"]\n')
    pytester.makeini("[pytest]\nbdd_features_base_dir = features\n")
    pytester.runpytest().assert_outcomes(passed=1, failed=1)
    data = json.loads((pytester.path / "build" / "results.json").read_text(encoding="utf-8"))
    by_line = {s["line"]: s for s in data["scenarios"]}
    failed, passed = by_line[5], by_line[10]
    assert failed["status"] == "failed"
    assert failed["failed_step"] == {
        "file": "features/replay.feature",
        "line": 8,
        "keyword": "Тогда",
        "text": "всё плохо",
    }
    assert failed["position"] == {"turn": 3, "players": {"А": {}}}
    assert passed["status"] == "passed" and "failed_step" not in passed
    assert passed["position"] == {"turn": 3, "players": {"А": {}}}
