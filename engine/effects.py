"""Effects (Эффект — результат выполненной способности): ранить, излечить, возьмите карту, +X к удару.

Every effect resolves «настолько, насколько это возможно» (518.1): a target that left the game zone
is skipped, a deck with fewer cards gives what it has (518.3), healing removes at most the wounds
there are (518.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem


@dataclass(frozen=True)
class TargetSpec:
    """Who an effect applies to, as the card says it."""

    kind: str  # "opponent_hero" | "own_hero" | "chosen_creature" | "chosen_character" | "self" | "controller"
    words: str  # the words on the card

    @property
    def chosen(self) -> bool:
        """A chosen target (Выбранное существо) is named at the declaration (501.1)."""
        return self.kind.startswith("chosen_")


@dataclass(frozen=True)
class Amount:
    """A number of wounds or cards: a constant, or a property of the source read on resolution."""

    value: int | None = None
    source_property: str | None = None  # "strike" — «значение удара этого существа» (403.1)
    words: str = ""

    def evaluate(self, game: Game, item: QueueItem) -> int:
        if self.value is not None:
            return self.value
        info = game.source_info(item)
        return int(info[self.source_property or "strike"])


class Effect(Protocol):
    target: TargetSpec

    def resolve(self, game: Game, item: QueueItem) -> None: ...


def _targets(game: Game, item: QueueItem, spec: TargetSpec) -> list[str]:
    """Card ids the effect applies to on resolution; chosen targets that left play are skipped."""
    if spec.kind == "opponent_hero":
        return [game.state.players[game.opponent(item.controller)].hero]
    if spec.kind == "own_hero":
        return [game.state.players[item.controller].hero]
    if spec.kind == "self":
        card = game.state.cards[item.source]
        return [item.source] if card.zone == "play" and card.incarnation == item.source_incarnation else []
    if spec.kind == "controller":
        return []
    return [t for t in item.targets if game.state.cards[t].zone == "play"]


@dataclass(frozen=True)
class Wound:
    """Ранить на Х [цель]: нанести на цель маркер «Х ран»."""

    amount: Amount
    target: TargetSpec

    def resolve(self, game: Game, item: QueueItem) -> None:
        n = self.amount.evaluate(game, item)
        for card_id in _targets(game, item, self.target):
            game.wound(card_id, n, item)


@dataclass(frozen=True)
class Heal:
    """Излечить на X: снять с персонажа X ран (все, если ран меньше — 518.2)."""

    amount: Amount
    target: TargetSpec

    def resolve(self, game: Game, item: QueueItem) -> None:
        n = self.amount.evaluate(game, item)
        for card_id in _targets(game, item, self.target):
            game.heal(card_id, n, item)


@dataclass(frozen=True)
class Draw:
    """Возьмите карту: взять в руку верхнюю карту своей колоды (сколько возможно — 518.3)."""

    amount: Amount
    target: TargetSpec

    def resolve(self, game: Game, item: QueueItem) -> None:
        game.draw(item.controller, self.amount.evaluate(game, item), reason=item.text)


@dataclass(frozen=True)
class StrikeBonus:
    """[Цель] получает +X к удару до конца хода (310.2 ends it)."""

    amount: Amount
    target: TargetSpec
    until_end_of_turn: bool = True

    def resolve(self, game: Game, item: QueueItem) -> None:
        n = self.amount.evaluate(game, item)
        for card_id in _targets(game, item, self.target):
            game.add_strike_bonus(card_id, n, item)


@dataclass(frozen=True)
class Fight:
    """Сразиться с выбранным существом: the source itself strikes the chosen creature, both fighting
    as if open (glossary; combat as in interpretation I-5). The source acts, so what the ability
    needs to know about it — its strike — was checked when the ability entered the Queue (403.1),
    and it strikes even if it no longer exists; a source that left the game zone takes no wounds."""

    target: TargetSpec

    def resolve(self, game: Game, item: QueueItem) -> None:
        targets = _targets(game, item, self.target)
        if not targets:
            return
        target = game.state.cards[targets[0]]
        source = game.state.cards[item.source]
        source_here = source.zone == "play" and source.incarnation == item.source_incarnation
        strike_back = target.strike
        game.wound(target.id, int(item.lki["strike"]), item, text="сражение")
        if source_here and source.id != target.id:
            game.wound(source.id, strike_back, item, text="ответный удар")
