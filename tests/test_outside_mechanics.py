"""Mechanics outside our rules are named, not misread (issue 29, item 3): a card text that uses a mechanic
our sources do not define is reported by ``berserk-rules cards`` as «механика не из этих правил: …» with
where that mechanic is defined, apart from phrasing the reader cannot read, with counts of each kind.

The cards here are the project's own (names of our own); the list is
``engine/berserk_engine/language/lexicon/outside.toml``."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from berserk_engine.language.outside import OutsideDataError, mechanics_in, outside

from berserk_rules.cli import main
from berserk_rules.rulebook.card_texts import card_rows
from berserk_rules.rulebook.features import parse_feature
from berserk_rules.rulebook.project import project_root

CHOICE = "выбор одного из вариантов («Выберите одно из»)"
OTHER_DECK = "просмотр чужой колоды"
CYRILLIC = re.compile("[а-яА-ЯёЁ]")
ORDER = "порядок карт в колоде по выбору игрока («в любом порядке»)"
NO_ICON = "оплата числом без значка ресурса («1:»)"
FLIP = "Переверните (на другую сторону)"
HEADER = "| название | тип | класс | стоимость | удар | жизни | текст |\n"


def names(text: str) -> list[str]:
    return [found.mechanic.name for found in mechanics_in(text)]


@pytest.mark.parametrize(
    ("text", "mechanic"),
    [
        ("Модуль. Опыт в атаке.", "Модуль"),
        ("Гибель: подготовьте выбранное существо.", "Подготовить"),  # any form of the verb
        ("Выбранное существо, подготовленное этой картой, получает Рывок.", "Подготовить"),  # a participle
        ("Найм: создайте Гоблина.", "Создайте (созданные карты)"),
        ("Ваши существа, не являющиеся созданными, получают Броню 1.", "Создайте (созданные карты)"),
        ("[Закрыть]: оглушите выбранное существо.", "Оглушить"),
        ("Гибель: усовершенствуйте выбранное существо.", "Усовершенствовать"),
        ("Бешенство.", "Бешенство"),
        ("Найм: противник теряет 2 [Монета].", "Потеряйте монету"),  # a number between the words
        (
            "Выберите одно из: - возьмите карту. - ранить героя на 1.",
            CHOICE,
        ),
        ("Выберите два раза одно из: - возьмите карту.", CHOICE),
        ("Обменяйтесь контролем над выбранными существами.", "обмен контролем"),
        ("Удвойте удар выбранного существа до конца хода.", "удвоить"),
        ("Гибель: положите в игру выбранное существо.", "положить в игру (не вызов и не возрождение)"),
        ("Выбранное существо получает +1 к выстрелам.", "бонус к выстрелам («+N к выстрелам»)"),
        # a granted ability in quotes is the card's text too
        ("Ваши существа получают «Гибель: оглушите выбранное существо».", "Оглушить"),
        # 204.2: only the owner looks at a deck
        ("Найм: посмотрите две верхние карты любой колоды.", OTHER_DECK),
        ("[Закрыть]: просмотрите верхнюю карту колоды противника.", OTHER_DECK),
        ("Гибель: посмотрите три верхние карты колоды выбранного игрока.", OTHER_DECK),
        # 204.3: the order of a deck does not change after the mulligan
        ("Найм: посмотрите 4 верхние карты своей колоды и верните их в любом порядке.", ORDER),
        ("Уберите выбранных существ под низ колоды в выбранном вами порядке.", ORDER),
        ("Положите две карты из руки на верх своей колоды в любом порядке.", ORDER),
        # a payment that names no resource
        ("2: ранить выбранное существо на 1.", NO_ICON),
        ("3, [Закрыть]: возьмите карту.", NO_ICON),
        ("Броня 1. 2: ранить героя противника на 1.", NO_ICON),  # an ability of its own sentence
        ("Переверните это существо на другую сторону.", FLIP),
        ("Найм: переверните выбранное существо рубашкой вверх.", FLIP),
        # the later glossary's articles found by the check in the other direction
        ("Дополнительная стоимость: сбросьте две карты.", "Дополнительная или альтернативная стоимость"),
        ("Гибель: избыточный урон получает герой противника.", "Избыточный урон (избыточное лечение)"),
        ("Излечите вашего героя до максимального числа жизней.", "Максимальные жизни"),
        ("Когда в игру входит ваша местность, возьмите карту.", "Местность"),
        ("Найм: немедленно атакуйте выбранное существо.", "Немедленно"),
        ("Способности существ противника не работают до конца хода.", "[Текст] не работает"),
        (
            "Карты, в тексте которых упомянут гном, стоят на 1 [Монета] дешевле.",
            "Упоминается (упоминание карт)",
        ),
        ("[Закрыть]: примените эффект заклинания с вашего кладбища.", "Применить эффект заклинания"),
        ("Если ваш герой — герой-маг, возьмите карту.", "Герой-воин, герой-маг"),
        (
            "Найм: выбранное существо противника обязано атаковать в следующий ход.",
            "Обязан атаковать (обязан объявить)",
        ),
        ("Получите контроль над выбранным игроком до конца хода.", "Контроль над противником"),
        ("Части объединённого существа получают Броню 1.", "Присоединить"),
        ("Найм: прикрепите к этому существу выбранный механизм.", "Присоединить"),  # the word of 105.6
        # other forms and wordings of the same mechanics (the adversarial probe's misses)
        ("Найм: выберите одно: возьмите карту или ранить героя противника на 1.", CHOICE),
        ("Выберите одно из трёх: возьмите карту; излечите героя на 1; ранить героя на 1.", CHOICE),
        ("Удар выбранного существа удваивается до конца хода.", "удвоить"),  # a reflexive verb
        ("Выбранное существо подготавливается.", "Подготовить"),  # the imperfective verb
        ("Выбранное существо оглушается до конца хода.", "Оглушить"),
        ("Найм: получите копию выбранного существа.", "Создайте (созданные карты)"),
        ("Гибель: сделайте ещё один ход.", "Дополнительный ход"),
        ("Вы контролируете противника до конца его следующего хода.", "Контроль над противником"),
        ("Установите контроль над соперником до конца хода.", "Контроль над противником"),  # ablt
        ("Положите в игровую зону существо из вашей колоды.", "положить в игру (не вызов и не возрождение)"),
        ("Положите существо из руки в игровую зону.", "положить в игру (не вызов и не возрождение)"),
        ("Когда это существо наносит Последний удар, возьмите карту.", "Последний удар"),  # accs + accs
        ("Существо с Последним ударом получает +1 к удару.", "Последний удар"),  # ablt + ablt
        ("Выстрелы ваших героев получают +2 до конца хода.", "бонус к выстрелам («+N к выстрелам»)"),
        ("Выстрелы этого персонажа наносят на 2 больше.", "бонус к выстрелам («+N к выстрелам»)"),
        ("Гибель: поместите выбранное существо под это существо.", "Добывает"),
        ("Найм: возьмите в руку две верхние карты колоды соперника.", "карта из чужой колоды в вашу руку"),
        ("Возьмите карту любой колоды.", "карта из чужой колоды в вашу руку"),
        ("Найм: поменяйте местами удар и жизни выбранного существа.", "обмен удара и жизней местами"),
        ("Поменяйте удар и жизни этого существа местами.", "обмен удара и жизней местами"),
        ("Гибель: выбранное ваше существо переходит под контроль соперника.", "Отдайте"),
        ("Передайте противнику под контроль выбранного вашего персонажа.", "Отдайте"),
        ("Найм: это существо становится копией выбранного существа.", "Скопировать"),
        ("При атаке: жизни и удар атакованного существа меняются местами.", "обмен удара и жизней местами"),
    ],
)
def test_a_mechanic_outside_our_rules_is_found_by_lemma(text: str, mechanic: str) -> None:
    assert mechanic in names(text), names(text)


@pytest.mark.parametrize(
    "text",
    [
        "Модульный щит: возьмите карту.",  # the letters of «модуль» are not the word
        "Выбранное существо теряет особенности до конца хода.",  # ours: «Теряет особенности»
        "Выбранное существо получает 2 дополнительные жизни до конца хода.",  # not «дополнительный ход»
        "Выберите существо: ранить его на 1. Один из игроков берёт карту.",  # «одно из» in another sentence
        "Переверните выбранное существо лицевой стороной вверх.",  # ours: «Вскрытие карты»
        "[Закрыть]: посмотрите верхнюю карту своей колоды.",  # ours: 204, the owner looks at the deck
        "Вернуть выбранное существо на верх колоды.",  # ours: 204, a named place of the deck
        # near misses of the deck's mechanics: the owner looks at their own deck, all of it (204.2)
        "Посмотрите все карты своей колоды; возьмите существо в руку.",
        "Противник показывает верхнюю карту своей колоды.",  # showing is 518.3, and it is their deck
        "Посмотрите верхнюю карту вашей колоды. Противник берёт карту.",  # «противника» is no owner here
        "Положите выбранное существо под низ колоды владельца.",  # one card, a named place (204.3)
        "Срабатывающие способности выполняются по порядку.",  # an order, not of a deck
        # near misses of a payment with no icon: the icons name the resources
        "1 [Монета]: возьмите карту.",
        "Х [Монета], [Закрыть]: ранить выбранное существо на Х.",
        "Найм: ранить выбранное существо на 2: оно погибает.",  # a number, but not first
        "Переверните карту рубашкой вверх.",  # ours: Скрытность turns the card itself face down
        # near misses of the other direction's articles
        "Выбранное существо стоит на 1 [Монета] дороже.",  # ours: a cost changed by a number
        "Бесплатно разыграйте существо стоимостью 2 или меньше с руки.",  # ours: 309.1
        "Выбранное существо получает 2 дополнительные жизни.",  # ours: «Дополнительные жизни»
        "Излечите вашего героя на 3.",  # ours: no «максимальных»
        "Найм: ранить выбранное существо на 2, затем возьмите карту.",  # «затем», not «немедленно»
        "Выбранное существо теряет особенности до конца хода.",  # ours: «Теряет особенности»
        "Если ваше существо должно получить раны, вместо этого их получает ваш герой.",  # ours: 5, замещение
        "Возьмите под контроль выбранное существо противника.",  # ours: «Возьмите под контроль Х»
        "Ваш герой получает Броню 1. Ваш воин получает +1 к удару.",  # a class «воин», not a hero's kind
        "Когда карта покидает кладбище противника: возьмите карту.",  # ours: the project reads it
        # near misses where the case decides: the same words in another construction
        "Найм: выберите одно из существ противника; ранить его на 1.",  # из + a noun: a target chosen
        "Выберите одно из ваших существ: оно получает +1 к удару.",  # the colon after the noun
        "Если противник теряет контроль над вашей картой, возьмите карту.",  # над + a card, not a player
        "Гибель: вы теряете контроль над картой противника.",  # «противника» is gent: the card's
        "Посмотрите верхнюю карту своей колоды, после чего противник берёт карту.",  # nom: not the deck's
        "Существо, нанёсшее последним удар, получает +1 к удару.",  # ablt «последним» + accs «удар»
        "Гибель: поместите существо с вашего кладбища в игровую зону.",  # ours: возрождение, 517.4
        "Копии этой карты стоят на 1 [Монета] дешевле.",  # ours: «Копия карты», the same name
        "Выбранный персонаж получает Защиту от выстрелов.",  # «выстрелов» gent: ours, «Защита от»
        "Положите выбранное существо под низ колоды владельца, затем возьмите карту.",  # 204.3
        "Возьмите карту из своей колоды, затем противник берёт карту.",  # nom «противник», own deck
        "Найм: поменяйте местами два выбранных существа противника.",  # «местами», but no strike or life
        "Выбранное существо противника переходит под ваш контроль.",  # ours: «Возьмите под контроль Х»
        "Существа под контролем противника получают -1 к удару.",  # ablt «контролем»: a state, not a transfer
    ],
)
def test_words_of_our_rules_name_no_mechanic_outside(text: str) -> None:
    assert names(text) == []


def _steps(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if "keywordType" in node and isinstance(node.get("text"), str):
            yield node["text"]
        for value in node.values():
            yield from _steps(value)
    elif isinstance(node, list):
        for value in node:
            yield from _steps(value)


def project_texts() -> dict[str, str]:
    """Every text the project reads as a card's (text → where): the card tables of features/ and the
    examples (``card_rows``), every «…» of a scenario step (the abilities players declare, the texts
    cards get), the wordings and canonical forms of tests/test_construction_variants.py and the examples
    and canonical forms of the reader's phrase book (lexicon/*.toml)."""
    root = project_root()
    texts = {row.text: row.where for row in card_rows(root)}
    for path in sorted((root / "features").rglob("*.feature")):
        for step in _steps(parse_feature(path, root).document):
            for quoted in re.findall(r"«([^«»]+)»", step):
                texts.setdefault(quoted, path.relative_to(root).as_posix())
    variants = root / "tests" / "test_construction_variants.py"
    tree = ast.parse(variants.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and CYRILLIC.search(node.value):
            texts.setdefault(node.value, variants.name)
    lexicon = root / "engine" / "berserk_engine" / "language" / "lexicon"
    for path in sorted(lexicon.glob("*.toml")):
        if path.name == "outside.toml":
            continue
        for key, value in _strings(tomllib.loads(path.read_text(encoding="utf-8"))):
            if key in ("example", "canonical") and "{" not in value:
                texts.setdefault(value, f"lexicon/{path.name}")
    return texts


def _strings(node: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, value in node.items():
            yield from _strings(value, k)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value, key)
    elif isinstance(node, str):
        yield key, node


def test_no_text_the_project_reads_uses_a_mechanic_outside_our_rules() -> None:
    """The false case on every text the project reads as a card's (~1,150): the card tables, the
    abilities of the scenarios' steps, the wording variants and the reader's phrase book. Each is inside
    our rules, so no mechanic outside them may be found there; the project's card names are names."""
    texts = project_texts()
    names = {row.name for row in card_rows(project_root()) if row.name}
    assert len(texts) > 1000
    hits = {f"{where}: {text}": found for text, where in texts.items() if (found := _names(text, names))}
    assert hits == {}


def _names(text: str, card_names: set[str]) -> list[str]:
    return [f.mechanic.name for f in mechanics_in(text, card_names)]


def test_every_mechanic_says_where_it_is_defined() -> None:
    listed = outside()
    assert "версия правил 17.0" in listed.source and "dictionary.rst" in listed.source
    for mechanic in listed.mechanics:
        where = mechanic.where_message(listed.source)
        if mechanic.defined:
            assert where.startswith("определена: стат") and all(a in where for a in mechanic.defined)
        else:  # said so, with why it is not ours
            assert where.startswith("определения в доступных текстах правил нет") and mechanic.why


ENTRY = "[source]\ntitle = 't'\nwhere = 'w'\n[[mechanic]]\n"


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ("[[mechanic]]\nname = 'X'\nmatch = [['x']]\ndefined = []\n", "[source]"),
        (ENTRY + "match = [['x']]\ndefined = []\n", "№1: нет названия"),
        (ENTRY + "name = 'X'\nmatch = []\ndefined = []\n", "(«X»): match"),
        (ENTRY + "name = 'X'\nmatch = [['x']]\ndefined = [1]\n", "defined"),
        (ENTRY + "name = 'X'\nmatch = [['x']]\ndefined = []\nspan = -1\n", "span"),
        (ENTRY + "name = 'X'\nmatch = [['x']]\ndefined = []\nwhy2 = ''\n", "why2"),
        ("[source\n", "outside.toml"),
        (ENTRY + "name = 'X'\nmatch = [['x@abl']]\ndefined = []\n", "после «@»"),  # no such grammeme
        (ENTRY + "name = 'X'\nmatch = [['<num>@gent']]\ndefined = []\n", "после «@»"),  # a marker has none
    ],
)
def test_a_broken_list_is_an_error_naming_the_file_and_entry(tmp_path: Path, data: str, said: str) -> None:
    path = tmp_path / "outside.toml"
    path.write_text(data, encoding="utf-8")
    with pytest.raises(OutsideDataError, match=r"outside\.toml") as raised:
        outside(path)
    assert said in str(raised.value)


def card_list(tmp_path: Path) -> str:
    path = tmp_path / "cards.txt"
    path.write_text(
        HEADER
        + "| Литейщик | существо | механизм | 2 | 2 | 2 | Модуль. Опыт в атаке. |\n"
        + "| Сторож | существо | модуль | 1 | 1 | 1 | |\n"
        # read by the grammar as a class («модуль» is a class of the list): named, not misread
        + "| Смотритель | существо | | 2 | 1 | 2 | Когда ваш модуль погибает: возьмите карту. |\n"
        + "| Призыв | заклинание | | 1 | | | Выберите одно из: - возьмите карту. - подготовьте существо. |\n"
        + "| Палач | существо | | 3 | 3 | 3 | Когда луна восходит: ранить на 1 героя противника. |\n"
        + "| Оракул | существо | | 3 | 1 | 3 | Гибель: возьмите карту. |\n",
        encoding="utf-8",
    )
    return str(path)


def test_cards_names_the_mechanic_apart_from_unread_phrasing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = card_list(tmp_path)
    assert main(["cards", path]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "«Литейщик»" in x)
    assert line.startswith(f"{path}:2:")
    assert "механика не из этих правил: Модуль — определена: статьи «Модуль.», «Объединённая карта.»" in line
    assert "версия правил 17.0" in line and "dictionary.rst" in line
    assert "механика не из этих правил: Модуль" in next(x for x in out.splitlines() if "«Смотритель»" in x)
    chosen = next(x for x in out.splitlines() if "«Призыв»" in x)
    assert "выбор одного из вариантов" in chosen and "определения в доступных текстах правил нет" in chosen
    assert "Подготовить — определена: статья «Подготовить [карту/карты].»" in chosen
    assert "механика не из этих правил" not in next(x for x in out.splitlines() if "«Палач»" in x)
    assert out.splitlines()[-1] == (
        "Карт в списке: 6 — не прочитаны: 4. Из них: механика не из этих правил — 3 (Модуль — 2, "
        "Подготовить — 1, выбор одного из вариантов («Выберите одно из») — 1); фразы, которых читатель "
        "не читает — 1."
    )


def test_cards_json_and_show_carry_the_kinds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = card_list(tmp_path)
    assert main(["cards", path, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in data["kinds"].items() if k != "mechanics"} == {
        "outside": 3,
        "unread": 1,
        "row": 0,
    }
    assert data["kinds"]["mechanics"] == {
        "Модуль": 2,
        "Подготовить": 1,
        CHOICE: 1,
    }
    first = next(f for f in data["unreadable"] if f["card"] == "Литейщик")
    assert first["kind"] == "outside" and first["sentence"] == "Модуль"
    assert first["mechanics"][0]["defined"] == ["Модуль.", "Объединённая карта."]
    assert main(["cards", path, "--show"]) == 1
    out = capsys.readouterr().out
    assert "  механика не из этих правил: Модуль — определена: статьи «Модуль.»" in out
    assert out.splitlines()[-1].startswith("Карт в списке: 6, не прочитаны: 4. Из них: механика не из этих")


def test_a_card_named_like_a_mechanic_does_not_use_it_by_naming_itself() -> None:
    """«Засада» is a mechanic of the later glossary and the name of a card of ours: the card's own name
    in its text (any form) is the card; the same word in another card's text is the mechanic."""
    text = "Засада получает Броню 1. Когда Засады атакуют: возьмите карту."
    assert [f.mechanic.name for f in mechanics_in(text, ["Засада"])] == []
    assert [f.mechanic.name for f in mechanics_in(text)] == ["Засада"]
    # a name of several words hides only itself: the keyword «Модуль» of the card stays
    assert names("Модуль. Подготовьте Модуль атаки.") == ["Модуль", "Подготовить"]
    found = mechanics_in("Модуль. Подготовьте Модуль атаки.", ["Модуль атаки"])
    assert [(f.mechanic.name, f.start) for f in found] == [("Модуль", 0), ("Подготовить", 8)]


def test_a_text_with_an_unread_phrase_and_a_mechanic_outside_is_outside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A text the reader could not read anyway and that uses a mechanic outside our rules is named by
    the mechanic; a text whose only problem is a phrase stays «фразы …»; the summary counts both."""
    path = tmp_path / "cards.txt"
    path.write_text(
        HEADER
        + "| Звездочёт | существо | | 2 | 1 | 2 | Когда луна восходит: посмотрите карту любой колоды. |\n"
        + "| Летописец | заклинание | | 1 | | | Посмотрите 3 карты колоды; сложите их в любом порядке. |\n"
        + "| Вождь | герой | | | | 20 | 2: ранить выбранное существо на 1. |\n"
        + "| Палач | существо | | 3 | 3 | 3 | Когда луна восходит: ранить на 1 героя противника. |\n"
        + "| Гадатель | существо | | 2 | 1 | 2 | Найм: посмотрите верхнюю карту своей колоды и положите "
        + "её под низ колоды. |\n",
        encoding="utf-8",
    )
    assert main(["cards", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    kinds = {f["card"]: f["kind"] for f in data["unreadable"]}
    assert kinds == {"Звездочёт": "outside", "Летописец": "outside", "Вождь": "outside", "Палач": "unread"}
    assert data["kinds"]["outside"] == 3 and data["kinds"]["unread"] == 1
    assert data["kinds"]["mechanics"] == {NO_ICON: 1, ORDER: 1, OTHER_DECK: 1}
    reasons = {f["card"]: f["mechanics"][0]["why"] for f in data["unreadable"] if f["kind"] == "outside"}
    assert "204.2" in reasons["Звездочёт"] and "204.3" in reasons["Летописец"]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "outside_tool", project_root() / "tools" / "outside_mechanics.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GLOSSARY = """Глоссарий
**А**
.. glossary::

  **Модуль.**
    Текст.

  **При ударе.**
    Текст.

  **Бесплатно.**
    Текст.

  **Усыпление Х.**
    Текст.
"""


def test_the_check_against_the_glossary_lists_what_nobody_decided() -> None:
    """tools/outside_mechanics.py: an article our glossary has (also as an alternative in brackets: «При
    ударе.» — ours «При атаке (При ударе)»), the list names or a [[reviewed]] entry decides is left
    out; one nobody decided is listed; an article the list cites that the glossary lacks is wrong."""
    tool = _tool()
    wrong, rest = tool.undecided(GLOSSARY)
    assert rest == ["Усыпление Х."]
    cited = {article for _, article in wrong}
    assert "Модуль." not in cited and "Бесплатно." not in cited
    assert "Подготовить [карту/карты]." in cited and "Вместо." in cited  # cited, absent from this text
    assert tool.headings("При атаке (При ударе)") >= {"при атаке", "при ударе"}
    assert tool.headings("Усовершенствовать (существо).", alternatives=False) == {
        "усовершенствовать (существо)",
        "усовершенствовать",
    }


def test_every_reviewed_article_says_why_and_is_not_also_a_mechanic() -> None:
    listed = outside()
    cited = {a for m in listed.mechanics for a in m.defined}
    assert listed.reviewed and all(r.why for r in listed.reviewed)
    assert not cited & {r.article for r in listed.reviewed}
