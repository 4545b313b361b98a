"""«Один (Х) раз за ход» — the phrase that lets a creature attack with a strike more than once a turn:
«Может атаковать ударом 2 раза за ход.» (the same key phrase limits abilities: the payments «Один раз
за ход», «Х раза за ход» of ``phrases``; its special markers are ``Card.uses``).

Without it a creature makes one strike attack a turn (interpretation I-14).
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

TIMES = keyword(
    __name__,
    "один-х-раз-за-ход",
    "Может атаковать ударом Х раза за ход",
    "Может атаковать ударом {x:Num} раза за ход",
    "static",
    "Может атаковать ударом 2 раза за ход.",
)


@hooks.needs(TIMES.term)  # a game where no card can have it never asks
def _attacks(game, card) -> int:
    if not game.present(TIMES.term):
        return 1
    value = ch.keyword(game, card, TIMES.term)
    return 1 if value is False or value is True else int(value)


hooks.ATTACKS_PER_TURN.append(_attacks)
