"""Abilities (Способность) as parsed from card text: triggered, activated, spell and static
abilities, their trigger conditions, payments and target slots.

Everything here is immutable data built by :mod:`berserk_engine.grammar`; the same sentence always
parses to the same :class:`Ability`, so the state refers to an ability by its printed sentence.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from berserk_engine.data import serializable


@dataclass(frozen=True, slots=True)
class Selector:
    """Which cards an effect applies to, as the card's words say (Цель, «каждое», «это существо»).

    ``mode``: "chosen" (a target named at the declaration, 501.1 — slot ``slot`` of the Queue item),
    "each" (every matching card on resolution), "self" (the source), "own_hero", "enemy_hero",
    "event" (the card the triggering event was about), "ref" («его», «оно»: the target named last
    before it — slot ``slot``). ``types``: card types ("creature", "hero" …), ``side``: "any" | "own" |
    "enemy" (relative to the ability's controller), ``other``: not the source itself. ``classes``: the
    card must be of one of these classes (lemmas: «эльф», «гном», see :func:`class_lemma`);
    ``condition``: "poisoned" | "wounded" | "unwounded" | "closed" | "open" | "cost<=N" | "name:Название"
    («существо с именем «Название»»).
    ``count``: «двух разных существ» — N targets named at the declaration, all different (N slots
    from ``slot``); ``group``: in the slots of a declaration, the first slot of such a group.
    ``up_to``: «до N существ», «не более N существ» — each of the N slots may be left empty (the player
    names from 0 to N different targets, interpretation I-67).
    """

    mode: str
    words: str = ""
    types: tuple[str, ...] = ("creature",)
    side: str = "any"
    other: bool = False
    slot: int = -1
    classes: tuple[str, ...] = ()
    condition: str = ""
    count: int = 1
    group: int = -1
    up_to: bool = False

    @property
    def chosen(self) -> bool:
        return self.mode == "chosen"


@dataclass(frozen=True, slots=True)
class Amount:
    """A number of wounds or cards: a constant, or a property of the source read on resolution."""

    value: int | None = None
    prop: str | None = None  # "strike" — «значение удара этого существа» (403.1); "count" — «число
    # [карт]» (how many cards ``selector`` finds on resolution); "hand" — cards in the controller's hand
    words: str = ""
    selector: Selector | None = None


@dataclass(frozen=True, slots=True)
class Trigger:
    """The condition of a triggered ability (условие срабатывания).

    ``event``: "enters_play" (Найм), "dies" (Гибель / При гибели — this card goes from the game zone
    to the graveyard), "creature_dies" (any creature), "turn_start", "turn_end", "attacks" (При
    атаке), "strikes" (При ударе), "attacked" (an attack on this card is declared), "played" (this
    card is played from hand), "wounded" (wounds are dealt to it), "healed" (wounds are removed from
    it), "discards" (a card is discarded), "draws" (a card is drawn), "spell_resolved" (a spell's
    ability has been resolved, 119.8). ``zones``: where the source must be for it to trigger (202.2:
    the game zone unless the card says otherwise). ``player``: whose deed the event must be, relative
    to the ability's controller — "own" («вы сбрасываете»), "enemy» («противник сбрасывает») or "any".
    The kinds of trigger conditions are registered in :mod:`berserk_engine.triggers` (``KINDS``), each
    beside its phrases. ``other``: not when the event is about the source itself («другое ваше
    существо»); ``next_turn``: only the first of its controller's turns after the source entered the
    game zone («В начале вашего следующего хода», interpretation I-61).
    """

    event: str
    own_turn_only: bool = False
    zones: tuple[str, ...] = ("play",)
    player: str = "any"
    other: bool = False
    next_turn: bool = False


@dataclass(frozen=True, slots=True)
class Cost:
    """What is written before the colon of an activated ability, and the «Х раз за ход» limit (501.2)."""

    close: bool = False  # [Закрыть]
    coins: int = 0  # N [Монета]
    per_turn: int | None = None  # «Один раз за ход», «X раза за ход»
    wounds: int = 0  # «раниться на N»: the card takes N wounds as payment
    x: bool = False  # «Х [Монета]»: Х more coins, Х named by the targets of the declaration (cost_x; I-115)

    def __add__(self, other: Cost) -> Cost:
        return Cost(
            close=self.close or other.close,
            coins=self.coins + other.coins,
            per_turn=other.per_turn if other.per_turn is not None else self.per_turn,
            wounds=self.wounds + other.wounds,
            x=self.x or other.x,
        )


@dataclass(frozen=True, slots=True)
class Ability:
    """One ability of a card. ``kind``: "triggered" | "activated" | "spell" | "static".

    ``keyword`` is the glossary term id of a keyword ability («броня-х», «первый-удар» …) and ``value``
    its Х. ``effect`` is an effect node of :mod:`berserk_engine.effects` (None for pure keywords).
    """

    kind: str
    text: str
    effect: Any = None
    trigger: Trigger | None = None
    cost: Cost | None = None
    optional: bool = False
    keyword: str | None = None
    value: int | str | None = None
    slots: tuple[Selector, ...] = ()  # the chosen targets, in slot order (named at the declaration, 501.1)


def _walk(value: Any):
    if isinstance(value, Selector):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _walk(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _walk(getattr(value, f.name))


def selectors_of(value: Any) -> list[Selector]:
    """Every selector of an effect tree (chosen targets, «каждое», «своего героя» …)."""
    return list(_walk(value))


def effect_nodes(value: Any):
    """Every effect node of an effect tree (a node is a dataclass that is not a Selector/Amount)."""
    if isinstance(value, tuple):
        for v in value:
            yield from effect_nodes(v)
    elif (
        dataclasses.is_dataclass(value)
        and not isinstance(value, type)
        and not isinstance(value, (Selector, Amount))
    ):
        yield value
        for f in dataclasses.fields(value):
            yield from effect_nodes(getattr(value, f.name))


def looks_at_declaration(ability: Ability) -> Any:
    """The effect node whose declaration includes looking through the deck (517.3.1: «Просмотр колоды
    на предмет наличия там вызываемой карты осуществляется как часть заявки вызова»), or None."""
    if ability.effect is None:
        return None
    return next((n for n in effect_nodes(ability.effect) if getattr(n, "declaration_look", False)), None)


def target_slots(effect: Any) -> tuple[Selector, ...]:
    """The chosen targets of an effect tree, in slot order (a selector of N different targets is N
    slots of one group; «до N …» — N slots of one group, each ``up_to``: it may stay empty)."""
    if effect is None:
        return ()
    found: list[Selector] = []
    for sel in sorted((s for s in _walk(effect) if s.chosen), key=lambda s: s.slot):
        if sel.count == 1:
            found.append(sel)
        else:
            found.extend(
                dataclasses.replace(sel, slot=sel.slot + i, count=1, group=sel.slot) for i in range(sel.count)
            )
    return tuple(found)


def class_lemma(words: str) -> str:
    """A creature class as the card list prints it or a text names it, in any case or number («эльф»,
    «эльфа», «эльфов»; «гномы», «гномов»; «стражей леса») → one key to compare: its lemma («эльф»,
    «гном», «страж леса»; :func:`berserk_engine.language.morphology.class_lemma`, interpretation I-70)."""
    from berserk_engine.language.morphology import class_lemma as lemma

    return lemma(words)


def same_class(printed: str, named: str) -> bool:
    """Does a word of a card's text (``named``, any case and number: «феи», «фей», «гномами»,
    «нежитью») name the class printed on a creature (``printed``: as printed, «фея», or its lemma)? Both
    come to their lemma and the lemmas are compared — never a common piece of both («гн» of «гном» and
    «гнев»); interpretation I-69."""
    return printed == named or class_lemma(printed) == class_lemma(named)


def number_slots(value: Any, counter: list[int] | None = None) -> Any:
    """A copy of an effect tree whose chosen selectors are numbered 0, 1, … in reading order; «его»,
    «оно» take the slot of the target named last before them."""
    counter = counter if counter is not None else [0, 0]
    if isinstance(value, Selector):
        if value.chosen:
            counter[0] += value.count
            counter[1] = value.count  # the group named last: «каждое из них» (I-91)
            return dataclasses.replace(value, slot=counter[0] - value.count)
        if value.mode == "ref" and value.count == 0:  # «каждое из них»: all of the group named last
            if not counter[1]:  # no group named before it: an error of the text (or the sentence before)
                return dataclasses.replace(value, slot=-1)
            return dataclasses.replace(value, slot=counter[0] - counter[1], count=counter[1])
        if value.mode == "ref":
            return dataclasses.replace(value, slot=counter[0] - 1)
        return value
    if isinstance(value, tuple):
        return tuple(number_slots(v, counter) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: number_slots(getattr(value, f.name), counter) for f in dataclasses.fields(value)}
        return dataclasses.replace(value, **changes)
    return value


serializable(Selector, Amount, Trigger, Cost, Ability)
