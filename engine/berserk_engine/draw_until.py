"""«Берите карты, пока в вашей руке не будет столько же карт, сколько у противника» (issue 29, interpretation
I-107): the controller takes cards from his deck one by one (возьмите карту, 518.3) until his hand holds as
many cards as the opponent's, or his deck is empty; with as many or more cards already, he takes none.

«…, где Х – количество карт, взятых таким образом» in the same ability (the next sentence of the text reads
with it as one ability) is the number of cards that effect took: the effect writes it on the ability being
resolved (``QueueItem.event["drawn_thus"]``), the Х reads it (``Amount.prop`` "drawn_thus").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine.data import serializable
from berserk_engine.events import DrawEvent, perform

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

FORM = (
    "берите карты, пока в вашей руке не будет столько же карт, сколько у противника",
    "берите карты, пока в вашей руке не будет столько же карт, сколько у противника",
    "I-107",
)
THUS = "drawn_thus"  # the key of the count on the ability being resolved, and the Amount's prop


@dataclass(frozen=True, slots=True)
class DrawUntil:
    """Take cards until the hand holds as many as the opponent's."""

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        me, them = s.players[item.controller], s.players[game.opponent(item.controller)]
        wanted = max(0, len(them.zones["hand"]) - len(me.zones["hand"]))
        taken = min(wanted, len(me.zones["deck"]))
        item.event[THUS] = item.event.get(THUS, 0) + taken
        if taken:
            perform(game, *(DrawEvent(item.controller, reason=item.text) for _ in range(taken)))


serializable(DrawUntil)
