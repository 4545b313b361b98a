"""The pytest plugin: tag markers, known failures, statuses in the results file, xdist."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from berserk_rules.errors import UserError
from berserk_rules.harness.driver import resolve_driver

pytest_plugins = ["pytester"]

FEATURE = """\
# language: ru
@rule-1.1
Функция: Проверка плагина

  Сценарий: проходит
    Дано подготовка
    Тогда всё хорошо
    И маркеры правил 1.1

  Сценарий: падает
    Дано подготовка
    Тогда всё плохо

  Сценарий: пропущен
    Дано подготовка
    Тогда пропустить

  Сценарий: сломанная подготовка
    Дано подготовка
    Тогда всё хорошо

  Сценарий: не запускается
    Дано подготовка
    Тогда всё хорошо

  @rule-2.2
  Правило: Наследование тегов

    @term-авангард
    Сценарий: известная ошибка
      Дано подготовка
      Тогда всё плохо

    Структура сценария: строки
      Дано подготовка
      Тогда всё <как>
      И маркеры правил 1.1, 2.2

      Примеры:
        | как    |
        | хорошо |
        | плохо  |
"""

STEPS = """\
import pytest
from pytest_bdd import given, parsers, scenarios, then

scenarios(".")


@pytest.fixture(autouse=True)
def broken_setup(request):
    if "сломанная" in request.node.name:
        raise RuntimeError("подготовка сломалась")


@given("подготовка")
def prepare(request):
    request.node.user_properties.append(("berserk_log", [{"событие": "подготовка"}]))


@then("всё хорошо")
def good():
    pass


@then("всё плохо")
def bad():
    assert 1 == 2, "движок ошибся"


@then("пропустить")
def skip():
    pytest.skip("нечего проверять")


@then(parsers.parse("маркеры правил {ids}"))
def rule_markers(request, ids):
    got = sorted(m.kwargs["id"] for m in request.node.iter_markers("rule"))
    assert got == sorted(ids.split(", "))
"""

DRIVER = """\
class Driver:
    name = "Тестовый движок"
    version = "0.0.1"


class NoVersion:
    name = "без версии"
"""

KNOWN = """\
[[xfail]]
scenario = "features/plugin.feature:30"
reason = "известная ошибка движка"
"""

# line numbers in FEATURE
PASSES, FAILS, SKIPPED, BROKEN, NOT_RUN, KNOWN_LINE = 5, 10, 14, 18, 22, 30
OUTLINE, ROW_GOOD, ROW_BAD = 34, 41, 42


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makefile(".feature", **{"features/plugin": FEATURE})
    pytester.makepyfile(test_plugin_scenarios=STEPS, drv=DRIVER)  # not test_rulebook: clashes in-process
    pytester.makeconftest('pytest_plugins = ["berserk_rules.pytest_plugin"]\n')
    pytester.makeini(
        textwrap.dedent(
            """\
            [pytest]
            addopts = --strict-markers -p no:cacheprovider
            bdd_features_base_dir = features
            """
        )
    )
    (pytester.path / "known").mkdir()
    (pytester.path / "known" / "engine.toml").write_text(KNOWN, encoding="utf-8")
    return pytester


def results(pytester: pytest.Pytester, name: str = "build/results.json") -> dict[str, Any]:
    return json.loads((pytester.path / name).read_text(encoding="utf-8"))


def statuses(data: dict[str, Any]) -> dict[int, str]:
    return {s["line"]: s["status"] for s in data["scenarios"]}


EXPECTED = {
    PASSES: "passed",
    FAILS: "failed",
    SKIPPED: "skipped",
    BROKEN: "error",
    NOT_RUN: "not run",
    KNOWN_LINE: "xfail",
    ROW_GOOD: "passed",
    ROW_BAD: "failed",
}
ARGS = (
    "--berserk-driver",
    "drv:Driver",
    "--berserk-known-failures",
    "known/engine.toml",
    "-k",
    "not запускается",
)


def check_results(data: dict[str, Any]) -> None:
    assert statuses(data) == EXPECTED
    assert data["schema"] == 1
    assert data["engine"]["name"] == "Тестовый движок"
    assert data["engine"]["version"] == "0.0.1"
    assert data["summary"] == {
        "passed": 2,
        "failed": 2,
        "xfail": 1,
        "xpass": 0,
        "skipped": 1,
        "error": 1,
        "not run": 1,
        "not applicable": 0,
        "total": 8,
    }
    by_line = {s["line"]: s for s in data["scenarios"]}
    # tags inherited from Функция and Правило reach every scenario, outline rows included
    assert by_line[KNOWN_LINE]["rules"] == ["1.1", "2.2"]
    assert by_line[KNOWN_LINE]["terms"] == ["авангард"]
    assert by_line[ROW_BAD]["rules"] == ["1.1", "2.2"]
    assert by_line[ROW_BAD]["id"] == f"features/plugin.feature:{ROW_BAD}"
    assert by_line[ROW_BAD]["name"] == "строки (плохо)"
    assert "движок ошибся" in by_line[FAILS]["message"]
    assert by_line[KNOWN_LINE]["message"].startswith("известная ошибка движка")
    assert "подготовка сломалась" in by_line[BROKEN]["message"]
    assert by_line[SKIPPED]["message"] == "нечего проверять"
    assert by_line[PASSES]["log"] == [{"событие": "подготовка"}]
    assert "log" not in by_line[NOT_RUN]


def test_statuses_in_process(project: pytest.Pytester) -> None:
    result = project.runpytest(*ARGS)
    result.assert_outcomes(passed=2, failed=2, skipped=1, errors=1, xfailed=1, deselected=1)
    check_results(results(project))
    result.stdout.fnmatch_lines(["*результаты (7 сценариев) записаны в build/results.json*"])


@pytest.mark.slow  # pytest-xdist workers inside the test
def test_statuses_under_xdist(project: pytest.Pytester) -> None:
    result = project.runpytest_subprocess("-n", "2", *ARGS)
    result.assert_outcomes(passed=2, failed=2, skipped=1, errors=1, xfailed=1)
    check_results(results(project))


def test_results_option_and_atomic_write(project: pytest.Pytester) -> None:
    project.runpytest(*ARGS, "--berserk-results", "out/r.json")
    assert statuses(results(project, "out/r.json")) == EXPECTED
    assert not (project.path / "build").exists()
    assert [p.name for p in (project.path / "out").iterdir()] == ["r.json"]  # no temporary file left


def test_known_failure_that_passes_is_strict_xpass(project: pytest.Pytester) -> None:
    (project.path / "known" / "engine.toml").write_text(
        f'[[xfail]]\nscenario = "features/plugin.feature:{PASSES}"\nreason = "считалось ошибкой"\n',
        encoding="utf-8",
    )
    result = project.runpytest(
        "--berserk-driver", "drv:Driver", "--berserk-known-failures", "known/engine.toml"
    )
    assert result.ret == 1
    record = {s["line"]: s for s in results(project)["scenarios"]}[PASSES]
    assert record["status"] == "xpass"
    assert "считалось ошибкой" in record["message"]


def test_known_failure_on_outline_covers_every_row(project: pytest.Pytester) -> None:
    (project.path / "known" / "engine.toml").write_text(
        f'[[xfail]]\nscenario = "features/plugin.feature:{OUTLINE}"\nreason = "строки"\n', encoding="utf-8"
    )
    project.runpytest("--berserk-driver", "drv:Driver", "--berserk-known-failures", "known/engine.toml")
    got = statuses(results(project))
    assert (got[ROW_GOOD], got[ROW_BAD]) == ("xpass", "xfail")


def test_unknown_scenario_in_known_failures_is_an_error(project: pytest.Pytester) -> None:
    (project.path / "known" / "engine.toml").write_text(
        '[[xfail]]\nscenario = "features/plugin.feature:6"\nreason = "шаг, а не сценарий"\n', encoding="utf-8"
    )
    result = project.runpytest(
        "--berserk-driver", "drv:Driver", "--berserk-known-failures", "known/engine.toml"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*known/engine.toml*сценария features/plugin.feature:6 нет*"])
    assert not (project.path / "build").exists()


def test_reference_known_failures_used_by_default(project: pytest.Pytester) -> None:
    (project.path / "known-failures").mkdir()
    (project.path / "known-failures" / "reference.toml").write_text(KNOWN, encoding="utf-8")
    project.runpytest("-k", "известная")
    assert statuses(results(project))[KNOWN_LINE] == "xfail"
    # another driver does not inherit the reference engine's list
    project.runpytest("-k", "известная", "--berserk-driver", "drv:Driver")
    assert statuses(results(project))[KNOWN_LINE] == "failed"


def test_no_results_when_no_scenario_selected(project: pytest.Pytester) -> None:
    project.makepyfile(test_unit="def test_unit():\n    pass\n")
    result = project.runpytest("--berserk-driver", "drv:Driver", "test_unit.py")
    result.assert_outcomes(passed=1)
    assert not (project.path / "build").exists()
    result = project.runpytest("--berserk-driver", "drv:Driver", "-k", "ничего_такого")
    assert not (project.path / "build").exists()


def test_bad_driver_is_a_usage_error(project: pytest.Pytester) -> None:
    result = project.runpytest("--berserk-driver", "drv:Missing")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*драйвер drv:Missing: в модуле drv нет «Missing»*"])


def test_resolve_driver(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "drv_mod.py").write_text(DRIVER + "\nNOT_A_CLASS = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert resolve_driver("drv_mod:Driver").name == "Тестовый движок"
    for spec, message in (
        ("drv_mod", "модуль:Класс"),
        ("drv_mod:", "модуль:Класс"),
        ("no_such_module_x:Driver", "не удалось импортировать модуль no_such_module_x"),
        ("drv_mod:Other", "нет «Other»"),
        ("drv_mod:NOT_A_CLASS", "не класс"),
        ("drv_mod:NoVersion", "version"),
    ):
        with pytest.raises(UserError, match=message):
            resolve_driver(spec)


UNDEFINED = """\
# language: ru
@rule-1.1
Функция: Шаг без определения

  Сценарий: неизвестный шаг
    Дано подготовка
    Когда происходит что-то неизвестное
    Тогда всё хорошо
"""


def test_undefined_step_is_an_error_with_file_and_line(project: pytest.Pytester) -> None:
    (project.path / "features" / "plugin.feature").write_text(UNDEFINED, encoding="utf-8")
    result = project.runpytest("--berserk-driver", "drv:Driver")
    record = results(project)["scenarios"][0]
    assert record["status"] == "error"  # never "passed", and not an engine failure
    assert record["message"] == (
        "features/plugin.feature:7: нет определения шага «Когда происходит что-то неизвестное» "
        "(сценарий «неизвестный шаг»)"
    )
    assert "StepDefinitionNotFoundError" not in result.stdout.str()


def test_first_step_and_is_reported_in_russian_at_collection(project: pytest.Pytester) -> None:
    (project.path / "features" / "plugin.feature").write_text(
        "# language: ru\n@rule-1.1\nФункция: ф\n\n  Сценарий: с\n    И подготовка\n    Тогда всё хорошо\n",
        encoding="utf-8",
    )
    result = project.runpytest("--berserk-driver", "drv:Driver")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*features/plugin.feature:6: [[]first-step[]] первый шаг «И подготовка»*"])
    assert "StepError" not in result.stdout.str()


def test_known_failures_by_rule_with_issue_and_non_strict(project: pytest.Pytester) -> None:
    """An entry may name a rule (every scenario of it) and an issue link; ``strict = false`` makes
    an unexpected pass a reported xpass that does not fail the run."""
    (project.path / "known" / "engine.toml").write_text(
        'strict = false\n\n[[xfail]]\nrule = "2.2"\nreason = "правило 2.2 не сделано"\n'
        'issue = "https://example.org/issues/7"\n',
        encoding="utf-8",
    )
    result = project.runpytest(
        "--berserk-driver", "drv:Driver", "--berserk-known-failures", "known/engine.toml"
    )
    data = results(project)
    got = statuses(data)
    assert (got[KNOWN_LINE], got[ROW_GOOD], got[ROW_BAD]) == ("xfail", "xpass", "xfail")
    record = {s["line"]: s for s in data["scenarios"]}[KNOWN_LINE]
    assert record["message"].startswith("правило 2.2 не сделано (https://example.org/issues/7)")
    assert data["known_failures"] == {"file": "known/engine.toml", "strict": False}
    from berserk_rules.commands.check import bad_statuses

    assert "xpass" not in bad_statuses(data)
    result.assert_outcomes(passed=2, failed=1, skipped=1, errors=1, xfailed=2, xpassed=1)


def test_known_failure_naming_an_unchecked_rule_is_an_error(project: pytest.Pytester) -> None:
    (project.path / "known" / "engine.toml").write_text(
        '[[xfail]]\nrule = "9.9"\nreason = "нет такого"\n', encoding="utf-8"
    )
    result = project.runpytest(
        "--berserk-driver", "drv:Driver", "--berserk-known-failures", "known/engine.toml"
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*ни один сценарий не проверяет правило 9.9*"])
