"""«Каждый игрок берёт карту», «каждый игрок сбрасывает 2 карты», «противник берёт карту» (issue 29,
interpretation I-117): an effect that names who does it — each player, or the opponent of the ability's
controller — instead of «вы».

The part (:class:`~berserk_engine.effects.Draw`, :class:`~berserk_engine.effects.Discard`) is done by each
named player as if he controlled it: he takes cards from his own deck, he chooses which cards of his own hand
to discard (his own pending decision, never the engine's nor the controller's). Each player in turn: the rules
say nothing of the order of one effect's actions by two players, so the active player acts first, then the
other (as interpretation I-44 orders the players' choices of replacements), and the second acts only when
the first has done — his choice made.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from berserk_engine.data import serializable

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

# the canonical words of each form, an example, what it rests on
FORMS = {
    ("each", "draw"): ("каждый игрок берёт {n}", "каждый игрок берёт карту", "I-117"),
    ("each", "discard"): ("каждый игрок сбрасывает {n}", "каждый игрок сбрасывает карту", "I-117"),
    ("enemy", "draw"): ("противник берёт {n}", "противник берёт карту", "I-117"),
}


@dataclass(frozen=True, slots=True)
class PlayersDo:
    """The part done by the players ``who`` names: "each" — the active player, then the other; "enemy" —
    the opponent of the ability's controller."""

    part: Any
    who: str

    def players(self, game: Game, item: QueueItem) -> list[str]:
        if self.who == "enemy":
            return [game.opponent(item.controller)]
        active = game.state.active
        return [active, game.opponent(active)]

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.effects import Resolve

        # each player's own copy of the ability being resolved: «вы» of the part is that player
        game.push(*(Resolve(self.part, replace(item, controller=p)) for p in self.players(game, item)))


serializable(PlayersDo)
