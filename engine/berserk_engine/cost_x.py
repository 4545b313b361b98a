"""The Х of a variable cost («Х», «2+Х», Минимальная стоимость) chosen when a spell is played: «Ранить
существо на Х.» on a spell of cost «Х».

Interpretation I-66: 501.2 — «Количество используемых картой ресурсов необходимо указывать в момент
объявления способности» — so the player names Х as part of playing the card, after naming the card (and its
targets) and before paying: a decision ``choose`` with one option per Х from 0 to what his open coin markers
allow beyond the minimal cost; he pays the minimal cost plus Х, and every «Х» of the spell's text is that
number when it resolves. A card whose text does not use its Х is played for its minimal cost, with no
decision (I-36).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import actions
from berserk_engine.abilities import Amount, effect_nodes
from berserk_engine.choices import Choose
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef
    from berserk_engine.game import Game


def uses_x(d: CardDef) -> bool:
    """Does the card's text use the Х of its variable cost?"""
    if not d.printed_cost or d.type != "spell":
        return False
    for ability in d.abilities:
        if ability.effect is None:
            continue
        for node in effect_nodes(ability.effect):
            if dataclasses.is_dataclass(node) and any(
                _is_x(getattr(node, f.name)) for f in dataclasses.fields(node)
            ):
                return True
    return False


def _is_x(value: Any) -> bool:
    return isinstance(value, Amount) and value.prop == "X"


def x_step(game: Game, player: str, action: dict[str, Any], d: CardDef, cost: int) -> bool:
    """When the card's Х is still to be named, ask for it (the play goes on with ``action["x"]``) and
    return True."""
    if "x" in action or not uses_x(d):
        return False
    most = game.state.players[player].coins_open - cost
    game.push(
        Choose(
            player,
            [[str(n), f"Х = {n}"] for n in range(most + 1)],
            "501.2",
            f"Игрок {player}: «{d.name}» стоит {d.printed_cost} — назовите Х (оплата: {cost} + Х)",
            XChosen(player, dict(action)),
        )
    )
    return True


@dataclass(slots=True)
class XChosen(Task):
    player: str
    action: dict[str, Any]
    choice: str = ""

    def run(self, game: Game) -> None:
        actions.ACTIONS["play"].apply(game, self.player, {**self.action, "x": int(self.choice)})


task(XChosen)
