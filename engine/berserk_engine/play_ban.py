"""«Противник не может разыгрывать карты в его следующий ход» (issue 29, interpretation I-102): for the
whole of the opponent's next turn no card can be played from his hand (309.1) — nor played free of its
cost (a free play is a play). The ban is an effect that lasts one turn of that player
(``ContinuousEffect`` kind "no_play" on his hero, ``until`` "player_turns": it starts with his next turn
and ends with it, as «на один ход противника» does); a play it forbids is rejected with I-102 and the game
state left as it was (``hooks.PLAY_RESTRICTIONS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine import hooks
from berserk_engine.data import serializable
from berserk_engine.state import ContinuousEffect

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

FORM = (
    "Противник не может разыгрывать карты в его следующий ход",
    "противник не может разыгрывать карты в его следующий ход",
    "I-102",
)
KIND = "no_play"


@dataclass(frozen=True, slots=True)
class BanPlay:
    """The opponent of the ability's controller cannot play cards during his next turn."""

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        player = game.opponent(item.controller)
        effect = ContinuousEffect(
            s.next_id("e"),
            KIND,
            s.players[player].hero,
            item.source,
            item.source_name,
            text=FORM[0],
            until="player_turns",
            player=player,
            turns=1,
        )
        s.effects.append(effect)
        game.effects_changed()
        game.log(
            "play_banned",
            f"Игрок {player} не может разыгрывать карты в свой следующий ход («{item.source_name}»)",
            player=player,
            rule="I-102",
        )


def _banned(game: Game, player: str, d: CardDef) -> tuple[str, str] | None:
    s = game.state
    for e in s.effects:
        if e.kind == KIND and e.player == player and e.started and s.active == player:
            return "I-102", f"игрок {player} не может разыгрывать карты в этот ход («{e.source_name}»)"
    return None


hooks.PLAY_RESTRICTIONS.append(_banned)
serializable(BanPlay)
