"""Game state: players, cards and their zones (Part 2), the Queue (Part 4), the turn (Part 3),
continuous effects and the resolution stack.

Plain data only (every class is :func:`~berserk_engine.data.serializable`); the rules that change it
live in ``zones``, ``events``, ``turn``, ``queue``, ``combat`` … and the stack of ``tasks``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from berserk_engine.data import serializable

PLAYERS = ("А", "Б")

MAX_COINS = 10  # 304.1

# Marker kinds of the glossary: «Ранить на Х — нанести на цель маркер „Х ран“».
WOUNDS = "раны"


@dataclass(slots=True)
class Card:
    """One object in a zone. A card that changes zone becomes a new object with a new ``id``
    (203.4, 204.4); ``serial`` is the physical card, never shown (it proves that cards are conserved)."""

    id: str
    name: str  # key of the card's definition in the game's library
    owner: str
    controller: str
    zone: str
    serial: int
    closed: bool = False
    face_down: bool = False  # «рубашкой вверх» (Скрытность)
    markers: dict[str, int] = field(default_factory=dict)  # marker kind -> count («раны» …)
    uses: dict[str, int] = field(default_factory=dict)  # «раз за ход» special markers, by ability text
    this_turn: dict[str, int] = field(default_factory=dict)  # per-turn bookkeeping: attacks, prevented …
    entered_turn: int | None = None  # the turn it entered the game zone

    @property
    def wounds(self) -> int:
        return self.markers.get(WOUNDS, 0)


@dataclass(slots=True)
class Player:
    name: str
    hero: str  # object id of the hero (in the game zone from the start, 202.1)
    coins_open: int = 0
    coins_closed: int = 0
    draw_failures: int = 0  # 304.2: failures to draw in the accumulation phase
    zones: dict[str, list[str]] = field(default_factory=dict)

    @property
    def coins(self) -> int:
        return self.coins_open + self.coins_closed


@dataclass(slots=True)
class PendingTrigger:
    """A triggered ability whose condition happened and that waits to be declared (401.4)."""

    id: str
    controller: str
    source: str  # object id of the source when the condition happened
    source_name: str
    text: str  # the ability's sentence
    point: str  # the trigger point, in words (402.2)
    lki: dict[str, Any]
    event: dict[str, Any] = field(default_factory=dict)  # what happened (for «его», «ту карту» …)


@dataclass(slots=True)
class QueueItem:
    """A declared ability in the Queue (401.1): it exists independently of its source (403.1)."""

    id: str
    kind: str  # "triggered" | "activated" | "spell" | "attack"
    controller: str
    source: str  # object id of the source at declaration
    source_name: str
    text: str  # the ability's sentence, or the words of the attack
    targets: list[str] = field(default_factory=list)
    point: str | None = None
    lki: dict[str, Any] = field(default_factory=dict)  # source info when declared
    attack: dict[str, Any] | None = None  # strike attack: attacker, target, reflecting, defender …
    paid: bool = True  # 501.2.1: the payment was complete and not replaced
    event: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class ContinuousEffect:
    """An effect that lasts (Эффект — результат выполненной способности), as data.

    ``kind``: "strike" (+X/−X к удару), "life" (дополнительные/отрицательные жизни), "grant"
    (получает [текст]), "lose_text" (теряет особенности). ``until``: "end_of_turn" (310.2),
    "leaves_play" (while the card stays the same object: «до конца боя»), "source_leaves" (while the
    source is in play), "player_turns" (на один / на Х ходов игрока ``player``: ``turns`` left).
    """

    id: str
    kind: str
    target: str
    source: str | None = None
    source_name: str = ""
    amount: int = 0
    text: str = ""
    until: str = "leaves_play"
    player: str | None = None
    turns: int = 0
    started: bool = False  # player_turns: the first of the player's turns has begun


@dataclass(slots=True)
class GameState:
    library: dict[str, dict[str, Any]]  # card name -> printed properties (as in the position)
    cards: dict[str, Card]  # every current object, by id
    players: dict[str, Player]
    play: list[str]  # the game zone, in order of arrival
    first_player: str
    active: str
    turn: int  # 1 = the first player's first turn
    phase: (
        str  # "restoration" | "accumulation" | "choice" | "attack" | "activation" | "play" | "end" | "over"
    )
    resolving: list[str] = field(default_factory=list)  # a spell on its way to resolution (zone "resolving")
    queue: list[QueueItem] = field(default_factory=list)
    waiting: list[PendingTrigger] = field(default_factory=list)
    round: list[str] | None = None  # players still to declare or pass in this round (402.1)
    effects: list[ContinuousEffect] = field(default_factory=list)
    stack: list[Any] = field(default_factory=list)  # the resolution stack: tasks, last = next to run
    pending: dict[str, Any] | None = None  # the decision the top task waits for
    attack: dict[str, Any] | None = None  # the strike attack being declared (attacker, target, defender …)
    lki: dict[str, dict[str, Any]] = field(default_factory=dict)  # object id -> last known information
    result: dict[str, Any] | None = None  # {"winner": "А"|"Б"|None, "draw": bool, "rule": "602.1"}
    draw_declined: dict[str, int] = field(default_factory=dict)  # player -> turn his draw offer was declined
    counter: int = 0
    serials: int = 0
    answered: int = 0  # decisions answered so far (Decision.seq)
    rng: int = 0  # the state of the seeded generator (rng.py)
    log: list[dict[str, Any]] = field(default_factory=list)

    def next_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"


serializable(Card, Player, PendingTrigger, QueueItem, ContinuousEffect, GameState)
