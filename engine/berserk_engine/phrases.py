"""Trigger conditions (the words before the colon of a triggered ability) and payments (501.2).

Each kind of trigger condition is registered here beside its phrases: its typed event and the finder
that says, for one such event, which trigger points it makes and whose abilities look at it
(:func:`berserk_engine.triggers.trigger_kind`). A condition «Когда …» is also read as printed
«Каждый раз, когда …» — the same condition: a triggered ability triggers every time it is met (401.4).
The kinds of discards, draws and a resolved spell live beside their mechanics
(:mod:`berserk_engine.discard`, :mod:`berserk_engine.deck`, :mod:`berserk_engine.resolution`).

Effects register their phrases beside their code (:mod:`berserk_engine.effects`), keywords in their
modules (:mod:`berserk_engine.keywords`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine.abilities import Trigger
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
from berserk_engine.grammar import phrase
from berserk_engine.keywords import term
from berserk_engine.triggers import (
    Point,
    Source,
    condition,
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
# «ваше существо», «существо противника», «другое ваше существо» …: (words, Trigger.player, other)
WHOSE_CREATURE = (
    ("существо", "any", False),
    ("ваше существо", "own", False),
    ("существо противника", "enemy", False),
    ("другое существо", "any", True),
    ("другое ваше существо", "own", True),
)


def when(fmt: str, example: str, rule: str, build: Callable[[dict[str, Any]], Trigger]) -> None:
    """Register a condition «Когда …», and the same condition as printed «Каждый раз, когда …»."""
    condition(fmt, example, rule)(build)


def _trigger(event: str, player: str = "any", other: bool = False) -> Callable[[dict[str, Any]], Trigger]:
    def build(f: dict[str, Any]) -> Trigger:
        return Trigger(event, player=player, other=other)

    return build


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


ENTERS_PLAY = trigger_kind("enters_play", (MoveEvent,), _entered, "эта карта входит в игру", "найм-текст")
DIES = trigger_kind("dies", (MoveEvent,), _died, "эта карта уходит из игры на кладбище", "гибель-текст")
CREATURE_DIES = trigger_kind(
    "creature_dies", (MoveEvent,), _creature_died, "погибает существо", "погибнуть-погибает"
)
RETURNS = trigger_kind(
    "returns_to_hand", (MoveEvent,), _returned, "эта карта возвращается из игры в руку", "401.5"
)

phrase("trigger", "Найм", "Найм: возьмите карту.", "найм-текст")(_trigger(ENTERS_PLAY))
when(
    "Когда это существо вступает в игру",
    "Когда это существо вступает в игру: возьмите карту.",
    "найм-текст",
    _trigger(ENTERS_PLAY),
)
phrase("trigger", "Гибель", "Гибель: ранить на 1 героя противника.", "гибель-текст")(_trigger(DIES))
phrase("trigger", "При гибели", "При гибели: возьмите карту.", "при-гибели-при-уничтожении")(_trigger(DIES))
phrase("trigger", "При уничтожении", "При уничтожении: возьмите карту.", "при-гибели-при-уничтожении")(
    _trigger(DIES)
)
when(
    "Когда это существо погибает",
    "Когда это существо погибает: возьмите карту.",
    "гибель-текст",
    _trigger(DIES),
)
when(
    "Когда погибает существо",
    "Когда погибает существо: возьмите карту.",
    "погибнуть-погибает",
    _trigger(CREATURE_DIES),
)
when(
    "Когда погибает ваше существо",
    "Когда погибает ваше существо: излечить на 1 своего героя.",
    "погибнуть-погибает",
    _trigger(CREATURE_DIES, "own"),
)
when(
    "Когда погибает существо противника",
    "Когда погибает существо противника: возьмите карту.",
    "погибнуть-погибает",
    _trigger(CREATURE_DIES, "enemy"),
)
when(
    "Когда эта карта возвращается в руку",
    "Когда эта карта возвращается в руку: возьмите карту.",
    "401.5",
    _trigger(RETURNS),
)

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

for _who, _player, _other in WHOSE_CREATURE:
    when(
        f"Когда {_who} вступает в игру",
        f"Когда {_who} вступает в игру: возьмите карту.",
        "срабатывающая-способность",
        _trigger(CREATURE_ENTERS, _player, _other),
    )
for _where, _player in (("кладбище", "any"), ("ваше кладбище", "own"), ("кладбище противника", "enemy")):
    when(
        f"Когда карта покидает {_where}",
        f"Когда карта покидает {_where}: возьмите карту.",
        "кладбище",
        _trigger(LEAVES_GRAVEYARD, _player),
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
    kind = game.defs[card.name].type if card is not None else game.state.lki[card_id].get("type")
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


KILLS = trigger_kind("kills", (MoveEvent,), _killed, "это существо убивает существо", "погибнуть-погибает")
CREATURE_KILLS = trigger_kind(
    "creature_kills", (MoveEvent,), _creature_killed, "существо убивает существо", "погибнуть-погибает"
)
when(
    "Когда это существо убивает существо",
    "Когда это существо убивает существо: излечиться на 1.",
    "погибнуть-погибает",
    _trigger(KILLS),
)
for _who, _player, _other in WHOSE_CREATURE:
    when(
        f"Когда {_who} убивает существо",
        f"Когда {_who} убивает существо: возьмите карту.",
        "погибнуть-погибает",
        _trigger(CREATURE_KILLS, _player, _other),
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


TURN_START = trigger_kind("turn_start", (TurnEvent,), _turn(False), "начинается ход", "в-начале-хода")
TURN_END = trigger_kind("turn_end", (TurnEvent,), _turn(True), "кончается ход", "310.1")


def _turn_phrase(fmt: str, example: str, rule: str, trigger: Trigger) -> None:
    def build(f: dict[str, Any]) -> Trigger:
        return trigger

    phrase("trigger", fmt, example, rule)(build)


for _fmt, _example, _rule, _built in (
    ("В начале хода", "В начале хода: ранить на 1 героя противника.", "в-начале-хода", Trigger(TURN_START)),
    ("В начале каждого хода", "В начале каждого хода: возьмите карту.", "в-начале-хода", Trigger(TURN_START)),
    (
        "В начале вашего хода",
        "В начале вашего хода: излечить на 1 своего героя.",
        "в-начале-хода",
        Trigger(TURN_START, own_turn_only=True),
    ),
    (
        "В начале своего хода",
        "В начале своего хода: возьмите карту.",
        "в-начале-хода",
        Trigger(TURN_START, own_turn_only=True),
    ),
    (
        "В начале хода противника",
        "В начале хода противника: излечить на 1 своего героя.",
        "в-начале-хода",
        Trigger(TURN_START, player="enemy"),
    ),
    (
        "В начале вашего следующего хода",
        "В начале вашего следующего хода: возьмите карту.",
        "в-начале-хода",
        Trigger(TURN_START, own_turn_only=True, next_turn=True),
    ),
    ("В конце хода", "В конце хода: излечить на 1 своего героя.", "310.1", Trigger(TURN_END)),
    (
        "В конце каждого хода",
        "В конце каждого хода: ранить на 1 героя противника.",
        "310.1",
        Trigger(TURN_END),
    ),
    (
        "В конце вашего хода",
        "В конце вашего хода: излечить на 1 своего героя.",
        "310.1",
        Trigger(TURN_END, own_turn_only=True),
    ),
    (
        "В конце своего хода",
        "В конце своего хода: излечиться на 1.",
        "310.1",
        Trigger(TURN_END, own_turn_only=True),
    ),
    (
        "В конце хода противника",
        "В конце хода противника: возьмите карту.",
        "310.1",
        Trigger(TURN_END, player="enemy"),
    ),
):
    _turn_phrase(_fmt, _example, _rule, _built)

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


ATTACKS = trigger_kind(
    "attacks", (BlowEvent,), _blow(True, "attacks"), "эта карта атакует", "при-атаке-при-ударе"
)
STRIKES = trigger_kind(
    "strikes", (BlowEvent,), _blow(False, "strikes"), "эта карта наносит удар", "при-атаке-при-ударе"
)
phrase("trigger", "При атаке", "При атаке: ранить на 1 героя противника.", "при-атаке-при-ударе")(
    _trigger(ATTACKS)
)
phrase("trigger", "При ударе", "При ударе: излечиться на 1.", "при-атаке-при-ударе")(_trigger(STRIKES))


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
    if target is None or game.defs[target.name].type != "creature":
        return NOTHING
    return ((f"атака на «{target.name}»", found, target.controller, target.id),)


def _attack_declared(game: Game, ev: AttackEvent, before: list[str] | None) -> Iterable[Point]:
    if not ev.strike:
        return NOTHING  # «объявляет атаку»: the declaration of a strike attack (not a fight, not a shot)
    found = watchers(game, ATTACK_DECLARED)
    if found is None:
        return NOTHING
    return (("объявление атаки", found, side_of(game, ev.attacker), ev.attacker),)


ATTACKED = trigger_kind(
    "attacked", (AttackEvent,), _attacked, "эта карта становится целью атаки", "атакованная-карта"
)
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
when(
    "Когда это существо становится целью атаки",
    "Когда это существо становится целью атаки: излечиться на 1.",
    "атакованная-карта",
    _trigger(ATTACKED),
)
for _who, _player, _other in WHOSE_CREATURE:
    when(
        f"Когда {_who} становится целью атаки",
        f"Когда {_who} становится целью атаки: возьмите карту.",
        "атакованная-карта",
        _trigger(CREATURE_ATTACKED, _player, _other),
    )
when(
    "Когда противник объявляет атаку",
    "Когда противник объявляет атаку: излечить на 1 своего героя.",
    "атакующая-карта",
    _trigger(ATTACK_DECLARED, "enemy"),
)
when(
    "Когда вы объявляете атаку",
    "Когда вы объявляете атаку: возьмите карту.",
    "атакующая-карта",
    _trigger(ATTACK_DECLARED, "own"),
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


PLAYED = trigger_kind("played", (PlayEvent,), _played, "эту карту разыгрывают", "срабатывающая-способность")
WOUNDED = trigger_kind("wounded", (WoundEvent,), _wounded, "эта карта получает раны", "раны")
HEALED = trigger_kind(
    "healed", (HealEvent,), _healed, "с этой карты снимаются раны", "излечить-излечение-на-х"
)
when(
    "Когда вы разыгрываете эту карту",
    "Когда вы разыгрываете эту карту: возьмите карту.",
    "срабатывающая-способность",
    _trigger(PLAYED),
)
when(
    "Когда эта карта получает раны",
    "Когда эта карта получает раны: возьмите карту.",
    "раны",
    _trigger(WOUNDED),
)
when(
    "Когда с этой карты снимаются раны",
    "Когда с этой карты снимаются раны: возьмите карту.",
    "излечить-излечение-на-х",
    _trigger(HEALED),
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
        if card is None or game.defs[card.name].type != "creature":
            return NOTHING
        words = "открытие" if opening else "закрытие"
        return ((f"{words} «{card.name}»", found, card.controller, card.id),)

    return find


OPENS = trigger_kind(
    "opens", (CloseEvent,), _turned(True, "opens"), "эта карта открывается", "открытие-карты"
)
CLOSES = trigger_kind(
    "closes", (CloseEvent,), _turned(False, "closes"), "эта карта закрывается", "закрыть-существо-карту"
)
CREATURE_OPENS = trigger_kind(
    "creature_opens",
    (CloseEvent,),
    _creature_turned(True, "creature_opens"),
    "существо открывается",
    "открытие-карты",
)
CREATURE_CLOSES = trigger_kind(
    "creature_closes",
    (CloseEvent,),
    _creature_turned(False, "creature_closes"),
    "существо закрывается",
    "закрыть-существо-карту",
)
when(
    "Когда эта карта открывается",
    "Когда эта карта открывается: возьмите карту.",
    "открытие-карты",
    _trigger(OPENS),
)
when(
    "Когда это существо открывается",
    "Когда это существо открывается: излечиться на 1.",
    "открытие-карты",
    _trigger(OPENS),
)
when(
    "Когда это существо закрывается",
    "Когда это существо закрывается: возьмите карту.",
    "закрыть-существо-карту",
    _trigger(CLOSES),
)
for _who, _player, _other in WHOSE_CREATURE:
    when(
        f"Когда {_who} открывается",
        f"Когда {_who} открывается: излечить на 1 своего героя.",
        "открытие-карты",
        _trigger(CREATURE_OPENS, _player, _other),
    )
    when(
        f"Когда {_who} закрывается",
        f"Когда {_who} закрывается: ранить на 1 героя противника.",
        "закрыть-существо-карту",
        _trigger(CREATURE_CLOSES, _player, _other),
    )


serializable(DelayedToNextTurn)
