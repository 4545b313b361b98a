"""«Защита от [текст]»: a constant ability that makes a replacement effect — the card does not get
wounds from [текст] (the wounds are replaced by nothing). Exception, «защита от заклинаний»: the player
controlling the abilities of a spell cannot choose the card as a target.

[текст]: «заклинаний», «выстрелов», «ударов» (``_sources.FROM``). Interpretation I-26: protection from
spells also keeps off the wounds of a spell that does not choose targets. A card that ignores this
protection (Игнорировать [защиту], Игнорировать особенности) is not stopped by it.
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.events import Replacement, WoundEvent
from berserk_engine.keywords import _sources, keyword

PROTECTION = keyword(
    __name__,
    "защита-от-текст",
    "Защита от [текст]",
    "Защита от {x:From}",
    "static",
    "Защита от выстрелов.",
    regain="distinct",
)
WORDS = {v: k for k, v in _sources.FROM.items()}


def _no_wounds(game, event) -> list[WoundEvent]:
    return []


@hooks.needs(PROTECTION.term)
def _replacements(game, event) -> list[Replacement]:
    if type(event) is not WoundEvent or not game.present(PROTECTION.term):
        return []
    card = game.state.cards.get(event.target)
    if card is None or card.zone != "play":
        return []
    found = []
    for value in ch.keyword_values(game, card, PROTECTION.term):
        if not _sources.wound_from(event, str(value)):
            continue
        if hooks.ignores(game, event.source, "protection", f"{PROTECTION.term}:{value}"):
            continue
        found.append(
            Replacement(
                f"защита:{card.id}:{value}",
                card.controller,
                f"«{card.name}»: Защита от {WORDS[str(value)]} — ран нет",
                _no_wounds,
            )
        )
    return found


@hooks.needs(PROTECTION.term)
def _untargetable(game, card, chooser: str, kind: str, source: str, ability) -> bool:
    if (
        kind != "spell"
        or not game.present(PROTECTION.term)
        or "spell" not in ch.keyword_values(game, card, PROTECTION.term)
    ):
        return False
    return not hooks.ignores(game, source, "protection", f"{PROTECTION.term}:spell")


hooks.REPLACEMENTS.append(_replacements)
hooks.UNTARGETABLE.append(_untargetable)
