"""The Х of a variable cost («Х», «2+Х», Минимальная стоимость) chosen when a spell is played: «Ранить
существо на Х.» on a spell of cost «Х».

Interpretation I-66: 501.2 — «Количество используемых картой ресурсов необходимо указывать в момент
объявления способности» — so the player names Х as part of playing the card, after naming the card (and its
targets) and before paying: a decision ``choose`` with one option per Х from 0 to what his open coin markers
allow beyond the minimal cost; he pays the minimal cost plus Х, and every «Х» of the spell's text is that
number when it resolves. A card whose text does not use its Х is played for its minimal cost, with no
decision (I-36).

Interpretation I-115: the payment «Х [Монета]» of an activated ability whose effect names «Х персонажей» — the
player names Х with its targets: the declaration names from 0 to as many different characters as his open
coin markers beyond the rest of the payment allow (each slot may stay empty, as «до N …», I-67), Х is the
number of characters he named, and he pays Х coins with the rest of the payment (501.2). The slots of such a
declaration are not fixed by the text: :func:`x_slots` gives them when the options are listed and when the
declaration is checked.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import actions
from berserk_engine.abilities import Ability, Amount, effect_nodes
from berserk_engine.choices import Choose
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef
    from berserk_engine.game import Game


X_COINS_FORM = ("Х [Монета]", "Х [Монета]", "I-115")


def x_ability(ability: Ability) -> bool:
    """Is this an activated ability whose payment holds «Х [Монета]» (its targets name Х)?"""
    return ability.cost is not None and ability.cost.x


def x_slots(game: Game, ability: Ability, player: str, slots: list[dict[str, Any]] | None) -> Any:
    """The slots of a declaration of an «Х [Монета]» ability: its last slot (the Х characters) repeated once
    per character that can still be paid for and named, each optional and different from the others; the
    slots of any other ability as they are."""
    if slots is None or not x_ability(ability) or not slots:
        return slots
    assert ability.cost is not None
    *fixed, template = slots
    most = game.state.players[player].coins_open - ability.cost.coins
    count = max(0, min(most, len(template["candidates"])))
    group = len(fixed)
    return [*fixed, *({**template, "optional": True, "distinct": group} for _ in range(count))]


def x_named(ability: Ability, targets: list[Any]) -> int:
    """Х: how many characters the declaration named in the Х slots (the last group of slots)."""
    first = len(ability.slots) - 1
    return sum(1 for t in targets[first:] if t)


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
