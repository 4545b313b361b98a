"""«Рывок»: the creature may attack and use activated abilities on the turn it was played."""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

RUSH = keyword(__name__, "рывок", "Рывок", "Рывок", "static", "Рывок.")


@hooks.needs(RUSH.term)  # a game where no card can have it never asks
def _no_weakness(game, card) -> bool:
    return ch.has(game, card, RUSH.term)


hooks.NO_FIRST_TURN_WEAKNESS.append(_no_weakness)
