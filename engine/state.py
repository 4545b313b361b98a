"""Game state: players, cards and their zones (Part 2), the Queue (Part 4), the turn (Part 3).

Plain data only; the rules that change it live in ``turn``, ``queue``, ``combat`` and ``game``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from berserk_engine.abilities import Ability
from berserk_engine.cards import CardDef

PLAYERS = ("А", "Б")

# Part 2 zones: the game zone is shared (201.2); the others are private, one of each per player.
PRIVATE_ZONES = ("hand", "deck", "graveyard", "reserve", "sideboard")
# 201.3–201.5: who may look at a zone.
OPEN_ZONES = ("play", "graveyard")
OWNER_ONLY_ZONES = ("hand", "reserve", "sideboard")
# The deck (201.5) is in neither list: nobody looks at it; only its size is open (204.1).

MAX_COINS = 10  # 304.1


@dataclass
class StrikeModifier:
    amount: int
    until_end_of_turn: bool
    source: str  # the text that gave it


@dataclass
class Card:
    id: str
    definition: CardDef
    owner: str
    controller: str
    zone: str
    closed: bool = False
    wounds: int = 0
    markers: dict[str, int] = field(default_factory=dict)  # «раз за ход» markers by ability index
    entered_turn: int | None = None  # turn number it entered the game zone
    incarnation: int = 0  # +1 every time it changes zone: a card returning is another object (203.4)
    modifiers: list[StrikeModifier] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def type(self) -> str:
        return self.definition.type

    @property
    def abilities(self) -> tuple[Ability, ...]:
        return self.definition.abilities

    @property
    def strike(self) -> int:
        return self.definition.strike + sum(m.amount for m in self.modifiers)

    @property
    def life(self) -> int:
        return self.definition.life

    def snapshot(self) -> dict[str, Any]:
        """Information about the card as it is now: kept as last known information (403.1)."""
        return {
            "id": self.id,
            "name": self.name,
            "owner": self.owner,
            "controller": self.controller,
            "zone": self.zone,
            "strike": self.strike,
            "life": self.life,
            "wounds": self.wounds,
            "closed": self.closed,
            "incarnation": self.incarnation,
        }


@dataclass
class Player:
    name: str
    hero: str  # card id of the hero (in the game zone from the start, 202.1)
    coins_open: int = 0
    coins_closed: int = 0
    draw_failures: int = 0  # 304.2: failures to draw in the accumulation phase
    zones: dict[str, list[str]] = field(default_factory=lambda: {z: [] for z in PRIVATE_ZONES})

    @property
    def coins(self) -> int:
        return self.coins_open + self.coins_closed


@dataclass
class PendingTrigger:
    """A triggered ability whose condition happened and that waits to be declared (401.4)."""

    id: str
    controller: str
    source: str
    source_incarnation: int
    ability: Ability
    point: str  # the trigger point, in words (402.2)
    lki: dict[str, Any]


@dataclass
class QueueItem:
    """A declared ability in the Queue (401.1): it exists independently of its source (403.1)."""

    id: str
    kind: str  # "triggered" | "activated" | "spell" | "attack"
    controller: str
    source: str
    source_incarnation: int
    text: str
    ability: Ability | None = None
    targets: list[str] = field(default_factory=list)
    point: str | None = None
    lki: dict[str, Any] = field(default_factory=dict)  # source info when declared
    attack: dict[str, Any] | None = None  # for the strike attack: attacker, target, defender


@dataclass
class GameState:
    cards: dict[str, Card]
    players: dict[str, Player]
    play: list[str]  # the game zone, in order of arrival
    first_player: str
    active: str
    turn: int  # 1 = the first player's first turn
    phase: (
        str  # "restoration" | "accumulation" | "choice" | "attack" | "activation" | "play" | "end" | "over"
    )
    queue: list[QueueItem] = field(default_factory=list)
    waiting: list[PendingTrigger] = field(default_factory=list)
    # While the Queue is being worked through: the players still to declare or pass in this
    # round (inactive player first, 402.1); None when no Queue is being worked through.
    round: list[str] | None = None
    after_queue: str | None = None  # what comes when the Queue is empty (401.8)
    pending_attack: dict[str, Any] | None = None  # declared attack waiting for «назначить защитника»
    left_play: dict[str, dict[str, Any]] = field(default_factory=dict)  # "id#incarnation" -> snapshot
    result: dict[str, Any] | None = None  # {"winner": "А"|"Б"|None, "draw": bool, "rule": "602.1"}
    counter: int = 0
    answered: int = 0  # decisions answered so far (Decision.seq)
    log: list[dict[str, Any]] = field(default_factory=list)
    seed: int = 0  # for shuffles (none in Parts 3–4 yet): kept here so that the state alone decides

    def next_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"
