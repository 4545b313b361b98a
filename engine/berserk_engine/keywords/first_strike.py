"""«Первый удар»: when such a creature fights another, it deals its wounds first, and the other deals
its own only if it survived; two creatures with «Первый удар» fight by the usual rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card

FIRST_STRIKE = keyword(__name__, "первый-удар", "Первый удар", "Первый удар", "static", "Первый удар.")


@hooks.needs(FIRST_STRIKE.term)  # a game where no card can have it never asks
def _strikes_first(game: Game, card: Card, other: Card) -> bool:
    return ch.has(game, card, FIRST_STRIKE.term)


hooks.STRIKES_FIRST.append(_strikes_first)
