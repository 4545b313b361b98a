"""``berserk-rules lint``: every trap, reported at its exact file:line, against a small corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from berserk_rules.cli import main
from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook import lint as lint_module
from berserk_rules.rulebook.gherkin_keywords import edit_distance, suspicious_description
from berserk_rules.rulebook.lint import LintReport, lint

PYPROJECT = """\
[tool.berserk-rules]
required-parts = [3]
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

:::{rule} 303.1
:source: a.txt
:line: 2
:printed: 303.1.
Активный игрок открывает карты.
:::

:::{rule} 303.2
:source: a.txt
:line: 3
:printed: 303.2.
Активный игрок получает монету.
:::

:::{rule} 303.3
:untestable: об оформлении, движку нечего проверять
:source: a.txt
:line: 4
:printed: 303.3.
Игроки улыбаются.
:::
"""
RULE_303_2_LINE = 18

PART_5 = """\
# Часть 5. Прочее

:::{rule} 501.1
:source: a.txt
:line: 5
:printed: 501.1.
Что-то ещё.
:::
"""

GLOSSARY = """\
# Глоссарий

:::{term} авангард
:name: Авангард
:source: a.txt
:line: 6
Способность.
:::
"""

INTERPRETATIONS = """\
# Толкования

:::{interpretation} I-1
:rules: 303.1
:title: Порядок
Так понимаем.
:::
"""

GOOD = """\
# language: ru
@rule-303.1
Функция: Начало хода

  Сценарий: открывает карты
    Дано игра
    Когда начинается ход
    Тогда карты открыты

  @rule-303.2
  Правило: Монета

    @term-авангард
    Сценарий: получает монету
      Дано игра
      Тогда у игрока монета
      И у игрока ход
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    rules = tmp_path / "rules"
    rules.mkdir()
    for name, text in (
        ("part-3.md", PART_3),
        ("part-5.md", PART_5),
        ("glossary.md", GLOSSARY),
        ("interpretations.md", INTERPRETATIONS),
    ):
        (rules / name).write_text(text, encoding="utf-8")
    (tmp_path / "features").mkdir()
    monkeypatch.chdir(tmp_path)
    # The toy scenarios here use made-up steps: every step counts as defined. The real step
    # dictionary is checked in tests/test_bad_input.py.
    monkeypatch.setattr(lint_module, "step_defined", lambda kind, text: True)
    return tmp_path


def write(project: Path, name: str, text: str) -> Path:
    path = project / "features" / name
    path.write_text(text, encoding="utf-8")
    return path


def run_lint(project: Path, *paths: Path) -> LintReport:
    return lint(list(paths) or None, root=project, corpus=load_corpus(project))


def problems(report: LintReport) -> list[tuple[str, int, str]]:
    return [(p.file, p.line, p.code) for p in report.problems]


def lint_one(project: Path, text: str) -> list[tuple[str, int, str]]:
    path = write(project, "t.feature", text)
    return [p for p in problems(run_lint(project, path))]


def test_clean_project(project: Path) -> None:
    write(project, "good.feature", GOOD)
    report = run_lint(project)
    assert report.errors == []
    # Part 5 is not required: its uncovered rule is only a note
    assert problems(report) == [("rules/part-5.md", 3, "uncovered")]
    assert report.infos[0].severity == "info"
    assert (report.files, report.scenarios) == (1, 2)


def test_uncovered_required_rule_is_an_error(project: Path) -> None:
    write(project, "good.feature", GOOD.replace("@rule-303.2", "@rule-303.1"))
    report = run_lint(project)
    assert [p for p in problems(report) if p[2] == "uncovered"] == [
        ("rules/part-3.md", RULE_303_2_LINE, "uncovered"),
        ("rules/part-5.md", 3, "uncovered"),
    ]
    assert [p.format() for p in report.errors] == [
        f"rules/part-3.md:{RULE_303_2_LINE}: [uncovered] правило 303.2 не проверено ни одним сценарием"
    ]


def test_required_parts_default_to_3_and_4(project: Path) -> None:
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    write(project, "good.feature", GOOD.replace("@rule-303.2", "@rule-303.1"))
    codes = {(p.file, p.severity) for p in run_lint(project).problems}
    assert codes == {("rules/part-3.md", "error"), ("rules/part-5.md", "info")}


def test_english_keyword_line_is_reported(project: Path) -> None:
    text = GOOD.replace("    Дано игра\n    Когда", "    Given игра\n    Когда", 1)
    assert lint_one(project, text) == [("features/t.feature", 6, "description-keyword")]


def test_misspelt_keyword_line_is_reported(project: Path) -> None:
    text = GOOD.replace("    Дано игра\n    Когда", "    Дапустим игра\n    Когда", 1)
    path = write(project, "t.feature", text)
    report = run_lint(project, path)
    assert problems(report) == [("features/t.feature", 6, "description-keyword")]
    assert "«Дапустим» похоже на ключевое слово «Допустим»" in report.problems[0].message


def test_whole_scenario_lost_to_description(project: Path) -> None:
    text = "# language: ru\n@rule-303.1\nФункция: Ф\n\n  Сценарий: всё пропало\n    Given игра\n    Then ок\n"
    assert lint_one(project, text) == [
        ("features/t.feature", 5, "no-steps"),
        ("features/t.feature", 6, "description-keyword"),
        ("features/t.feature", 7, "description-keyword"),
    ]


def test_latin_letters_in_keyword(project: Path) -> None:
    text = GOOD.replace("    Дано игра\n    Когда", "    Дaно игра\n    Когда", 1)  # Latin "a"
    path = write(project, "t.feature", text)
    report = run_lint(project, path)
    assert problems(report) == [("features/t.feature", 6, "description-keyword")]
    assert "латинскими буквами" in report.problems[0].message


def test_latin_letter_in_a_keyword_only_the_dialect_knows(project: Path) -> None:
    """«Также» is a Russian «И» in gherkin's dialect: with a Latin «a» a first step line is description
    text (the step is lost, silently) — an error; written right, it is a step like any other."""
    latin = GOOD.replace("      Дано игра\n      Тогда", "      Тaкже игра\n      Тогда")  # Latin "a"
    line = latin.splitlines().index("      Тaкже игра") + 1
    report = run_lint(project, write(project, "t.feature", latin))
    assert problems(report) == [("features/t.feature", line, "description-keyword")]
    assert report.problems[0].severity == "error"
    assert "«Тaкже» написано латинскими буквами и не распознано как «Также»" in report.problems[0].message
    right = GOOD.replace("      И у игрока ход", "      Также у игрока ход")
    assert problems(run_lint(project, write(project, "t.feature", right))) == []


def test_step_outside_scenario(project: Path) -> None:
    text = GOOD.replace("Функция: Начало хода\n", "Функция: Начало хода\n  Дано игра\n")
    path = write(project, "t.feature", text)
    report = run_lint(project, path)
    assert problems(report) == [("features/t.feature", 4, "description-keyword")]
    assert "шаг «Дано …» стоит вне сценария" in report.problems[0].message


def test_description_line_ending_with_colon(project: Path) -> None:
    text = GOOD.replace("  Сценарий: открывает карты\n", "  Сценарий: открывает карты\n    Условия хода:\n")
    assert lint_one(project, text) == [("features/t.feature", 6, "description-keyword")]


def test_prose_description_is_fine(project: Path) -> None:
    text = GOOD.replace(
        "  Сценарий: открывает карты\n",
        "  Сценарий: открывает карты\n    Правило 303.1 говорит, что карты открывает активный игрок.\n"
        "    Есть и другие случаи.\n",
    )
    assert lint_one(project, text) == []


def test_scenario_without_then(project: Path) -> None:
    text = GOOD.replace("    Тогда карты открыты\n", "    И карты открыты\n")
    assert lint_one(project, text) == [("features/t.feature", 5, "no-then")]


def test_and_after_then_counts_as_then(project: Path) -> None:
    # "И" after "Тогда" is an outcome; "И" after "Когда" is not
    text = GOOD.replace(
        "      Тогда у игрока монета\n      И у игрока ход\n", "      Когда ход\n      И у игрока ход\n"
    )
    assert lint_one(project, text) == [("features/t.feature", 14, "no-then")]


def test_scenario_without_steps(project: Path) -> None:
    text = GOOD.replace("    Дано игра\n    Когда начинается ход\n    Тогда карты открыты\n", "")
    assert lint_one(project, text) == [("features/t.feature", 5, "no-steps")]


def test_unknown_rule_tag_suggests_close_ids(project: Path) -> None:
    path = write(project, "t.feature", GOOD.replace("@rule-303.2", "@rule-303.22"))
    report = run_lint(project, path)
    assert problems(report) == [("features/t.feature", 10, "unknown-rule")]
    assert (
        report.problems[0].message
        == "тег @rule-303.22: правила 303.22 нет в корпусе; возможно: 303.2, 303.3, 303.1"
    )


def test_heading_rule_tag(project: Path) -> None:
    assert lint_one(project, GOOD.replace("@rule-303.2", "@rule-303")) == [
        ("features/t.feature", 10, "heading-tag")
    ]


def test_unknown_term_interpretation_and_other_tags(project: Path) -> None:
    text = GOOD.replace("@term-авангард", "@term-арьергард @interpretation-I-9 @wip")
    assert lint_one(project, text) == [
        ("features/t.feature", 13, "unknown-interpretation"),
        ("features/t.feature", 13, "unknown-tag"),
        ("features/t.feature", 13, "unknown-term"),
        ("features/t.feature", 14, "interpretation-no-why"),
    ]


def test_interpretation_needs_a_why(project: Path) -> None:
    text = GOOD.replace("@term-авангард", "@interpretation-I-1")
    assert lint_one(project, text) == [("features/t.feature", 14, "interpretation-no-why")]
    with_why = text.replace(
        "Сценарий: получает монету\n", "Сценарий: получает монету\n      Источники молчат о порядке.\n"
    )
    assert lint_one(project, with_why) == []


def test_example_tag_needs_a_rule_and_a_description(project: Path) -> None:
    text = GOOD.replace("@term-авангард", "@example")
    assert lint_one(project, text) == [("features/t.feature", 14, "example-no-description")]
    described = text.replace(
        "Сценарий: получает монету\n",
        "Сценарий: получает монету\n      ПРИМЕР из текста правила; тестовые карты ведут себя ровно так.\n",
    )
    assert lint_one(project, described) == []
    # An example of a glossary term only is not an example of a rule.
    term_only = described.replace("@rule-303.1\n", "@term-авангард\n").replace(
        "  @rule-303.2\n  Правило: Монета", "  @term-авангард\n  Правило: Авангард"
    )
    assert lint_one(project, term_only) == [("features/t.feature", 14, "example-no-rule")]


def test_rule_block_and_scenario_need_rule_tags(project: Path) -> None:
    text = GOOD.replace("@rule-303.1\n", "").replace("  @rule-303.2\n", "")
    # The second scenario names a glossary term: a term tag binds it as a rule tag would.
    assert lint_one(project, text) == [
        ("features/t.feature", 4, "no-rule-tag"),
        ("features/t.feature", 9, "rule-block-untagged"),
    ]
    untagged = text.replace("    @term-авангард\n", "")
    assert ("features/t.feature", 11, "no-rule-tag") in lint_one(project, untagged)


def test_a_rule_block_may_be_a_glossary_term(project: Path) -> None:
    text = GOOD.replace("  @rule-303.2\n  Правило: Монета", "  @term-авангард\n  Правило: Авангард")
    assert lint_one(project, text) == []


def test_duplicate_scenario_names(project: Path) -> None:
    text = GOOD.replace("Сценарий: получает монету", "Сценарий: открывает карты")
    assert lint_one(project, text) == [("features/t.feature", 14, "duplicate-name")]


def test_outline_rows_and_examples_tags(project: Path) -> None:
    text = GOOD + (
        "\n    Структура сценария: монет <n>\n      Дано игра\n      Тогда монет <n>\n\n"
        "      @rule-303.2\n      Примеры:\n        | n |\n        | 1 |\n        | 2 |\n"
    )
    path = write(project, "t.feature", text)
    report = run_lint(project, path)
    assert problems(report) == [("features/t.feature", 23, "examples-tag")]
    assert report.scenarios == 4


def test_outline_without_rows(project: Path) -> None:
    text = GOOD + "\n    Структура сценария: монет <n>\n      Дано игра\n      Тогда монет <n>\n"
    assert lint_one(project, text) == [("features/t.feature", 19, "no-examples")]


def test_syntax_error_with_line(project: Path) -> None:
    text = GOOD.replace("      И у игрока ход\n", "      Дапустим у игрока ход\n")
    path = write(project, "t.feature", text)
    report = run_lint(project, path)
    assert problems(report) == [("features/t.feature", 17, "syntax")]
    assert "неожиданная строка «Дапустим у игрока ход»" in report.problems[0].message


def test_missing_language_line(project: Path) -> None:
    text = GOOD.replace("# language: ru\n", "")
    assert lint_one(project, text) == [("features/t.feature", 1, "language")]
    english = GOOD.replace("# language: ru\n", "# language: en\n")
    assert ("features/t.feature", 1, "language") in lint_one(project, english)


def test_cli_output_and_exit_codes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "good.feature", GOOD)
    assert main(["lint"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "rules/part-5.md:3: [uncovered] примечание: правило 501.1 (часть 5) пока без сценариев",
        "Проверено файлов: 1, сценариев: 2; ошибок: 0, примечаний: 1",
    ]
    bad = write(project, "bad.feature", GOOD.replace("@term-авангард", "@wip"))
    assert main(["lint", str(bad)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "features/bad.feature:13: [unknown-tag] неизвестный тег @wip: "
        "допустимы @rule-<номер>, @term-<термин>, @interpretation-<номер>, @example"
    )
    assert out[-1].startswith("Проверено файлов: 1, сценариев: 2; ошибок: 1, примечаний: 0")
    assert main(["lint", "--json", "features/bad.feature"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["errors"] == 1
    assert data["problems"][0] == {
        "file": "features/bad.feature",
        "line": 13,
        "code": "unknown-tag",
        "message": "неизвестный тег @wip: допустимы @rule-<номер>, @term-<термин>, @interpretation-<номер>, "
        "@example",
        "severity": "error",
    }


def test_cli_missing_path_is_a_user_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "features/nope.feature"]) == 2
    assert "нет такого файла или папки" in capsys.readouterr().err


def test_edit_distance() -> None:
    assert edit_distance("дапустим", "допустим") == 1
    assert edit_distance("тгода", "тогда") == 1  # transposition
    assert edit_distance("", "дано") == 4


@pytest.mark.parametrize(
    "line",
    [
        "Given игра",
        "WHEN ход",
        "Дапустим игра",
        "Тагда монета",
        "Сценарй: ход",
        "Примеры :",
        "Итак:",
        "Дано: игра",
        "Тaкже игра",  # Latin "a" in a keyword of the dialect
        "К тому жe игра",
        "Контекст:",
        "Scenario Outline: ход",
    ],
)
def test_suspicious_description_lines(line: str) -> None:
    assert suspicious_description(line) is not None


@pytest.mark.parametrize(
    "line",
    [
        "Правило 401.7 говорит о другом.",
        "Есть два игрока.",
        "Зачем это нужно — см. толкование.",
        "# заметка",
        "",
    ],
)
def test_prose_description_lines(line: str) -> None:
    assert suspicious_description(line) is None
