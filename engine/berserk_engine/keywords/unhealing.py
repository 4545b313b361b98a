"""«Незаживающие раны»: a card with unhealing wounds cannot be healed (neither «Излечить на X» nor
«Полностью излечить», «Регенерация» included)."""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

UNHEALING = keyword(
    __name__, "незаживающие-раны", "Незаживающие раны", "Незаживающие раны", "static", "Незаживающие раны."
)


@hooks.needs(UNHEALING.term)  # a game where no card can have it never asks
def _blocked(game, event) -> bool:
    return ch.has(game, game.state.cards[event.target], UNHEALING.term)


hooks.HEAL_BLOCKED.append(_blocked)
