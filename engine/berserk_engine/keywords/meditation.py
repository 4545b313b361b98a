"""«Медитация Х»: «При атаке по карте с Медитацией Х противник должен заплатить Х [Монета]. Если не
хватает — ранить героя противника на столько, сколько не хватает монет». Медитация У replaces
Медитация Х; «Медитацию 0 нельзя заявить».

Interpretation I-31: it triggers when an attack on the card is declared (a strike attack, a fight or a
shot); the attacking player — the opponent of the card's controller — pays by closing his open coin
markers, as many as he has up to Х, and his hero is wounded by the shortfall.
"""

from __future__ import annotations

from dataclasses import dataclass

from berserk_engine.abilities import Ability, Trigger
from berserk_engine.data import serializable
from berserk_engine.events import WoundEvent, perform
from berserk_engine.keywords import keyword


@dataclass(frozen=True, slots=True)
class Meditation:
    amount: int

    def run(self, game, item) -> None:
        s = game.state
        payer = game.opponent(item.controller)
        p = s.players[payer]
        paid = min(p.coins_open, self.amount)
        if paid:
            p.coins_open -= paid
            p.coins_closed += paid
        short = self.amount - paid
        game.log(
            "pay",
            f"Медитация: игрок {payer} платит маркеров монет {paid} из {self.amount}"
            + (f", не хватает {short}" if short else ""),
            player=payer,
            paid=paid,
            short=short,
            rule="медитация-х",
        )
        if short:
            hero = s.players[payer].hero
            perform(
                game,
                WoundEvent(hero, short, item.source, item.source_name, ability=item.text, origin=item.kind),
            )


def _build(value) -> Ability:
    return Ability("triggered", "", effect=Meditation(int(value)), trigger=Trigger("attacked"))


MEDITATION = keyword(
    __name__,
    "медитация-х",
    "Медитация Х",
    "Медитация {x:Num}",
    "triggered",
    "Медитация 1.",
    regain="replace",
    zero_declarable=False,
    build=_build,
)

serializable(Meditation)
