"""Trigger conditions on a creature of a class (issue 29): «Когда ваш гном погибает, …», «Каждый раз, когда
эльф противника вступает в игру, …», «Когда другой ваш гном вступает в игру, …».

A class of a creature is printed on its card (interpretation I-56: «ваш эльф» chooses by class). The
condition is the one of any creature of the group («Когда ваше существо погибает» — ``creature_dies``,
«… вступает в игру» — ``creature_enters``), narrowed to the creatures of the class:

* :class:`ClassTrigger` — a :class:`~berserk_engine.abilities.Trigger` with ``classes``: the class words of
  the text (their lemmas, :func:`berserk_engine.abilities.class_lemma`); its events are :data:`CLASS_DIES` and
  :data:`CLASS_ENTERS`, whose finders hand each watcher only the abilities whose class the creature has. Who
  (``player``: «ваш», «противника») and «другой» are checked as for every trigger
  (:func:`berserk_engine.triggers._fire`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine.abilities import Trigger
from berserk_engine.data import serializable
from berserk_engine.event_types import MoveEvent
from berserk_engine.selectors import of_class
from berserk_engine.triggers import Point, Source, trigger_kind, waiting_for, watchers

if TYPE_CHECKING:
    from berserk_engine.game import Game


@dataclass(frozen=True, slots=True)
class ClassTrigger(Trigger):
    """A trigger condition on a creature of one of ``classes`` («ваш гном погибает»)."""

    classes: tuple[str, ...] = ()


def of_the_class(sources: Iterable[Source], classes: tuple[str, ...]) -> Iterator[Source]:
    """The watchers, each with only those of its abilities on a creature of these classes."""
    for source_id, name, controller, abilities, lki in sources:
        kept = tuple(
            a
            for a in abilities
            if not isinstance(a.trigger, ClassTrigger) or of_class(classes, a.trigger.classes)
        )
        if kept:
            yield source_id, name, controller, kept, lki


def _class_died(game: Game, ev: MoveEvent, before: list[str] | None) -> tuple[Point, ...]:
    if ev.from_zone != "play" or ev.to_zone != "graveyard" or ev.card_type != "creature":
        return ()
    s = game.state
    present = [c for c in (before if before is not None else s.play) if c != ev.card]
    witnesses = of_the_class(waiting_for(game, CLASS_DIES, present), game.defs[ev.name].classes)
    return ((f"гибель «{ev.name}»", witnesses, ev.lki.get("controller"), ev.card),)


def _class_entered(game: Game, ev: MoveEvent, before: list[str] | None) -> tuple[Point, ...]:
    if ev.to_zone != "play" or ev.card_type != "creature":
        return ()
    found = watchers(game, CLASS_ENTERS)
    if found is None:
        return ()
    card = game.state.cards.get(ev.new_id)
    actor = card.controller if card is not None else None
    witnesses = of_the_class(found, game.defs[ev.name].classes)
    return ((f"в игру входит «{ev.name}»", witnesses, actor, ev.new_id),)


CLASS_DIES = trigger_kind(
    "class_dies", (MoveEvent,), _class_died, "погибает существо класса", "погибнуть-погибает"
)
CLASS_ENTERS = trigger_kind(
    "class_enters", (MoveEvent,), _class_entered, "существо класса входит в игру", "срабатывающая-способность"
)

serializable(ClassTrigger)
