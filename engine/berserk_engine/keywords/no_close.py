"""«Не закрывается после атаки (не закрывается, выступая защитником)»: the card does not close after it
declared a strike attack (after it became a defender), although it should pay for that by closing;
it still counts as having acted (``combat.closing_payment``).

The two sentences are one keyword with two forms (its value: "attack" or "defend"); a card may have
both. They say what «Опыт в атаке» and «Опыт в защите» say.
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

NO_CLOSE = keyword(
    __name__,
    "не-закрывается-после-атаки-не-закрывается-выступая-защитником",
    "Не закрывается после атаки (не закрывается, выступая защитником)",
    "Не закрывается{x:NoCloseRole}",
    "static",
    "Не закрывается, выступая защитником.",
    regain="distinct",
)


@hooks.needs(NO_CLOSE.term)  # a game where no card can have it never asks
def _stays_open(game, card, role: str) -> bool:
    return game.present(NO_CLOSE.term) and role in ch.keyword_values(game, card, NO_CLOSE.term)


hooks.STAYS_OPEN.append(_stays_open)
