"""«Направленный удар по существу противника» (issue 29, interpretation I-108): «Направленный удар» (no
defender may be assigned against its strike) only when the strike attacks a card of the group printed after
«по» — «по существу противника»: an opponent's creature; an attack on his hero may be met by a defender as
usual. The printed words are a constant ability of the card (granted as text, as any keyword: «Ваши
существа получают Направленный удар по существу противника до конца хода»), its group a filter, not a
target.

«…, а существа имеют Направленный удар по этому существу» (interpretation I-114) names ONE card, chosen before
in the spell's text: no defender may be assigned against any creature's strike at that card, of either side,
for the printed duration («до начала вашего следующего хода», as the sentence's other part; I-106). That is an
effect on the named card (``ContinuousEffect`` kind "directed_at_card"), not a text granted to every creature:
a text «по этому существу» on each attacker would name the attacker itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import hooks, selectors
from berserk_engine.abilities import Selector
from berserk_engine.data import serializable
from berserk_engine.effects import gain

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

FORM = ("Направленный удар по {t}", "Направленный удар по существу противника", "I-108")
CARD_FORM = (
    "{t} не наносит ран, а существа имеют Направленный удар по {c} до начала вашего следующего хода",
    "выбранное существо не наносит ран, а существа имеют Направленный удар по этому существу до "
    "начала вашего "
    "следующего хода",
    "I-114",
)
CARD_KIND = "directed_at_card"


@dataclass(frozen=True, slots=True)
class DirectedAt:
    """The constant ability: directed strike against the cards of ``group`` (mode "each": a filter)."""

    group: Selector


@dataclass(frozen=True, slots=True)
class DirectedAtCard:
    """Creatures have directed strike against ``target`` (one card named before) for ``until`` (I-114)."""

    target: Selector
    until: str = "own_next_turn"

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.deals_no_wounds import UNTIL

        for card in selectors.resolve(game, self.target, item):
            if (
                self.until == UNTIL
            ):  # «до начала вашего следующего хода»: ends as the controller's turn begins
                gain(game, item, card, CARD_KIND, until=UNTIL, player=item.controller)
            else:
                gain(game, item, card, CARD_KIND, until=self.until)


def _no_defender(game: Game, attack: Any) -> bool:
    from berserk_engine.selectors import _matches

    s = game.state
    attacker = s.cards.get(attack.attacker)
    if attacker is None or attack.target not in s.cards:
        return False
    if attacker.definition.type == "creature" and any(
        e.kind == CARD_KIND for e in game.by_card.get(attack.target, ())
    ):
        return True  # «существа имеют Направленный удар по этому существу» (I-114)
    for ability in ch.abilities(game, attacker):
        if isinstance(ability.effect, DirectedAt) and _matches(
            game, attack.target, ability.effect.group, attacker.controller, attacker.id
        ):
            return True
    return False


hooks.NO_DEFENDER.append(_no_defender)
serializable(DirectedAt, DirectedAtCard)
