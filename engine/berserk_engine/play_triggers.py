"""Trigger conditions on playing a card (issue 29): «Каждый раз, когда противник разыгрывает карту, …»
(«Когда вы разыгрываете карту») and «Когда становится целью заклинания, …» — the card itself becomes a
target of a spell.

* A card is played from hand (309.1): every card in the game zone waiting for «противник разыгрывает
  карту» triggers when the opponent of its controller plays one (any type), «вы разыгрываете карту» when
  its controller does. The played card itself is no watcher of its own play: it is not yet in the game zone
  when it is played.
* A spell's targets are named when it is played (501.1): the card a spell names as a target becomes its
  target («Цель (атаки, способности)»), and its ability «Когда становится целью заклинания» triggers once
  per spell, when the spell is played (interpretation I-101). As every triggered ability, it is declared
  after the ability being resolved (the spell resolves at once, I-12, 401.6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine.event_types import PlayEvent
from berserk_engine.triggers import Point, listening, live, trigger_kind, watchers

if TYPE_CHECKING:
    from berserk_engine.game import Game

# canonical words of the conditions (the reading renders in them; they read back as the same condition)
ENEMY_PLAYS_FORM = ("Когда противник разыгрывает карту", "Когда противник разыгрывает карту", "309.1")
OWN_PLAYS_FORM = ("Когда вы разыгрываете карту", "Когда вы разыгрываете карту", "309.1")
SPELL_TARGET_FORM = ("Когда становится целью заклинания", "Когда становится целью заклинания", "I-101")


def _card_played(game: Game, ev: PlayEvent, before: list[str] | None) -> tuple[Point, ...]:
    found = watchers(game, CARD_PLAYED)
    return (
        ((f"розыгрыш «{ev.name}» игроком {ev.player}", found, ev.player, ev.card),)
        if found is not None
        else ()
    )


def _spell_targets(game: Game, ev: PlayEvent, before: list[str] | None) -> tuple[Point, ...]:
    s = game.state
    card = s.cards.get(ev.card)
    if card is None or card.zone != "resolving":
        return ()  # not a spell: a creature's or an equipment's targets are its abilities', not a spell's
    named = [t for item in s.queue if item.source == ev.card for t in item.targets if t]
    points = []
    for target in dict.fromkeys(named):  # once per spell, however many of its slots name the card
        if listening(game, SPELL_TARGETED, target) and (src := live(game, target)) is not None:
            points.append((f"«{src[1]}» — цель заклинания «{ev.name}»", (src,), None, target))
    return tuple(points)


CARD_PLAYED = trigger_kind("card_played", (PlayEvent,), _card_played, "игрок разыгрывает карту", "309.1")
SPELL_TARGETED = trigger_kind(
    "spell_targeted",
    (PlayEvent,),
    _spell_targets,
    "эта карта становится целью заклинания",
    "цель-атаки-способности",
)


# «Когда вы разыгрываете заклинание, …», «Каждый раз, когда противник разыгрывает заклинание, …»: a card of
# the type «заклинание» is played from hand (309.1) by the watcher's controller (by his opponent); a
# creature or an equipment played is no such event.


def _spell_played(game: Game, ev: PlayEvent, before: list[str] | None) -> tuple[Point, ...]:
    card = game.state.cards.get(ev.card)
    if card is None or card.definition.type != "spell":
        return ()
    found = watchers(game, SPELL_PLAYED)
    if found is None:
        return ()
    return ((f"розыгрыш заклинания «{ev.name}» игроком {ev.player}", found, ev.player, ev.card),)


SPELL_PLAYED = trigger_kind(
    "spell_played", (PlayEvent,), _spell_played, "игрок разыгрывает заклинание", "309.1"
)
