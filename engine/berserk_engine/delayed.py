"""Отложенные эффекты (519.1): an ability creates an effect that waits for its condition. «Если в
способности не говорится на кого накладываются эти эффекты …, то они накладываются на своего героя.»

Card text: «В конце хода ранить на 2.» — the effect is placed on its controller's hero as a triggered
ability «В конце хода: …» until the end of this turn (interpretation I-46): at the end of the turn it
triggers like any «в конце хода» ability (310.1), and with the turn it is gone (310.2). An effect that
names nobody («ранить на 2») applies to that hero; one that names a card («ранить на 2 героя
противника») applies to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine import characteristics as ch
from berserk_engine.data import serializable
from berserk_engine.state import ContinuousEffect

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem


@dataclass(frozen=True, slots=True)
class Delayed:
    """A delayed effect: ``text`` is the waiting ability placed on the controller's hero."""

    text: str

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        hero = s.players[item.controller].hero
        effect = ContinuousEffect(
            id=s.next_id("e"),
            kind="grant",
            target=hero,
            source=item.source,
            source_name=item.source_name,
            text=self.text,
            until="end_of_turn",
        )
        ch.add_effect(game, effect)
        game.log(
            "delayed",
            f"Отложенный эффект «{self.text}» ждёт своего условия на герое игрока {item.controller}",
            card=hero,
            effect=effect.id,
            rule="519.1",
        )


serializable(Delayed)
