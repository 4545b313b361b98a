"""«Теряет особенности»: the text printed on the card itself no longer counts; every effect and ability
acquired during the game stays (``characteristics``: the printed abilities are dropped, the acquired
ones are added after them).

Card text: «выбранное существо теряет особенности до конца хода»; without a duration, «до конца боя»
(interpretation I-22). The properties of the card (strike, lives, cost) are not its text and stay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from berserk_engine import selectors
from berserk_engine.data import serializable
from berserk_engine.effects import gain
from berserk_engine.keywords import term

term(__name__, "теряет-особенности")


@dataclass(frozen=True, slots=True)
class LoseText:
    target: Any
    until: str = "leaves_play"

    def run(self, game, item) -> None:
        for card_id in selectors.resolve(game, self.target, item):
            gain(game, item, card_id, "lose_text", until=self.until)


serializable(LoseText)
