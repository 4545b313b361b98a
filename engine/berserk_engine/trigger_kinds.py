"""Trigger conditions (the words before the colon of a triggered ability) and payments (501.2).

Each kind of trigger condition is registered here: its typed event and the finder that says, for one
such event, which trigger points it makes and whose abilities look at it
(:func:`berserk_engine.triggers.trigger_kind`). The words of the conditions are the grammar's
(``language/syntax/triggers.lark``; their fields — ``language/lexicon/frames.toml``, ``[[trigger]]``): no
module registers phrases (issue 25). A condition «Когда …» is also read as printed «Каждый раз, когда …» —
the same condition: a triggered ability triggers every time it is met (401.4). The kinds of discards,
draws and a resolved spell live beside their mechanics (:mod:`berserk_engine.discard`,
:mod:`berserk_engine.deck`, :mod:`berserk_engine.resolution`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine.data import serializable
from berserk_engine.effects import gain
from berserk_engine.event_types import (
    AttackEvent,
    BlowEvent,
    CloseEvent,
    HealEvent,
    MoveEvent,
    PlayEvent,
    TurnEvent,
    WoundEvent,
)
from berserk_engine.keywords import term
from berserk_engine.triggers import (
    Point,
    Source,
    from_lki,
    listening,
    live,
    outside_play,
    side_of,
    source_of,
    trigger_kind,
    waiting_for,
    watchers,
)

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

term(__name__, "при-атаке-при-ударе")
term(__name__, "при-гибели-при-уничтожении")

NOTHING: tuple[Point, ...] = ()


def _self(src: Source | None, point: str, about: str) -> Iterable[Point]:
    return ((point, (src,), None, about),) if src is not None else NOTHING


# --- the card itself enters the game zone, dies, returns to hand ---------------------------------


def _entered(game: Game, ev: MoveEvent, before: list[str] | None) -> Iterable[Point]:
    if ev.to_zone != "play" or not listening(game, "enters_play", ev.new_id):
        return NOTHING
    return _self(live(game, ev.new_id), f"найм «{ev.name}»", ev.new_id)


def _died(game: Game, ev: MoveEvent, before: list[str] | None) -> Iterable[Point]:
    if ev.from_zone != "play" or ev.to_zone != "graveyard":
        return NOTHING
    return _self(from_lki(ev.lki), f"гибель «{ev.name}»", ev.card)


def _creature_died(game: Game, ev: MoveEvent, before: list[str] | None) -> Iterable[Point]:
    if ev.from_zone != "play" or ev.to_zone != "graveyard" or ev.card_type != "creature":
        return NOTHING
    s = game.state
    present = [c for c in (before if before is not None else s.play) if c != ev.card]
    witnesses = waiting_for(game, "creature_dies", present)
    return ((f"гибель «{ev.name}»", witnesses, ev.lki.get("controller"), ev.card),)


def _returned(game: Game, ev: MoveEvent, before: list[str] | None) -> Iterable[Point]:
    if ev.from_zone != "play" or ev.to_zone != "hand":
        return NOTHING
    return _self(from_lki(ev.lki), f"«{ev.name}» возвращается в руку", ev.card)


trigger_kind("enters_play", (MoveEvent,), _entered, "эта карта входит в игру", "найм-текст")
trigger_kind("dies", (MoveEvent,), _died, "эта карта уходит из игры на кладбище", "гибель-текст")
trigger_kind("creature_dies", (MoveEvent,), _creature_died, "погибает существо", "погибнуть-погибает")
trigger_kind("returns_to_hand", (MoveEvent,), _returned, "эта карта возвращается из игры в руку", "401.5")


# --- a creature enters the game zone; a card leaves the graveyard --------------------------------


def _creature_entered(game: Game, ev: MoveEvent, before: list[str] | None) -> Iterable[Point]:
    if ev.to_zone != "play" or ev.card_type != "creature":
        return NOTHING
    found = watchers(game, CREATURE_ENTERS)
    if found is None:
        return NOTHING
    card = game.state.cards.get(ev.new_id)
    actor = card.controller if card is not None else None
    return ((f"в игру входит «{ev.name}»", found, actor, ev.new_id),)


def _left_graveyard(game: Game, ev: MoveEvent, before: list[str] | None) -> Iterable[Point]:
    if ev.from_zone != "graveyard":
        return NOTHING
    found = watchers(game, LEAVES_GRAVEYARD)
    if found is None:
        return NOTHING
    return ((f"«{ev.name}» покидает кладбище игрока {ev.owner}", found, ev.owner, ev.new_id),)


CREATURE_ENTERS = trigger_kind(
    "creature_enters", (MoveEvent,), _creature_entered, "существо входит в игру", "срабатывающая-способность"
)
LEAVES_GRAVEYARD = trigger_kind(
    "leaves_graveyard", (MoveEvent,), _left_graveyard, "карта покидает кладбище", "кладбище"
)


# --- a creature kills a creature (interpretation I-60) ------------------------------------------


def killer(game: Game, ev: MoveEvent) -> str | None:
    """The object that killed a creature that died (I-60): the card whose wounds were the last dealt
    to it — in the game zone, or by its last known information if it has left it."""
    if ev.cause != "dies" or ev.card_type != "creature":
        return None
    serial = ev.lki.get("wounded_by")
    if serial is None:
        return None
    s = game.state
    for card_id in s.play:
        if s.cards[card_id].serial == serial:
            return card_id
    for card_id in reversed(list(s.lki)):
        if s.lki[card_id].get("serial") == serial:
            return card_id
    return None


def _is_creature(game: Game, card_id: str) -> bool:
    card = game.state.cards.get(card_id)
    kind = card.definition.type if card is not None else game.state.lki[card_id].get("type")
    return kind == "creature"


def _killed(game: Game, ev: MoveEvent, before: list[str] | None) -> Iterable[Point]:
    if ev.cause != "dies":
        return NOTHING
    by = killer(game, ev)
    if by is None or not _is_creature(game, by):
        return NOTHING
    src = source_of(game, by)
    return _self(src, f"«{src[1]}» убивает «{ev.name}»", by) if src is not None else NOTHING


def _creature_killed(game: Game, ev: MoveEvent, before: list[str] | None) -> Iterable[Point]:
    if ev.cause != "dies":
        return NOTHING
    found = watchers(game, CREATURE_KILLS)
    if found is None:
        return NOTHING
    by = killer(game, ev)
    if by is None or not _is_creature(game, by):
        return NOTHING
    return ((f"«{ev.name}» убито", found, side_of(game, by), by),)


trigger_kind("kills", (MoveEvent,), _killed, "это существо убивает существо", "погибнуть-погибает")
CREATURE_KILLS = trigger_kind(
    "creature_kills", (MoveEvent,), _creature_killed, "существо убивает существо", "погибнуть-погибает"
)

# --- the turn begins, ends ------------------------------------------------------------------------


def _turn(end: bool) -> Callable[[Game, TurnEvent, list[str] | None], Iterable[Point]]:
    event = "turn_end" if end else "turn_start"

    def find(game: Game, ev: TurnEvent, before: list[str] | None) -> Iterable[Point]:
        if ev.end != end:
            return NOTHING
        point = f"{'конец' if end else 'начало'} хода {ev.turn}"
        in_play = watchers(game, event)
        found: list[Point] = [(point, in_play, ev.player, "")] if in_play is not None else []
        found.append((point, outside_play(game, event), ev.player, ""))
        return found

    return find


trigger_kind("turn_start", (TurnEvent,), _turn(False), "начинается ход", "в-начале-хода")
trigger_kind("turn_end", (TurnEvent,), _turn(True), "кончается ход", "310.1")


# «В начале вашего следующего хода [эффект]» in a spell or an effect: a delayed effect (519.1) — the
# ability «В начале вашего хода: [эффект].» on its controller's hero for his next turn.


@dataclass(frozen=True, slots=True)
class DelayedToNextTurn:
    """A delayed effect waiting for the start of its controller's next turn (519.1)."""

    text: str

    def run(self, game: Game, item: QueueItem) -> None:
        hero = game.state.players[item.controller].hero
        gain(game, item, hero, "grant", text=self.text, until="player_turns:own:1")
        game.log(
            "delayed",
            f"Отложенный эффект «{self.text}» ждёт начала следующего хода игрока {item.controller}",
            card=hero,
            rule="519.1",
        )


# --- blows and attacks ----------------------------------------------------------------------------


def _blow(attack_only: bool, event: str) -> Callable[[Game, BlowEvent, list[str] | None], Iterable[Point]]:
    def find(game: Game, ev: BlowEvent, before: list[str] | None) -> Iterable[Point]:
        if attack_only and ev.kind not in ("attack", "shot"):
            return NOTHING
        if ev.card in game.state.cards and not listening(game, event, ev.card):
            return NOTHING  # in the game zone and not waiting for it (the index; cheap)
        return _self(source_of(game, ev.card), f"удар «{ev.name}»", ev.card)

    return find


trigger_kind("attacks", (BlowEvent,), _blow(True, "attacks"), "эта карта атакует", "при-атаке-при-ударе")
trigger_kind(
    "strikes", (BlowEvent,), _blow(False, "strikes"), "эта карта наносит удар", "при-атаке-при-ударе"
)


def _attacked(game: Game, ev: AttackEvent, before: list[str] | None) -> Iterable[Point]:
    if not listening(game, "attacked", ev.target):
        return NOTHING
    src = live(game, ev.target)
    return _self(src, f"атака на «{src[1]}»", ev.target) if src else NOTHING


def _creature_attacked(game: Game, ev: AttackEvent, before: list[str] | None) -> Iterable[Point]:
    found = watchers(game, CREATURE_ATTACKED)
    if found is None:
        return NOTHING
    target = game.state.cards.get(ev.target)
    if target is None or target.definition.type != "creature":
        return NOTHING
    return ((f"атака на «{target.name}»", found, target.controller, target.id),)


def _attack_declared(game: Game, ev: AttackEvent, before: list[str] | None) -> Iterable[Point]:
    if not ev.strike:
        return NOTHING  # «объявляет атаку»: the declaration of a strike attack (not a fight, not a shot)
    found = watchers(game, ATTACK_DECLARED)
    if found is None:
        return NOTHING
    return (("объявление атаки", found, side_of(game, ev.attacker), ev.attacker),)


trigger_kind("attacked", (AttackEvent,), _attacked, "эта карта становится целью атаки", "атакованная-карта")
CREATURE_ATTACKED = trigger_kind(
    "creature_attacked",
    (AttackEvent,),
    _creature_attacked,
    "существо становится целью атаки",
    "атакованная-карта",
)
ATTACK_DECLARED = trigger_kind(
    "attack_declared", (AttackEvent,), _attack_declared, "игрок объявляет атаку", "атакующая-карта"
)

# --- playing, wounds, heals -------------------------------------------------------------------------


def _played(game: Game, ev: PlayEvent, before: list[str] | None) -> Iterable[Point]:
    return _self(live(game, ev.card), f"розыгрыш «{ev.name}»", ev.card)


def _wounded(game: Game, ev: WoundEvent, before: list[str] | None) -> Iterable[Point]:
    # «Когда эта карта получает раны»: only wounds really dealt.
    if not ev.dealt or not listening(game, WOUNDED, ev.target):
        return NOTHING
    src = live(game, ev.target)
    return _self(src, f"раны «{src[1]}»", ev.target) if src else NOTHING


def _healed(game: Game, ev: HealEvent, before: list[str] | None) -> Iterable[Point]:
    # «Когда с этой карты снимаются раны»: only wounds really removed.
    if not ev.removed or not listening(game, HEALED, ev.target):
        return NOTHING
    src = live(game, ev.target)
    return _self(src, f"раны «{src[1]}»", ev.target) if src else NOTHING


trigger_kind("played", (PlayEvent,), _played, "эту карту разыгрывают", "срабатывающая-способность")
WOUNDED = trigger_kind("wounded", (WoundEvent,), _wounded, "эта карта получает раны", "раны")
HEALED = trigger_kind(
    "healed", (HealEvent,), _healed, "с этой карты снимаются раны", "излечить-излечение-на-х"
)

# --- a card closes, opens -----------------------------------------------------------------------------


def _turned(opening: bool, event: str) -> Callable[[Game, CloseEvent, list[str] | None], Iterable[Point]]:
    """«Когда эта карта открывается» (Открытие карты — also in the restoration phase, 304.3) and
    «… закрывается»: the card itself."""

    def find(game: Game, ev: CloseEvent, before: list[str] | None) -> Iterable[Point]:
        if ev.open != opening or not listening(game, event, ev.card):
            return NOTHING
        src = live(game, ev.card)
        words = "открытие" if opening else "закрытие"
        return _self(src, f"{words} «{src[1]}»", ev.card) if src else NOTHING

    return find


def _creature_turned(
    opening: bool, event: str
) -> Callable[[Game, CloseEvent, list[str] | None], Iterable[Point]]:
    def find(game: Game, ev: CloseEvent, before: list[str] | None) -> Iterable[Point]:
        if ev.open != opening:
            return NOTHING
        found = watchers(game, event)
        if found is None:
            return NOTHING
        card = game.state.cards.get(ev.card)
        if card is None or card.definition.type != "creature":
            return NOTHING
        words = "открытие" if opening else "закрытие"
        return ((f"{words} «{card.name}»", found, card.controller, card.id),)

    return find


OPENS = trigger_kind(
    "opens", (CloseEvent,), _turned(True, "opens"), "эта карта открывается", "открытие-карты"
)
trigger_kind(
    "closes", (CloseEvent,), _turned(False, "closes"), "эта карта закрывается", "закрыть-существо-карту"
)
trigger_kind(
    "creature_opens",
    (CloseEvent,),
    _creature_turned(True, "creature_opens"),
    "существо открывается",
    "открытие-карты",
)
trigger_kind(
    "creature_closes",
    (CloseEvent,),
    _creature_turned(False, "creature_closes"),
    "существо закрывается",
    "закрыть-существо-карту",
)


serializable(DelayedToNextTurn)
