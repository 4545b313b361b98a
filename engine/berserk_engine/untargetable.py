"""«[Закрыть], Х [Монета]: Х персонажей не могут быть выбраны целью заклинаний и способностей до конца хода»
(issue 29, interpretation I-115).

The payment «Х [Монета]» and the Х characters named with it: :mod:`berserk_engine.cost_x`. The effect: until
the printed duration ends, each of those characters is no legal target of a spell or an ability
(``ContinuousEffect`` kind "untargetable" on the card; ``hooks.UNTARGETABLE``, as «Защита от заклинаний» is
for spells) — of either player; an attack is no target of a spell or ability and is not
concerned, nor a card chosen already (a target named before the effect began stays named, 501.1).

«Не может быть выбран целью заклинаний (способностей, заклинаний и способностей, заклинаний противника)»
(interpretation I-118): the same ban as a constant ability of the card itself (:class:`NotATarget`), for as
long as the card has that ability; only the kinds it names — «заклинаний противника»: the spells of the
opponent of the card's controller, his own spells may still choose it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import hooks, x_value
from berserk_engine.abilities import Selector, effect_nodes
from berserk_engine.data import serializable
from berserk_engine.effects import gain

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

FORM = (
    "{t} не могут быть выбраны целью заклинаний и способностей{d}",
    "Х персонажей не могут быть выбраны целью заклинаний и способностей до конца хода",
    "I-115",
)
KIND = "untargetable"


@dataclass(frozen=True, slots=True)
class Untargetable:
    """The targets from ``target.slot`` to the end of the declaration (the Х characters named for «Х
    персонажей») are no targets of spells and abilities for ``until``."""

    target: Selector
    until: str = "end_of_turn"

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        start = self.target.slot
        for card_id in item.targets[start:] if start >= 0 else ():
            card = s.cards.get(card_id)
            if card is not None and card.zone == "play":
                gain(game, item, card_id, KIND, until=self.until)


def _untargetable(game: Game, card: Any, chooser: str, kind: str, source: str, ability: Any) -> bool:
    return kind in ("spell", "ability") and any(e.kind == KIND for e in game.by_card.get(card.id, ()))


def _uses(d: Any) -> bool:
    return any(isinstance(n, Untargetable) for a in d.abilities if a.effect for n in effect_nodes(a.effect))


hooks.UNTARGETABLE.append(_untargetable)
hooks.set_relevant(_untargetable, lambda game: bool(game.defs_with("untargetable", _uses)))


NOT_A_TARGET_FORM = ("Не может быть выбран целью {by}", "Не может быть выбран целью заклинаний.", "I-118")
BY_WORDS = {  # what the constant names → the kinds of choosers (selectors.targets ``kind``)
    "заклинаний": ("spell",),
    "способностей": ("ability",),
    "заклинаний и способностей": ("spell", "ability"),
}
ENEMY_WORDS = " противника"


@dataclass(frozen=True, slots=True)
class NotATarget:
    """«Не может быть выбран целью …» (I-118): the card is no target of the ``kinds`` it names; ``enemy``:
    only of those its controller's opponent plays or activates."""

    kinds: tuple[str, ...]
    enemy: bool = False

    @property
    def words(self) -> str:
        by = next(w for w, k in BY_WORDS.items() if k == self.kinds)
        return by + (ENEMY_WORDS if self.enemy else "")


def _has_constant(d: Any) -> bool:
    return any(type(a.effect) is NotATarget for a in d.abilities)


def _not_a_target(game: Game, card: Any, chooser: str, kind: str, source: str, ability: Any) -> bool:
    if card.name not in game.defs_with("not-a-target", _has_constant):
        return False
    return any(
        type(a.effect) is NotATarget
        and kind in a.effect.kinds
        and not (a.effect.enemy and chooser == card.controller)
        for a in ch.abilities(game, card)
    )


hooks.UNTARGETABLE.append(_not_a_target)
hooks.set_relevant(_not_a_target, lambda game: bool(game.defs_with("not-a-target", _has_constant)))
serializable(Untargetable, NotATarget)
x_value.X_TARGET_NODES.append(Untargetable)  # its targets name the Х of «Х [Монета]» (x_value.x_mismatch)
