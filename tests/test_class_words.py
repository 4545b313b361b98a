"""Class words (issue 29): a class is a noun that names a being (pymorphy3 «anim») or a class of the lexicon
(«механизм»), only where the grammar expects a class; any other noun there is a clear error. On a spell,
«сила удара этого механизма» names the card chosen before it, so its class is a condition of that choice."""

from __future__ import annotations

import berserk_engine  # noqa: F401 — loads the catalogue
import pytest
from berserk_engine.cards import CardDef
from berserk_engine.errors import CardTextError
from berserk_engine.grammar import parse_card_text
from berserk_engine.language.morphology import analyses, class_named_by_this


def _target(text: str) -> tuple[str, ...]:
    (ability,) = parse_card_text("Карта", text, spell=True)
    return ability.effect.target.classes


@pytest.mark.parametrize(
    ("text", "classes"),
    [
        ("Ранить на 1 всех ваших гномов.", ("гном",)),
        ("Ранить на 1 всех ваших фей.", ("фея",)),
        ("Ранить на 1 все ваши механизмы.", ("механизм",)),  # a class of things: the lexicon's
        ("Ранить на 1 всех ваших стражей леса.", ("страж леса",)),  # «леса»: a noun after the class word
    ],
)
def test_a_class_is_a_being_or_a_class_of_the_lexicon(text: str, classes: tuple[str, ...]) -> None:
    assert _target(text) == classes


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Ранить на 1 всех ваших столов.", "столов"),
        ("Ваш стол получает +1 к удару до конца хода.", "стол"),
    ],
)
def test_a_noun_that_names_no_being_is_no_class(text: str, word: str) -> None:
    with pytest.raises(CardTextError) as caught:
        parse_card_text("Карта", text, spell=True)
    assert f"«{word}» — не класс карты" in caught.value.message


def test_a_thing_is_a_plain_noun_and_a_being_a_class_word() -> None:
    assert {a.category for a in analyses("стол")} == {"noun"}
    assert "class" in {a.category for a in analyses("гномы")}
    assert "class" in {a.category for a in analyses("механизма")}


def test_a_class_the_card_list_declares_is_a_class_word_of_that_card() -> None:
    # «стол» is no class in general, but a card that declares the class «стол» names itself by it
    card = CardDef.build(
        "Карта",
        "существо",
        cost=2,
        strike=1,
        life=2,
        text="[Закрыть]: ранить на Х героя противника, где Х – сила удара этого стола.",
        classes="стол",
    )
    assert len(card.abilities) == 1


@pytest.mark.parametrize(
    ("words", "named"),
    [
        ("сила удара этого механизма", "механизм"),
        ("сила удара этого стража леса", "страж леса"),  # every word of the class, not its last
        ("сила удара этого существа", None),
        ("ран на этой фее", "фея"),
    ],
)
def test_the_class_this_names_is_the_whole_class(words: str, named: str | None) -> None:
    assert class_named_by_this(words) == named


def _spell(text: str) -> tuple:
    return CardDef.build("Залп", "заклинание", cost=2, text=text).abilities


def test_on_a_spell_this_mechanism_is_a_condition_of_the_choice() -> None:
    (ability,) = _spell(
        "Уничтожьте выбранное существо. Ранить героя противника на Х, где Х – сила удара этого механизма."
    )
    destroy, wound = ability.effect.parts
    assert destroy.target.classes == ("механизм",)  # only a mechanism may be chosen
    assert wound.amount.selector.slot == destroy.target.slot
    (plain,) = _spell(
        "Уничтожьте выбранное существо. Ранить героя противника на Х, где Х – сила удара этого существа."
    )
    assert plain.effect.parts[0].target.classes == ()  # «этого существа»: any creature


def test_on_a_spell_this_mechanism_after_another_class_is_an_error() -> None:
    with pytest.raises(CardTextError) as caught:
        _spell("Уничтожьте вашу фею. Ранить героя противника на Х, где Х – сила удара этого механизма.")
    assert "«фея», не «механизм»" in caught.value.message
