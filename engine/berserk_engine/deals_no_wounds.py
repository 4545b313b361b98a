"""«До начала вашего следующего хода оно не наносит ран» (issue 29, interpretation I-106): the card deals no
wounds — no wound of its strike, counter-blow or shot, and none of its abilities — for as long as the effect
lasts (``ContinuousEffect`` kind "no_wounds_dealt"; the wounds it would deal are not dealt at all,
``hooks.NO_WOUNDS``, before any prevention).

The duration «до начала вашего следующего хода» (``until`` "own_next_turn", ``player`` the controller of the
ability) ends when that player's next turn begins; any other printed duration («до конца хода») is the
usual one (310.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import hooks, selectors
from berserk_engine.abilities import Selector
from berserk_engine.data import serializable
from berserk_engine.effects import gain

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

FORM = (
    "{t} не наносит ран{d}",
    "выбранное существо не наносит ран до начала вашего следующего хода",
    "I-106",
)
KIND = "no_wounds_dealt"
UNTIL = "own_next_turn"  # «до начала вашего следующего хода»
UNTIL_WORDS = "до начала вашего следующего хода"
ch.UNTIL_WORDS[UNTIL] = "до начала следующего хода игрока"


@dataclass(frozen=True, slots=True)
class DealsNoWounds:
    """[Цель] не наносит ран [срок]."""

    target: Selector
    until: str = UNTIL

    def run(self, game: Game, item: QueueItem) -> None:
        for card in selectors.resolve(game, self.target, item):
            if self.until == UNTIL:
                gain(game, item, card, KIND, until=UNTIL, player=item.controller)
            else:
                gain(game, item, card, KIND, until=self.until)


def _deals_none(game: Game, ev: Any) -> tuple[str, str] | None:
    if ev.source is None:
        return None
    for e in game.by_card.get(ev.source, ()):
        if e.kind == KIND:
            return "I-106", f"«{ev.source_name or game.name(game.state.cards[ev.source])}» не наносит ран"
    return None


def _turn_begins(game: Game) -> list[Any]:
    """«До начала вашего следующего хода»: the effect ends as its player's turn begins."""
    s = game.state
    ending = [e for e in s.effects if e.until == UNTIL and e.player == s.active]
    if ending:
        s.effects = [e for e in s.effects if e not in ending]
        game.effects_changed()
        for e in ending:
            game.log(
                "effect_ended",
                f"Эффект «{e.source_name}» кончился: начался ход игрока {s.active}",
                rule="I-106",
            )
    return []


hooks.NO_WOUNDS.append(_deals_none)
hooks.RESTORATION.append(_turn_begins)
serializable(DealsNoWounds)
