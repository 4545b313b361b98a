"""«Опыт в атаке»: the card does not close after it attacked (it still counts as having acted)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card

ATTACK_EXPERIENCE = keyword(
    __name__, "опыт-в-атаке", "Опыт в атаке", "Опыт в атаке", "static", "Опыт в атаке."
)


@hooks.needs(ATTACK_EXPERIENCE.term)  # a game where no card can have it never asks
def _stays_open(game: Game, card: Card, role: str) -> bool:
    return role == "attack" and ch.has(game, card, ATTACK_EXPERIENCE.term)


hooks.STAYS_OPEN.append(_stays_open)
