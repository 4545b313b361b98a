"""«[эффект X], при этом [эффект Y]» (issue 29): Y happens only if X happened in full, in fact, with no
replacement applied to it. Our rules do not define the phrase; a later edition's glossary does («При
этом»: the ability goes on to Y only after X has been fully and actually done without replacement
effects; and of «Закрыть»: closing a closed card is a legal declaration, but since nothing actually
happened, «при этом» does not work) — interpretation I-85, citing that text.

To know what X actually did, the engine measures the state X acts on just before it and just after:

* «ранить [цель] на Х» — every target is still in the game zone and has at least Х more wounds (a
  prevention that took some wounds, or a replacement that sent them elsewhere: not in full);
* «излечить [цель] на Х» — every target has Х fewer wounds (healing counts by the wounds removed —
  glossary «Излечить на X»);
* «закрыть / открыть [цель]» — every target was open (closed) and is now closed (open);
* «возьмите N карт» — the hand has N more cards (a deck with fewer cards: not in full).

Any other X is not read with «при этом»: the reader says so, rather than guess what «in full» means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import selectors
from berserk_engine.data import serializable
from berserk_engine.effects import Close, Draw, Heal, Resolve, Sequence, Wound, amount
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

# the canonical words of the construction: form, example, the interpretation it rests on
FORM = ("{first}, при этом {then}", "ранить на 1 выбранное существо, при этом возьмите карту", "I-85")
MEASURED = (Wound, Heal, Close, Draw)  # the effects whose full doing the engine can tell


def measurable(node: Any) -> bool:
    """Can the engine tell whether this effect happened in full (a sequence: each of its parts)?"""
    if isinstance(node, Sequence):
        return all(measurable(p) for p in node.parts)
    return isinstance(node, MEASURED)


@dataclass(frozen=True, slots=True)
class Thereby:
    """«[first], при этом [then]» (I-85)."""

    first: Any
    then: Any

    def run(self, game: Game, item: QueueItem) -> None:
        before = [_measure(game, part, item) for part in _parts(self.first)]
        game.push(Resolve(self.first, item), Checked(self, item, before))


def _parts(node: Any) -> tuple[Any, ...]:
    return node.parts if isinstance(node, Sequence) else (node,)


def _measure(game: Game, part: Any, item: QueueItem) -> dict[str, Any]:
    """What the part acts on, just before it: the wounds or the state of its targets, the hand's size."""
    s = game.state
    if isinstance(part, Draw):
        return {"hand": len(s.players[item.controller].zones["hand"]), "n": amount(game, part.amount, item)}
    targets = selectors.resolve(game, part.target, item)
    if isinstance(part, Close):
        return {"cards": {t: s.cards[t].closed for t in targets}}
    return {"cards": {t: s.cards[t].wounds for t in targets}, "n": amount(game, part.amount, item)}


def _in_full(game: Game, part: Any, before: dict[str, Any], item: QueueItem) -> bool:
    s = game.state
    if isinstance(part, Draw):
        return len(s.players[item.controller].zones["hand"]) - before["hand"] >= before["n"]
    cards = before["cards"]
    if not cards:
        return False  # no target any more: nothing happened (518.1)
    for card_id, was in cards.items():
        card = s.cards.get(card_id)  # a card that left the game zone is another object (203.4)
        if card is None or card.zone != "play":
            return False
        if isinstance(part, Close):
            if was == (not part.open) or card.closed != (not part.open):
                return False  # already in that state, or not changed: nothing actually happened
        elif isinstance(part, Heal):
            if (card.wounds != 0 or was == 0) if part.full else was - card.wounds < before["n"]:
                return False
        elif card.wounds - was < before["n"]:
            return False
    return True


@dataclass(slots=True)
class Checked(Task):
    """After the first part of «…, при этом …»: the second only if the first happened in full (I-85)."""

    node: Thereby
    item: QueueItem
    before: list[dict[str, Any]]

    def run(self, game: Game) -> None:
        parts = _parts(self.node.first)
        full = all(_in_full(game, p, b, self.item) for p, b in zip(parts, self.before, strict=True))
        done = "выполнена полностью — выполняется" if full else "выполнена не полностью — не выполняется"
        game.log(
            "thereby",
            f"«{self.item.source_name}»: первая часть {done} часть после «при этом»",
            player=self.item.controller,
            rule="I-85",
        )
        if full:
            game.push(Resolve(self.node.then, self.item))


serializable(Thereby)
task(Checked)
