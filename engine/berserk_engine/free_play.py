"""«Бесплатно разыграйте существо стоимостью 2 или меньше с руки», «вы можете бесплатно разыграть гнома с
вашего кладбища»: playing a card without paying its cost — the words of «Авангард Х» («вы можете бесплатно
разыграть существо с руки со стоимостью Х») as a printed effect of its own.

Interpretation I-64: the player chooses the card among those of his hand (his graveyard) that fit and may
be played now (one event, one piece of equipment of a subtype …, ``hooks.PLAY_RESTRICTIONS``) when the
effect resolves — cards outside the game zone are not targets; nothing fits, nothing happens (518.1).
The card is played: it enters the game zone under his control (517.2) with no coin paid, and «Когда вы
разыгрываете эту карту» triggers as for any card played; from the graveyard it is played as well, not
resurrected.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from berserk_engine.choices import ChooseCards
from berserk_engine.data import serializable
from berserk_engine.events import MoveEvent, Perform, PlayEvent, perform
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

_PLACES = {"hand": "с руки", "graveyard": "с вашего кладбища"}


@dataclass(frozen=True, slots=True)
class FreePlay:
    wanted: Any  # card_filter.Wanted
    zone: str = "hand"  # "hand" | "graveyard"

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        player = item.controller
        found = [
            c
            for c in s.players[player].zones[self.zone]
            if self.wanted.fits(game, c)
            and not any(h(game, player, s.cards[c].definition) for h in game.handlers.PLAY_RESTRICTIONS)
        ]
        if not found:
            game.log(
                "free_play_none",
                f"Бесплатно разыграть нечего: {self.wanted.words} {_PLACES[self.zone]}",
                player=player,
                rule="518.1",
            )
            return
        game.push(
            ChooseCards(
                player,
                found,
                1,
                1,
                "309.1",
                f"Игрок {player}: выберите карту {_PLACES[self.zone]} — разыграть её бесплатно "
                f"({self.wanted.words})",
                then=FreePlayChosen(player),
            )
        )


@dataclass(slots=True)
class FreePlayChosen(Task):
    player: str
    cards: list[str] = field(default_factory=list)

    def run(self, game: Game) -> None:
        card = game.state.cards[self.cards[0]]
        game.log(
            "play",
            f"Игрок {self.player} бесплатно разыгрывает «{card.name}»",
            card=card.id,
            player=self.player,
            rule="309.1",
        )
        game.push(
            Perform([MoveEvent(card.id, "play", "play", controller=self.player)]),
            FreePlayDone(self.player, card.serial),
        )


@dataclass(slots=True)
class FreePlayDone(Task):
    """The card played is in the game zone: it was played (309.2, «Когда вы разыгрываете эту карту»)."""

    player: str
    serial: int

    def run(self, game: Game) -> None:
        game.state.players[self.player].played_this_turn += 1  # a free play is a play (I-105)
        card = next((c for c in game.state.cards.values() if c.serial == self.serial), None)
        if card is not None and card.zone == "play":
            perform(game, PlayEvent(card.id, self.player, card.name))


serializable(FreePlay)
task(FreePlayChosen, FreePlayDone)
