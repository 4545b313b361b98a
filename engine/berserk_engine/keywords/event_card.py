"""«Событие»: a player may have only one event in the game.

Interpretation I-28: a second event cannot be played while the first one is in the game zone under
the player's control (the play is rejected); the first stays."""

from __future__ import annotations

from berserk_engine import hooks
from berserk_engine.keywords import term

EVENT = term(__name__, "событие")


@hooks.for_types("event")
def _restriction(game, player: str, d) -> tuple[str, str] | None:
    if d.type != "event":
        return None
    s = game.state
    for card_id in s.play:
        card = s.cards[card_id]
        if card.controller == player and card.definition.type == "event":
            return EVENT, f"у игрока может быть только одно событие в игре: уже есть «{card.name}»"
    return None


hooks.PLAY_RESTRICTIONS.append(_restriction)
