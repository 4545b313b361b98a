"""Bad input reaches the user as a Russian message naming the file (and line), never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from berserk_rules.cli import main, translate
from berserk_rules.corpus import load_corpus
from berserk_rules.errors import SourceError
from berserk_rules.importer.editorial import load_editorial
from berserk_rules.report.results import load_results
from berserk_rules.rulebook.lint import lint

PART_3 = """\
# Часть 3. Ход

:::{rule} 303.1
:source: a.txt
:line: 2
:printed: 303.1.
Активный игрок открывает карты.
:::
"""

FEATURE = """\
# language: ru
@rule-303.1
Функция: Ход

  Сценарий: игрок пасует
    Когда игрок А пасует
    Тогда всё хорошо
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.berserk-rules]\nrequired-parts = [3]\n", encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "part-3.md").write_text(PART_3, encoding="utf-8")
    (tmp_path / "features").mkdir()
    (tmp_path / "features" / "hod.feature").write_text(FEATURE, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_rulebook.py").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def scenario(status: str = "passed", ident: str = "features/hod.feature:5") -> dict[str, object]:
    return {"id": ident, "status": status, "message": None, "duration": 0.1}


def write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def error_of(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


# --- results files -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "line", "expected"),
    [
        ([1, 2], 1, "должен быть JSON-объектом"),
        ({"scenarios": []}, None, "без поля «schema» (старый формат); ожидается schema 1"),
        ({"schema": 0, "results": {}}, 2, "старого формата (schema 0)"),
        ({"schema": 7, "scenarios": []}, 2, "более нового формата (schema 7)"),
        ({"schema": "1", "scenarios": []}, 2, "неверным полем «schema»"),
        ({"schema": 1, "scenarios": {"a": 1}}, 3, "нет списка «scenarios»"),
        ({"schema": 1, "summary": [1], "scenarios": []}, 3, "поле «summary» должно быть объектом"),
        ({"schema": 1, "scenarios": [{"status": "passed"}]}, None, "запись №1: нет строкового поля «id»"),
        ({"schema": 1, "scenarios": [scenario("ok")]}, 5, "неизвестный статус 'ok'; допустимы: passed"),
        ({"schema": 1, "scenarios": [scenario(), scenario()]}, 11, "записан дважды"),
        ({"schema": 1, "scenarios": [{**scenario(), "message": 3}]}, 5, "«message» должно быть строкой"),
        ({"schema": 1, "scenarios": [{**scenario(), "duration": "x"}]}, 5, "«duration» должно быть числом"),
    ],
)
def test_results_of_wrong_shape(tmp_path: Path, data: object, line: int | None, expected: str) -> None:
    path = write_json(tmp_path / "r.json", data)
    with pytest.raises(SourceError) as info:
        load_results(path)
    assert info.value.path == str(path)
    assert info.value.line == line
    assert expected in info.value.message


def test_results_not_json_names_the_line_in_russian(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text('{"schema": 1,\n "scenarios": [,]}\n', encoding="utf-8")
    with pytest.raises(SourceError) as info:
        load_results(path)
    assert (info.value.line, info.value.message) == (
        2,
        "файл результатов — не JSON: ожидается значение (позиция 16)",
    )


def test_results_folder_and_non_utf8(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="файл результатов: это папка, а не файл"):
        load_results(tmp_path)
    path = tmp_path / "r.json"
    path.write_bytes(b'{"schema": 1,\n "x": "\xff"}')
    with pytest.raises(SourceError) as info:
        load_results(path)
    assert info.value.line == 2
    assert "не в кодировке UTF-8: недопустимый байт 0xff" in info.value.message


@pytest.mark.parametrize("command", [["rule", "303.1"], ["coverage"], ["coverage", "--json"]])
def test_explicit_missing_results_is_an_error(
    project: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--results", "missing.json"]) == 2
    assert f"--results missing.json: нет такого файла ({project / 'missing.json'})" in error_of(capsys)
    # without the option a missing default file only means that nothing has run yet
    assert main(command) == 0


@pytest.mark.parametrize("command", [["rule", "303.1"], ["coverage"]])
def test_results_folder_or_bad_json_from_the_cli(
    project: Path, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--results", "features"]) == 2
    assert "features: файл результатов: это папка, а не файл" in error_of(capsys)
    (project / "bad.json").write_text("{", encoding="utf-8")
    assert main([*command, "--results", "bad.json"]) == 2
    assert "bad.json:1: файл результатов — не JSON" in error_of(capsys)


def test_old_schema_results_from_the_cli(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_json(project / "old.json", {"results": {"features/hod.feature:5": "passed"}})
    assert main(["rule", "303.1", "--results", "old.json"]) == 2
    err = error_of(capsys)
    assert "old.json: файл результатов без поля «schema» (старый формат)" in err
    assert "перезапустите «berserk-rules check»" in err


def test_stale_results_are_warned_about(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_json(
        project / "build" / "results.json",
        {"schema": 1, "scenarios": [scenario(), scenario(ident="features/gone.feature:3")]},
    )
    assert main(["coverage", "--json"]) == 0
    captured = capsys.readouterr()
    items = json.loads(captured.out)  # stdout stays valid JSON
    assert {s["status"] for i in items for s in i["scenarios"]} == {"passed"}
    assert "результаты устарели — сценариев 1 из файла результатов больше нет в features/" in captured.err
    assert "features/gone.feature:3" in captured.err
    assert main(["rule", "303.1"]) == 0
    assert "features/gone.feature:3" in capsys.readouterr().err


# --- arguments -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["rule"], "berserk-rules rule: ошибка: не хватает обязательных аргументов: id"),
        (["nosuch"], "berserk-rules: ошибка: аргумент КОМАНДА: неизвестное значение 'nosuch'"),
        (["corpus", "--bogus"], "berserk-rules: ошибка: неизвестные аргументы: --bogus"),
        (["rule", "1", "--results"], "berserk-rules rule: ошибка: аргументу --results нужно значение"),
    ],
)
def test_argument_errors_are_russian(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = error_of(capsys)
    assert expected in err
    assert err.startswith("использование: berserk-rules")


def test_unknown_argparse_message_is_kept() -> None:
    assert translate("something new") == "something new"


@pytest.mark.parametrize("rule_id", ["999.9", "", "  "])
def test_unknown_or_empty_rule_id(project: Path, rule_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", rule_id]) == 2
    assert f"нет правила или термина «{rule_id.strip()}»" in error_of(capsys)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["check", "--results", "features"], "features: это папка; укажите файл"),
        (["check", "--results", "features/hod.feature/r.json"], "hod.feature — файл, а не папка"),
        (["check", "-n", "abc"], "-n abc: ожидается число процессов (0, 1, 2, …) или auto"),
    ],
)
def test_check_arguments_are_checked_before_pytest(
    project: Path, argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert expected in error_of(capsys)


def test_check_stops_at_a_feature_pytest_bdd_cannot_collect(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "features" / "hod.feature").write_text(
        FEATURE.replace("Когда игрок", "И игрок"), encoding="utf-8"
    )
    assert main(["check", "-n", "0"]) == 2
    err = error_of(capsys)
    assert (
        "features/hod.feature:6: [first-step] первый шаг «И игрок А пасует» должен начинаться с «Дано»" in err
    )
    (project / "features" / "hod.feature").write_text(
        FEATURE + "      | a |\n     | b | c |\n", encoding="utf-8"
    )
    assert main(["check", "-n", "0"]) == 2
    assert "features/hod.feature:9: [syntax] синтаксическая ошибка Gherkin" in error_of(capsys)


# --- feature files -------------------------------------------------------------------------------


def codes(project: Path, *paths: Path) -> list[tuple[str, int, str]]:
    report = lint(list(paths) or None, root=project, corpus=load_corpus(project))
    return [(p.file, p.line, p.code) for p in report.problems]


def test_undefined_step_is_found_by_lint_with_suggestions(project: Path) -> None:
    path = project / "features" / "hod.feature"
    path.write_text(FEATURE.replace("игрок А пасует", "игрок А пасуэт"), encoding="utf-8")
    report = lint([path], root=project, corpus=load_corpus(project))
    found = {(p.line, p.code): p.message for p in report.problems}
    assert found[(6, "undefined-step")].startswith(
        "нет определения шага «Когда игрок А пасуэт»; похожие шаги: «Когда игрок {p:P} пасует»"
    )
    assert (7, "undefined-step") in found  # «Тогда всё хорошо» is not a step of the dictionary
    assert (6, "undefined-step") not in {
        (p.line, p.code) for p in lint([path], project, load_corpus(project), False).problems
    }


def test_undefined_outline_placeholder(project: Path) -> None:
    path = project / "features" / "hod.feature"
    path.write_text(
        FEATURE.replace("Сценарий:", "Структура сценария:").replace("игрок А", "игрок <кто>")
        + "\n    Примеры:\n      | игрок |\n      | А     |\n",
        encoding="utf-8",
    )
    report = lint([path], root=project, corpus=load_corpus(project))
    problems = [p for p in report.problems if p.code == "undefined-placeholder"]
    assert [(p.line, p.message) for p in problems] == [
        (6, "в шаге «Когда игрок <кто> пасует» параметр <кто> не задан ни одной колонкой «Примеры»")
    ]
    # the unresolved step is not reported a second time as undefined
    assert not [p for p in report.problems if p.code == "undefined-step" and p.line == 6]


def test_lint_non_utf8_empty_and_examples_tag(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = project / "features" / "bad.feature"
    bad.write_bytes(
        "# language: ru\nФункция: ф\n  Сценарий: \xff".encode("utf-8", "surrogateescape")[:-2] + b"\xff\n"
    )
    empty = project / "features" / "empty.feature"
    empty.write_text("", encoding="utf-8")
    assert main(["lint", str(bad), str(empty)]) == 1
    out = capsys.readouterr().out
    assert "features/bad.feature:3: [unreadable] файл не в кодировке UTF-8: недопустимый байт 0xff" in out
    assert "features/empty.feature:1: [empty] в файле нет «Функция:»" in out
    tagged = project / "features" / "hod.feature"
    tagged.write_text(
        FEATURE.replace("Сценарий:", "Структура сценария:")
        + "\n    @rule-303.1\n    Примеры:\n      | x |\n      | 1 |\n",
        encoding="utf-8",
    )
    assert ("features/hod.feature", 9, "examples-tag") in codes(project, tagged)


def test_lint_missing_path(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "nosuchfile.feature"]) == 2
    assert "нет такого файла или папки: nosuchfile.feature" in error_of(capsys)


# --- corpus and editorial files ------------------------------------------------------------------


def test_corpus_non_utf8_is_a_source_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = project / "rules" / "part-3.md"
    path.write_bytes(PART_3.encode() + b"\xfe\n")
    assert main(["corpus"]) == 2
    assert "rules/part-3.md:9: файл не в кодировке UTF-8: недопустимый байт 0xfe" in error_of(capsys)


def test_corpus_unclosed_fence_names_the_open_directive(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = project / "rules" / "part-3.md"
    path.write_text(PART_3.replace(":::\n", "") + PART_3.split("\n", 2)[2], encoding="utf-8")
    assert main(["rule", "303.1"]) == 2
    err = error_of(capsys)
    assert "rules/part-3.md:8: директива {rule} внутри {rule} (строка 3)" in err
    assert "(или {rule} из строки 3 не закрыта строкой :::)" in err


def test_editorial_toml_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "editorial.toml"
    path.write_text('[titles]\n3 = "Часть 3"\nbroken\n', encoding="utf-8")
    with pytest.raises(SourceError) as info:
        load_editorial(path, "rules/editorial.toml")
    assert (info.value.path, info.value.line) == ("rules/editorial.toml", 3)
    assert info.value.message.startswith("некорректный TOML:")
    path.write_text('titles = "x"\n', encoding="utf-8")
    with pytest.raises(SourceError, match=r"\[titles\]: ожидается"):
        load_editorial(path)
    path.write_text('["000.txt"]\n12 = { id = 5 }\n', encoding="utf-8")
    with pytest.raises(SourceError, match="неверный id «5»"):
        load_editorial(path)


def test_import_out_must_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file.txt"
    target.write_text("", encoding="utf-8")
    assert main(["import", "--out", str(target)]) == 2
    assert f"--out {target}: это файл, а нужна папка" in error_of(capsys)
    assert main(["import", "--check", "--out", str(tmp_path / "nope")]) == 2
    assert "нет такой папки" in error_of(capsys)
