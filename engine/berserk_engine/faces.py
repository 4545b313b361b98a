"""Вскрытие карты: «Переворот карты рубашкой вниз (лицевой стороной вверх)» — a card lying face down
in the game zone is turned face up, and both players see what it is (observation shows a face-down
card only as a card to the player who does not control it). The opposite turn («рубашкой вверх»,
«Скрытность») is the same event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine import selectors
from berserk_engine.abilities import Selector
from berserk_engine.data import serializable
from berserk_engine.events import APPLY, perform
from berserk_engine.keywords import term

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

term(__name__, "вскрытие-карты")


@dataclass(slots=True)
class FlipEvent:
    """A card in the game zone turns face up (``face_down`` False: Вскрытие карты) or face down."""

    card: str
    face_down: bool = False
    applied: tuple[str, ...] = ()


def apply_flip(game: Game, ev: FlipEvent) -> bool:
    card = game.state.cards.get(ev.card)
    if card is None or card.zone != "play" or card.face_down == ev.face_down:
        return False
    card.face_down = ev.face_down
    game.zones_changed()
    if ev.face_down:
        game.log(
            "face_down",
            f"«{card.name}» переворачивается рубашкой вверх",
            card=card.id,
            private_to=card.controller,
        )
    else:
        game.log(
            "face_up",
            f"Вскрытие карты: «{card.name}» лицевой стороной вверх",
            card=card.id,
            rule="вскрытие-карты",
        )
    return True


APPLY[FlipEvent] = apply_flip


@dataclass(frozen=True, slots=True)
class Flip:
    """Переверните [цель] лицевой стороной вверх (рубашкой вверх)."""

    target: Selector
    face_down: bool = False

    def run(self, game: Game, item: QueueItem) -> None:
        targets = selectors.resolve(game, self.target, item)
        if targets:
            perform(game, *(FlipEvent(t, self.face_down) for t in targets))


serializable(FlipEvent, Flip)
