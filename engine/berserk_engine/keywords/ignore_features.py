"""«Игнорировать особенности [карт]»: ignore every protection, every triggered ability, every
prevention, every replacement of the targeted cards, and the abilities of cards that oblige to attack.
Only abilities that are features of cards (their text, printed or acquired) are ignored.

The targeted cards are the ones the ignoring card attacks or chooses as a target of its ability
(interpretation I-33)."""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

IGNORE_ALL = keyword(
    __name__,
    "игнорировать-особенности-карт",
    "Игнорирует особенности",
    "Игнорирует особенности",
    "static",
    "Игнорирует особенности.",
)


def ignoring(game, source, term: str) -> list:
    """The values of the keyword ``term`` on the source (a card, or its last known information)."""
    return [a.value for a in ch.abilities_of(game, source) if a.keyword == term]


@hooks.needs(IGNORE_ALL.term)  # a game where no card can have it never asks
def _ignores(game, source, category: str, detail: str) -> bool:
    return bool(ignoring(game, source, IGNORE_ALL.term))


hooks.IGNORES.append(_ignores)
