"""«Если карта противника должна стоить дороже, она стоит дополнительно на N [Монета] дороже» (issue 29,
interpretation I-109): a constant ability of a card in the game zone — a card its controller's opponent plays
from hand whose cost the other abilities make higher (203.3: their changes together add to it) costs N more
again; a card whose cost nothing raises, or that the changes make cheaper or leave as printed, costs as
usual, and so do the cards of the ability's controller (``hooks.COST``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.data import serializable

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef
    from berserk_engine.game import Game

FORM = (
    "Если карта противника должна стоить дороже, она стоит дополнительно на {n} [Монета] дороже",
    "Если карта противника должна стоить дороже, она стоит дополнительно на 2 [Монета] дороже",
    "I-109",
)


@dataclass(frozen=True, slots=True)
class CostSurcharge:
    """The constant ability: the opponent's card that should cost more costs ``amount`` more again."""

    amount: int


def _surcharge(game: Game, d: CardDef, player: str) -> int:
    s = game.state
    extra = 0
    for card_id in s.play:
        card = s.cards[card_id]
        if card.controller == player or card.face_down:
            continue
        for ability in ch.abilities(game, card):
            if isinstance(ability.effect, CostSurcharge):
                extra += ability.effect.amount
    if not extra:
        return 0
    raised = sum(h(game, d, player) for h in game.handlers.COST if h is not _surcharge)
    return extra if raised > 0 else 0


def _has(d: CardDef) -> bool:
    return any(isinstance(a.effect, CostSurcharge) for a in d.abilities)


hooks.COST.append(_surcharge)
hooks.set_relevant(_surcharge, lambda game: bool(game.defs_with("cost-surcharge", _has)))
serializable(CostSurcharge)
