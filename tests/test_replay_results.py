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


class _Driver:
    """The two requests a trace makes: the judge's observation and log."""

    def __init__(self) -> None:
        self.entries: list[dict[str, object]] = []
        self.phase = "restoration"

    def observe(self, viewer: object) -> dict[str, object]:
        return {"turn": 3, "active": "А", "phase": self.phase, "players": {}}

    def log(self, viewer: object) -> list[dict[str, object]]:
        return self.entries


def test_the_turn_start_is_under_the_step_that_starts_it() -> None:
    """Issue 26, item 4: «Когда начинается ход игрока А» starts the game; the turn's first entries are
    its own — the replay must not say «в журнале ничего нового» under it."""
    from berserk_rules.report.trace import StepTrace

    driver = _Driver()
    trace = StepTrace()
    trace.after_step(None, "Дано", "идёт ход 3", 3)
    driver.entries += [
        {"event": "phase", "text": "Фаза восстановления"},
        {"event": "phase", "text": "Фаза выбора"},
    ]
    driver.phase = "choice"
    trace.started(driver)  # type: ignore[arg-type]
    trace.after_step(driver, "Когда", "начинается ход игрока А", 4, kind="when", moves=0)  # type: ignore[arg-type]
    trace.after_step(driver, "Тогда", "идёт фаза выбора", 5, kind="then", moves=0)  # type: ignore[arg-type]
    steps = trace.to_json()
    assert [s.get("log") for s in steps] == [None, [0, 0], [0, 2], [2, 2]]
    assert steps[1]["start"] and "board" in steps[1]


def test_waiting_triggers_are_listed_in_the_order_of_declaring() -> None:
    """Issue 26, item 4: the inactive player declares first (402.1) — his triggers come first."""
    from berserk_rules.site.replay import board_html, waiting_in_order

    board = {
        "active": "А",
        "players": {"А": {}, "Б": {}},
        "waiting": [
            {"text": "Гибель: ранить на 1 героя противника.", "controller": "А"},
            {"text": "Когда погибает существо: возьмите карту.", "controller": "Б"},
        ],
    }
    ordered, first = waiting_in_order(board)
    assert [q["controller"] for q in ordered] == ["Б", "А"] and first == "Б"
    page = board_html(board)
    assert "Сработали, ждут заявки (первым заявляет игрок Б, 402.1):" in page
    assert page.index("возьмите карту") < page.index("ранить на 1 героя")
    only_active = {**board, "waiting": board["waiting"][:1]}
    assert waiting_in_order(only_active)[1] == "А"  # the inactive player has nothing: he passes


REAL_FEATURE = """\
# language: ru
@rule-303.1
Функция: Партия по шагам по запросу

  Сценарий: закрытый страж открывается
    Дано карты:
      | название | тип      | стоимость | удар | жизни |
      | Страж    | существо | 2         | 1    | 3     |
    И идёт ход 3
    И в игровой зоне у игрока А:
      | карта | закрыта |
      | Страж | да      |
    Когда начинается ход игрока А
    Тогда карта «Страж» открыта
"""


@pytest.mark.parametrize("traced", [False, True], ids=["без разбора", "--berserk-trace"])
def test_the_game_step_by_step_is_recorded_only_when_asked(pytester: pytest.Pytester, traced: bool) -> None:
    """The step trace costs a run only when it asks for it (issue 28): without ``--berserk-trace`` the
    results keep the position and the log but no ``steps``, and say so (``"trace": false``)."""
    pytester.makefile(".feature", **{"features/trace": REAL_FEATURE})
    pytester.makepyfile(test_trace_scenarios='from pytest_bdd import scenarios\n\nscenarios(".")\n')
    pytester.makeconftest('pytest_plugins = ["berserk_rules.pytest_plugin", "berserk_rules.steps.all"]\n')
    pytester.makeini("[pytest]\nbdd_features_base_dir = features\n")
    args = ["-p", "no:xdist", "--berserk-isolation", "none"] + (["--berserk-trace"] if traced else [])
    pytester.runpytest_subprocess(*args).assert_outcomes(passed=1)
    data = json.loads((pytester.path / "build" / "results.json").read_text(encoding="utf-8"))
    assert data["trace"] is traced
    (scenario,) = data["scenarios"]
    assert scenario["position"] and scenario["log"]
    if not traced:
        assert "steps" not in scenario
        return
    steps = scenario["steps"]
    assert [s["text"] for s in steps][-3:] == [
        "Начало партии",
        "начинается ход игрока А",
        "карта «Страж» открыта",
    ]
    assert steps[-3]["start"] and steps[-2]["log"][1] > 0
