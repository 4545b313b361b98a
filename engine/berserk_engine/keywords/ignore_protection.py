"""«Игнорировать [защиту]»: [защита] does not apply to the attacks and abilities declared by the
ignoring card — «Игнорирует защиту от заклинаний», «… от выстрелов», «… от ударов» (the protections of
«Защита от [текст]»): a spell that ignores protection from spells may choose such a card as a target,
and its wounds are dealt."""

from __future__ import annotations

from berserk_engine import hooks
from berserk_engine.keywords import _sources, keyword
from berserk_engine.keywords.ignore_features import ignoring

IGNORE_PROTECTION = keyword(
    __name__,
    "игнорировать-защиту",
    "Игнорирует защиту от [текст]",
    "Игнорирует защиту от {x:From}",
    "static",
    "Игнорирует защиту от заклинаний.",
    regain="distinct",
)
assert _sources.FROM


@hooks.needs(IGNORE_PROTECTION.term)  # a game where no card can have it never asks
def _ignores(game, source, category: str, detail: str) -> bool:
    if category != "protection" or not detail.startswith("защита-от-текст:"):
        return False
    return detail.partition(":")[2] in ignoring(game, source, IGNORE_PROTECTION.term)


hooks.IGNORES.append(_ignores)
