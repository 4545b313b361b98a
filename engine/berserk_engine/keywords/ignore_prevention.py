"""«Игнорировать [предотвращение] (целевой карты)»: the effects of this prevention do not apply to
what the ignoring card does to its target. Example of the glossary: «Игнорирует Броню»."""

from __future__ import annotations

from berserk_engine import hooks
from berserk_engine.keywords import keyword
from berserk_engine.keywords.ignore_features import ignoring

IGNORE_ARMOUR = keyword(
    __name__,
    "игнорировать-предотвращение-целевой-карты",
    "Игнорирует Броню",
    "Игнорирует Броню",
    "static",
    "Игнорирует Броню.",
)


@hooks.needs(IGNORE_ARMOUR.term)  # a game where no card can have it never asks
def _ignores(game, source, category: str, detail: str) -> bool:
    return (
        category == "prevention" and detail == "броня-х" and bool(ignoring(game, source, IGNORE_ARMOUR.term))
    )


hooks.IGNORES.append(_ignores)
