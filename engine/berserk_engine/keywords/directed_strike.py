"""«Направленный удар»: no defender may be assigned against its strike."""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Attack

DIRECTED = keyword(
    __name__, "направленный-удар", "Направленный удар", "Направленный удар", "static", "Направленный удар."
)


@hooks.needs(DIRECTED.term)  # a game where no card can have it never asks
def _no_defender(game: Game, attack: Attack) -> bool:
    attacker = game.state.cards.get(attack.attacker)
    return attacker is not None and ch.has(game, attacker, DIRECTED.term)


hooks.NO_DEFENDER.append(_no_defender)
