"""«Противник может [X]; иначе [Y]» (issue 29): the opponent decides whether to do X; Y happens when he
refuses or cannot do X in full. Our rules do not define «иначе»; a later edition's glossary does («Иначе»:
the ability goes on to Y only if the player doing X refused, or cannot fully do X without replacement
effects; being unable to do X leads to Y at once) — interpretation I-86, citing that text. When the
opponent does X, Y does not happen.

X is one of the deeds the engine can tell done in full beforehand: «сбросить карту» («сбросить N карт»)
— he has that many cards in hand; «заплатить N [Монета]» — he has that many open coins (paying closes
them); «заплатить стоимость выбранного существа» — as many open coins as that card's cost (its minimal
cost, I-36), read on resolution: a card no longer in play has no cost to pay, so «иначе» follows (I-92).
The opponent's decision is a pending decision (``choose``: «да» / «нет»); the engine never takes it
for him, and asks nothing when he cannot do X.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine.abilities import Selector
from berserk_engine.choices import Choose
from berserk_engine.data import serializable
from berserk_engine.effects import Resolve
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

# the canonical words of the construction: form, example, the interpretation it rests on
FORM = (
    "противник может {deed}; иначе {otherwise}",
    "противник может сбросить карту; иначе возьмите карту",
    "I-86",
)


@dataclass(frozen=True, slots=True)
class Pay:
    """The opponent pays N coins: N of his open coins close."""

    count: int

    def run(self, game: Game, item: QueueItem) -> None:
        player = game.state.players[game.opponent(item.controller)]
        paid = min(self.count, player.coins_open)
        player.coins_open -= paid
        player.coins_closed += paid
        game.log("pay", f"Игрок {game.opponent(item.controller)} платит {paid} [Монета]", rule="I-86")


@dataclass(frozen=True, slots=True)
class PayCost:
    """The opponent pays the cost of a card — «заплатить стоимость выбранного существа» (I-92): as many of
    his open coins close as the card's minimal cost (I-36) when the ability resolves."""

    target: Selector

    def price(self, game: Game, item: QueueItem) -> int | None:
        """The card's cost now, or None when the card is no longer in play."""
        from berserk_engine import selectors

        found = selectors.resolve(game, self.target, item)
        return game.defs[game.state.cards[found[0]].name].cost if found else None

    def run(self, game: Game, item: QueueItem) -> None:
        Pay(self.price(game, item) or 0).run(game, item)


@dataclass(frozen=True, slots=True)
class OpponentMay:
    """«Противник может [deed]; иначе [otherwise]» (I-86): ``deed`` an ``effects.Discard`` (opponent=True)
    or a :class:`Pay`."""

    deed: Any
    otherwise: Any
    words: str

    def run(self, game: Game, item: QueueItem) -> None:
        opponent = game.opponent(item.controller)
        if not able(game, self.deed, opponent, item):
            game.log(
                "otherwise",
                f"Игрок {opponent} не может {self.words} — выполняется часть после «иначе»",
                player=opponent,
                rule="I-86",
            )
            game.push(Resolve(self.otherwise, item))
            return
        game.push(
            Choose(
                opponent,
                [["да", self.words], ["нет", f"не {self.words}"]],
                "I-86",
                f"Игрок {opponent}: «{item.source_name}» — вы можете {self.words}; "
                "иначе выполнится остальное. Делать?",
                Answered(self, item),
            )
        )


def able(game: Game, deed: Any, player: str, item: QueueItem) -> bool:
    """Can the player do the deed in full (cards in hand, open coins)?"""
    p = game.state.players[player]
    if isinstance(deed, Pay):
        return p.coins_open >= deed.count
    if isinstance(deed, PayCost):
        price = deed.price(game, item)
        return price is not None and p.coins_open >= price
    return len(p.zones["hand"]) >= deed.count


@dataclass(slots=True)
class Answered(Task):
    """The opponent's answer to :class:`OpponentMay`."""

    node: OpponentMay
    item: QueueItem
    choice: str = ""

    def run(self, game: Game) -> None:
        opponent = game.opponent(self.item.controller)
        done = self.choice == "да"
        game.log(
            "otherwise",
            f"Игрок {opponent} " + ("делает" if done else "отказывается") + f": {self.node.words}",
            player=opponent,
            rule="I-86",
        )
        game.push(Resolve(self.node.deed if done else self.node.otherwise, self.item))


serializable(Pay, PayCost, OpponentMay)
task(Answered)
