"""Conditions on the players' hands, as printed cards state them (issue 29): an effect that happens only
«если у вас в руке больше карт, чем у противника», and a constant ability that works only «пока у вас нет
карт в руке».

* :class:`HandTest` — the condition: the controller's hand against the opponent's («больше карт, чем у
  противника», «меньше карт, чем у противника») or the controller's hand empty or not («нет карт в
  руке», «есть карты в руке»). Hands are public in number (202.3 counts the cards of a hand), so the
  condition is a fact of the game, never a decision.
* :class:`Provided` — «если [условие], [эффект]» or «[эффект], если [условие]»: one meaning in either
  order; the condition is looked at when the ability resolves, and the effect happens only if it holds
  (interpretation I-80). The targets of the effect are named at the declaration all the same (501.1).
* :class:`WhileBonus` — «Пока [условие], [эта карта] имеет +N к удару»: a constant ability
  (Постоянная способность) whose bonus the card has at every moment the condition holds and only then
  (interpretation I-81); the numbers are a step of ``characteristics`` (``hooks.CHARACTERISTIC``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.data import serializable

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card, QueueItem

STATIC = "постоянная-способность"  # the glossary term (registered by berserk_engine.statics)

# the kinds of :class:`HandTest`, with the engine's canonical words for each
HAND_TESTS = {
    "more": "у вас в руке больше карт, чем у противника",
    "less": "у вас в руке меньше карт, чем у противника",
    "empty": "у вас нет карт в руке",
    "not_empty": "у вас есть карты в руке",
}


# the canonical words of the constructions (the reader's ``cards --show`` writes readings in them):
# form with its slots, example, the interpretation it rests on
PROVIDED_FORM = (
    "если {c}, {then}",
    "если у вас в руке больше карт, чем у противника, возьмите карту",
    "I-80",
)
WHILE_FORM = (
    "Пока {c}, это существо имеет {b}",
    "Пока у вас нет карт в руке, это существо имеет +3 к удару",
    "I-81",
)


def bonus_words(strike: int, life: int) -> str:
    """«+3 к удару», «+1 к жизням», «+1 к удару и +2 к жизням»."""
    if strike and life:
        return f"{strike:+d} к удару и {life:+d} к жизням"
    return f"{life:+d} к жизням" if life else f"{strike:+d} к удару"


HAND_FORMS = {kind: (words, words, "I-80") for kind, words in HAND_TESTS.items()}


@dataclass(frozen=True, slots=True)
class HandTest:
    """A condition on the hands, seen from ``player`` (the ability's controller): ``kind`` one of
    :data:`HAND_TESTS`."""

    kind: str

    def holds(self, game: Game, player: str) -> bool:
        players = game.state.players
        mine = len(players[player].zones["hand"])
        if self.kind == "empty":
            return mine == 0
        if self.kind == "not_empty":
            return mine > 0
        theirs = len(players[game.opponent(player)].zones["hand"])
        return mine > theirs if self.kind == "more" else mine < theirs

    @property
    def words(self) -> str:
        return HAND_TESTS[self.kind]


# «Пока это существо ранено (не ранено, закрыто, открыто), …» (I-119): a state of the card itself
SELF_STATES = ("wounded", "unwounded", "closed", "open")
SELF_STATE_FORM = ("это существо {s}", "это существо ранено", "I-119")


@dataclass(frozen=True, slots=True)
class SelfState:
    """A test of the card that has the ability — its own state now — not of the players (I-119)."""

    state: str

    def holds_for(self, game: Game, card: Card) -> bool:
        if self.state in ("wounded", "unwounded"):
            return (card.wounds > 0) == (self.state == "wounded")
        return card.closed == (self.state == "closed")


@dataclass(frozen=True, slots=True)
class Provided:
    """«если [условие], [эффект]» / «[эффект], если [условие]» (I-80): on resolution, the effect happens
    only when the condition holds for the ability's controller; otherwise the ability does nothing."""

    test: Any  # a test of the two players: HandTest, creature_count.CreatureCountTest (holds, words)
    then: Any

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.effects import Resolve

        holds = self.test.holds(game, item.controller)
        game.log(
            "condition",
            f"«{item.source_name}»: условие «{self.test.words}» "
            + ("выполнено" if holds else "не выполнено — эффект не происходит"),
            player=item.controller,
            rule="I-80",
        )
        if holds:
            game.push(Resolve(self.then, item))


@dataclass(frozen=True, slots=True)
class WhileBonus:
    """«Пока [условие], [эта карта] имеет +X к удару (+Y к жизням)» (I-81)."""

    test: Any  # a test of the two players: HandTest, creature_count.CreatureCountTest (holds, words)
    strike: int = 0
    life: int = 0


@dataclass(frozen=True, slots=True)
class WhileGrant:
    """«Пока [условие], [эта карта] имеет [ключевое слово]» (I-81): the card has the keyword (``text``, as its
    term writes it: «Первый удар.») at every moment the condition holds and only then."""

    test: Any  # HandTest, creature_count.CreatureCountTest (holds) or SelfState (holds_for)
    text: str


def _holds(test: Any, game: Game, card: Card) -> bool:
    """Does a «Пока …» condition hold now: a test of the card itself (I-119) or of its controller (I-81)?"""
    return test.holds_for(game, card) if type(test) is SelfState else test.holds(game, card.controller)


def _has_while_grant(d: Any) -> bool:
    return any(type(a.effect) is WhileGrant for a in d.abilities)


def while_grants(game: Game, card: Card) -> list[str]:
    """The keywords a card has now from its own «Пока …, это существо имеет [ключевое слово]» (its printed
    abilities, unless it has lost them)."""
    if card.name not in game.defs_with("while-grant", _has_while_grant) or card.zone != "play":
        return []
    if ch.text_lost(game, card):
        return []
    found = []
    for a in card.definition.abilities:
        grant = a.effect
        if type(grant) is not WhileGrant:
            continue
        if _holds(grant.test, game, card):
            found.append(grant.text)
    return found


hooks.set_relevant(while_grants, lambda game: bool(game.defs_with("while-grant", _has_while_grant)))
hooks.STATIC_GRANTS.append(while_grants)


def _has_while_bonus(d: Any) -> bool:
    return any(type(a.effect) is WhileBonus for a in d.abilities)


def while_bonus(game: Game, card: Card, prop: str) -> int:
    """The bonus to ``prop`` («strike» | «life») a card has from its own «Пока …» abilities now."""
    if card.name not in game.defs_with("while-bonus", _has_while_bonus) or card.zone != "play":
        return 0
    total = 0
    for a in ch.abilities(game, card):
        bonus = a.effect
        if type(bonus) is not WhileBonus:
            continue
        if _holds(bonus.test, game, card):
            total += bonus.strike if prop == "strike" else bonus.life
    return total


def _lives_may_change(game: Game) -> None:
    """A hand changed: a «Пока …» bonus to lives may have ended — deaths are checked (I-81, I-9)."""
    game.state_check_due = True


def _in_game(game: Game) -> bool:
    return bool(game.defs_with("while-bonus", _has_while_bonus))


hooks.set_relevant(while_bonus, _in_game)
hooks.CHARACTERISTIC.append(while_bonus)
hooks.set_relevant(_lives_may_change, _in_game)
hooks.HAND_CHANGED.append(_lives_may_change)

serializable(HandTest, SelfState, Provided, WhileBonus, WhileGrant)
