"""«+Х (–Х) к атаке»: the source of an attack gets +Х (–Х) to the strength of its attack.

The strength of the attack changes, not the strike value of the card (Значение удара): a counter-blow
is not an attack and is not changed. Several such abilities add up (interpretation I-23).
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

BONUS = keyword(
    __name__,
    "плюс-х-минус-х-к-атаке",
    "+Х (–Х) к атаке",
    "{x:Signed} к атаке",
    "static",
    "+1 к атаке.",
    regain="stack",
)


@hooks.needs(BONUS.term)  # a game where no card can have it never asks
def _strength(game, attack, strength: int) -> int:
    s = game.state
    attacker = s.cards.get(attack.attacker) or s.lki.get(attack.attacker)
    if attacker is None or (type(attacker) is not dict and not game.present(BONUS.term)):
        return strength
    return strength + sum(
        int(a.value or 0) for a in ch.abilities_of(game, attacker) if a.keyword == BONUS.term
    )


hooks.ATTACK_STRENGTH.append(_strength)
