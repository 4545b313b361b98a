"""«Первая карта каждого противника в его следующий ход стоит на 2 [Монета] дороже» (issue 29,
interpretation I-105): in the opponent's next turn the first card he plays from hand costs N more (203.3: a
cost changed by an ability). The change is an effect that lasts that one turn of his (``ContinuousEffect``
kind "first_card_cost" on his hero, ``until`` "player_turns", as «на один ход противника»), and it concerns
only a card played while he has played none yet that turn (``Player.played_this_turn``): the first card,
whatever its type, paid or free; the cards after it cost as printed (``hooks.COST``).
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
    "Первая карта каждого противника в его следующий ход стоит на {n} [Монета] дороже",
    "Первая карта каждого противника в его следующий ход стоит на 2 [Монета] дороже",
    "I-105",
)
KIND = "first_card_cost"


def for_the_opponents_next_turn(game: Game, item: QueueItem, kind: str, amount: int, text: str) -> str:
    """A cost change that lasts the opponent's next turn: a ``kind`` effect of ``amount`` on his hero
    (``until`` "player_turns", one turn), kept with ``text``; the opponent's name is returned."""
    s = game.state
    player = game.opponent(item.controller)
    s.effects.append(
        ContinuousEffect(
            s.next_id("e"),
            kind,
            s.players[player].hero,
            item.source,
            item.source_name,
            amount=amount,
            text=text,
            until="player_turns",
            player=player,
            turns=1,
        )
    )
    game.effects_changed()
    return player


@dataclass(frozen=True, slots=True)
class FirstCardDearer:
    """The first card the opponent plays in his next turn costs ``amount`` more."""

    amount: int

    def run(self, game: Game, item: QueueItem) -> None:
        words = FORM[0].format(n=self.amount)
        player = for_the_opponents_next_turn(game, item, KIND, self.amount, words)
        game.log(
            "first_card_cost", f"Игрок {player}: {words} («{item.source_name}»)", player=player, rule="I-105"
        )


def _first_card(game: Game, d: CardDef, player: str) -> int:
    s = game.state
    if s.active != player or s.players[player].played_this_turn:
        return 0
    return sum(e.amount for e in s.effects if e.kind == KIND and e.player == player and e.started)


def _dearer(d: CardDef) -> bool:
    from berserk_engine.abilities import effect_nodes

    return any(isinstance(n, FirstCardDearer) for a in d.abilities for n in effect_nodes(a.effect))


hooks.COST.append(_first_card)
hooks.set_relevant(_first_card, lambda game: bool(game.defs_with("first-card-cost", _dearer)))
serializable(FirstCardDearer)
