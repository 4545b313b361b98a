"""«Опыт в защите»: the card does not close after it was assigned as a defender."""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card

DEFENCE_EXPERIENCE = keyword(
    __name__, "опыт-в-защите", "Опыт в защите", "Опыт в защите", "static", "Опыт в защите."
)


@hooks.needs(DEFENCE_EXPERIENCE.term)  # a game where no card can have it never asks
def _stays_open(game: Game, card: Card, role: str) -> bool:
    return role == "defend" and ch.has(game, card, DEFENCE_EXPERIENCE.term)


hooks.STAYS_OPEN.append(_stays_open)
