"""``berserk-rules check``, ``coverage`` and ``rule`` on a tiny project built in tmp_path."""

from __future__ import annotations

import argparse
import json
import os
import textwrap
from pathlib import Path

import pytest

from berserk_rules.cli import main
from berserk_rules.commands import check
from berserk_rules.corpus import load_corpus
from berserk_rules.report import coverage
from berserk_rules.report.results import load_results
from berserk_rules.rulebook.features import load_scenarios

PYPROJECT = """\
[tool.berserk-rules]
required-parts = [3]

[tool.pytest.ini_options]
addopts = "--strict-markers -p no:cacheprovider"
bdd_features_base_dir = "features"
"""

PART_3 = """\
# Часть 3. Ход

:::{rule} 303
:heading:
:source: a.txt
:line: 1
:printed: 303.
Начало хода
:::

::::{rule} 303.1
:::{variant}
:source: a.txt
:line: 2
:printed: 303.1.
Активный игрок открывает все свои карты.
ПРИМЕР. Игрок открывает три карты.
:::
:::{variant}
:source: b.txt
:line: 9
Активный игрок открывает карты.
:::
::::

:::{rule} 303.2
:source: a.txt
:line: 3
:printed: 303.2.
Активный игрок получает монету.
:::

:::{rule} 303.3
:untestable: об оформлении
:source: a.txt
:line: 4
:printed: 303.3.
Игроки улыбаются.
:::
"""

GLOSSARY = """\
# Глоссарий

:::{term} авангард-х
:name: Авангард Х
:source: a.txt
:line: 6
Срабатывающая способность.
:::
"""

INTERPRETATIONS = """\
# Толкования

:::{interpretation} I-1
:rules: 303.1
:title: Какие карты открываются
Открываются все карты активного игрока.
:::
"""

FEATURE = """\
# language: ru
@rule-303.1
Функция: Начало хода

  @term-авангард-х
  Сценарий: открывает карты
    Дано игра
    Тогда карты открыты

  @rule-303.2
  Правило: Монета

    Сценарий: получает монету
      Дано игра
      Тогда монета получена
"""
OPENS, COIN = 6, 13

STEPS = """\
from pytest_bdd import given, scenarios, then

scenarios("part-3")


@given("игра")
def game():
    pass


@then("карты открыты")
def opened():
    pass


@then("монета получена")
def coin():
    assert COIN_WORKS, "монеты нет"


COIN_WORKS = {coin_works}
"""

DRIVER = """\
class Driver:
    name = "Проба"
    version = "1.2"
"""


def make_project(root: Path, coin_works: bool = False) -> Path:
    files = {
        "pyproject.toml": PYPROJECT,
        "rules/part-3.md": PART_3,
        "rules/glossary.md": GLOSSARY,
        "rules/interpretations.md": INTERPRETATIONS,
        "features/part-3/hod.feature": FEATURE,
        "tests/test_rulebook.py": STEPS.format(coin_works=coin_works),
        "conftest.py": 'pytest_plugins = ["berserk_rules.pytest_plugin"]\n',
        "probe_driver.py": DRIVER,
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return make_project(tmp_path)


def write_results(root: Path, statuses: dict[int, str]) -> None:
    scenarios = [
        {"id": f"features/part-3/hod.feature:{line}", "line": line, "status": status, "message": None}
        for line, status in statuses.items()
    ]
    path = root / "build" / "results.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"schema": 1, "scenarios": scenarios}), encoding="utf-8")


# --- check ---------------------------------------------------------------------------------------

CHECK = ["check", "--driver", "probe_driver:Driver", "-n", "0"]


def test_check_reports_failures(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(CHECK) == 1
    out = capsys.readouterr().out
    table = out[out.index("Часть    ") :].splitlines()
    assert table[2].split() == ["Часть", "3", "2", "1", "1", "0", "0", "0", "0", "2/2"]
    assert table[-1] == (
        "Итого 2 сценария (Проба 1.2): прошли 1, упали 1, ошибки 0, неожиданно прошли 0, "
        "известные ошибки 0, пропущены 0, не применимы 0, не запущены 0 — ЕСТЬ ОШИБКИ."
    )
    # one line per failing scenario, before the table: where, the rule, the step, what it said
    failures = [line for line in out.splitlines() if line.startswith("features/part-3/hod.feature:")]
    assert len(failures) == 1 and failures[0].endswith(": AssertionError: монеты нет"), failures
    assert "Traceback" not in out
    results = load_results(project / "build" / "results.json")
    assert (
        results[f"features/part-3/hod.feature:{COIN}"]["message"]
        == "AssertionError: монеты нет\nassert False"
    )


def test_check_passes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(make_project(tmp_path, coin_works=True))
    assert main([*CHECK, "--results", "out/r.json"]) == 0
    assert "— всё в порядке." in capsys.readouterr().out
    assert (tmp_path / "out" / "r.json").is_file()


def test_check_narrowed_run_does_not_fail_on_not_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*CHECK, "--", "-k", "открывает"]) == 0
    out = capsys.readouterr().out
    assert "не запущены 1 — всё в порядке." in out


def test_check_fails_when_a_scenario_silently_did_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(make_project(tmp_path, coin_works=True))
    # pytest-bdd keeps one of two scenarios with the same name: the other never runs
    feature = tmp_path / "features" / "part-3" / "hod.feature"
    feature.write_text(
        FEATURE + "\n    Сценарий: получает монету\n      Дано игра\n      Тогда монета получена\n"
    )
    assert main(CHECK) == 2  # lint finds it before anything runs
    assert "[duplicate-name] сценарий «получает монету» уже есть в строке" in capsys.readouterr().err


def test_check_with_a_driver_that_cannot_be_imported(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--driver", "nope", "-n", "0"]) == 2  # before pytest starts
    assert "драйвер задаётся как «модуль:Класс»" in capsys.readouterr().err
    assert main(["check", "--driver", "no_such_module_x:Driver", "-n", "0"]) == 2
    assert "не удалось импортировать модуль no_such_module_x" in capsys.readouterr().err
    assert not (project / "build" / "results.json").exists()


def test_check_needs_rulebook_tests(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "tests" / "test_rulebook.py").unlink()
    assert main(CHECK) == 2
    assert "нет файла tests/test_rulebook.py" in capsys.readouterr().err


def test_check_pytest_command(tmp_path: Path) -> None:
    args = argparse.Namespace(driver="m:C", workers=None, pytest_args=["--", "-k", "x"])
    command = check.pytest_command(args, tmp_path / "r.json", scenarios=10)
    assert command[1:4] == ["-m", "pytest", "tests/test_rulebook.py"]
    assert command[-6:] == [
        "--berserk-results",
        str(tmp_path / "r.json"),
        "--berserk-driver",
        "m:C",
        "-k",
        "x",
    ]
    assert "-n" not in command  # below check.PARALLEL_FROM scenarios one process is faster
    many = check.pytest_command(args, tmp_path / "r.json", scenarios=check.PARALLEL_FROM)
    assert many[-4:-2] == ["-n", "auto"] or (os.cpu_count() or 1) < 2
    args.workers = "0"
    assert check.pytest_command(args, tmp_path / "r.json", scenarios=10_000)[-4:-2] == ["-n", "0"]


def test_the_game_step_by_step_is_asked_by_site_and_check_trace(tmp_path: Path) -> None:
    """The step trace costs only the runs that ask for it (issue 28): ``check`` records it with
    ``--trace``, ``site`` (which shows it) always."""
    from berserk_rules.cli import build_parser

    parser = build_parser()
    for argv, traced in ((["check"], False), (["check", "--trace"], True), (["site"], True)):
        args = parser.parse_args(argv)
        command = check.pytest_command(args, tmp_path / "r.json", scenarios=10)
        assert ("--berserk-trace" in command) is traced, argv


# --- coverage ------------------------------------------------------------------------------------


def test_coverage_compute(project: Path) -> None:
    write_results(project, {OPENS: "passed"})
    items = coverage.compute(
        load_corpus(project), load_scenarios(project), load_results(project / "build" / "results.json")
    )
    by_id = {item["id"]: item for item in items}
    assert list(by_id) == ["303", "303.1", "303.2", "303.3", "авангард-х"]
    assert by_id["303"]["testable"] is False and by_id["303"]["reason"] == "заголовок раздела"
    assert by_id["303.3"]["reason"] == "об оформлении"
    assert "reason" not in by_id["303.1"]
    # @rule-303.1 of the Функция is inherited by both scenarios; absent from results: "not run"
    assert by_id["303.1"]["scenarios"] == [
        {
            "id": f"features/part-3/hod.feature:{OPENS}",
            "name": "открывает карты",
            "file": "features/part-3/hod.feature",
            "line": OPENS,
            "status": "passed",
        },
        {
            "id": f"features/part-3/hod.feature:{COIN}",
            "name": "получает монету",
            "file": "features/part-3/hod.feature",
            "line": COIN,
            "status": "not run",
        },
    ]
    assert [s["status"] for s in by_id["303.2"]["scenarios"]] == ["not run"]
    assert [s["line"] for s in by_id["авангард-х"]["scenarios"]] == [OPENS]
    part = coverage.by_part(items)[3]
    assert (part.testable, part.covered, part.passing, part.untestable) == (2, 2, 0, 2)
    assert part.scenario_statuses == {"passed": 1, "not run": 1}  # distinct scenarios


def test_coverage_passing_rules(project: Path) -> None:
    write_results(project, {OPENS: "passed", COIN: "passed"})
    items = coverage.compute(
        load_corpus(project), load_scenarios(project), load_results(project / "build" / "results.json")
    )
    assert coverage.by_part(items)[3].passing == 2


def test_coverage_command(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_results(project, {OPENS: "passed", COIN: "failed"})
    assert main(["coverage"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == ["Часть", "3", "4", "2", "2", "100%", "0", "из", "2", "2", "1"]
    assert lines[3].split() == ["Глоссарий", "1", "1", "1", "100%", "1", "из", "1", "1", "1"]
    assert lines[-1].startswith(
        "Правила: 2 из 2 проверяемых покрыты сценариями (100%), у 0 все сценарии прошли"
    )
    assert main(["coverage", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {i["id"]: [s["status"] for s in i["scenarios"]] for i in data}["303.2"] == ["failed"]


def test_coverage_without_results(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage"]) == 0
    assert "Результатов прогона нет" in capsys.readouterr().out


def test_bad_results_file_is_a_user_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "build").mkdir()
    (project / "build" / "results.json").write_text("{", encoding="utf-8")
    assert main(["coverage"]) == 2
    assert "build/results.json:1: файл результатов — не JSON" in capsys.readouterr().err


# --- rule ----------------------------------------------------------------------------------------


def test_rule_with_differing_variants(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_results(project, {OPENS: "xfail"})
    assert main(["rule", "303.1"]) == 0
    out = capsys.readouterr().out
    expected = textwrap.dedent(
        f"""\
        303.1 — правило, официальный номер
        Раздел: 303. Начало хода
        Часть: Часть 3. Ход
        В корпусе: rules/part-3.md:11

        Варианты (2) — ТЕКСТЫ РАЗЛИЧАЮТСЯ, примеры различаются, номер напечатан не во всех источниках:
          [1] a.txt:2, номер «303.1.»
              Активный игрок открывает все свои карты.
              Примеры:
                ПРИМЕР. Игрок открывает три карты.
          [2] b.txt:9, без номера
              Активный игрок открывает карты.

        Толкования (1):
          I-1 «Какие карты открываются» (rules/interpretations.md:3)
              Открываются все карты активного игрока.

        Сценарии (2):
          известная ошибка  features/part-3/hod.feature:{OPENS}  открывает карты
          не запускался     features/part-3/hod.feature:{COIN}  получает монету
        """
    )
    assert out == expected


def test_rule_single_source_and_json(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "303.2"]) == 0
    out = capsys.readouterr().out
    assert "Источник: a.txt:3, номер «303.2.»\nТекст:\n  Активный игрок получает монету.\n" in out
    assert f"не запускался  features/part-3/hod.feature:{COIN}  получает монету" in out
    assert main(["rule", "303.1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["id"] == "303.1"
    assert data["variants_differ"] is True
    assert [v["source"] for v in data["variants"]] == ["a.txt", "b.txt"]
    assert data["interpretations"][0]["id"] == "I-1"
    assert data["scenarios"][0]["status"] == "not run"


def test_rule_accepts_term_slug_and_name(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "авангард Х"]) == 0
    first = capsys.readouterr().out
    assert first.startswith("Термин «Авангард Х» (авангард-х) — глоссарий\n")
    assert main(["rule", "авангард-х"]) == 0
    assert capsys.readouterr().out == first


def test_rule_untestable(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "303.3"]) == 0
    out = capsys.readouterr().out
    assert "Не проверяется движком: об оформлении" in out
    assert out.endswith("Сценариев нет (не проверяется движком).\n")


def test_rule_by_a_number_another_source_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """315.1 is how source 001 numbers what the corpus files as 310.1: the rule is shown, not a hint."""
    assert main(["rule", "315.1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Номер 315.1 напечатан в 001_9650f60f6bd2280f.txt; в корпусе это правило 310.1.\n")
    assert "310.1 — правило" in out


def test_a_section_whose_heading_is_lost_lists_its_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """303 has no heading in the sources (an engine author may declare «303» in its capabilities):
    the answer lists the section's rules instead of «no such rule»."""
    assert main(["rule", "303"]) == 2
    err = capsys.readouterr().err
    assert "заголовка раздела 303 в источниках нет" in err
    assert "правила раздела: 303.1, 303.2, 303.3" in err
    assert "нет правила или термина" not in err


def test_unknown_rule_suggests(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "303.9"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "нет правила или термина «303.9»" in captured.err
    assert "303.1" in captured.err
    assert "Traceback" not in captured.err


def test_bench_reports_the_median_of_its_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--games", "2", "--repeat", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["build"] == "python" and figures["repeat"] == 3 and figures["games"] == 2
    runs = figures["games_per_second_runs"]
    assert len(runs) == 3 and figures["games_per_second"] == sorted(runs)[1]
    assert figures["decisions"] > 0 and figures["legal_actions_median_us"] > 0
    assert main(["bench", "--repeat", "0"]) == 2
    assert "--repeat: нужен хотя бы один прогон" in capsys.readouterr().err
