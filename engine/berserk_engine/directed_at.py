"""«Направленный удар по существу противника» (issue 29, interpretation I-108): «Направленный удар» (no
defender may be assigned against its strike) only when the strike attacks a card of the group printed after
«по» — «по существу противника»: an opponent's creature; an attack on his hero may be met by a defender as
usual. The printed words are a constant ability of the card (granted as text, as any keyword: «Ваши существа
получают Направленный удар по существу противника до конца хода»), its group a filter, not a target.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.abilities import Selector
from berserk_engine.data import serializable

if TYPE_CHECKING:
    from berserk_engine.game import Game

FORM = ("Направленный удар по {t}", "Направленный удар по существу противника", "I-108")


@dataclass(frozen=True, slots=True)
class DirectedAt:
    """The constant ability: directed strike against the cards of ``group`` (mode "each": a filter)."""

    group: Selector


def _no_defender(game: Game, attack: Any) -> bool:
    from berserk_engine.selectors import _matches

    s = game.state
    attacker = s.cards.get(attack.attacker)
    if attacker is None or attack.target not in s.cards:
        return False
    for ability in ch.abilities(game, attacker):
        if isinstance(ability.effect, DirectedAt) and _matches(
            game, attack.target, ability.effect.group, attacker.controller, attacker.id
        ):
            return True
    return False


hooks.NO_DEFENDER.append(_no_defender)
serializable(DirectedAt)
