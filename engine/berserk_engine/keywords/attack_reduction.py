"""«–X от атаки»: when the strength of an attack on this card is computed, it is reduced by X.

Only attacks on the card (a strike, a fight, a shot): a counter-blow is not an attack. Several such
abilities add up (interpretation I-23); the strength is never below 0.
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword


def _minus(value):
    from berserk_engine.abilities import Ability

    if value is None or value >= 0:
        return None  # «+1 от атаки» is not this keyword
    return Ability("static", "", keyword="минус-х-от-атаки", value=-value)


REDUCTION = keyword(
    __name__,
    "минус-х-от-атаки",
    "–X от атаки",
    "{x:Signed} от атаки",
    "static",
    "–1 от атаки.",
    regain="stack",
    build=_minus,
)


@hooks.needs(REDUCTION.term)  # a game where no card can have it never asks
def _strength(game, attack, strength: int) -> int:
    if not game.present(REDUCTION.term):
        return strength
    target = game.state.cards.get(attack.target)
    if target is None:
        return strength
    return strength - sum(int(v or 0) for v in ch.keyword_values(game, target, REDUCTION.term))


hooks.ATTACK_STRENGTH.append(_strength)
