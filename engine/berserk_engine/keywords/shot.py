"""«Выстрел на X»: an ability that is an attack — it deals Х wounds to a character of the opponent
without a counter-blow; no defender may be assigned against it.

Card text: «[Закрыть]: выстрел на 2.» — interpretation I-27: the character of the opponent is chosen
when the ability is declared. A shot is an attack: its wounds are wounds of an attack (Броня prevents
them), «При атаке» of the shooter triggers, and the attack modifiers (+Х к атаке, –X от атаки) change
its strength; «Сведение удара» does not (a shot is not a strike).
"""

from __future__ import annotations

from dataclasses import dataclass

from berserk_engine import selectors
from berserk_engine.abilities import Amount, Selector
from berserk_engine.combat import attack_strength
from berserk_engine.data import serializable
from berserk_engine.effects import amount
from berserk_engine.events import AttackEvent, BlowEvent, WoundEvent, perform
from berserk_engine.grammar import CHARACTER
from berserk_engine.keywords import term
from berserk_engine.queue import note_targets
from berserk_engine.state import Attack

SHOT = term(__name__, "выстрел-на-х")
# «выстрел на 2 в персонажа противника»: the printed form with its target (read by
# berserk_engine.language.constructions): canonical words, example, the term
IN_FORM = ("выстрел на {n} в {t}", "выстрел на 2 в персонажа противника", SHOT)
PLAIN_FORM = ("выстрел на {n:Amount}", "выстрел на 2", SHOT)  # the keyword's own phrase (below)
TARGET = Selector("chosen", "персонаж противника", CHARACTER, "enemy")


@dataclass(frozen=True, slots=True)
class Shot:
    amount: Amount
    target: Selector

    def run(self, game, item) -> None:
        targets = selectors.resolve(game, self.target, item)
        if not targets:
            return
        shooter = game.state.cards.get(item.source)
        banned = shooter is not None and next(
            (why for h in game.handlers.CANNOT_ATTACK if (why := h(game, shooter))), None
        )
        if banned:  # a shot is an attack (glossary «Атака»; I-82): the shot is not made
            game.log("shot", f"выстрел не сделан: {banned}", player=item.controller, rule="атака")
            return
        target = targets[0]
        name = game.state.cards[target].name
        attack = Attack(item.source, item.source_name, target, name, target, False, strike=False, shot=True)
        strength = attack_strength(game, attack, amount(game, self.amount, item))
        note_targets(game, item.source, [target])
        perform(
            game,
            AttackEvent(item.source, target, strike=False),
            BlowEvent(item.source, target, strength, "shot", item.source_name),
            WoundEvent(
                target,
                strength,
                item.source,
                item.source_name,
                attack=True,
                blow="выстрел",
                ability=item.text,
                origin=item.kind,
                chosen=True,
            ),
        )


serializable(Shot)
