"""«Снимите с выбранного существа 2 эффекта», «снимите с каждого существа противника все эффекты»:
effects laid on a card end before their time (Эффект — «результат выполненной способности»; «Полное
излечение не снимает эффект отравления и другие подобные эффекты» speaks of taking an effect off).

Interpretation I-65: an effect that can be taken off is one laid on the card by an ability and lasting
(+N к удару, дополнительные жизни, «получает [текст]» — a granted keyword such as «Отравление» among them —,
«теряет особенности», a control, a prevention counter); wounds are markers, not effects, and the card's
printed abilities and the constant abilities of other cards are not laid on it. With more effects on the
card than are to be taken off, the controller of the ability chooses them one by one (a decision
``choose`` whose options are the effects); with as many or fewer, all go. What the end of an effect brings
about follows (a temporary control ends, 517.5; lives that fall are checked for death as ever).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine import characteristics as ch
from berserk_engine import selectors
from berserk_engine.abilities import Selector
from berserk_engine.choices import Choose
from berserk_engine.data import serializable
from berserk_engine.events import Perform
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import ContinuousEffect, QueueItem

REMOVAL = "эффект"


def _on(game: Game, card_id: str) -> list[ContinuousEffect]:
    return [e for e in game.state.effects if e.target == card_id]


def label(e: ContinuousEffect) -> str:
    """An effect as a player is offered it: what it does, how long, whose it is."""
    until = ch.UNTIL_WORDS.get(e.until, e.until)
    return f"{ch.describe(e)} {until} — {e.source_name}" if e.source_name else f"{ch.describe(e)} {until}"


def take_off(game: Game, effects: list[ContinuousEffect]) -> None:
    """The effects end now; what their end brings about follows (``hooks.EFFECTS_ENDED``)."""
    s = game.state
    gone = {e.id for e in effects}
    s.effects = [e for e in s.effects if e.id not in gone]
    game.effects_changed()
    for e in effects:
        card = s.cards.get(e.target)
        game.log(
            "effect_removed",
            f"С «{card.name if card else e.target}» снят эффект: {label(e)}",
            card=e.target,
            rule=REMOVAL,
        )
    events = [ev for h in game.handlers.EFFECTS_ENDED for ev in h(game, effects)]
    if events:
        game.push(Perform(events))


@dataclass(frozen=True, slots=True)
class RemoveEffects:
    """Take ``count`` effects (None: all) off each card the target names."""

    count: int | None
    target: Selector

    def run(self, game: Game, item: QueueItem) -> None:
        for card_id in reversed(selectors.resolve(game, self.target, item)):
            game.push(RemoveFrom(item.controller, card_id, self.count))


@dataclass(slots=True)
class RemoveFrom(Task):
    """Effects still to take off one card: all of them when there are no more than that, else the
    player chooses the next one (I-65)."""

    player: str
    card: str
    left: int | None
    choice: str = ""

    def run(self, game: Game) -> None:
        effects = _on(game, self.card)
        if self.choice:
            chosen = [e for e in effects if e.id == self.choice]
            self.choice = ""
            if self.left is not None:
                self.left -= 1
            if chosen and self.left:
                game.push(self)  # the next one, once what that end brought about is done
            take_off(game, chosen)
            return
        if not effects or self.left == 0:
            return
        if self.left is None or len(effects) <= self.left:
            take_off(game, effects)
            return
        name = game.state.cards[self.card].name
        game.push(
            Choose(
                self.player,
                [[e.id, label(e)] for e in effects],
                REMOVAL,
                f"Игрок {self.player}: выберите эффект, который снимается с «{name}» "
                f"(осталось снять: {self.left})",
                self,
            )
        )


def _form(n: int) -> str:
    """The word «эффект» agreeing with the number (1, 21 эффект; 2–4 эффекта; 5–20 эффектов)."""
    if n % 10 == 1 and n % 100 != 11:
        return "эффект"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "эффекта"
    return "эффектов"


serializable(RemoveEffects)
task(RemoveFrom)
