"""The catalogue of bad input: every kind a careful new user tried, as a regression test.

Each kind is one case: what the user does, the exit code (2), the Russian message with the file and
line (or the field) — and no traceback, and not one file of the project changed (a complete
``build/results.json`` from an earlier run is there and stays byte for byte). The kinds that only
show when a scenario runs (an impossible position, contradictory «Дано» steps, a table cell of the
wrong kind) share one ``check`` run of a small project with all of them in one feature file.

Kinds at the driver boundary (a position or an action that is not plain JSON, absurd nesting) are
at the end: there the message names the method and the field.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from berserk_rules.cli import main
from berserk_rules.harness.checked import InProcessDriver
from berserk_rules.harness.contract import ContractError
from berserk_rules.reference.driver import ReferenceDriver
from tests.project_kit import PASSING, feature, make_project, snapshot

COMPLETE = {"schema": 1, "engine": {"name": "прошлый прогон"}, "scenarios": []}
GOOD = feature(PASSING.format(name="проходит"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "p", {"hod.feature": GOOD})
    (root / "README.md").write_text("# Проект\n", encoding="utf-8")
    (root / "build").mkdir()
    (root / "build" / "results.json").write_text(json.dumps(COMPLETE), encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def write(path: str, text: str | bytes) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")

    return change


def crlf(path: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        target = root / path
        target.write_bytes(target.read_bytes().replace(b"\n", b"\r\n"))

    return change


def bom(path: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        target = root / path
        target.write_bytes(b"\xef\xbb\xbf" + target.read_bytes())

    return change


def remove(path: str) -> Callable[[Path], None]:
    def change(root: Path) -> None:
        import shutil

        shutil.rmtree(root / path)

    return change


def symlink_loop(root: Path) -> None:
    (root / "features" / "sub").mkdir()
    (root / "features" / "sub" / "loop").symlink_to("..")


def read_only_folder() -> str:
    """A folder nobody may write into, even root (the tests run as root in CI)."""
    return "/sys/berserk-results.json" if os.geteuid() == 0 else "/results.json"


def nothing(root: Path) -> None:
    pass


def broken_corpus(root: Path) -> None:
    write("docs/conf.py", "")(root)
    write("rules/part-3.md", "# Часть 3\n\n:::{rule} 303.1\n:source: x.txt\n")(root)


GOOD_TEXT = GOOD
CASES: list[tuple[str, Callable[[Path], None], list[str], str]] = [
    (
        "feature без «# language: ru»",
        write("features/hod.feature", GOOD_TEXT.replace("# language: ru\n", "")),
        ["check"],
        "features/hod.feature:1: [language] первая строка должна быть «# language: ru»",
    ),
    ("пустой feature", write("features/empty.feature", ""), ["check"], "features/empty.feature:1: [empty]"),
    (
        "BOM в feature",
        bom("features/hod.feature"),
        ["check"],
        "features/hod.feature:1: [unreadable] файл начинается с метки порядка байтов (BOM)",
    ),
    (
        "CRLF в feature",
        crlf("features/hod.feature"),
        ["check"],
        "features/hod.feature:1: [unreadable] файл: строки кончаются на CRLF (Windows)",
    ),
    ("BOM в корпусе", bom("rules/part-3.md"), ["check"], "rules/part-3.md:1: файл начинается с метки"),
    (
        "CRLF в корпусе",
        crlf("rules/part-3.md"),
        ["rule", "303.1"],
        "rules/part-3.md:1: файл: строки кончаются",
    ),
    (
        "свободный тег @wip",
        write("features/hod.feature", GOOD_TEXT.replace("Сценарий:", "@wip\n  Сценарий:")),
        ["check"],
        "features/hod.feature:5: [unknown-tag] неизвестный тег @wip",
    ),
    (
        "ключевое слово с опечаткой",
        write("features/hod.feature", GOOD_TEXT.replace("    Дано", "    Дапустим")),
        ["check"],
        "[description-keyword] «Дапустим» похоже на ключевое слово «Допустим» с опечаткой",
    ),
    (
        "английское ключевое слово",
        write("features/hod.feature", GOOD_TEXT.replace("    Дано", "    Given")),
        ["check"],
        "features/hod.feature:6: [description-keyword] строка начинается с английского ключевого слова",
    ),
    (
        "сценарий без «Тогда»",
        write("features/hod.feature", GOOD_TEXT.split("    Тогда")[0]),
        ["check"],
        "features/hod.feature:5: [no-then] в сценарии «проходит» нет шага «Тогда»",
    ),
    (
        "неизвестный тег правила",
        write("features/hod.feature", GOOD_TEXT.replace("@rule-306.1", "@rule-999.9")),
        ["check"],
        "features/hod.feature:2: [unknown-rule] тег @rule-999.9: правила 999.9 нет в корпусе",
    ),
    (
        "цикл символических ссылок",
        symlink_loop,
        ["check"],
        "features/sub/loop: символическая ссылка ведёт на папку выше по дереву — цикл",
    ),
    ("нет features/", remove("features"), ["check"], "нет папки features/ в проекте"),
    ("нет rules/", remove("rules"), ["check"], "нет папки rules/ в проекте"),
    (
        "--results на исходник",
        nothing,
        ["check", "--results", "features/hod.feature"],
        "--results features/hod.feature: это папка исходников проекта (features/)",
    ),
    (
        "--results на чужой файл",
        nothing,
        ["check", "--results", "README.md"],
        "--results README.md: файл уже есть и это не файл результатов berserk-rules",
    ),
    ("--results — папка", nothing, ["check", "--results", "build"], "--results build: это папка"),
    (
        "--results в папку только для чтения",
        nothing,
        ["check", "--results", read_only_folder()],
        "нельзя писать",
    ),
    (
        "битый rules/*.md при site --no-check",
        broken_corpus,
        ["site", "--no-check"],
        "rules/part-3.md:3: директива {rule}",
    ),
    ("-n не число", nothing, ["check", "-n", "много"], "-n много: ожидается число процессов"),
    (
        "--timeout не число",
        nothing,
        ["check", "--timeout", "-1"],
        "--timeout -1: ожидается положительное число",
    ),
    (
        "--engine без программы",
        nothing,
        ["check", "--engine", "нет-такой-программы serve"],
        "программа нет-такой-программы не найдена",
    ),
    (
        "--driver без модуля",
        nothing,
        ["check", "--driver", "nosuch_mod:D"],
        "не удалось импортировать модуль nosuch_mod",
    ),
    (
        "--known-failures без файла",
        nothing,
        ["check", "--known-failures", "no.toml"],
        "--known-failures no.toml: нет такого файла",
    ),
    (
        "битый файл известных ошибок",
        write("known.toml", "[[xfail]]\nscenario = 5\n"),
        ["check", "--known-failures", "known.toml"],
        "known.toml: запись [[xfail]] №1: нет строки scenario",
    ),
    (
        "битый файл результатов",
        write("build/results.json", "{"),
        ["coverage"],
        "build/results.json:1: файл результатов — не JSON",
    ),
    ("неизвестное правило", nothing, ["rule", "999.9"], "нет правила или термина «999.9»"),
]


@pytest.mark.parametrize(("change", "argv", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_a_clear_error(
    project: Path,
    change: Callable[[Path], None],
    argv: list[str],
    expected: str,
    capfd: pytest.CaptureFixture[str],
) -> None:
    change(project)
    before = snapshot(project, parse_cache=False)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    out, err = capfd.readouterr()
    assert code == 2, out + err
    assert expected in err, err
    assert "Traceback" not in out + err
    assert snapshot(project, parse_cache=False) == before


# --- scenarios that cannot be run as written: one check run for all of them ---------------------

UNRUNNABLE = {  # scenario -> (its «Дано» lines, what the message says)
    "монет больше десяти": (
        "    Дано у игрока А маркеров монет: 11 открытых, 0 закрытых\n",
        "поле players.А.coins.open: значение 11 больше 10",
    ),
    "существо без жизней": (
        "    Дано карты:\n      | название | тип      | удар |\n      | Призрак  | существо | 1    |\n"
        "    И в игровой зоне у игрока А «Призрак»\n",
        "существо «Призрак» без жизней не может быть в игровой зоне",
    ),
    "противоречивые «Дано»": (
        "    Дано колода игрока А пуста\n    И в колоде у игрока А сверху вниз «Гном»\n",
        'позиция.players.А.deck: уже задано [], а теперь ["Гном"] — шаги сценария противоречат друг другу',
    ),
    "ячейка не того вида": (
        "    Дано карты:\n      | название | тип      | удар  | жизни |\n"
        "      | Гном     | существо | много | 2     |\n",
        "столбец «удар»: ожидается число, получено «много»",
    ),
    "неописанная карта": ("    Дано в руке у игрока А «Неведомый»\n", "карта «Неведомый» не описана в cards"),
}


@pytest.fixture(scope="module")
def unrunnable_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, str, bool]:
    blocks = [PASSING.format(name="проходит")]
    for name, (given, _) in UNRUNNABLE.items():
        blocks.append(
            f"  Сценарий: {name}\n{given}    И идёт фаза выбора игрока А\n"
            "    Тогда игроку А доступны действия: передача хода\n"
        )
    root = make_project(tmp_path_factory.mktemp("unrunnable"), {"bad.feature": feature(*blocks)})
    (root / "build").mkdir()
    (root / "build" / "results.json").write_text(json.dumps(COMPLETE), encoding="utf-8")
    before = snapshot(root, parse_cache=False)
    command = [os.sys.executable, "-m", "berserk_rules.cli", "check"]  # type: ignore[attr-defined]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False, timeout=120)
    text = (root / "features" / "bad.feature").read_text(encoding="utf-8")
    return done.returncode, done.stderr, text, snapshot(root, parse_cache=False) == before


@pytest.mark.parametrize("name", list(UNRUNNABLE))
def test_unrunnable_scenario_is_a_clear_error(unrunnable_run: tuple[int, str, str, bool], name: str) -> None:
    code, err, text, unchanged = unrunnable_run
    assert code == 2
    assert unchanged, "a run with an unrunnable scenario must not replace the complete results"
    assert "Traceback" not in err
    assert "нельзя выполнить как написано — результаты не записаны (build/results.json не изменён)" in err
    expected = UNRUNNABLE[name][1]
    line = next(line for line in err.splitlines() if expected in line)
    assert line.startswith("features/bad.feature:")
    number = int(line.split(":")[1])
    scenario_start = text[: text.index(f"Сценарий: {name}")].count("\n") + 1
    assert number > scenario_start  # the line of a step of this very scenario


# --- the driver boundary -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            lambda d: d.start({"players": {"А": {"coins": {"open": "3"}}}}),
            'поле players.А.coins.open: ожидается целое число, получено "3"',
        ),
        (lambda d: d.start({"turn": float("nan")}), "поле turn: nan — не число JSON"),
        (lambda d: d.act("А", {"type": "pass", 1: "x"}), "поле (всё значение): ключ 1 — не строка"),
        (lambda d: d.act("А", {"type": "pass", "x": _nested(200)}), "вложенность глубже 64 уровней"),
        (lambda d: d.act("А", {"type": "attack", "attacker": 5}), "поле attacker: ожидается строка"),
    ],
    ids=[
        "позиция: неверный тип",
        "позиция: NaN",
        "действие: ключ не строка",
        "действие: вложенность",
        "действие: неверный тип",
    ],
)
def test_driver_boundary_names_the_method_and_field(
    call: Callable[[InProcessDriver], None], expected: str
) -> None:
    driver = InProcessDriver(ReferenceDriver())
    driver.start({"start": "choice"}) if "start" not in call.__code__.co_names else None
    with pytest.raises(ContractError) as info:
        call(driver)
    assert expected in str(info.value)


def _nested(depth: int) -> object:
    value: object = "дно"
    for _ in range(depth):
        value = [value]
    return value


def test_serve_answers_absurd_input_and_goes_on() -> None:
    """The reference engine's server answers a line it cannot read with a protocol error."""
    lines = [
        "[" * 100_000 + "]" * 100_000,
        "не JSON",
        json.dumps({"id": 1, "op": "act", "player": "А", "action": {"type": "pass"}}),
        json.dumps({"id": 2, "op": "close"}),
    ]
    done = subprocess.run(
        [os.sys.executable, "-m", "berserk_engine.serve", "serve"],  # type: ignore[attr-defined]
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0, done.stderr
    assert [a.get("error", {}).get("kind") for a in answers] == ["protocol", "protocol", "protocol", None]
    assert "партия не начата" in answers[2]["error"]["message"]
    assert answers[3] == {"id": 2, "result": None}
