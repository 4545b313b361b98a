"""«… по его выбору» — the opponent chooses the card an effect acts on (issue 29): «Выстрел на 2 в
персонажа противника по его выбору.» The printed target names the opponent («персонажа противника»), and
«по его выбору» gives him the choice (interpretation I-83): the ability is declared without this target,
and when it resolves, the opponent is asked to choose one card among those the printed words name — the
cards the ability could target (its protections apply as to any target: ``selectors.candidates``). The
engine never chooses for him, not even when there is one card to choose; with no card to choose, the
effect does nothing (518.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from berserk_engine import selectors
from berserk_engine.abilities import Selector
from berserk_engine.choices import ChooseCards
from berserk_engine.data import serializable
from berserk_engine.state import QueueItem
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game

# the canonical words of the construction: form, example, the interpretation it rests on
FORM = ("{effect} по его выбору", "выстрел на 2 в персонажа противника по его выбору", "I-83")


@dataclass(frozen=True, slots=True)
class OpponentPicks:
    """«[эффект] [цель противника] по его выбору» (I-83): ``part`` acts on the card the opponent picks
    (its selector is ``Selector("event")``: the card handed to it), among the cards ``among`` names."""

    part: Any
    among: Selector

    def run(self, game: Game, item: QueueItem) -> None:
        opponent = game.opponent(item.controller)
        kind = "spell" if item.kind == "spell" else "ability"
        found = selectors.candidates(game, self.among, item.controller, item.source, kind)
        if not found:
            game.log(
                "choice",
                f"«{item.source_name}»: выбрать {self.among.words} не из чего — эффект не происходит",
                player=opponent,
                rule="518.1",
            )
            return
        game.push(
            ChooseCards(
                opponent,
                found,
                1,
                1,
                "I-83",
                f"Игрок {opponent}: «{item.source_name}» — выберите {self.among.words} (по вашему выбору)",
                Picked(self.part, item),
            )
        )


@dataclass(slots=True)
class Picked(Task):
    """The opponent's answer to :class:`OpponentPicks`: the part is resolved on the card he chose."""

    part: Any
    item: QueueItem
    cards: list[str] = field(default_factory=list)

    def run(self, game: Game) -> None:
        from berserk_engine.effects import Resolve

        chosen = self.cards[0]
        game.log(
            "choice",
            f"Игрок {game.opponent(self.item.controller)} выбрал «{game.state.cards[chosen].name}» "
            f"для «{self.item.source_name}»",
            player=game.opponent(self.item.controller),
            rule="I-83",
        )
        game.push(Resolve(self.part, replace(self.item, event={**self.item.event, "card": chosen})))


def opponent_picks(effect: Any, target: Selector) -> OpponentPicks:
    """The effect with its printed target ``target`` (a chosen target of the opponent's cards) chosen by
    the opponent: the effect acts on the card handed to it, picked among the cards ``target`` names."""
    picked = Selector("event", target.words, target.types, target.side)
    return OpponentPicks(_swap(effect, target, picked), replace(target, mode="each", slot=-1))


def _swap(node: Any, old: Selector, new: Selector) -> Any:
    import dataclasses

    if isinstance(node, Selector):
        return new if node == old else node
    if isinstance(node, tuple):
        return tuple(_swap(v, old, new) for v in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: _swap(getattr(node, f.name), old, new) for f in dataclasses.fields(node)}
        return dataclasses.replace(node, **changes)
    return node


serializable(OpponentPicks)
task(Picked)
