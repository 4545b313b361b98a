"""The card's own name in its text, unquoted, in any case (issue 25; interpretation I-76):
``berserk_engine.language.names`` and how a card reads with it."""

from __future__ import annotations

import pytest
from berserk_engine.cards import CardDef
from berserk_engine.errors import CardTextError
from berserk_engine.language.names import name_terminal, occurrences, quoted


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        (
            "Когда Старый Дуболом погибает, возьмите карту.",
            "Старый Дуболом",
            "Когда «Старый Дуболом» погибает, возьмите карту.",
        ),
        ("ранить Трухлявого Пня на 1", "Трухлявый Пень", "ранить «Трухлявый Пень» на 1"),
        ("излечить Болотного Огонька на 1", "Болотный Огонёк", "излечить «Болотный Огонёк» на 1"),
        ("Болотный Огонек получает +1 к удару", "Болотный Огонёк", "«Болотный Огонёк» получает +1 к удару"),
        # the words after the head stay as printed; a class in lower case is no name
        (
            "ранить Стража чащи на 2; ваши стражи чащи",
            "Страж чащи",
            "ранить «Страж чащи» на 2; ваши стражи чащи",
        ),
        # an invented name is inflected by the guesser: it is the card's own word
        ("ранить Гракхура на 1", "Гракхур", "ранить «Гракхур» на 1"),
    ],
)
def test_the_name_in_any_case_is_quoted(text: str, name: str, expected: str) -> None:
    assert quoted(text, name) == expected


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Когда Юный Дуболом погибает, возьмите карту.", "Старый Дуболом"),  # another card: one word shared
        ("Старые Дуболомы получают +1 к удару.", "Старый Дуболом"),  # the plural is no name of one card
        ("Когда старый дуболом погибает", "Старый Дуболом"),  # not written with the name's capitals
        ("Старое Дуболома погибает", "Старый Дуболом"),  # the words do not agree with each other
        ("Старого Дуболом", "Старый Дуболом"),  # nor in case
        ("вызовите «Старый Дуболом»", "Старый Дуболом"),  # already in quotes
    ],
)
def test_what_is_not_the_name(text: str, name: str) -> None:
    assert occurrences(text, name) == []
    assert quoted(text, name) == text


def test_the_cases_of_an_occurrence() -> None:
    (found,) = occurrences("ранить Старого Дуболома на 1", "Старый Дуболом")
    assert found.cases == {"gent", "accs"}
    (found,) = occurrences("Старым Дуболомом", "Старый Дуболом")
    assert found.cases == {"ablt"}


def _card(name: str, text: str) -> CardDef:
    return CardDef.build(name, "существо", cost=2, strike=1, life=3, text=text)


def test_a_trigger_on_the_name_is_the_cards_own() -> None:
    named = _card("Старый Дуболом", "Когда Старый Дуболом погибает, возьмите карту.").abilities[0]
    this = _card("Старый Дуболом", "Когда это существо погибает, возьмите карту.").abilities[0]
    assert named.trigger == this.trigger
    assert named.effect == this.effect
    entering = _card("Старый Дуболом", "Каждый раз, когда Старый Дуболом вступает в игру, возьмите карту.")
    enters = _card("Х", "Когда это существо вступает в игру, возьмите карту.")
    assert entering.abilities[0].trigger == enters.abilities[0].trigger


def test_an_effect_on_the_name_is_the_card_itself() -> None:
    wound = _card("Трухлявый Пень", "[Закрыть]: ранить Трухлявого Пня на 1.").abilities[0]
    quoted_text = _card("Трухлявый Пень", "[Закрыть]: ранить «Трухлявый Пень» на 1.").abilities[0]
    assert wound == quoted_text
    assert wound.effect.target.mode == "self"  # type: ignore[union-attr]
    gains = _card("Болотный Огонёк", "[Закрыть]: Болотный Огонёк получает +2 к удару до конца хода.")
    assert gains.abilities[0].effect.target.mode == "self"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text",
    [
        "Когда Юный Дуболом погибает, возьмите карту.",  # another card's name, unquoted: words of no meaning
        "[Закрыть]: ранить Юного Дуболома на 1.",
        "Когда «Юный Дуболом» погибает, возьмите карту.",  # in quotes: another card named
        "[Закрыть]: ранить «Юный Дуболом» на 1.",
        # constant abilities whose node keeps no words of its subject: the name must still be this card's
        "«Юный Дуболом» не может атаковать.",
        "Пока у вас нет карт в руке, «Юный Дуболом» имеет +1 к удару.",
    ],
)
def test_another_cards_name_is_an_error(text: str) -> None:
    with pytest.raises(CardTextError) as caught:
        _card("Старый Дуболом", text)
    assert caught.value.card == "Старый Дуболом"


@pytest.mark.parametrize(
    "text",
    [
        "«Старый Дуболом» не может атаковать.",
        "Пока у вас нет карт в руке, «Старый Дуболом» имеет +1 к удару.",
        "Найм: вызовите «Юный Дуболом».",  # another card named where a name is the object: kept by the node
    ],
)
def test_a_name_the_reading_keeps_or_that_is_this_card_reads(text: str) -> None:
    assert _card("Старый Дуболом", text).abilities


def test_the_error_names_the_sentence() -> None:
    with pytest.raises(CardTextError) as caught:
        _card("Старый Дуболом", "Рывок. Когда «Юный Дуболом» погибает, возьмите карту.")
    assert caught.value.position is not None and caught.value.position[0] == 2
    assert "«Юный Дуболом»" in caught.value.message and "I-76" in caught.value.message


def test_the_name_is_a_noun_group_in_the_nominative_of_its_gender() -> None:
    assert name_terminal("Болотная Ведьма") == "NAME__NOMN_SING_FEMN"
    assert name_terminal("Трухлявый Пень") == "NAME__NOMN_SING_MASC"
    assert name_terminal("Страж чащи") == "NAME__NOMN_SING_MASC"
    named = _card("Болотная Ведьма", "Пока у вас нет карт в руке, Болотная Ведьма имеет +3 к удару.")
    this = _card("Болотная Ведьма", "Пока у вас нет карт в руке, это существо имеет +3 к удару.")
    assert named.abilities[0].effect == this.abilities[0].effect


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Ваши стражи чащи получают +1 к удару до конца хода.", "ваши стражи чащи"),
        ("Ранить на 1 каждого стража чащи противника.", "каждого стража чащи противника"),
        ("Ранить на 1 выбранного вашего стража чащи.", "выбранного вашего стража чащи"),
    ],
)
def test_a_class_of_several_words(text: str, words: str) -> None:
    """A class of several words (I-70): its head in any case and number, the rest as printed."""
    ability = CardDef.build("Зов", "заклинание", cost=1, text=text).abilities[0]
    target = ability.effect.target  # type: ignore[union-attr]
    assert target.classes == ("страж чащи",)
    assert target.words == words


@pytest.mark.parametrize(
    "text",
    ["Ранить на 1 каждого стража чщи противника.", "Ваши стражи чашщи получают +1 к удару до конца хода."],
)
def test_a_typo_in_a_class_word_is_an_error(text: str) -> None:
    with pytest.raises(CardTextError) as caught:
        CardDef.build("Зов", "заклинание", cost=1, text=text)
    assert "неизвестное слово" in caught.value.message
