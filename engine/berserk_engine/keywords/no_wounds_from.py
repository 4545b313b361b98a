"""«Не получает ран от [текст]»: [текст] deals no wounds to the card, but the card may still be chosen
as a legal target of [текст] (unlike «Защита от заклинаний»).

[текст]: «заклинаний», «выстрелов», «ударов» (``_sources.FROM``). Only a card that ignores every
feature of its targets (Игнорировать особенности) is not stopped by it.
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import _sources, keyword

NO_WOUNDS = keyword(
    __name__,
    "не-получает-ран-от-текст",
    "Не получает ран от [текст]",
    "Не получает ран от {x:From}",
    "static",
    "Не получает ран от заклинаний.",
    regain="distinct",
)
WORDS = {v: k for k, v in _sources.FROM.items()}


@hooks.needs(NO_WOUNDS.term)  # a game where no card can have it never asks
def _no_wounds(game, event) -> tuple[str, str] | None:
    if not game.present(NO_WOUNDS.term):
        return None
    card = game.state.cards[event.target]
    for value in ch.keyword_values(game, card, NO_WOUNDS.term):
        if _sources.wound_from(event, str(value)) and not hooks.ignores(
            game, event.source, "protection", f"{NO_WOUNDS.term}:{value}"
        ):
            return NO_WOUNDS.term, f"Не получает ран от {WORDS[str(value)]}"
    return None


hooks.NO_WOUNDS.append(_no_wounds)
