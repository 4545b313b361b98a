"""Printed constructions of issue 29 as the reader reads them (the game is played in features/part-8/):
a condition on the hands before or after an effect, «Пока …, …», «Не может атаковать»."""

from __future__ import annotations

import berserk_engine  # noqa: F401 — loads the catalogue
import pytest
from berserk_engine.abilities import Ability
from berserk_engine.cannot_attack import CannotAttack
from berserk_engine.conditions import HandTest, Provided, WhileBonus
from berserk_engine.effects import Draw
from berserk_engine.errors import CardTextError
from berserk_engine.grammar import parse_card_text, reading, render


def _one(text: str, spell: bool = False) -> Ability:
    (ability,) = parse_card_text("Карта", text, spell=spell)
    return ability


@pytest.mark.parametrize(
    "text",
    [
        "Если у вас в руке больше карт, чем у противника, возьмите карту.",
        "Если в вашей руке больше карт, чем у противника, возьмите карту.",
        "Возьмите карту, если у вас в руке больше карт, чем у противника.",
        "Взять карту, если в своей руке больше карт, чем у противника.",
    ],
)
def test_a_condition_before_or_after_the_effect_is_one_meaning(text: str) -> None:
    assert _one(text, spell=True).effect == Provided(
        HandTest("more"), Draw(_one("Возьмите карту.", True).effect.amount)
    )


@pytest.mark.parametrize(
    ("words", "kind"),
    [
        ("у вас в руке меньше карт, чем у противника", "less"),
        ("у вас нет карт в руке", "empty"),
        ("у вас в руке нет карт", "empty"),
        ("у вас есть карты в руке", "not_empty"),
    ],
)
def test_each_condition_on_the_hands(words: str, kind: str) -> None:
    assert _one(f"Если {words}, возьмите карту.", spell=True).effect.test == HandTest(kind)


@pytest.mark.parametrize(
    "text",
    [
        "Найм: Выстрел на 2, если в вашей руке меньше карт, чем у противника.",
        "Найм: если у вас в руке меньше карт, чем у противника, ранить на 2 выбранное существо.",
        "Пока у вас нет карт в руке, это существо имеет +3 к удару.",
        "Пока у вас в руке нет карт, это существо имеет +1 к удару и +2 к жизням.",
        "Не может атаковать.",
        "Если у вас в руке больше карт, чем у противника, возьмите карту.",
    ],
)
def test_the_canonical_words_read_as_the_same_ability(text: str) -> None:
    spell = not text.startswith(("Найм", "Пока", "Не "))
    canonical = render(reading(text, spell=spell))
    assert _one(canonical, spell).effect == _one(text, spell).effect


def test_constant_abilities() -> None:
    assert _one("Пока у вас нет карт в руке, это существо имеет +3 к удару.").effect == WhileBonus(
        HandTest("empty"), 3, 0
    )
    assert _one("Это существо не может атаковать.").effect == CannotAttack()


@pytest.mark.parametrize(
    "text",
    [
        "Если у вас в руке больше карта, чем у противника, возьмите карту.",  # agreement broken
        "Если у вас в руке больше карт, чем противника, возьмите карту.",  # «у» missing
        "Если у вас в руке больше карт, возьмите карту.",  # than whom?
        "Если у вас в руке больше карт, чем у противника.",  # no effect
    ],
)
def test_what_the_condition_does_not_say_is_an_error(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text, spell=True)


@pytest.mark.parametrize(
    "text",
    [
        "Не может атаковать ударом.",  # a narrower ban: not this construction
        "Пока у вас нет карт в руке, это существо имеет +3 к жизни.",
        "Может атаковать.",
    ],
)
def test_near_misses_of_the_constant_abilities_are_errors(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text)


def test_the_opponent_picks_what_the_printed_target_names() -> None:
    from berserk_engine.opponent_choice import OpponentPicks

    effect = _one("[Закрыть]: выстрел на 2 по персонажу противника по его выбору.").effect
    assert isinstance(effect, OpponentPicks)
    assert effect.among.side == "enemy" and effect.among.types == ("creature", "hero")
    assert effect.among.mode == "each"  # no target named at the declaration (I-83)
    assert _one("[Закрыть]: выстрел на 2 по персонажу противника по его выбору.").slots == ()
    assert _one("[Закрыть]: Выстрел на 2 в персонажа противника.").slots != ()


@pytest.mark.parametrize(
    "text",
    [
        "Ранить на 2 ваше существо по его выбору.",  # «его» is the opponent: the target must be his
        "Ранить на 2 всех существ противника по его выбору.",  # nothing to choose
        "Выстрел на 2 в персонажа противника по её выбору.",
    ],
)
def test_by_their_choice_needs_one_target_of_the_opponent(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text, spell=True)


def test_thereby_reads_when_the_engine_can_tell_the_first_part_was_done_in_full() -> None:
    from berserk_engine.thereby import Thereby

    effect = _one("Найм: ранить на 1 выбранное существо, при этом возьмите карту.").effect
    assert isinstance(effect, Thereby)
    assert isinstance(_one("Закройте существо, при этом возьмите карту.", spell=True).effect, Thereby)


@pytest.mark.parametrize(
    "text",
    [
        "Уничтожьте существо, при этом возьмите карту.",  # «in full» of a destruction: not measured
        "Вы можете ранить на 1 существо, при этом возьмите карту.",
    ],
)
def test_thereby_is_never_read_as_a_plain_sequence(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text, spell=True)


def test_the_opponent_may_otherwise() -> None:
    from berserk_engine.otherwise import OpponentMay, Pay

    effect = _one("Противник может заплатить 2 [Монета]; иначе возьмите 2 карты.", spell=True).effect
    assert isinstance(effect, OpponentMay) and effect.deed == Pay(2)
    same = _one("Противник может заплатить 2 [Монета], иначе возьмите 2 карты.", spell=True).effect
    assert same == effect


@pytest.mark.parametrize(
    "text",
    [
        "Противник может сбросить карту.",  # no «иначе»: not this construction
        "Противник может уничтожить карту; иначе возьмите карту.",  # a deed the engine does not know
    ],
)
def test_what_the_opponent_may_do_is_read_or_refused(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text, spell=True)


def test_to_poison_is_to_get_the_keyword() -> None:
    from berserk_engine.effects import Grant

    effect = _one("Отравить существо на 2.", spell=True).effect
    assert isinstance(effect, Grant) and effect.text == "Отравление 2."
    assert effect == _one("Существо получает Отравление 2.", spell=True).effect
    with pytest.raises(CardTextError):
        parse_card_text("Карта", "Отравить существо на 0.", spell=True)  # «Отравление 0» is never declared


@pytest.mark.parametrize("dash", ["–", "—", "-"])
@pytest.mark.parametrize(
    ("what", "prop"),
    [
        ("число ваших гномов", "count"),
        ("количество карт в вашей руке", "hand"),
        ("сила удара этого существа", "strike"),
        ("жизни этого существа", "life"),
        ("количество карт, которые вы взяли в этот ход", "drawn"),
        ("количество карт, взятых вами в этот ход", "drawn"),
        ("число взятых вами в этот ход карт", "drawn"),
    ],
)
def test_where_x_defines_the_amount_with_any_dash(dash: str, what: str, prop: str) -> None:
    effect = _one(f"[Закрыть]: ранить героя противника на Х, где Х {dash} {what}.").effect
    assert effect.amount.prop == prop
    assert effect.amount.words == what


@pytest.mark.parametrize(
    "text",
    [
        "Возьмите карту, где Х – число ваших гномов.",  # no Х before «где»
        "Ранить героя противника на Х, где Х – сила удара этого героя.",  # not this card's kind
        "Ранить героя противника на Х.",  # a spell whose cost holds no Х
        "Ранить героя противника на Х, где Х – сила удара этого существа.",  # a spell has no strike
    ],
)
def test_where_x_misread_is_an_error(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text, spell=True)


def test_the_x_of_the_cost_poisons_by_the_named_number() -> None:
    from berserk_engine.effects import GrantCounted

    (ability,) = parse_card_text("Карта", "Отравить выбранное существо на Х.", spell=True, cost_x=True)
    assert isinstance(ability.effect, GrantCounted) and ability.effect.amount.prop == "X"


@pytest.mark.parametrize(
    "text", ["Не может выступать защитником.", "Это существо не может выступать защитником."]
)
def test_cannot_defend_reads_as_the_constant(text: str) -> None:
    from berserk_engine.cannot_defend import CannotDefend

    assert _one(text).effect == CannotDefend()


def test_their_hero_needs_the_opponent_named_before() -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", "В начале вашего хода ранить его героя на 1.")


def test_each_of_them_takes_every_slot_of_the_group_before() -> None:
    (ability,) = parse_card_text(
        "Карта",
        "Выберите не более двух существ. Каждое из них получает +1 к удару до конца хода.",
        spell=True,
    )
    _, bonus = ability.effect.parts
    assert (bonus.target.mode, bonus.target.slot, bonus.target.count) == ("ref", 0, 2)


def test_each_of_them_without_a_group_before_is_an_error() -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", "Каждое из них получает +1 к удару до конца хода.", spell=True)


def test_a_quoted_ability_is_granted_as_read() -> None:
    from berserk_engine.effects import Grant

    effect = _one(
        "Выбранное существо получает «При атаке: возьмите карту.» до конца хода.", spell=True
    ).effect
    assert isinstance(effect, Grant)
    assert (effect.text, effect.until) == ("При атаке: возьмите карту.", "end_of_turn")


@pytest.mark.parametrize(
    "text",
    [
        "Выбранное существо получает «Летает над облаками.» до конца хода.",
        "Выбранное существо получает «При атаке: летает.» до конца хода.",  # a colon inside the quotes
    ],
)
def test_a_quoted_text_that_is_no_ability_is_an_error(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text, spell=True)


@pytest.mark.parametrize(
    "text",
    [
        "Рывок (может атаковать в тот же ход, когда разыгран).",
        "Рывок (может атаковать в ход выхода в игру).",
        "Броня 1 (предотвращает первую рану в каждом ходу).",
    ],
)
def test_a_reminder_that_explains_its_keyword_is_commentary(text: str) -> None:
    from dataclasses import replace

    head = text.split(" (")[0] + "."
    assert _one(text) == replace(_one(head), text=text)  # the same keyword; the text as printed
    assert "(" in render(reading(text))


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("Рывок (получает +1 к удару).", "«Рывок»"),
        ("Броня 1 (может атаковать в ход выхода в игру).", "«Броня 1»"),
        ("Найм: возьмите карту (просто так).", "не пояснение ключевого слова"),
    ],
)
def test_a_reminder_about_something_else_is_an_error_naming_both(text: str, named: str) -> None:
    with pytest.raises(CardTextError) as caught:
        parse_card_text("Карта", text)
    assert named in str(caught.value) and text.split("(")[1].rstrip(").") in str(caught.value)


def test_the_limit_in_parentheses_is_still_a_limit() -> None:
    assert _one("Найм: возьмите карту (Один раз за ход.)").cost is not None


def test_the_glossary_words_of_the_keywords_are_up_to_date() -> None:
    import importlib.util
    from pathlib import Path

    from berserk_engine.language.reminder import FILE

    path = Path(__file__).resolve().parent.parent / "tools" / "reminders.py"
    spec = importlib.util.spec_from_file_location("reminders_tool", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.generate() == FILE.read_text(encoding="utf-8"), "python tools/reminders.py"


@pytest.mark.parametrize(
    ("text", "zone", "position"),
    [
        ("Положите существо под низ колоды.", "deck", "bottom"),
        ("Положите выбранное существо противника под низ колоды.", "deck", "bottom"),
        ("Положите выбранное существо в руку владельца.", "hand", "shuffle"),
        ("Верните существо в руку владельца.", "hand", "shuffle"),
    ],
)
def test_put_under_the_deck_or_in_the_owners_hand(text: str, zone: str, position: str) -> None:
    from berserk_engine.effects import Move

    effect = _one(text, spell=True).effect
    assert isinstance(effect, Move) and (effect.to_zone, effect.position) == (zone, position)
    assert effect.target.chosen
    canonical = render(reading(text, spell=True))
    assert canonical.startswith("Положить") and _one(canonical, True).effect == effect


@pytest.mark.parametrize(
    "text",
    [
        "Противник может заплатить стоимость выбранного существа; иначе положите это существо под низ "
        "колоды.",
        "Выберите существо противника. Положите это существо под низ колоды.",
    ],
)
def test_this_creature_on_a_spell_is_the_creature_chosen_before(text: str) -> None:
    from berserk_engine.abilities import selectors_of

    (ability,) = parse_card_text("Карта", text, spell=True)
    chosen, this = selectors_of(ability.effect)[0], selectors_of(ability.effect)[-1]
    assert chosen.chosen and this.mode == "ref" and this.slot == chosen.slot  # I-100


def test_this_creature_is_the_card_itself_on_a_creature_and_an_error_on_a_spell_that_chose_none() -> None:
    assert _one("Гибель: положите это существо под низ колоды.").effect.target.mode == "self"
    with pytest.raises(CardTextError, match="это существо"):
        parse_card_text("Карта", "Положите это существо под низ колоды.", spell=True)


@pytest.mark.parametrize(
    ("text", "event", "player", "other"),
    [
        ("Каждый раз, когда противник разыгрывает карту, возьмите карту.", "card_played", "enemy", True),
        ("Когда противник разыгрывает карту: возьмите карту.", "card_played", "enemy", True),
        ("Когда вы разыгрываете карту, возьмите карту.", "card_played", "own", True),
        ("Когда становится целью заклинания, возьмите карту.", "spell_targeted", "any", False),
    ],
)
def test_triggers_on_a_card_played_and_on_a_spells_target(
    text: str, event: str, player: str, other: bool
) -> None:
    from berserk_engine.abilities import Trigger

    ability = _one(text)
    assert ability.trigger == Trigger(event, player=player, other=other)
    assert _one(render(reading(text))).trigger == ability.trigger


@pytest.mark.parametrize(
    "text",
    [
        "Когда противник разыгрывают карту, возьмите карту.",  # agreement broken
        "Когда противник разыгрывает карту, возьмите кошку.",  # the effect does not read: an error, no crash
        "Когда становится целью атаки заклинания, возьмите карту.",
    ],
)
def test_a_broken_play_trigger_is_an_error(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text)


def test_the_ban_on_playing_cards_next_turn() -> None:
    from berserk_engine.play_ban import BanPlay

    text = "Противник не может разыгрывать карты в его следующий ход."
    assert _one(text, spell=True).effect == BanPlay()
    assert _one(render(reading(text, spell=True)), True).effect == BanPlay()
    with pytest.raises(CardTextError):
        parse_card_text("Карта", "Противник не может разыгрывать существа в свой следующий ход.", spell=True)


@pytest.mark.parametrize(
    ("text", "count", "types", "exact", "at_most"),
    [
        ("Поиск до трёх заклинаний стоимостью 2 [Монета].", 3, ("spell",), 2, None),
        ("Поиск заклинания стоимостью 2.", 1, ("spell",), 2, None),
        ("Поиск до 3 существ стоимостью 2 или менее.", 3, ("creature",), None, 2),
        ("Поиск до двух карт стоимостью 1.", 2, (), 1, None),
    ],
)
def test_a_search_of_up_to_n_spells_of_a_cost(
    text: str, count: int, types: tuple[str, ...], exact: int | None, at_most: int | None
) -> None:
    effect = _one(text, spell=True).effect
    assert (effect.count, effect.types, effect.cost, effect.max_cost) == (count, types, exact, at_most)
    assert _one(render(reading(text, spell=True)), True).effect == effect


@pytest.mark.parametrize(
    ("text", "count", "classes", "top"),
    [
        ("Вызовите до 2 существ стоимостью 2 [Монета] или менее.", 2, (), 2),
        ("Вызовите до двух гномов.", 2, ("гном",), None),
    ],
)
def test_a_summon_of_up_to_n_creatures(
    text: str, count: int, classes: tuple[str, ...], top: int | None
) -> None:
    effect = _one(text, spell=True).effect
    assert (effect.count, effect.wanted.classes, effect.wanted.max_cost) == (count, classes, top)
    assert _one(render(reading(text, spell=True)), True).effect == effect
    with pytest.raises(CardTextError):
        parse_card_text("Карта", "Вызовите до 2 героев.", spell=True)


def test_cards_for_each_creature_with_a_strike_of_n_or_more() -> None:
    effect = _one("Возьмите карты за каждое существо в игре с ударом 5 или более.", spell=True).effect
    assert effect.amount.prop == "count" and effect.amount.selector.condition == "strike>=5"
    assert effect.amount.selector.mode == "each" and effect.amount.selector.side == "any"
    with pytest.raises(CardTextError):
        parse_card_text("Карта", "Возьмите карты за выбранное существо.", spell=True)


@pytest.mark.parametrize(
    "text",
    [
        "Первая карта каждого противника в его следующий ход стоит на 2 [Монета] дороже.",
        "Первая карта противника в свой следующий ход стоит на 1 дороже.",
    ],
)
def test_the_first_card_of_the_opponents_next_turn_costs_more(text: str) -> None:
    from berserk_engine.next_turn_cost import FirstCardDearer

    amount = 2 if "на 2" in text else 1
    assert _one(text, spell=True).effect == FirstCardDearer(amount)
    assert _one(render(reading(text, spell=True)), True).effect == FirstCardDearer(amount)


@pytest.mark.parametrize(
    ("text", "until"),
    [
        (
            "Выберите существо противника. Оно не наносит ран до начала вашего следующего хода.",
            "own_next_turn",
        ),
        ("Выбранное существо не наносит ран до начала вашего следующего хода.", "own_next_turn"),
        ("Выбранное существо не наносит ран до конца хода.", "end_of_turn"),
    ],
)
def test_deals_no_wounds_until_your_next_turn(text: str, until: str) -> None:
    from berserk_engine.abilities import effect_nodes
    from berserk_engine.deals_no_wounds import DealsNoWounds

    (ability,) = parse_card_text("Карта", text, spell=True)
    (node,) = [n for n in effect_nodes(ability.effect) if isinstance(n, DealsNoWounds)]
    assert node.until == until and node.target.slot == 0
    (again,) = parse_card_text("Карта", render(reading(ability.text, spell=True)), spell=True)
    assert again.effect == ability.effect


def test_draw_until_the_hands_are_equal_and_the_cards_taken_thus() -> None:
    from berserk_engine.draw_until import DrawUntil
    from berserk_engine.effects import Sequence

    text = (
        "Берите карты, пока в вашей руке не будет столько же карт, сколько у противника. "
        "Ранить героя противника на Х, где Х – количество карт, взятых таким образом."
    )
    (ability,) = parse_card_text("Карта", text, spell=True)
    assert isinstance(ability.effect, Sequence) and ability.effect.parts[0] == DrawUntil()
    assert ability.effect.parts[1].amount.prop == "drawn_thus"
    with pytest.raises(CardTextError):  # «таким образом» with no such effect before it
        parse_card_text(
            "Карта",
            "Ранить героя противника на Х, где Х – количество карт, взятых таким образом.",
            spell=True,
        )


def test_directed_strike_against_a_group_granted_to_a_plural_subject() -> None:
    from berserk_engine.directed_at import DirectedAt
    from berserk_engine.effects import Grant

    ability = _one("Направленный удар по существу противника.")
    assert isinstance(ability.effect, DirectedAt) and ability.effect.group.mode == "each"
    assert ability.effect.group.side == "enemy" and not ability.slots
    granted = _one("2 [Монета]: Ваши звери получают Направленный удар по существу противника до конца хода.")
    assert granted.effect == Grant(
        "Направленный удар по существу противника.", granted.effect.target, "end_of_turn"
    )
    assert granted.effect.target.side == "own" and granted.effect.target.mode == "each"
    with pytest.raises(CardTextError):
        parse_card_text("Карта", "Направленный удар по выбранному существу.")


def test_a_surcharge_on_the_opponents_dearer_cards() -> None:
    from berserk_engine.cost_surcharge import CostSurcharge

    text = "Если карта противника должна стоить дороже, она стоит дополнительно на 2 [Монета] дороже."
    assert _one(text).effect == CostSurcharge(2)
    assert _one(render(reading(text))).effect == CostSurcharge(2)


def _creature(name: str, text: str) -> Ability:
    from berserk_engine.cards import CardDef

    (ability,) = CardDef.build(name, "существо", cost=2, strike=1, life=3, text=text).abilities
    return ability


@pytest.mark.parametrize(
    "text",
    [
        "[Закрыть]: ранить Опытный образец MK-2 на 1.",
        "[Закрыть]: Ранить на 1 Опытный образец MK-2.",
        "[Закрыть]: Опытный образец MK-2 получает +1 к удару до конца хода.",
        "Когда Опытный образец MK-2 погибает, возьмите карту.",
    ],
)
def test_a_name_with_latin_letters_and_digits_is_the_card_itself(text: str) -> None:
    """«MK-2» is one word of the name (tokens), matched in any case by the words before it (I-110)."""
    assert "«Опытный образец MK-2»" in _creature("Опытный образец MK-2", text).text


@pytest.mark.parametrize(
    "text",
    [
        "[Закрыть]: ранить Опытный образец MK-3 на 1.",  # another card's name: its words stay words
        "[Закрыть]: ранить Опытный образецц MK-2 на 1.",  # a typo in the name
        "[Закрыть]: ранить механизмм на 1.",  # a typo in a class word
        "[Закрыть]: ранить мехaнизм на 1.",  # a Latin letter in a Cyrillic word
    ],
)
def test_a_latin_name_word_does_not_hide_a_typo(text: str) -> None:
    with pytest.raises(CardTextError):
        _creature("Опытный образец MK-2", text)


@pytest.mark.parametrize(
    ("card", "text"),
    [
        (
            "Опытный образец MK-2",
            "Гибель: ранить героя противника на Х, где Х – количество ран на Опытном образце MK-2.",
        ),
        (
            "Карта",
            "Гибель: ранить каждого персонажа противника на Х, где Х - количество ран на этом существе.",
        ),
        ("Карта", "[Закрыть]: ранить героя противника на Х, где Х — число ран на этом механизме."),
        ("Карта", "Гибель: Ранить каждое существо противника на Х, где Х – количество ран на этой карте."),
    ],
)
def test_x_is_the_wounds_on_this_card(card: str, text: str) -> None:
    from berserk_engine.x_value import THIS_CARD

    effect = _creature(card, text).effect
    assert effect.amount.prop == "wounds" and effect.amount.selector == THIS_CARD


def test_the_wounds_of_this_card_on_a_spell_are_refused() -> None:
    with pytest.raises(CardTextError):  # a spell has no wounds: «этом существе» is a card of another sentence
        parse_card_text(
            "Карта", "Ранить героя противника на Х, где Х – количество ран на этом существе.", spell=True
        )


@pytest.mark.parametrize(
    "text",
    [
        "[Закрыть]: ранить героя противника на Х, где Х – число ран на этого существа.",
        "[Закрыть]: ранить героя противника на Х, где Х – сила удара этом существе.",
    ],
)
def test_this_card_in_the_wrong_case_is_an_error(text: str) -> None:
    with pytest.raises(CardTextError):
        _creature("Карта", text)


@pytest.mark.parametrize(
    "text",
    [
        "Каждый раз, когда наносит Х ран ударом герою, излечите на Х своего героя.",
        "Когда это существо наносит Х ран ударом герою противника: излечите вашего героя на Х.",
        "Когда наносит Х ран ударом герою, ранить на Х выбранное существо.",
    ],
)
def test_x_of_a_strike_at_a_hero_is_the_wounds_dealt(text: str) -> None:
    from berserk_engine.hero_strike import DEALT, HERO_STRUCK

    ability = _creature("Карта", text)
    assert ability.trigger is not None and ability.trigger.event == HERO_STRUCK
    assert ability.effect.amount.prop == DEALT


@pytest.mark.parametrize(
    "text",
    [
        "Когда выбранное существо наносит Х ран ударом герою, возьмите карту.",  # only this card
        "Когда существа наносят Х ран ударом герою, возьмите карту.",  # only this card
        "Когда наносит Х ран ударом существу, возьмите карту.",  # a hero, not a creature
        "Излечите вашего героя на Х.",  # no Х defined
    ],
)
def test_a_strike_at_a_hero_names_this_card_and_a_hero(text: str) -> None:
    with pytest.raises(CardTextError):
        _creature("Карта", text)


@pytest.mark.parametrize(
    "text",
    [
        "Положите выбранное существо в руку владельца. Существа с таким же названием стоят на 2 "
        "[Монета] дороже в "
        "следующий ход противника.",
        "Верните выбранное существо в руку. В следующий ход противника карты с таким же названием "
        "стоят на две "
        "[Монета] дороже.",
    ],
)
def test_cards_of_the_same_name_cost_more_in_the_opponents_next_turn(text: str) -> None:
    from berserk_engine.abilities import effect_nodes
    from berserk_engine.same_name_cost import SameNameDearer

    for printed in (text, render(reading(text, spell=True))):
        (ability,) = parse_card_text("Карта", printed, spell=True)
        (node,) = [n for n in effect_nodes(ability.effect) if isinstance(n, SameNameDearer)]
        assert node.amount == 2 and node.card.mode == "ref" and node.card.slot == 0


@pytest.mark.parametrize(
    "text",
    [
        "Существа с таким же названием стоят на 2 [Монета] дороже в следующий ход "
        "противника.",  # no card before
        "Положите выбранное существо в руку владельца. Гномы с таким же названием стоят на 1 дороже "
        "в следующий ход "
        "противника.",  # cards or creatures, not a class
        "Положите выбранное существо в руку владельца. Существа с таким же названием стоят на Х "
        "дороже в следующий ход "
        "противника.",  # a number
    ],
)
def test_cards_of_the_same_name_need_a_card_named_before(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text, spell=True)


@pytest.mark.parametrize(
    "text", ["Гномы стоят на одну [Монета] дешевле.", "Гномы стоят на одну [Монета] дороже."]
)
def test_one_coin_in_the_feminine(text: str) -> None:
    from berserk_engine.costs import ClassCost

    assert _one(text).effect in (ClassCost("гномы", 1), ClassCost("гномы", -1))


@pytest.mark.parametrize(
    "text",
    [
        "Уничтожьте ваш механизм. Ранить каждое существо противника на Х, где Х – сила удара этого "
        "механизма.",
        "Уничтожьте выбранное существо. Ранить героя противника на Х, где Х — жизни этого существа.",
        "Выберите ваше существо. Ранить всех существ противника на Х, где Х - значение удара этого существа.",
    ],
)
def test_a_characteristic_on_a_spell_is_of_the_card_chosen_before(text: str) -> None:
    """I-113: a spell has no strike — «этого механизма» is the card its text chose before, even a sentence
    before (one ability), read as last known information when it has left play."""
    from berserk_engine.abilities import effect_nodes

    (ability,) = parse_card_text("Карта", text, spell=True)
    (amount,) = [n.amount for n in effect_nodes(ability.effect) if getattr(n, "amount", None) is not None]
    assert amount.prop in ("strike", "life") and amount.selector.mode == "ref" and amount.selector.slot == 0


@pytest.mark.parametrize(
    "text",
    [
        "Выберите существо противника. До начала вашего следующего хода это существо не наносит ран, "
        "а существа "
        "имеют Направленный удар по этому существу.",
        "Выберите существо. Оно не наносит ран, а существа имеют Направленный удар по этому существу "
        "до начала "
        "вашего следующего хода.",
    ],
)
def test_creatures_have_directed_strike_against_the_card_chosen_before(text: str) -> None:
    """I-114: one card, chosen before; both parts until the start of your next turn (I-106)."""
    from berserk_engine.abilities import effect_nodes
    from berserk_engine.directed_at import DirectedAtCard

    for printed in (text, render(reading(text, spell=True))):
        (ability,) = parse_card_text("Карта", printed, spell=True)
        (node,) = [n for n in effect_nodes(ability.effect) if isinstance(n, DirectedAtCard)]
        assert node.target.mode == "ref" and node.target.slot == 0 and node.until == "own_next_turn"


@pytest.mark.parametrize(
    "text",
    [
        "Выберите существо противника. Оно не наносит ран, а гномы имеют Направленный удар по этому "
        "существу до "
        "начала вашего следующего хода.",  # creatures, not a class
        "До начала вашего следующего хода это существо не наносит ран, а существа имеют Направленный "
        "удар по этому "
        "существу.",  # on a spell «этому существу» names a card chosen before it: none is
    ],
)
def test_directed_strike_against_this_card_needs_creatures_and_a_card(text: str) -> None:
    with pytest.raises(CardTextError):
        parse_card_text("Карта", text, spell=True)


@pytest.mark.parametrize(
    ("text", "types"),
    [
        (
            "[Закрыть], Х [Монета]: Х персонажей не могут быть выбраны целью заклинаний и способностей до "
            "конца хода.",
            ("creature", "hero"),
        ),
        (
            "Х [Монета]: Х существ не могут быть выбраны целью заклинаний и способностей до конца хода.",
            ("creature",),
        ),
    ],
)
def test_x_coins_name_x_targets_that_cannot_be_chosen(text: str, types: tuple[str, ...]) -> None:
    """I-115: «Х [Монета]» — Х named with the targets; the targets are no targets of spells and abilities."""
    from berserk_engine.untargetable import Untargetable

    for printed in (text, render(reading(text))):
        ability = _one(printed)
        assert ability.cost is not None and ability.cost.x
        assert isinstance(ability.effect, Untargetable) and ability.effect.until == "end_of_turn"
        assert ability.effect.target.types == types and ability.effect.target.up_to


@pytest.mark.parametrize(
    "text",
    [
        # Х not paid:
        "[Закрыть]: Х персонажей не могут быть выбраны целью заклинаний и способностей до конца хода.",
        "Х [Монета]: возьмите карту.",  # no Х targets
        "Х [Монета]: Х карт не могут быть выбраны целью заклинаний и способностей до конца хода.",  # cards
    ],
)
def test_x_coins_and_x_targets_go_together(text: str) -> None:
    with pytest.raises(CardTextError):
        _one(text)


def test_a_class_on_a_spell_names_the_card_chosen_before_and_on_a_creature_its_own() -> None:
    """I-113: «этого механизма» on a spell of another class is the mechanism chosen before; on a creature
    it is the card itself, which must be of that class."""
    from berserk_engine.cards import CardDef

    spell = CardDef.build(
        "Карта",
        "заклинание",
        cost=2,
        text="Уничтожьте ваш механизм. Ранить всех существ на Х, где Х – сила удара этого механизма.",
        classes="приказ",
    )
    (ability,) = spell.abilities
    assert ability.effect.parts[1].amount.selector.mode == "ref"
    with pytest.raises(CardTextError):
        CardDef.build(
            "Карта",
            "существо",
            cost=2,
            strike=1,
            life=3,
            text="[Закрыть]: ранить героя противника на Х, где Х – сила удара этого механизма.",
            classes="гном",
        )
