"""«Не может выступать защитником.» — a constant ability (Постоянная способность) that forbids naming its
creature as a defender (issue 29, interpretation I-90): when a strike attack is declared on another
character of its controller, the creature is not among the defenders he may name (Назначить защитника,
307.1). It still may attack, be attacked and strike back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.data import serializable

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card

FORM = ("Не может выступать защитником", "Не может выступать защитником.", "I-90")


@dataclass(frozen=True, slots=True)
class CannotDefend:
    """«Не может выступать защитником» (I-90)."""

    words: str = "Не может выступать защитником"


def _has_it(d: Any) -> bool:
    return any(type(a.effect) is CannotDefend for a in d.abilities)


def cannot_defend(game: Game, card: Card) -> bool:
    """Does the card's «Не может выступать защитником» keep it from being named a defender now?"""
    if card.name not in game.defs_with("cannot-defend", _has_it):
        return False
    return any(type(a.effect) is CannotDefend for a in ch.abilities(game, card))


hooks.set_relevant(cannot_defend, lambda game: bool(game.defs_with("cannot-defend", _has_it)))
hooks.CANNOT_DEFEND.append(cannot_defend)

serializable(CannotDefend)
