"""«Не может атаковать.» — a constant ability (Постоянная способность) that forbids its creature every
attack (issue 29). An attack is «Выстрел или удар, инициируемый игроком» (glossary «Атака»), so the
creature declares no strike attack, and a shot it would make is not made (interpretation I-82). A
counter-blow is not an attack (glossary «Атака»: «ответный удар не является атакой»): the creature still
strikes back when attacked, and it may still be assigned as a defender.
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

FORM = ("Не может атаковать", "Не может атаковать.", "I-82")  # canonical words, example, interpretation


@dataclass(frozen=True, slots=True)
class CannotAttack:
    """«Не может атаковать» (I-82)."""

    words: str = "Не может атаковать"


def _has_it(d: Any) -> bool:
    return any(type(a.effect) is CannotAttack for a in d.abilities)


def cannot_attack(game: Game, card: Card) -> str | None:
    """Why the card may make no attack now (its «Не может атаковать»), or None."""
    if card.name not in game.defs_with("cannot-attack", _has_it):
        return None
    if any(type(a.effect) is CannotAttack for a in ch.abilities(game, card)):
        return f"«{card.name}» не может атаковать (I-82: атака — выстрел или удар)"
    return None


hooks.set_relevant(cannot_attack, lambda game: bool(game.defs_with("cannot-attack", _has_it)))
hooks.CANNOT_ATTACK.append(cannot_attack)

serializable(CannotAttack)
