"""Trigger conditions on an attack by a creature of a group (issue 29): «Когда ваше существо атакует, …»,
«Каждый раз, когда ваш эльф атакует, …», «Когда другое ваше существо атакует, …».

«Когда это существо атакует» is the condition «При атаке» (``attacks``, :mod:`berserk_engine.trigger_kinds`:
the term «При атаке (При ударе)» — the card makes its attack). Of a group:

* :data:`CREATURE_ATTACKS` — a creature makes its attack (Атака — a blow or a shot the player initiates; a
  counter-blow is no attack): every card waiting for it, the attacker's controller as the actor («ваше»,
  «противника»), the attacker as the card it is about («другое»);
* :data:`CLASS_ATTACKS` — the same, for a creature of a class
  (:class:`~berserk_engine.class_triggers.ClassTrigger`: each watcher gets only its abilities of the
  attacker's class).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine.class_triggers import of_the_class
from berserk_engine.event_types import BlowEvent
from berserk_engine.triggers import Point, trigger_kind, watchers

if TYPE_CHECKING:
    from berserk_engine.game import Game


def _attacker(game: Game, ev: BlowEvent) -> tuple[str, tuple[str, ...]] | None:
    """The attacking creature's controller and classes, for the blow of an attack (a strike or a shot)."""
    if ev.kind not in ("attack", "shot"):
        return None
    card = game.state.cards.get(ev.card)
    if card is None or card.definition.type != "creature":
        return None
    return card.controller, card.definition.classes


def _creature_attacks(game: Game, ev: BlowEvent, before: list[str] | None) -> tuple[Point, ...]:
    attacker = _attacker(game, ev)
    found = watchers(game, CREATURE_ATTACKS) if attacker is not None else None
    if attacker is None or found is None:
        return ()
    return ((f"атака «{ev.name}»", found, attacker[0], ev.card),)


def _class_attacks(game: Game, ev: BlowEvent, before: list[str] | None) -> tuple[Point, ...]:
    attacker = _attacker(game, ev)
    found = watchers(game, CLASS_ATTACKS) if attacker is not None else None
    if attacker is None or found is None:
        return ()
    return ((f"атака «{ev.name}»", of_the_class(found, attacker[1]), attacker[0], ev.card),)


CREATURE_ATTACKS = trigger_kind(
    "creature_attacks", (BlowEvent,), _creature_attacks, "существо атакует", "при-атаке-при-ударе"
)
CLASS_ATTACKS = trigger_kind(
    "class_attacks", (BlowEvent,), _class_attacks, "существо класса атакует", "при-атаке-при-ударе"
)
