"""«Рывок»: the creature may attack and use activated abilities on the turn it was played."""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card

RUSH = keyword(__name__, "рывок", "Рывок", "Рывок", "static", "Рывок.")


@hooks.needs(RUSH.term)  # a game where no card can have it never asks
def _no_weakness(game: Game, card: Card) -> bool:
    return ch.has(game, card, RUSH.term)


hooks.NO_FIRST_TURN_WEAKNESS.append(_no_weakness)
