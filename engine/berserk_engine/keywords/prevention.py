"""Предотвращение (Эффект предотвращения): «Эффект, который применяется к нанесённым ранам, уменьшая
их количественное значение. Предотвращение не меняет силу атаки, а меняет только количественное
значение нанесённых ран». «Броня Х» is one such effect (:mod:`berserk_engine.keywords.armour`); this
module owns the term and the general one a card may create, in the words of «Броня Х»:

    «Предотвратить первые 5 ран, нанесённых по выбранному существу до конца хода.»
    «Предотвратить первые 2 раны, нанесённые по выбранному существу до конца хода.»

The effect (``ContinuousEffect`` of kind ``"prevent"``, ``amount`` = wounds still to prevent) prevents
the first wounds dealt to the card from any source while it lasts — wounds of attacks, of abilities,
and wounds taken as a payment, which then is incomplete (501.2.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import hooks, selectors
from berserk_engine.data import serializable
from berserk_engine.effects import gain
from berserk_engine.keywords import term

if TYPE_CHECKING:
    from berserk_engine.event_types import WoundEvent
    from berserk_engine.game import Game

term(__name__, "предотвращение")
term(__name__, "эффект-предотвращения")


@dataclass(frozen=True, slots=True)
class Prevent:
    """Предотвратить первые N ран, нанесённых по [цели] [на срок]."""

    amount: int
    target: Any
    until: str

    def run(self, game, item) -> None:
        for t in selectors.resolve(game, self.target, item):
            gain(game, item, t, "prevent", amount=self.amount, until=self.until)


def _prevent(game: Game, event: WoundEvent, remaining: int) -> int:
    """Each «prevent» effect on the card prevents as many of the wounds as it still may."""
    prevented = 0
    for e in game.by_card.get(event.target, ()):
        if e.kind != "prevent" or e.amount <= 0 or remaining <= 0:
            continue
        now = min(remaining, e.amount)
        e.amount -= now
        remaining -= now
        prevented += now
    return prevented


hooks.WOUND_PREVENTION.append(_prevent)

serializable(Prevent)
