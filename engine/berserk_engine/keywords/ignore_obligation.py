"""«Игнорировать [особенность, обязывающую атаковать]»: the card may attack as if the ability that
obliges to attack did not work (the glossary's example: «Игнорирует особенности, обязывающие делать
выстрелы»).

The sources give no wording of an ability that obliges to attack; test cards say «Существа противника
атакуют ударом только это существо.» (interpretation I-34): while the card is a legal target of the
attacker, every creature of its opponent that attacks with a strike attacks it — unless the attacker
ignores such abilities (this keyword, or «Игнорирует особенности»).
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword
from berserk_engine.keywords.ignore_features import IGNORE_ALL, ignoring

IGNORE_OBLIGATION = keyword(
    __name__,
    "игнорировать-особенность-обязывающую-атаковать",
    "Игнорирует особенности, обязывающие атаковать",
    "Игнорирует особенности, обязывающие атаковать",
    "static",
    "Игнорирует особенности, обязывающие атаковать.",
)
OBLIGES = "обязывает-атаковать"  # the marker of the obliging ability (not a term of the glossary)


def _obliging(game, card) -> bool:
    return any(a.value == OBLIGES and a.keyword is None for a in ch.abilities(game, card))


def _printed(game) -> frozenset[str]:
    """Names of the cards of this game printed with the obliging ability (it cannot be gained), found
    once per game: the listing of attacks is a hot path."""
    return game.defs_with("obliging", lambda d: any(a.value == OBLIGES for a in d.abilities))


@hooks.needs(when=lambda game: bool(_printed(game)))
def _targets(game, attacker, targets: list[str]) -> list[str]:
    names = _printed(game)
    if not names:
        return targets
    s = game.state
    obliging = [t for t in targets if s.cards[t].name in names and _obliging(game, s.cards[t])]
    if not obliging:
        return targets
    if ignoring(game, attacker, IGNORE_OBLIGATION.term) or ignoring(game, attacker, IGNORE_ALL.term):
        return targets
    return obliging


hooks.ATTACK_TARGETS.append(_targets)
