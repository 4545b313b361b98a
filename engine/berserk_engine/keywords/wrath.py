"""«Гнев»: a modifier to the attack — «+1 к атаке по существам, которые уже получали раны в этот ход».

A creature «получала раны в этот ход» when wounds were dealt to it this turn (``this_turn.wounded``),
even if they were healed since; wounds of earlier turns do not count; a hero is not a creature.
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

WRATH = keyword(__name__, "гнев", "Гнев", "Гнев", "static", "Гнев.")


@hooks.needs(WRATH.term)  # a game where no card can have it never asks
def _strength(game, attack, strength: int) -> int:
    s = game.state
    attacker = s.cards.get(attack.attacker) or s.lki.get(attack.attacker)
    if type(attacker) is not dict and not game.present(WRATH.term):
        return strength
    if attacker is None or not any(a.keyword == WRATH.term for a in ch.abilities_of(game, attacker)):
        return strength
    target = s.cards.get(attack.target)
    wounded = target.this_turn.wounded if target is not None and target.this_turn else 0
    if target is None or target.definition.type != "creature" or not wounded:
        return strength
    game.log("wrath", f"Гнев: +1 к атаке по «{target.name}»", card=target.id, rule=WRATH.term)
    return strength + 1


hooks.ATTACK_STRENGTH.append(_strength)
