"""Selectors of the printed card language (issue 16, family 5): several targets of one ability — «до N
существ» with optional target slots (null in ``targets``, I-67), «N разных существ» only with N different
legal targets; a target by name (I-68); creature classes in any case and number and the «класс» column
of a deck file or card list (I-69)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from berserk_engine import actions
from berserk_engine.abilities import class_lemma, same_class
from berserk_engine.cards import CardDef
from berserk_engine.characteristics import in_group
from berserk_engine.errors import CardTextError, IllegalAction
from berserk_engine.selectors import of_class
from berserk_engine.selfplay import random_action
from berserk_engine.setup import new_game

from berserk_rules.cli import main
from berserk_rules.errors import SourceError
from berserk_rules.harness import contract
from berserk_rules.rulebook.decks import read_deck

# --- classes in any case and number (I-69) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("printed", "named"),
    [
        ("фея", "фея"),
        ("фея", "феи"),
        ("фея", "фей"),
        ("фея", "фею"),
        ("фея", "феей"),
        ("фея", "феями"),
        ("гном", "гномами"),
        ("гном", "гномов"),
        ("эльф", "эльфа"),
        ("нежить", "нежитью"),
        ("нежить", "нежитей"),
        ("ведьма", "ведьм"),
        ("ведьма", "ведьмой"),
        ("зверь", "зверей"),
        ("орк", "орки"),
    ],
)
def test_a_class_word_in_any_case_and_number_names_the_printed_class(printed: str, named: str) -> None:
    assert same_class(printed, named)
    assert same_class(class_lemma(printed), class_lemma(named))  # the lemmas the engine keeps


@pytest.mark.parametrize(
    ("printed", "named"),
    [("гном", "гнев"), ("эльф", "гном"), ("фея", "ф"), ("орк", "орел"), ("гном", "гн"), ("волк", "волхв")],
)
def test_a_shorter_common_piece_is_not_a_class(printed: str, named: str) -> None:
    assert not same_class(printed, named)
    assert not same_class(class_lemma(printed), class_lemma(named))


def _play_options(position: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    game = new_game(position)
    d = game.decision()
    assert d is not None and d.kind == "choose_action"
    return game, [o for o in d.options if o["type"] == "play"]


def _position(spell: str, text: str, a_play: list[str], b_play: list[str], cards: dict[str, Any]) -> dict:
    return {
        "turn": 3,
        "start": "choice",
        "cards": {spell: {"type": "заклинание", "cost": 1, "text": text}, **cards},
        "players": {
            "А": {"play": a_play, "hand": [spell], "coins": {"open": 1, "closed": 0}},
            "Б": {"play": b_play},
        },
    }


FAIRIES = {
    "Лесная фея": {"type": "существо", "classes": "фея", "strike": 1, "life": 2},
    "Волк": {"type": "существо", "classes": "зверь", "strike": 2, "life": 3},
}


@pytest.mark.parametrize(
    "text",
    [
        "Ваша фея получает +1 к удару до конца хода.",
        "Верните вашу фею в руку.",
        "Ранить на 1 вашу фею.",
    ],
)
def test_a_feminine_class_selects_by_the_printed_class(text: str) -> None:
    game, options = _play_options(_position("Пыльца", text, ["Лесная фея", "Волк"], [], FAIRIES))
    (option,) = options
    (slot,) = option["slots"]
    assert [game.state.cards[c].name for c in slot["candidates"]] == ["Лесная фея"]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Ранить на 1 вашего фею.", "«фею» не согласовано"),  # issue 25: the words of a group agree
        ("Ранить на 1 всех сущств.", "неизвестное слово «сущств»; ближайшие известные слова: «существ»"),
        (
            "Ранить на 1 всех геоев противника.",
            "неизвестное слово «геоев»; ближайшие известные слова: «героев»",
        ),
        ("Ранить на 1 всех гнoмов.", "неизвестное слово «гнoмов»"),  # a Latin «o»
    ],
)
def test_a_class_word_with_a_typo_or_out_of_agreement_is_an_error(text: str, words: str) -> None:
    """Issue 25: a class word is a word the dictionary or the card list knows, agreeing with its group —
    a typo is no class nobody has (the old reader read any word there and reported the card read)."""
    with pytest.raises(CardTextError) as caught:
        CardDef.build("Пыльца", "заклинание", text=text, cost=1)
    assert words in caught.value.message


# --- a target by name (I-68) ---------------------------------------------------------------------------


def test_a_target_with_a_name_is_a_card_of_that_name_only() -> None:
    cards = {
        "Серый волчонок": {"type": "существо", "strike": 1, "life": 2},
        "Волк": {"type": "существо", "strike": 2, "life": 3},
    }
    text = "Ранить на 2 существо с именем «Серый волчонок»."
    game, (option,) = _play_options(_position("Яма", text, ["Волк"], ["Серый волчонок", "Волк"], cards))
    (slot,) = option["slots"]
    assert [game.state.cards[c].name for c in slot["candidates"]] == ["Серый волчонок"]


def test_a_card_naming_itself_with_a_name_is_an_error_naming_the_target() -> None:
    with pytest.raises(CardTextError) as info:
        CardDef.build(
            "Серый волчонок", "существо", text="Найм: ранить на 1 всех существ с именем «Серый волчонок»."
        )
    message = str(info.value)
    assert "неизвестная цель" in message and "I-68" in message and "Серый волчонок" in message


def test_an_empty_name_is_not_read() -> None:
    with pytest.raises(CardTextError, match=r"неизвестная цель|не распознан"):
        CardDef.build("Яма", "заклинание", text="Ранить на 2 существо с именем «».")


# --- «до N …» and «N разных …» (I-67) -------------------------------------------------------------------

BEASTS = {
    "Волк": {"type": "существо", "strike": 2, "life": 3},
    "Страж": {"type": "существо", "strike": 1, "life": 5},
}
UP_TO = "Ранить на 1 до двух выбранных существ."


def test_up_to_two_targets_are_two_optional_slots_of_one_group() -> None:
    game, (option,) = _play_options(_position("Град", UP_TO, [], ["Волк", "Страж"], BEASTS))
    slots = option["slots"]
    assert [s["optional"] for s in slots] == [True, True]
    assert slots[0]["distinct"] == slots[1]["distinct"]
    assert contract.violations("decision", game.decision().to_json()) == []  # type: ignore[union-attr]


def test_up_to_n_is_listed_with_no_legal_target_at_all() -> None:
    _game, (option,) = _play_options(_position("Град", UP_TO, [], [], BEASTS))
    assert [s["candidates"] for s in option["slots"]] == [[], []]
    assert actions.expand(option) == [{"type": "play", "card": option["card"], "targets": [None, None]}]


def test_n_different_targets_need_n_different_legal_targets() -> None:
    text = "Ранить на 1 двух разных существ."
    assert _play_options(_position("Укол", text, [], ["Волк"], BEASTS))[1] == []
    (option,) = _play_options(_position("Укол", text, [], ["Волк", "Страж"], BEASTS))[1]
    assert [s.get("optional", False) for s in option["slots"]] == [False, False]


def test_legal_if_and_only_if_listed_with_empty_slots() -> None:
    game, (option,) = _play_options(_position("Град", UP_TO, [], ["Волк", "Страж"], BEASTS))
    d = game.decision()
    wolf, guard = option["slots"][0]["candidates"]
    listed = actions.expand(option)
    card = option["card"]
    # every way of naming 0, 1 or 2 different targets, empty slots anywhere
    assert len(listed) == 7
    for targets in ([None, None], [wolf, None], [None, guard], [wolf, guard], [guard, wolf]):
        assert {"type": "play", "card": card, "targets": targets} in listed
    for targets in ([wolf, wolf], [None], [wolf, guard, None], [None, None, None], ["c999", None], []):
        action = {"type": "play", "card": card, "targets": targets}
        with pytest.raises(IllegalAction) as info:
            actions.validate(game, d.player, action)
        assert info.value.rule == "501.1"
    for action in listed:
        assert actions.validate(game, d.player, action) == action
        assert contract.violations("action", action) == []
        assert contract.fast_validator("action").is_valid(action)


def test_null_in_a_slot_that_must_be_filled_is_refused() -> None:
    game, (option,) = _play_options(
        _position("Укол", "Ранить на 1 двух разных существ.", [], ["Волк", "Страж"], BEASTS)
    )
    wolf = option["slots"][0]["candidates"][0]
    d = game.decision()
    with pytest.raises(IllegalAction) as info:
        actions.validate(game, d.player, {"type": "play", "card": option["card"], "targets": [wolf, None]})
    assert info.value.rule == "501.1"


def test_an_empty_slot_is_skipped_and_observed_as_no_target() -> None:
    game, (option,) = _play_options(_position("Град", UP_TO, [], ["Волк", "Страж"], BEASTS))
    guard = option["slots"][0]["candidates"][1]
    game.act("А", {"type": "play", "card": option["card"], "targets": [None, guard]})
    wounds = {c.name: c.wounds for c in game.state.cards.values() if c.zone == "play"}
    assert wounds["Страж"] == 1 and wounds["Волк"] == 0
    for viewer in (None, "А", "Б"):
        view = game.observe(viewer)
        assert all(all(view_q["targets"]) for view_q in view["queue"])
        assert contract.violations("observation", view) == []


def test_random_players_fill_optional_and_distinct_slots_legally() -> None:
    game, (option,) = _play_options(_position("Град", UP_TO, [], ["Волк", "Страж"], BEASTS))
    d = game.decision()
    rng = random.Random(7)
    seen = set()
    for _ in range(60):
        action = random_action([option], rng)
        actions.validate(game, d.player, action)
        seen.add(tuple(t is None for t in action["targets"]))
    assert {(True, True), (False, False)} <= seen


# --- the «класс» column of a deck file and of a card list (I-69) --------------------------------------------


def _write(tmp_path: Path, text: str, name: str = "deck.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_deck_file_carries_the_classes_of_its_creatures(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "| количество | название | тип | класс | стоимость | удар | жизни | текст |\n"
        "| 2 | Лесная фея | существо | фея, дух | 1 | 1 | 2 | |\n"
        "| 1 | Пыльца | заклинание | | 1 | | | Ваша фея получает +2 к удару до конца хода. |\n",
    )
    deck, lines = read_deck(path)
    assert deck["cards"][0]["classes"] == "фея, дух" and lines == [2, 3]
    assert "classes" not in deck["cards"][1]


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ("| 1 | Фея | существо | фея 2 | 1 | 1 | 1 | |", "ожидаются классы через запятую"),
        ("| 1 | Фея | существо | фея,, дух | 1 | 1 | 1 | |", "ожидаются классы через запятую"),
        ("| 1 | Фея | существо | фeя | 1 | 1 | 1 | |", "ожидаются классы через запятую"),  # Latin «e»
        ("| 1 | Фея | существо | страж  лeса | 1 | 1 | 1 | |", "«страж лeса»"),
    ],
)
def test_a_bad_class_is_an_error_naming_the_file_and_line(tmp_path: Path, row: str, words: str) -> None:
    path = _write(
        tmp_path, "| количество | название | тип | класс | стоимость | удар | жизни | текст |\n" + row + "\n"
    )
    with pytest.raises(SourceError) as info:
        read_deck(path)
    assert words in str(info.value) and f"{path}:2" in str(info.value)


def test_a_card_list_reads_class_selectors_against_its_class_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(
        tmp_path,
        "| название | тип | класс | стоимость | удар | жизни | текст |\n"
        "| Кружевница | существо | фея | 2 | 1 | 2 | Найм: ранить на 1 всех ваших фей. |\n"
        "| Пыльца | заклинание | | 1 | | | Ваша фея получает +2 к удару до конца хода. |\n"
        "| Облава | заклинание | | 1 | | | Ранить на 1 до двух существ противника. |\n",
        "cards.txt",
    )
    assert main(["cards", str(path)]) == 0
    assert "Карт в списке: 3 — все прочитаны." in capsys.readouterr().out
    bad = _write(
        tmp_path,
        "| название | тип | класс | текст |\n| Пыльца | заклинание | фeя | Ваша фея получает Рывок. |\n",
        "bad.txt",
    )
    assert main(["cards", str(bad)]) == 1  # the row's error: a bad row never refuses the file (issue 25)
    out = capsys.readouterr().out
    assert f"{bad}:2:1: карта «Пыльца»: строка списка не прочитана" in out and "ожидаются классы" in out


def test_a_class_on_a_spell_and_a_class_of_two_words_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """I-70: a class printed on a spell is kept and does not make it a creature; «страж леса» is one
    class, which no single word of a text names."""
    path = _write(
        tmp_path,
        "| название | тип | класс | стоимость | удар | жизни | текст |\n"
        "| Кружевница | существо | фея, страж леса | 2 | 1 | 2 | Найм: ранить на 1 всех ваших фей. |\n"
        "| Пыльца | заклинание | фея, приказ | 1 | | | Ваша фея получает +2 к удару до конца хода. |\n",
        "cards.txt",
    )
    assert main(["cards", str(path)]) == 0
    assert "Карт в списке: 2 — все прочитаны." in capsys.readouterr().out
    deck_file = _write(
        tmp_path,
        "| количество | название | тип | класс | стоимость | текст |\n"
        "| 2 | Пыльца | заклинание | Приказ, страж леса | 1 | Ваша фея получает Рывок. |\n",
        "deck.txt",
    )
    deck, _ = read_deck(deck_file)
    assert deck["cards"][0]["classes"] == "Приказ, страж леса"
    spell = CardDef.build("Пыльца", "заклинание", classes="фея, приказ", cost=1)
    creature = CardDef.build("Кружевница", "существо", classes="Фея, Страж  леса", cost=2, strike=1, life=2)
    assert spell.classes == ("фея", "приказ") and spell.class_words == ("фея", "приказ")
    assert creature.class_words == ("фея", "страж леса") and creature.classes[1] == "страж леса"
    assert not in_group(spell, "феи") and in_group(creature, "феи")
    assert not in_group(creature, "стражи") and not of_class(creature.classes, ("страж",))


@pytest.mark.parametrize(
    ("text", "piece"),
    [
        ("Ранить на 1 до 9 существ.", "неизвестная цель «до 9 существ»"),
        ("Ранить на 1 до двух выбранных.", "неизвестная цель «до двух выбранных»"),
        ("Закройте не более 2 героев.", "неизвестная цель «не более 2 героев»"),
        ("Ранить на 2 существо с именем Волк.", "неизвестная цель «существо с именем Волк»"),
        ("Ранить всех ваших на 1.", "неизвестная цель «всех ваших»"),
    ],
)
def test_an_unknown_selector_is_an_error_naming_the_target(text: str, piece: str) -> None:
    with pytest.raises(CardTextError) as info:
        CardDef.build("Яма", "заклинание", text=text)
    assert piece in str(info.value)


def test_up_to_n_of_a_class() -> None:
    (ability,) = CardDef.build("Эхо", "заклинание", text="Верните до двух ваших гномов в руку.").abilities
    assert [(s.side, s.classes, s.up_to, s.group) for s in ability.slots] == [("own", ("гном",), True, 0)] * 2
    (ability,) = CardDef.build(
        "Засада", "заклинание", text="Ранить на 1 не более 3 эльфов противника."
    ).abilities
    assert [(s.side, s.classes) for s in ability.slots] == [("enemy", ("эльф",))] * 3


def test_a_class_of_two_words_in_a_text_is_read_whole_never_by_its_head_alone() -> None:
    """I-70: a class of several words in a text is all its words («стражей леса» — the class «страж
    леса»); the reader never reads «стражей» alone and drops «леса»."""
    (ability,) = CardDef.build(
        "Дозорный", "заклинание", cost=1, text="Ранить на 1 всех ваших стражей леса."
    ).abilities
    assert ability.effect.target.classes == ("страж леса",)  # type: ignore[union-attr]
    with pytest.raises(CardTextError):  # a typo in the second word is an error, not the class «страж»
        CardDef.build("Дозорный", "заклинание", cost=1, text="Ранить на 1 всех ваших стражей лса.")


# --- «этого механизма»: this card by one of its classes (issue 25) -------------------------------------


def test_this_card_named_by_a_class_it_does_not_have_is_an_error() -> None:
    """The classes printed on the card are the reader's context: «сила удара этого механизма» names this
    card only when «механизм» is one of its classes — on a card of another class it is an error naming the
    card's classes (the check was never reached before: the reader was not told the card's classes)."""
    text = "Гибель: ранить героя противника на Х, где Х – сила удара этого механизма."
    card = CardDef.build("Голем", "существо", classes="Механизм", cost=2, strike=1, life=2, text=text)
    assert card.classes == ("механизм",) and len(card.abilities) == 1
    with pytest.raises(CardTextError) as caught:
        CardDef.build("Тролль", "существо", classes="Великан", cost=2, strike=1, life=2, text=text)
    assert "«сила удара этого механизма»: «этого …» — класс этой карты, а у неё нет класса «механизм»" in (
        caught.value.message
    )


def test_this_card_on_a_spell_is_the_card_it_chose_whatever_the_spells_class() -> None:
    """On a spell «этого механизма» names the card chosen before it (I-113), so the spell's own class
    («действие») is not compared with «механизм»; the same words on a creature still are."""
    text = (
        "Уничтожьте ваш механизм. Ранить каждое существо противника на Х, где Х – сила удара этого механизма."
    )
    spell = CardDef.build("Таранный залп", "заклинание", classes="Действие", cost=3, text=text)
    assert spell.classes == ("действие",) and spell.abilities


@pytest.mark.parametrize("named", ["Лесной дух", "лесных духов", "Лесным духам", "лесного духа"])
def test_a_class_of_an_adjective_and_its_noun_is_kept_as_both_lemmas(named: str) -> None:
    """«Лесной дух» in any case and number is one class: the adjective and its noun in their normal form (the
    head word alone, read as a noun, gave «лесна дух»)."""
    assert class_lemma(named) == "лесной дух"
    assert class_lemma("тёмных эльфов") == "темный эльф" and class_lemma("стражей леса") == "страж леса"


@pytest.mark.parametrize("named", ["гномы", "гнома", "гномов", "Гномами"])
def test_a_class_is_kept_as_its_lemma(named: str) -> None:
    """Issue 25: a class is its lemma (pymorphy3), not a truncated stem — every form of «гном» is «гном»."""
    assert class_lemma(named) == "гном" and class_lemma("Стражей  леса") == "страж леса"
