"""«Дополнительные жизни»: an effect that raises the level of lives of a card. Wounds dealt to the card
do not remove additional lives; additional lives given to the card do not remove wounds.

Card text: «выбранное существо получает 2 дополнительные жизни» (with a duration, or «до конца боя» by
default — interpretation I-22). «Жизни карты (текущее число жизней)»: the initial lives plus additional
lives minus negative lives and wounds (``characteristics.life`` minus the wound markers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from berserk_engine import selectors
from berserk_engine.data import serializable
from berserk_engine.effects import gain
from berserk_engine.keywords import term

term(__name__, "дополнительные-жизни")
term(__name__, "жизни-карты-текущее-число-жизней")


@dataclass(frozen=True, slots=True)
class ExtraLives:
    amount: int
    target: Any
    until: str = "leaves_play"

    def run(self, game, item) -> None:
        for card_id in selectors.resolve(game, self.target, item):
            gain(game, item, card_id, "life", amount=self.amount, until=self.until)


serializable(ExtraLives)
