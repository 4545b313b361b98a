"""Экипировка and its subtypes: a player may have several equipment cards under his control, but only
of different subtypes — only one «Амулет», one «Броня», one «Оружие» in the game.

Interpretation I-28: a card that would break this cannot be played (the play is rejected citing the
subtype's term); the equipment already in play stays."""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine import hooks
from berserk_engine.cards import SUBTYPE_WORDS
from berserk_engine.keywords import term

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef
    from berserk_engine.game import Game

EQUIPMENT = term(__name__, "экипировка")
SUBTYPE_TERMS = {
    "amulet": term(__name__, "амулет"),
    "armour": term(__name__, "броня"),
    "weapon": term(__name__, "оружие"),
}
ONE = {"amulet": "один амулет", "armour": "одна броня", "weapon": "одно оружие"}


@hooks.for_types("equipment")
def _restriction(game: Game, player: str, d: CardDef) -> tuple[str, str] | None:
    if d.type != "equipment" or d.subtype is None:
        return None
    cards = game.state.cards
    for card_id in game.in_play().squads[player].equipment:
        card = cards[card_id]
        other = card.definition
        if other.subtype == d.subtype:
            return (
                SUBTYPE_TERMS[d.subtype],
                f"у игрока может быть только {ONE[d.subtype]} в игре: уже есть «{card.name}» "
                f"({SUBTYPE_WORDS[d.subtype]})",
            )
    return None


hooks.PLAY_RESTRICTIONS.append(_restriction)
