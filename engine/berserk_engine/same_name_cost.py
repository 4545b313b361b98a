"""«Существа с таким же названием стоят на 2 [Монета] дороже в следующий ход противника» (issue 29,
interpretation I-112): after a sentence that names a card («Положите выбранное существо в руку владельца»),
the cards with that card's name cost N more when the opponent plays them in his next turn (203.3: a cost
changed by an ability).

The name is the card's as it was when the effect resolves, or its last known information (403.1) when it has
left the game zone since (it went to a hand, a deck, the graveyard). The change is an effect that lasts the
opponent's next turn (``ContinuousEffect`` kind "same_name_cost" on his hero, ``until`` "player_turns",
``text`` the name) and concerns every card of that name he plays then, of any type, each of them (not only the
first); the controller's own cards and cards of other names cost as printed (``hooks.COST``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine import hooks
from berserk_engine.abilities import Selector
from berserk_engine.data import serializable
from berserk_engine.next_turn_cost import for_the_opponents_next_turn

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

FORM = (
    "{kind} с таким же названием стоят на {n} [Монета] дороже в следующий ход противника",
    "Существа с таким же названием стоят на 2 [Монета] дороже в следующий ход противника",
    "I-112",
)
KIND = "same_name_cost"


@dataclass(frozen=True, slots=True)
class SameNameDearer:
    """The cards named as ``card`` (the card named last before it in the same ability, a reference) cost
    ``amount`` more in the opponent's next turn."""

    amount: int
    card: Selector

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        slot = self.card.slot
        named = item.targets[slot] if 0 <= slot < len(item.targets) else None
        if not named:  # the target was left empty or is gone with no trace: nothing to name
            return
        known = s.cards.get(named)
        name = s.lki.get(named, {}).get("name") if known is None else known.name
        if not name:
            return
        player = for_the_opponents_next_turn(game, item, KIND, self.amount, name)
        game.log(
            KIND,
            f"Игрок {player}: карты «{name}» стоят на {self.amount} [Монета] дороже в его следующий ход "
            f"(«{item.source_name}»)",
            player=player,
            rule="I-112",
        )


def _same_name(game: Game, d: CardDef, player: str) -> int:
    s = game.state
    if s.active != player:
        return 0
    return sum(
        e.amount
        for e in s.effects
        if e.kind == KIND and e.player == player and e.started and e.text == d.name
    )


def _dearer(d: CardDef) -> bool:
    from berserk_engine.abilities import effect_nodes

    return any(isinstance(n, SameNameDearer) for a in d.abilities for n in effect_nodes(a.effect))


hooks.COST.append(_same_name)
hooks.set_relevant(_same_name, lambda game: bool(game.defs_with("same-name-cost", _dearer)))
serializable(SameNameDearer)
