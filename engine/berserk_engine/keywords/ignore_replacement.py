"""«Игнорировать [замещение]»: the replacement effects of the target card do not affect what the
ignoring card does — «Игнорирует Сведение удара» (the replacement effect of «Сведение удара к Х»)."""

from __future__ import annotations

from berserk_engine import hooks
from berserk_engine.keywords import keyword
from berserk_engine.keywords.ignore_features import ignoring

IGNORE_REPLACEMENT = keyword(
    __name__,
    "игнорировать-замещение",
    "Игнорирует Сведение удара",
    "Игнорирует Сведение удара",
    "static",
    "Игнорирует Сведение удара.",
)


@hooks.needs(IGNORE_REPLACEMENT.term)  # a game where no card can have it never asks
def _ignores(game, source, category: str, detail: str) -> bool:
    return (
        category == "replacement"
        and detail == "сведение-удара-к-х"
        and bool(ignoring(game, source, IGNORE_REPLACEMENT.term))
    )


hooks.IGNORES.append(_ignores)
