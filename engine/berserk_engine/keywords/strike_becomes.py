"""«Удар становится равным Х»: the card gets as many +1/−1 modifiers as make its strike equal to Х.

They are ordinary modifiers (one effect of the needed size, computed when it is applied): modifiers
gained later still change the strike, and when an earlier one ends the strike changes with it. Card
text: «удар выбранного существа становится равным 1» (with a duration, or «до конца боя» by default —
interpretation I-22).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from berserk_engine import characteristics as ch
from berserk_engine import selectors
from berserk_engine.data import serializable
from berserk_engine.effects import gain
from berserk_engine.keywords import term

term(__name__, "удар-становится-равным-х")


@dataclass(frozen=True, slots=True)
class StrikeBecomes:
    value: int
    target: Any
    until: str = "leaves_play"

    def run(self, game, item) -> None:
        for card_id in selectors.resolve(game, self.target, item):
            card = game.state.cards[card_id]
            gain(
                game,
                item,
                card_id,
                "strike",
                amount=self.value - ch.strike(game, card, floor=False),
                until=self.until,
            )


serializable(StrikeBecomes)
