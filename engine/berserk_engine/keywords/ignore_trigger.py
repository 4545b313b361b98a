"""«Игнорировать [срабатывающую особенность] (целевой карты)»: that triggered ability of the target
card cannot choose the ignoring card as its target — «Игнорирует Гибель» (also «При гибели», «При
уничтожении»), «Игнорирует Найм», «Игнорирует При атаке», «Игнорирует При ударе».

The target card is one the ignoring card attacked or chose as a target of its ability this turn
(interpretation I-33)."""

from __future__ import annotations

from berserk_engine import hooks
from berserk_engine.combat import targeted
from berserk_engine.keywords import keyword
from berserk_engine.keywords.ignore_features import IGNORE_ALL, ignoring

IGNORE_TRIGGER = keyword(
    __name__,
    "игнорировать-срабатывающую-особенность-целевой-карты",
    "Игнорирует [срабатывающую особенность]",
    "Игнорирует {x:Trig}",
    "static",
    "Игнорирует Гибель.",
    regain="distinct",
)


@hooks.needs(IGNORE_TRIGGER.term, IGNORE_ALL.term)
def _untargetable(game, card, chooser: str, kind: str, source: str, ability) -> bool:
    if ability is None or ability.kind != "triggered" or ability.trigger is None:
        return False
    if not card.this_turn or not (game.present(IGNORE_TRIGGER.term) or game.present(IGNORE_ALL.term)):
        return False  # it targeted nothing this turn, or nobody ignores triggered abilities
    event = ability.trigger.event
    if event not in ignoring(game, card, IGNORE_TRIGGER.term) and not ignoring(game, card, IGNORE_ALL.term):
        return False
    s = game.state
    origin = s.cards.get(source)
    serial = origin.serial if origin is not None else s.lki.get(source, {}).get("serial")
    return serial is not None and targeted(game, card, serial)


hooks.UNTARGETABLE.append(_untargetable)
