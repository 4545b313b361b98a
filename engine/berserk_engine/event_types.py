"""Typed events: what is about to happen to the game — a card takes wounds, is healed, draws, moves to
another zone, closes … Plain data, the leaf of the engine's imports: the pipeline that performs them is
:mod:`berserk_engine.events` (which re-exports them), the moving of cards :mod:`berserk_engine.zones`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from berserk_engine.data import serializable

# --- events ------------------------------------------------------------------------------------


@dataclass(slots=True)
class WoundEvent:
    """Ранить на Х: put a marker «Х ран» on the card (glossary «Раны», «Ранить на Х»)."""

    target: str
    amount: int
    source: str | None = None
    source_name: str = ""
    attack: bool = False  # wounds of an attack (a strike attack or a shot), not of a counter-blow
    blow: str = ""  # "удар" | "ответный удар" | "выстрел" | "" (an ability)
    ability: str = ""  # the text of the ability that deals them
    cost: bool = False  # wounds taken as payment (501.2)
    origin: str = ""  # the kind of the ability that deals them: "spell" | "triggered" | "activated"
    chosen: bool = False  # the card is a chosen target of that ability (Выбранное существо)
    paying: str = ""  # the Queue item these wounds pay for (501.2.1: an incomplete payment is reported)
    prevented: int = 0
    dealt: int = 0
    applied: tuple[str, ...] = ()  # replacement effects already applied to this event

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        target: str,
        amount: int,
        source: str | None = None,
        source_name: str = "",
        attack: bool = False,
        blow: str = "",
        ability: str = "",
        cost: bool = False,
        origin: str = "",
        chosen: bool = False,
        paying: str = "",
        prevented: int = 0,
        dealt: int = 0,
        applied: tuple[str, ...] = (),
    ) -> None:
        self.target = target
        self.amount = amount
        self.source = source
        self.source_name = source_name
        self.attack = attack
        self.blow = blow
        self.ability = ability
        self.cost = cost
        self.origin = origin
        self.chosen = chosen
        self.paying = paying
        self.prevented = prevented
        self.dealt = dealt
        self.applied = applied


@dataclass(slots=True)
class HealEvent:
    """Излечить на X (или полностью): remove wounds; ``removed`` is how many were removed."""

    target: str
    amount: int
    full: bool = False
    source: str | None = None
    source_name: str = ""
    removed: int = 0
    applied: tuple[str, ...] = ()

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        target: str,
        amount: int,
        full: bool = False,
        source: str | None = None,
        source_name: str = "",
        removed: int = 0,
        applied: tuple[str, ...] = (),
    ) -> None:
        self.target = target
        self.amount = amount
        self.full = full
        self.source = source
        self.source_name = source_name
        self.removed = removed
        self.applied = applied


@dataclass(slots=True)
class DrawEvent:
    """Возьмите карту: the top card of the player's deck goes to his hand; ``failed`` when the deck is
    empty. ``accumulation``: the draw of 304.2 (a failure counts towards losing)."""

    player: str
    reason: str = ""
    accumulation: bool = False
    failed: bool = False
    card: str = ""  # the new object in hand
    applied: tuple[str, ...] = ()

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        player: str,
        reason: str = "",
        accumulation: bool = False,
        failed: bool = False,
        card: str = "",
        applied: tuple[str, ...] = (),
    ) -> None:
        self.player = player
        self.reason = reason
        self.accumulation = accumulation
        self.failed = failed
        self.card = card
        self.applied = applied


@dataclass(slots=True)
class MoveEvent:
    """A card goes to another zone — the only way a card ever changes zone (see zones.move).

    ``cause``: "play" (розыгрыш), "dies" (гибель: wounds ≥ lives), "destroy" (уничтожить), "put"
    (убрать / положить на кладбище), "discard" (сбросьте), "return" (вернуть в руку / в колоду), "draw",
    "search" (поиск), "summon" (вызов), "resurrect" (возрождение), "uniqueness", "resolved" (a spell
    after its abilities), "place" (поместите, 204.5), "game_over" (604.2). ``position``: where in a
    deck ("top", "bottom", "shuffle").
    """

    card: str
    to_zone: str
    cause: str = ""
    position: str = "shuffle"
    controller: str | None = None
    closed: bool = False
    face_down: bool = False
    source: str | None = None
    source_name: str = ""
    deck_of: str | None = None  # 204.5: a placed card goes to this player's deck, not its owner's
    from_zone: str = ""
    new_id: str = ""
    name: str = ""
    owner: str = ""
    card_type: str = ""
    lki: dict[str, Any] = field(default_factory=dict)
    applied: tuple[str, ...] = ()

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        card: str,
        to_zone: str,
        cause: str = "",
        position: str = "shuffle",
        controller: str | None = None,
        closed: bool = False,
        face_down: bool = False,
        source: str | None = None,
        source_name: str = "",
        deck_of: str | None = None,
        from_zone: str = "",
        new_id: str = "",
        name: str = "",
        owner: str = "",
        card_type: str = "",
        lki: dict[str, Any] | None = None,
        applied: tuple[str, ...] = (),
    ) -> None:
        self.card = card
        self.to_zone = to_zone
        self.cause = cause
        self.position = position
        self.controller = controller
        self.closed = closed
        self.face_down = face_down
        self.source = source
        self.source_name = source_name
        self.deck_of = deck_of
        self.from_zone = from_zone
        self.new_id = new_id
        self.name = name
        self.owner = owner
        self.card_type = card_type
        self.lki = {} if lki is None else lki
        self.applied = applied


@dataclass(slots=True)
class CloseEvent:
    """Закрыть: an open card turns 90º; ``open`` = True for Открытие карты. ``payment``: the card
    closes to pay for an action (атака, защитник, [Закрыть])."""

    card: str
    open: bool = False
    payment: str = ""
    paying: str = ""  # the Queue item this closing pays for (501.2.1)
    applied: tuple[str, ...] = ()
    rule: str = ""  # the rule that opens or closes it, for the log (303.1: the restoration phase)

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        card: str,
        open: bool = False,
        payment: str = "",
        paying: str = "",
        applied: tuple[str, ...] = (),
        rule: str = "",
    ) -> None:
        self.card = card
        self.open = open
        self.payment = payment
        self.paying = paying
        self.applied = applied
        self.rule = rule


@dataclass(slots=True)
class BlowEvent:
    """A blow is struck (Удар): ``kind`` "attack" (the strike of an attack), "counter" (Ответный удар —
    not an attack), "shot" (Выстрел). Happens even when its strength is 0 («При ударе»)."""

    card: str
    target: str
    strength: int
    kind: str
    name: str = ""
    applied: tuple[str, ...] = ()

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        card: str,
        target: str,
        strength: int,
        kind: str,
        name: str = "",
        applied: tuple[str, ...] = (),
    ) -> None:
        self.card = card
        self.target = target
        self.strength = strength
        self.kind = kind
        self.name = name
        self.applied = applied


@dataclass(slots=True)
class LivesEvent:
    """«Жизни сокращаются до Х»: every wound marker is removed, then additional or negative lives make
    the level of lives equal to ``value``. Not a wound and not a heal: nothing that reacts to wounds
    being dealt or removed reacts to it."""

    target: str
    value: int
    source: str | None = None
    source_name: str = ""
    applied: tuple[str, ...] = ()


@dataclass(slots=True)
class AttackEvent:
    """An attack is declared: ``attacker`` attacks ``target`` (Атакующая карта, Атакованная карта)."""

    attacker: str
    target: str
    strike: bool = True
    applied: tuple[str, ...] = ()

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        attacker: str,
        target: str,
        strike: bool = True,
        applied: tuple[str, ...] = (),
    ) -> None:
        self.attacker = attacker
        self.target = target
        self.strike = strike
        self.applied = applied


@dataclass(slots=True)
class PlayEvent:
    """A card is played from hand (309.1) by ``player`` (its new object is ``card``)."""

    card: str
    player: str
    name: str = ""
    applied: tuple[str, ...] = ()

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, card: str, player: str, name: str = "", applied: tuple[str, ...] = ()) -> None:
        self.card = card
        self.player = player
        self.name = name
        self.applied = applied


@dataclass(slots=True)
class TurnEvent:
    """«В начале хода» (``end`` False, the accumulation phase, 304.3) or «в конце хода» (310.1)."""

    player: str
    turn: int
    end: bool = False
    applied: tuple[str, ...] = ()

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(self, player: str, turn: int, end: bool = False, applied: tuple[str, ...] = ()) -> None:
        self.player = player
        self.turn = turn
        self.end = end
        self.applied = applied


@dataclass(slots=True)
class ResolvedEvent:
    """An ability has been resolved — partially resolved counts as resolved (119.8)."""

    item: str
    text: str
    controller: str
    source: str
    kind: str = ""  # the QueueItem's kind: "triggered" | "activated" | "spell" | "attack"
    applied: tuple[str, ...] = ()

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        item: str,
        text: str,
        controller: str,
        source: str,
        kind: str = "",
        applied: tuple[str, ...] = (),
    ) -> None:
        self.item = item
        self.text = text
        self.controller = controller
        self.source = source
        self.kind = kind
        self.applied = applied


serializable(
    WoundEvent,
    HealEvent,
    DrawEvent,
    MoveEvent,
    CloseEvent,
    BlowEvent,
    LivesEvent,
    AttackEvent,
    PlayEvent,
    TurnEvent,
    ResolvedEvent,
)
