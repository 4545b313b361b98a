"""Deck construction: the engine's rules (engine/berserk_engine/construction.py) and
``berserk-rules deck FILE``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from berserk_engine import construction
from berserk_engine.errors import CardTextError, SetupError

from berserk_rules.cli import main

GNOME = {"name": "Гном", "type": "существо", "cost": 2, "strike": 2, "life": 3}
GOBLIN = {"name": "Гоблин", "type": "существо", "cost": 1, "strike": 1, "life": 1, "text": "Орда."}


def _rules(problems: list[construction.Problem]) -> list[tuple[int, str, str]]:
    return [(p.index, p.rule, p.name) for p in problems]


def test_three_copies_of_a_name_and_five_of_a_horde_card_are_allowed() -> None:
    deck = {"format": "констрактед", "cards": [{**GNOME, "count": 3}, {**GOBLIN, "count": 5}]}
    assert construction.check(deck) == []


def test_too_many_copies_name_the_rule_and_the_first_entry() -> None:
    deck = {
        "cards": [
            {**GNOME, "count": 2},
            {**GOBLIN, "count": 6},
            {**GNOME, "count": 2},
        ]
    }
    assert _rules(construction.check(deck)) == [(0, "название-карты", "Гном"), (1, "орда", "Гоблин")]


def test_draft_has_no_limit_of_copies() -> None:
    assert construction.check({"format": "драфт", "cards": [{**GNOME, "count": 9}]}) == []


def test_two_different_cards_under_one_name_are_an_error_of_the_list() -> None:
    deck = {"cards": [GNOME, {**GNOME, "strike": 5}]}
    assert _rules(construction.check(deck)) == [(1, "копия-карты", "Гном")]


@pytest.mark.parametrize(
    ("deck", "error", "words"),
    [
        ({"format": "запечатанный", "cards": [GNOME]}, SetupError, "неизвестный формат"),
        ({"cards": [{"name": "Гном"}]}, SetupError, "не указан тип"),
        ({"cards": [{**GNOME, "count": 0}]}, SetupError, "количество"),
        ({"cards": [{**GNOME, "colour": "red"}]}, SetupError, "неизвестные свойства"),
        ({"cards": [{**GNOME, "text": "Летает высоко."}]}, CardTextError, "Гном"),
    ],
)
def test_a_deck_that_cannot_be_read_is_an_error(deck: dict, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        construction.check(deck)


DECK_OK = """# Колода гномов
формат: констрактед
| количество | название    | тип      | стоимость | стихия | удар | жизни | текст    |
| 3          | Гном-латник | существо | 2         | горы   | 2    | 3     | Броня 1. |
| 5          | Гоблин      | существо | 1         |        | 1    | 1     | Орда.    |
| 2          | Наёмник     | существо | 1+Х       |        | 1    | 1     |          |
"""
DECK_BAD = """| количество | название    | тип      | стоимость | удар | жизни | текст    |
| 3          | Гном-латник | существо | 2         | 2    | 3     | Броня 1. |
| 1          | Гном-латник | существо | 2         | 2    | 3     | Броня 1. |
| 6          | Гоблин      | существо | 1         | 1    | 1     | Орда.    |
"""


def _deck(tmp_path: Path, text: str) -> str:
    path = tmp_path / "колода.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_deck_command_accepts_a_legal_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", _deck(tmp_path, DECK_OK)]) == 0
    assert "карт 10, названий 3 — соответствует правилам" in capsys.readouterr().out


def test_deck_command_reports_each_problem_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _deck(tmp_path, DECK_BAD)
    assert main(["deck", path]) == 1
    out = capsys.readouterr().out
    assert f"{path}:2: [название-карты] «Гном-латник»: копий 4" in out
    assert f"{path}:4: [орда] «Гоблин»: копий 6" in out
    assert main(["deck", path, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [(p["line"], p["rule"]) for p in data["problems"]] == [(2, "название-карты"), (4, "орда")]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("формат: запечатанный\n| количество | название | тип |\n", 1, "неизвестный формат"),
        ("| количество | название | тип |\n| три | Гном | существо |\n", 2, "ожидается число"),
        ("| количество | название | цвет |\n", 1, "неизвестные столбцы"),
        ("| название | тип |\n", 1, "нет столбца «количество»"),
        ("| количество | название | тип |\n| 1 | Гном |\n", 2, "ячеек 2"),
        ("Гном x3\n", 1, "ожидается «формат: …»"),
        ("| количество | название | тип | текст |\n| 1 | Гном | существо | Летает высоко. |\n", 2, "Летает"),
        ("# пусто\n", None, "нет ни одной карты"),
    ],
)
def test_deck_command_errors_name_the_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int | None, words: str
) -> None:
    path = _deck(tmp_path, text)
    assert main(["deck", path]) == 2
    err = capsys.readouterr().err
    where = f"{path}:{line}:" if line else f"{path}:"
    assert where in err and words in err, err
    assert "Traceback" not in err


def test_deck_command_on_a_missing_or_non_utf8_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deck", str(tmp_path / "нет.txt")]) == 2
    assert "нет такого файла" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_bytes("| количество |\n".encode() + b"\xff\n")
    assert main(["deck", str(bad)]) == 2
    assert f"{bad}:2" in capsys.readouterr().err
