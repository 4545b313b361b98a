"""Abilities that change a card's cost (203.2, 203.3) — the examples of Кутила and Рунопевец.

* An ability that affects **only the cost of its own card** works in hand (203.2, so 202.2's «если не
  предусмотрено иными правилами»): «Стоит на 1 [Монета] меньше за каждую карту в вашей руке.» — with 4
  cards in hand (itself among them) a card of cost 10 is played for 6; in the game zone it costs 10.
* An ability that affects **the cost of a set of cards** does not work from hand, but affects the cards
  in hand (203.3): «Каждый гном стоит на 1 [Монета] меньше.» works while its card is in the game zone
  and makes every gnome in a hand cheaper — not itself while it is in hand.

Costs are computed where a card is played (``cost_of`` through ``hooks.COST``) and shown in the
observation of a hand; a cost is never below 0.
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


@dataclass(frozen=True, slots=True)
class OwnCost:
    """The card costs ``per_card`` less for every card in its owner's hand (203.2: works in hand)."""

    per_card: int


@dataclass(frozen=True, slots=True)
class GroupCost:
    """«Ваши [группа] стоят на ``amount`` дешевле»: the cards of the group in its controller's hand
    (203.3: works from the game zone only)."""

    group: str
    amount: int


@dataclass(frozen=True, slots=True)
class SetCost:
    """Every card of the subtype costs ``amount`` less (203.3: works from the game zone only)."""

    subtype: str
    amount: int


@dataclass(frozen=True, slots=True)
class ClassCost:
    """«Гномы стоят на 1 [Монета] дешевле», «… дороже» (issue 29): every creature of the class (``group``:
    the plural as printed), in any player's hand, costs ``amount`` less (a negative ``amount``: more) —
    the set of cards 203.3 speaks of («Рунопевец удешевляет всех гномов»), while its card is in the game
    zone (interpretation I-84)."""

    group: str
    amount: int


# «Гномы стоят на 1 [Монета] дешевле», «… дороже»: the canonical words, example, interpretation
CLASS_COST_FORMS = {
    "cheaper": ("{g} стоят на {n} [Монета] дешевле", "Гномы стоят на 1 [Монета] дешевле", "I-84"),
    "dearer": ("{g} стоят на {n} [Монета] дороже", "Гномы стоят на 1 [Монета] дороже", "I-84"),
    "own": ("Ваши {g} стоят на {n} [Монета] дешевле", "Ваши гномы стоят на 1 [Монета] дешевле", "203.3"),
}


def cost_of(game: Game, d: CardDef, player: str) -> int:
    """What playing ``d`` from ``player``'s hand costs now: its cost with every change (``hooks.COST``),
    never below 0."""
    cost = d.cost
    for h in game.handlers.COST:  # a change no card of this game can make is not asked
        cost += h(game, d, player)
    return max(cost, 0)


def _own(d: CardDef) -> bool:
    return any(isinstance(a.effect, OwnCost) for a in d.abilities)


def _set(d: CardDef) -> bool:
    return any(isinstance(a.effect, (SetCost, GroupCost, ClassCost)) for a in d.abilities)


def _cost_change(game: Game, d: CardDef, player: str) -> int:
    """The change to the cost of playing ``d`` from ``player``'s hand."""
    change = 0
    if d.name in game.defs_with("own-cost", _own):
        hand = len(game.state.players[player].zones["hand"])
        change -= sum(a.effect.per_card * hand for a in d.abilities if isinstance(a.effect, OwnCost))
    setters = game.defs_with("set-cost", _set)
    if setters and (d.subtype or ch.classes_of(d) or d.type == "creature"):
        s = game.state
        for card_id in s.play:
            card = s.cards[card_id]
            if card.name not in setters or card.face_down:
                continue
            for a in ch.abilities(game, card):
                if isinstance(a.effect, SetCost) and a.effect.subtype == d.subtype:
                    change -= a.effect.amount
                elif isinstance(a.effect, ClassCost) and ch.in_group(d, a.effect.group):
                    change -= a.effect.amount
                elif (
                    isinstance(a.effect, GroupCost)
                    and card.controller == player
                    and ch.in_group(d, a.effect.group)
                ):
                    change -= a.effect.amount
    return change


def _any_cost_ability(d: CardDef) -> bool:
    return _own(d) or _set(d)


hooks.set_relevant(_cost_change, lambda game: bool(game.defs_with("cost-abilities", _any_cost_ability)))
hooks.COST.append(_cost_change)


serializable(OwnCost, SetCost, GroupCost, ClassCost)
