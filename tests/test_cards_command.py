"""``berserk-rules cards FILE``: a card list read by the reference engine; the printed-style example
cards; the registry of trigger kinds (every kind has its phrases, every phrase builds a registered kind)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from berserk_engine.grammar import parse_ability, parse_card_text
from berserk_engine.triggers import KINDS

from berserk_rules.cli import main
from berserk_rules.commands.cards import read_cards
from berserk_rules.reference.card_reading import unreadable

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "engine" / "examples" / "printed-triggers.txt"

HEADER = "| название | тип | стоимость | удар | жизни | текст |\n"


def _file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "cards.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_every_card_of_a_readable_list_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _file(
        tmp_path,
        "# список судьи\nформат: драфт\n"
        + HEADER
        + "| Палач | существо | 3 | 3 | 3 | Когда это существо убивает существо: возьмите карту. |\n"
        + "| Оракул | существо | 3 | 1 | 3 | В начале вашего хода: возьмите карту. (Один раз за ход.) |\n",
    )
    assert main(["cards", path]) == 0
    assert "Карт в списке: 2 — все прочитаны." in capsys.readouterr().out


def test_an_unreadable_text_is_reported_at_its_file_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "Найм: возьмите карту. Когда луна восходит: ранить на 1 героя противника."
    line = f"| Кривой | существо | 2 | 1 | 1 | {text} |"
    path = _file(
        tmp_path, HEADER + "| Палач | существо | 3 | 3 | 3 | Гибель: возьмите карту. |\n" + line + "\n"
    )
    assert main(["cards", path]) == 1
    out = capsys.readouterr().out
    column = line.index("Когда луна") + 1
    assert f"{path}:3:{column}: карта «Кривой», предложение 2: " in out
    assert "«Когда луна восходит»" in out and "ближайшие формы:" in out
    assert "не прочитаны: 1" in out
    assert main(["cards", path, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    (found,) = data["unreadable"]
    assert (found["line"], found["column"], found["card"], found["position"]) == (
        3,
        column,
        "Кривой",
        [2, 22],
    )
    assert found["nearest"], found


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (None, None, "нет такого файла"),
        ("| название | цвет |\n| Гном | красный |\n", 1, "неизвестные столбцы ['цвет']"),
        ("| название | текст |\n| Гном | Броня 1. |\n", 1, "нет столбца «тип»"),
        ("просто текст\n", 1, "ожидается строка таблицы карт"),
        ("# пусто\n", None, "нет ни одной карты"),
    ],
)
def test_a_file_that_cannot_be_read_is_an_error_naming_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None, line: int | None, words: str
) -> None:
    path = str(tmp_path / "missing.txt") if text is None else _file(tmp_path, text)
    assert main(["cards", path]) == 2
    err = capsys.readouterr().err
    where = f"{path}:{line}:" if line else f"{path}:"
    assert where in err and words in err, err


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ("| Гном | существо | 2 | 2 |", "ячеек 4, а столбцов в таблице 6"),
        ("| Гном | существо | два | 2 | 3 | |", "столбец «стоимость»: ожидается число"),
    ],
)
def test_a_bad_row_is_that_rows_error_and_the_others_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], row: str, words: str
) -> None:
    """Issue 25: a bad row never refuses the whole file."""
    good = "| Палач | существо | 3 | 3 | 3 | Когда это существо убивает существо: возьмите карту. |\n"
    path = _file(tmp_path, HEADER + row + "\n" + good)
    assert main(["cards", path]) == 1
    out = capsys.readouterr().out
    assert f"{path}:2:1:" in out and f"строка списка не прочитана: {words}" in out
    assert "Карт в списке: 2 — не прочитаны: 1." in out


@pytest.mark.parametrize(
    ("name", "lines", "text"),
    [
        (
            "cards.json",
            (4, 5),
            '[\n  {"название": "Палач", "тип": "существо", "класс": ["орк"], "стоимость": 3, "удар": 3,'
            ' "жизни": 3,\n   "текст": "Когда это существо убивает существо: возьмите карту."},\n'
            '  {"название": "Гном", "тип": "существо", "стоимость": "два"},\n'
            '  {"название": "Путы", "тип": "заклинание", "текст": "Закройте сущство."}\n]\n',
        ),
        (
            "cards.csv",
            (3, 4),
            "название;тип;класс;стоимость;удар;жизни;текст\n"
            "Палач;существо;орк;3;3;3;Когда это существо убивает существо: возьмите карту.\n"
            "Гном;существо;;два;;;\n"
            "Путы;заклинание;;;;;Закройте сущство.\n",
        ),
    ],
)
def test_a_card_list_as_json_or_csv_has_the_same_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, lines: tuple[int, int], text: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert main(["cards", str(path)]) == 1
    out = capsys.readouterr().out
    bad, unread = lines
    assert f"{path}:{bad}:1: карта «Гном»: строка списка не прочитана: столбец «стоимость»: ожидается" in out
    assert f"{path}:{unread}:" in out and "неизвестное слово «сущство»" in out
    assert "Карт в списке: 3 — не прочитаны: 2." in out


def test_a_json_list_that_is_no_list_is_an_error_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cards.json"
    path.write_text('{"название": "Палач"}', encoding="utf-8")
    assert main(["cards", str(path)]) == 2
    assert f"{path}:1:" in capsys.readouterr().err


def test_a_card_error_that_is_not_about_text_is_reported_too(tmp_path: Path) -> None:
    path = tmp_path / "cards.txt"
    path.write_text(HEADER + "| Гном | артефакт | 2 | 2 | 3 | |\n", encoding="utf-8")
    (found,) = unreadable(read_cards(path, "cards.txt"), "cards.txt")
    assert found["line"] == 2 and "неизвестный тип карты" in found["message"]


def test_the_printed_examples_are_all_read_and_cover_every_trigger_kind() -> None:
    rows = read_cards(EXAMPLES, "printed-triggers.txt")
    assert len(rows) >= 40
    names = [card["name"] for _, _, card in rows]
    assert len(set(names)) == len(names), "названия примеров повторяются"
    assert unreadable(rows, "printed-triggers.txt") == []
    abilities = [
        a
        for _, _, card in rows
        for a in parse_card_text(card["name"], card["text"], spell=card["type"] == "заклинание")
    ]
    events = {a.trigger.event for a in abilities if a.trigger is not None}
    assert set(KINDS) <= events, f"нет примеров для видов: {sorted(set(KINDS) - events)}"
    statics = {type(a.effect).__name__ for a in abilities if a.kind == "static"} | {
        "обязывает" for a in abilities if a.value == "обязывает-атаковать"
    }
    spells = {type(a.effect).__name__ for a in abilities if a.kind == "spell"}
    missing = {
        "GroupBonus",
        "GroupCost",
        "NoWoundsAttacking",
        "CreatureAttacksReduced",
        "обязывает",
    } - statics
    assert not missing and "ExtraLives" in spells, f"нет примеров постоянных способностей: {missing}"


def test_every_trigger_kind_is_read_from_some_form_of_the_catalogue() -> None:
    """Every kind of trigger condition the engine registers is what some example of the grammar's catalogue
    reads as — and read «Каждый раз, когда …», the same condition (401.4: no copy of every form)."""
    from berserk_rules.reference.phrase_catalogue import catalogue

    triggers = next(s for s in catalogue() if s.category == "trigger")
    kinds = set()
    for form, example, *_ in triggers.rows:
        trigger = parse_ability(example).trigger
        assert trigger is not None and trigger.event in KINDS, (form, example)
        kinds.add(trigger.event)
        if example.startswith("Когда "):
            every = "Каждый раз, когда " + example[len("Когда ") :]
            assert parse_ability(every).trigger == trigger, every
    assert kinds == set(KINDS), f"виды условий без формы в каталоге: {sorted(set(KINDS) - kinds)}"


def test_the_phrase_catalogue_lists_every_form_of_the_grammar_with_its_example() -> None:
    from berserk_engine.grammar import CATEGORIES, frame_phrases

    from berserk_rules.reference.phrase_catalogue import catalogue

    sections = catalogue()
    examples = {row[1].rstrip(".") for s in sections for row in s.rows}
    triggers = next(s for s in sections if s.category == "trigger")
    assert {row[2] for row in triggers.rows} == {k.words for k in KINDS.values()}
    # every construction of the grammar, one row per distinct form (a trigger condition's per example)
    forms = set()
    for c in CATEGORIES:
        for ph in frame_phrases(c):
            assert ph.example.rstrip(".") in examples, (c, ph.format)
            forms.add((c, ph.format, ph.example if c == "trigger" else ""))
    assert sum(len(s.rows) for s in sections) == len(forms)


@pytest.mark.parametrize(
    ("single", "many"),
    [
        ("гном", "гномы"),
        ("орк", "орки"),
        ("эльф", "эльфы"),
        ("нежить", "нежити"),
        ("человек", "люди"),
        ("змей", "змеи"),
        ("ведьма", "ведьмы"),
        ("собака", "собаки"),
        ("фея", "феи"),
    ],
)
def test_a_class_is_named_in_the_plural(single: str, many: str) -> None:
    from berserk_engine.cards import CardDef
    from berserk_engine.characteristics import in_group, plural

    assert plural(single) == many
    card = CardDef.build("Некто", "существо", subtype=single, cost=1, strike=1, life=1)
    assert in_group(card, many) and in_group(card, "существа") and not in_group(card, "гоблины")


@pytest.mark.parametrize(
    ("printed", "element"),
    [("Болото", "болота"), ("Лес", "леса"), ("СТЕПИ", "степи"), ("Силы тьмы", "силы тьмы"), ("горы", "горы")],
)
def test_an_element_as_printed_in_any_case_and_number_is_the_element(printed: str, element: str) -> None:
    """Issue 25: card lists print elements as the cards do («Болото», «Лес»): the same element."""
    from berserk_engine.cards import CardDef

    assert CardDef.build("Кочка", "существо", element=printed, cost=1, strike=1, life=1).element == element


def test_an_unknown_element_is_still_an_error() -> None:
    from berserk_engine.cards import CardDef
    from berserk_engine.errors import CardTextError

    with pytest.raises(CardTextError, match="неизвестная стихия"):
        CardDef.build("Кочка", "существо", element="Тундра", cost=1, strike=1, life=1)
