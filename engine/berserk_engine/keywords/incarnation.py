"""«Инкарнация X»: «В начале вашего хода вы можете потерять Х [Монета], чтобы возродить это существо в
закрытом виде». Инкарнация У replaces Инкарнация Х; an acquired «Инкарнация Х» does not disappear when
the creature goes between the graveyard and the game zone; «Инкарнацию 0 нельзя заявить».

The ability works from the graveyard (its trigger waits there). Interpretation I-30: the player loses Х
coin markers (open ones first); with fewer markers the creature is not resurrected. The creature comes
back closed, under its owner's control (Возрождение).
"""

from __future__ import annotations

from dataclasses import dataclass

from berserk_engine import hooks
from berserk_engine.abilities import Ability, Trigger
from berserk_engine.data import serializable
from berserk_engine.events import MoveEvent, perform
from berserk_engine.grammar import parse_ability
from berserk_engine.keywords import keyword


@dataclass(frozen=True, slots=True)
class Incarnation:
    amount: int

    def run(self, game, item) -> None:
        s = game.state
        card = s.cards.get(item.source)
        if card is None or card.zone != "graveyard":
            return  # the creature is no longer the one in the graveyard (518.1)
        p = s.players[item.controller]
        if p.coins < self.amount:
            game.log(
                "not_resolved",
                f"Инкарнация: у игрока {item.controller} маркеров монет {p.coins}, нужно {self.amount}",
                rule="инкарнация-х",
            )
            return
        from_open = min(p.coins_open, self.amount)
        p.coins_open -= from_open
        p.coins_closed -= self.amount - from_open
        game.log(
            "coins_lost",
            f"Игрок {item.controller} теряет маркеров монет: {self.amount}",
            player=item.controller,
            rule="инкарнация-х",
        )
        perform(
            game,
            MoveEvent(
                card.id,
                "play",
                "resurrect",
                controller=card.owner,
                closed=True,
                source=card.id,
                source_name=card.name,
            ),
        )


def _build(value) -> Ability:
    return Ability(
        "triggered",
        "",
        effect=Incarnation(int(value)),
        trigger=Trigger("turn_start", own_turn_only=True, zones=("graveyard",)),
        optional=True,
    )


INCARNATION = keyword(
    __name__,
    "инкарнация-х",
    "Инкарнация Х",
    "Инкарнация {x:Num}",
    "triggered",
    "Инкарнация 1.",
    regain="replace",
    zero_declarable=False,
    build=_build,
)


def _kept(game, effect, from_zone: str, to_zone: str) -> bool:
    if effect.kind != "grant" or {from_zone, to_zone} != {"play", "graveyard"}:
        return False
    return parse_ability(effect.text).keyword == INCARNATION.term


hooks.EFFECT_KEPT.append(_kept)

serializable(Incarnation)
