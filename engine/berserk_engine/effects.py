"""Effects of card text (Эффект — результат выполненной способности) and the phrases that name them.

Each effect is an immutable node built by the grammar; on resolution :class:`Resolve` runs it, and it
turns into events (through :mod:`berserk_engine.events`) or into further tasks — a choice of cards to
discard pauses the ability until the player answers, and it continues from there.

Every effect resolves «настолько, насколько это возможно» (518.1): a chosen target that left the game
zone is skipped, a deck with fewer cards gives what it has (518.3), healing removes at most the wounds
there are (518.2), a hand with fewer cards is discarded whole (518.4).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from berserk_engine import selectors
from berserk_engine.abilities import Amount, Selector
from berserk_engine.data import serializable
from berserk_engine.events import CloseEvent, DrawEvent, HealEvent, MoveEvent, WoundEvent, perform
from berserk_engine.grammar import NODES
from berserk_engine.keywords import term
from berserk_engine.state import ContinuousEffect, QueueItem
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game

term(__name__, "излечить-излечение-на-х")
term(__name__, "полностью-излечить")
term(__name__, "возьмите-карту")
term(__name__, "получает-текст-получает-особенность")
term(__name__, "уничтожить-карту")
term(__name__, "сбросьте-карту")


@dataclass(slots=True)
class Resolve(Task):
    """Run one effect node of the ability being resolved."""

    node: Any
    item: QueueItem

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, node: Any, item: QueueItem) -> None:
        self.node = node
        self.item = item

    def run(self, game: Game) -> None:
        self.node.run(game, self.item)


def amount(game: Game, value: Amount, item: QueueItem) -> int:
    if value.value is not None:
        return value.value
    if value.prop == "count" and value.selector is not None:  # «где Х – число ваших гномов»
        return len(selectors.resolve(game, value.selector, item))
    if value.prop == "hand":  # «где Х – число карт в вашей руке»
        return len(game.state.players[item.controller].zones["hand"])
    if value.prop == "drawn":  # «где Х – количество карт, которые вы взяли в этот ход» (I-88)
        return game.state.players[item.controller].drawn_this_turn
    if value.prop == "drawn_thus":  # «где Х – количество карт, взятых таким образом» (I-107)
        return int(item.event.get("drawn_thus", 0))
    if value.prop == "strike_wounds":  # «Каждый раз, когда наносит Х ран ударом герою, …» (I-111)
        return int(item.event.get("strike_wounds", 0))
    if value.prop == "X":  # the Х of a variable cost, chosen when the spell was played (I-66)
        return int(item.event["x"])
    if value.selector is not None and value.selector.mode == "ref":  # a card a spell named before (I-113)
        named = named_card(game, value.selector, item)
        return 0 if named is None else int(named[value.prop or "strike"])
    return int(game.source_info(item)[value.prop or "strike"])


def named_card(game: Game, selector: Selector, item: QueueItem) -> dict[str, Any] | None:
    """The card a spell named before «сила удара этого механизма» (a reference, I-113): as it is if it is
    still in the game zone, otherwise its last known information (403.1) — the card destroyed by the sentence
    before has the strike it had when it left play; None when no card was named in that slot."""
    slot = selector.slot
    named = item.targets[slot] if 0 <= slot < len(item.targets) else None
    if not named:
        return None
    # the named card read as a source is read (Game.source_info, 403.1); a copy made with the dataclass's
    # own __init__ (copy.copy would call __new__ alone, which a compiled class refuses)
    probe = dataclasses.replace(item, source=named, lki={})
    known: dict[str, Any] = game.source_info(probe)
    return known or None


# --- the effects ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sequence:
    """Several effects of one ability, one after another («… и …», «…, затем …»)."""

    parts: tuple[Any, ...]

    def run(self, game: Game, item: QueueItem) -> None:
        game.push(*(Resolve(p, item) for p in self.parts))

    def events(self, game: Game, item: QueueItem) -> list[Any]:
        return [e for p in self.parts for e in p.events(game, item)]


@dataclass(frozen=True, slots=True)
class MayDo:
    """«…, затем вы можете [часть], …»: an optional part of a sequence. On resolution its controller
    decides whether to do it (decision ``choose``: «да» / «нет», interpretation I-55); the parts before
    and after it are done either way. Its targets are named at the declaration like any others."""

    part: Any
    words: str = ""

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.choices import Choose

        player = item.controller
        game.push(
            Choose(
                player,
                [["да", f"{self.words}"], ["нет", f"не делать: {self.words}"]],
                "401.7",
                f"Игрок {player}: «{item.source_name}» — вы можете {self.words}. Делать?",
                MayAnswer(self.part, item),
            )
        )


@dataclass(slots=True)
class MayAnswer(Task):
    """The controller's answer to :class:`MayDo`: «да» resolves the optional part."""

    part: Any
    item: QueueItem
    choice: str = ""

    def run(self, game: Game) -> None:
        game.log(
            "may",
            f"Игрок {self.item.controller}: «{self.item.source_name}» — "
            + ("делает" if self.choice == "да" else "не делает")
            + " необязательную часть",
            player=self.item.controller,
            rule="401.7",
        )
        if self.choice == "да":
            game.push(Resolve(self.part, self.item))


@dataclass(frozen=True, slots=True)
class Wound:
    """Ранить на Х [цель]: нанести на цель маркер «Х ран»."""

    amount: Amount
    target: Selector

    def run(self, game: Game, item: QueueItem) -> None:
        events = self.events(game, item)
        if events:
            perform(game, *events)

    def events(self, game: Game, item: QueueItem) -> list[Any]:
        """The events of the effect now (also what a replacement effect puts in place of another)."""
        n = amount(game, self.amount, item)
        targets = selectors.resolve(game, self.target, item)
        return [
            WoundEvent(
                t,
                n,
                item.source,
                item.source_name,
                ability=item.text,
                origin=item.kind,
                chosen=self.target.chosen,
            )
            for t in targets
        ]


@dataclass(frozen=True, slots=True)
class Heal:
    """Излечить на X (Полностью излечить): снять с персонажа X ран (все, если ран меньше — 518.2)."""

    amount: Amount
    target: Selector
    full: bool = False

    def run(self, game: Game, item: QueueItem) -> None:
        events = self.events(game, item)
        if events:
            perform(game, *events)

    def events(self, game: Game, item: QueueItem) -> list[Any]:
        n = 0 if self.full else amount(game, self.amount, item)
        targets = selectors.resolve(game, self.target, item)
        return [HealEvent(t, n, self.full, item.source, item.source_name) for t in targets]


@dataclass(frozen=True, slots=True)
class Draw:
    """Возьмите карту: взять в руку верхнюю карту своей колоды (сколько возможно — 518.3)."""

    amount: Amount

    def run(self, game: Game, item: QueueItem) -> None:
        events = self.events(game, item)
        if events:
            perform(game, *events)

    def events(self, game: Game, item: QueueItem) -> list[Any]:
        n = amount(game, self.amount, item)
        return [DrawEvent(item.controller, reason=item.text) for _ in range(max(n, 0))]


# «Возьмите карты за каждое существо в игре с ударом 5 или более» (issue 29, I-104): a card for each card of
# the group, counted when the effect resolves (an ``Amount`` "count")
DRAW_PER_FORM = (
    "возьмите карты за {what}",
    "возьмите карты за каждое существо в игре с ударом 5 или более",
    "I-104",
)


@dataclass(frozen=True, slots=True)
class StrikeBonus:
    """[Цель] получает +X (−X) к удару [на срок]."""

    amount: int
    target: Selector
    until: str = "end_of_turn"

    def run(self, game: Game, item: QueueItem) -> None:
        for t in selectors.resolve(game, self.target, item):
            gain(game, item, t, "strike", amount=self.amount, until=self.until)


@dataclass(frozen=True, slots=True)
class Grant:
    """[Цель] получает [текст] [на срок] («Получает [текст]»: by default until the end of the battle)."""

    text: str
    target: Selector
    until: str = "leaves_play"

    def run(self, game: Game, item: QueueItem) -> None:
        for t in selectors.resolve(game, self.target, item):
            gain(game, item, t, "grant", text=self.text, until=self.until)


# «[цель] получает «[способность]» [срок]» (issue 29, I-93): the quoted text is an ability, read by the same
# reader, and the target gets it — the canonical words, an example, what it rests on
GRANT_QUOTED_FORM = (
    "{t:Nom} получает «{what}»{d}",
    "выбранное существо получает «При атаке: возьмите карту.» до конца хода",
    "I-93",
)
GRANT_QUOTED_PLURAL = (  # a subject in the plural: «ваши существа получают …»
    "{t:Nom} получают «{what}»{d}",
    "ваши существа получают «Первый удар.» до конца хода",
    "I-93",
)


@dataclass(frozen=True, slots=True)
class GrantCounted:
    """[Цель] получает [текст с числом], the number known only on resolution: «Отравить существо на Х,
    где Х – …» (I-87, I-88), «… на Х» of a spell whose cost holds Х (I-66). ``text`` holds «{n}»; a text
    whose number is zero or less is not granted («Отравление 0 нельзя заявить»)."""

    text: str
    amount: Amount
    target: Selector
    until: str = "leaves_play"

    def run(self, game: Game, item: QueueItem) -> None:
        n = amount(game, self.amount, item)
        if n < 1:
            game.log(
                "no_effect",
                f"«{self.text.format(n=n)}» не получает никто: Х = {n}",
                rule="отравление-на-х",
            )
            return
        Grant(self.text.format(n=n), self.target, self.until).run(game, item)


@dataclass(frozen=True, slots=True)
class Move:
    """A card goes to another zone: «уничтожить» (to the graveyard), «вернуть в руку» …"""

    target: Selector
    to_zone: str
    cause: str
    position: str = "shuffle"

    def run(self, game: Game, item: QueueItem) -> None:
        targets = selectors.resolve(game, self.target, item)
        if targets:
            perform(
                game,
                *(
                    MoveEvent(
                        t,
                        self.to_zone,
                        self.cause,
                        self.position,
                        source=item.source,
                        source_name=item.source_name,
                    )
                    for t in targets
                ),
            )


# «положите [цель] под низ колоды», «положите [цель] в руку владельца» (issue 29): a Move to the owner's deck
# or hand (204.4, 203.4) in the printed verb's canonical words, by the frame it shares with «вернуть …»
PUT_FORMS = {
    "return_to_bottom": (
        "положить {t:Acc} под низ колоды",
        "положите выбранное существо под низ колоды",
        "204.4",
    ),
    "return_to_hand": (
        "положить {t:Acc} в руку владельца",
        "положите выбранное существо в руку владельца",
        "203.4",
    ),
}


@dataclass(frozen=True, slots=True)
class Close:
    """Закрыть (открыть) [цель]."""

    target: Selector
    open: bool = False

    def run(self, game: Game, item: QueueItem) -> None:
        targets = selectors.resolve(game, self.target, item)
        if targets:
            perform(game, *(CloseEvent(t, open=self.open) for t in targets))


@dataclass(frozen=True, slots=True)
class Discard:
    """Сбросьте карту (X карт): the player chooses cards of his hand and puts them in his graveyard;
    with fewer cards in hand he discards them all (518.4). ``opponent``: «противник сбрасывает …» — the
    opponent discards, choosing himself («Игрок на свой выбор сбрасывает карту со своей руки»)."""

    count: int
    opponent: bool = False

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.choices import ChooseCards

        player = game.opponent(item.controller) if self.opponent else item.controller
        hand = list(game.state.players[player].zones["hand"])
        if len(hand) <= self.count:
            if hand:
                perform(game, *(MoveEvent(c, "graveyard", "discard") for c in hand))
            return
        game.push(
            ChooseCards(
                player,
                hand,
                self.count,
                self.count,
                "518.4" if self.count > 1 else "сбросьте-карту",
                f"Игрок {player}: выберите карты для сброса ({self.count})",
                then=DiscardChosen(),
            )
        )


@dataclass(slots=True)
class DiscardChosen(Task):
    cards: list[str] = field(default_factory=list)

    def run(self, game: Game) -> None:
        perform(game, *(MoveEvent(c, "graveyard", "discard") for c in self.cards))


def gain(game: Game, item: QueueItem, target: str, kind: str, **fields: Any) -> None:
    """Put a continuous effect on a card (an event: it is logged and may be reacted to)."""
    from berserk_engine import characteristics as ch
    from berserk_engine.grammar import player_turns

    s = game.state
    card = s.cards[target]
    turns = player_turns(fields.get("until", ""))
    if turns is not None:  # «на один (на Х) ходов игрока»
        side, count = turns
        player = item.controller if side == "own" else game.opponent(item.controller)
        fields = {**fields, "until": "player_turns", "player": player, "turns": count}
    e = ContinuousEffect(
        id=s.next_id("e"),
        kind=kind,
        target=target,
        source=item.source,
        source_name=item.source_name,
        **fields,
    )
    ch.add_effect(game, e)
    until = ch.UNTIL_WORDS.get(e.until, e.until)
    game.log(
        "effect",
        f"«{game.name(card)}» {ch.describe(e)} ({until})",
        card=target,
        effect=e.id,
        rule="получает-текст-получает-особенность" if kind == "grant" else "эффект",
    )


NODES["sequence"] = Sequence  # the grammar joins clauses into it («…, затем …»)
NODES["may"] = MayDo  # «…, затем вы можете …»: the grammar wraps an optional part in it (I-55)
serializable(Sequence, MayDo, Wound, Heal, Draw, StrikeBonus, Grant, GrantCounted, Move, Close, Discard)
# (Fight: combat)
task(Resolve, DiscardChosen, MayAnswer)
