"""The preparation stage as far as the glossary describes it: «Раздача» and «Пересдача».

* **Раздача** — «Карты игрока, которые он берёт в подготовительном этапе … После подготовительного
  этапа раздача становится рукой игрока»: a position that starts with ``"start": "preparation"``
  gives each player his deal in his hand;
* **Пересдача** — «игрок возвращает любое количество не понравившихся карт из раздачи обратно в
  колоду. Для этого он кладёт эти карты под низ колоды в любом порядке и добирает в раздачу
  нехватающие карты с верха колоды»: each player in turn (the first player first, interpretation
  I-37) chooses the cards to return (decision ``choose_cards``, 0 to all of them); they go under the
  deck in the order chosen, and he takes as many from the top. Then the first turn begins (303).

The rest of the preparation stage (how the deal is drawn, its size) is not in the sources.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from berserk_engine.choices import ChooseCards
from berserk_engine.events import DrawEvent, MoveEvent, Perform, perform
from berserk_engine.keywords import term
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game

DEAL = term(__name__, "раздача")
MULLIGAN = term(__name__, "пересдача")


@dataclass(slots=True)
class Preparation(Task):
    """The mulligan of each player, the first player first; then the first turn (303)."""

    done: list[str] = field(default_factory=list)

    def run(self, game: Game) -> None:
        from berserk_engine.turn import Restoration

        s = game.state
        order = [s.first_player, game.opponent(s.first_player)]
        player = next((p for p in order if p not in self.done), None)
        if player is None:
            s.phase = "restoration"
            game.push(Restoration())
            return
        self.done.append(player)
        hand = list(s.players[player].zones["hand"])
        game.log("phase", f"Пересдача: игрок {player}", player=player, rule=MULLIGAN)
        game.push(
            ChooseCards(
                player,
                hand,
                0,
                len(hand),
                MULLIGAN,
                f"Игрок {player}: выберите карты раздачи, которые вернуть под низ колоды (в том порядке, "
                "в каком они лягут), или ничего",
                then=Mulligan(player),
            ),
            self,
        )


@dataclass(slots=True)
class Mulligan(Task):
    """The chosen cards go under the deck in the order chosen; the player takes as many from the top."""

    player: str
    cards: list[str] = field(default_factory=list)

    def run(self, game: Game) -> None:
        if not self.cards:
            game.log("mulligan", f"Игрок {self.player} оставляет раздачу", player=self.player, rule=MULLIGAN)
            return
        game.log(
            "mulligan",
            f"Игрок {self.player} возвращает под низ колоды карт: {len(self.cards)}",
            player=self.player,
            count=len(self.cards),
            rule=MULLIGAN,
        )
        back = [MoveEvent(c, "deck", "mulligan", "bottom") for c in self.cards]
        game.push(Perform(back), _Refill(self.player, len(self.cards)))


@dataclass(slots=True)
class _Refill(Task):
    player: str
    count: int

    def run(self, game: Game) -> None:
        perform(game, *(DrawEvent(self.player, reason="пересдача") for _ in range(self.count)))


task(Preparation, Mulligan, _Refill)
