"""«Усилить отравление на Х»: usable against creatures that are already poisoned — a creature that had
Отравление У gets Отравление Х+У (and loses Отравление У: the keyword replaces the old value).

Card text: «усилить отравление выбранного существа на 1». Interpretation I-35: a creature that is not
poisoned gets Отравление Х.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from berserk_engine import characteristics as ch
from berserk_engine import selectors
from berserk_engine.data import serializable
from berserk_engine.effects import gain
from berserk_engine.keywords import term
from berserk_engine.keywords.poison import POISON

term(__name__, "усилить-отравление-на-х")


@dataclass(frozen=True, slots=True)
class BoostPoison:
    amount: int
    target: Any

    def run(self, game, item) -> None:
        for card_id in selectors.resolve(game, self.target, item):
            card = game.state.cards[card_id]
            had = ch.keyword(game, card, POISON.term)
            before = 0 if had is False or had is True else int(had)
            gain(
                game,
                item,
                card_id,
                "grant",
                text=f"Отравление на {before + self.amount}.",
                until="leaves_play",
            )


serializable(BoostPoison)
