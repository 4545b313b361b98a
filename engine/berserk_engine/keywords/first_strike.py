"""«Первый удар»: when such a creature fights another, it deals its wounds first, and the other deals
its own only if it survived; two creatures with «Первый удар» fight by the usual rules."""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

FIRST_STRIKE = keyword(__name__, "первый-удар", "Первый удар", "Первый удар", "static", "Первый удар.")


@hooks.needs(FIRST_STRIKE.term)  # a game where no card can have it never asks
def _strikes_first(game, card, other) -> bool:
    return ch.has(game, card, FIRST_STRIKE.term)


hooks.STRIKES_FIRST.append(_strikes_first)
