"""Game state: players, cards and their zones (Part 2), the Queue (Part 4), the turn (Part 3),
continuous effects and the resolution stack.

Plain data only (every class is :func:`~berserk_engine.data.serializable`); the rules that change it
live in ``zones``, ``events``, ``turn``, ``queue``, ``combat`` … and the stack of ``tasks``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from berserk_engine.data import serializable, upgrade, written_as

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef

PLAYERS = ("А", "Б")

MAX_COINS = 10  # 304.1

# Marker kinds of the glossary: «Ранить на Х — нанести на цель маркер „Х ран“».
WOUNDS = "раны"


@dataclass(slots=True)
class TurnRecord:
    """What a card did and underwent this turn (``Card.this_turn``; forgotten before each turn).

    In a position a record is written with these field names, the defaults left out. Positions of
    the first format wrote a dict of counts with string keys (``"acted"``, ``"attacks"``,
    ``"wounded"``, ``"броня"``, ``"цель:N"``): :meth:`load` still reads them."""

    attacks: int = 0  # strike attacks it made («Один (Х) раз за ход»)
    acted: bool = False  # Действие карты: it closed to pay for an action (or counts as having done so)
    wounded: int = 0  # wounds dealt to it («Гнев»: «получала раны в этот ход»)
    prevented: dict[str, int] = field(default_factory=dict)  # wounds prevented, by keyword term (Броня Х)
    targets: list[int] = field(default_factory=list)  # serials of the cards it targeted (целевые карты)
    wounded_by: int | None = None  # the serial of the card whose wounds were the last dealt to it (I-60)

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        attacks: int = 0,
        acted: bool = False,
        wounded: int = 0,
        prevented: dict[str, int] | None = None,
        targets: list[int] | None = None,
        wounded_by: int | None = None,
    ) -> None:
        self.attacks = attacks
        self.acted = acted
        self.wounded = wounded
        self.prevented = {} if prevented is None else prevented
        self.targets = [] if targets is None else targets
        self.wounded_by = wounded_by

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.attacks:
            out["attacks"] = self.attacks
        if self.acted:
            out["acted"] = True
        if self.wounded:
            out["wounded"] = self.wounded
        if self.prevented:
            out["prevented"] = dict(self.prevented)
        if self.targets:
            out["targets"] = list(self.targets)
        if self.wounded_by is not None:
            out["wounded_by"] = self.wounded_by
        return out

    @staticmethod
    def load(value: Any) -> TurnRecord | None:
        """A record as a position or a snapshot wrote it — this format, the first one (string keys),
        or already a record; None for nothing. Raises ValueError naming what is wrong."""
        if value is None or isinstance(value, TurnRecord):
            return value
        if not isinstance(value, dict):
            raise ValueError(f"ожидается словарь, получено {value!r}")
        if not value:
            return None
        record = TurnRecord()
        for key, v in value.items():
            if key == "prevented" or key == "targets":
                if key == "prevented" and isinstance(v, dict):
                    record.prevented = {str(k): _count(n, f"prevented «{k}»") for k, n in v.items()}
                elif key == "targets" and isinstance(v, list):
                    record.targets = [_count(n, "targets") for n in v]
                else:
                    raise ValueError(f"«{key}»: неверное значение {v!r}")
            elif key == "acted":  # true; the first format wrote 1
                if not (v is True or (type(v) is int and v == 1)):
                    raise ValueError(f"«acted»: ожидается true, получено {v!r}")
                record.acted = True
            elif key == "attacks":
                record.attacks = _count(v, key)
            elif key == "wounded":
                record.wounded = _count(v, key)
            elif key == "wounded_by":  # a serial (0 is one)
                record.wounded_by = _count(v + 1, key) - 1 if type(v) is int else _count(v, key)
            elif key in OLD_PREVENTION_KEYS:  # the first format: prevented wounds under a Russian key
                record.prevented[OLD_PREVENTION_KEYS[key]] = _count(v, key)
            elif isinstance(key, str) and key.startswith("цель:"):  # the first format: «цель:<serial>»
                record.targets.append(_count(int(key[len("цель:") :]), key))
            else:
                raise ValueError(f"неизвестная запись хода {key!r}")
        return record


# The first position format kept the wounds «Броня Х» prevented under this key (now: its term).
OLD_PREVENTION_KEYS = {"броня": "броня-х"}


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{what}: ожидается целое число ≥ 1, получено {value!r}")
    return value


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
    markers: dict[str, int] = field(default_factory=dict)  # marker kind -> count, «раны» apart (wounds)
    uses: dict[str, int] = field(default_factory=dict)  # «раз за ход» special markers, by ability text
    this_turn: TurnRecord | None = None  # what it did this turn (None: nothing yet), see record()
    entered_turn: int | None = None  # the turn it entered the game zone
    # its «раны» markers: read at every state check, so a slot of their own, not a key of ``markers``;
    # a position, a snapshot and a view still write them among the markers (marker_counts)
    wounds: int = 0
    # the definition of ``name`` in its game's library (``game.defs[name]``), read on the hot paths as an
    # attribute: set by the game for every card it starts with (``Game.__init__``) and by a move for the
    # new object (``zones.move_event``); not a field of a position, not compared (the name is)
    definition: CardDef = field(init=False, compare=False, repr=False)

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        id: str,
        name: str,
        owner: str,
        controller: str,
        zone: str,
        serial: int,
        closed: bool = False,
        face_down: bool = False,
        markers: dict[str, int] | None = None,
        uses: dict[str, int] | None = None,
        this_turn: TurnRecord | None = None,
        entered_turn: int | None = None,
        wounds: int = 0,
    ) -> None:
        self.id = id
        self.name = name
        self.owner = owner
        self.controller = controller
        self.zone = zone
        self.serial = serial
        self.closed = closed
        self.face_down = face_down
        self.markers = {} if markers is None else markers
        self.uses = {} if uses is None else uses
        self.this_turn = this_turn
        self.entered_turn = entered_turn
        self.wounds = wounds
        if markers is not None and WOUNDS in markers:  # as a position or a snapshot writes them
            self.wounds += markers[WOUNDS]
            self.markers = {k: v for k, v in markers.items() if k != WOUNDS}  # the caller's dict unchanged

    def marker_counts(self) -> dict[str, int]:
        """Its markers as positions, snapshots and views write them: the wounds under «раны» (first),
        then the other kinds — a new dict."""
        if not self.wounds:
            return dict(self.markers)
        return {WOUNDS: self.wounds, **self.markers}

    def written_fields(self) -> dict[str, Any]:
        """The fields as :func:`berserk_engine.data.to_data` writes them (the format before ``wounds``
        had a slot: the wounds among the markers)."""
        return {
            "id": self.id,
            "name": self.name,
            "owner": self.owner,
            "controller": self.controller,
            "zone": self.zone,
            "serial": self.serial,
            "closed": self.closed,
            "face_down": self.face_down,
            "markers": self.marker_counts(),
            "uses": self.uses,
            "this_turn": self.this_turn,
            "entered_turn": self.entered_turn,
        }

    def record(self) -> TurnRecord:
        """This turn's record, begun at its first entry."""
        record = self.this_turn
        if record is None:
            record = self.this_turn = TurnRecord()
        return record


@dataclass(slots=True)
class Player:
    name: str
    hero: str  # object id of the hero (in the game zone from the start, 202.1)
    coins_open: int = 0
    coins_closed: int = 0
    draw_failures: int = 0  # 304.2: failures to draw in the accumulation phase
    drawn_this_turn: int = 0  # cards taken from the deck this turn («где Х – количество карт, которые вы
    # взяли в этот ход», interpretation I-88); zero again before each turn
    played_this_turn: int = (
        0  # cards played from hand this turn («Первая карта … в его следующий ход», I-105)
    )
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
class Attack:
    """An attack (Атака): a strike attack being declared (``GameState.attack``) or in the Queue
    (``QueueItem.attack``), a fight (Сразиться, ``strike`` False) or a shot (Выстрел, ``shot``).

    ``attacker`` is the attacking card (Атакующая карта), ``target`` the attacked one (Атакованная
    карта) — the defender once one is assigned; ``original_target`` the character first attacked;
    ``reflecting``: the target strikes back (Отражающая карта)."""

    attacker: str
    attacker_name: str
    target: str
    target_name: str
    original_target: str
    reflecting: bool
    defender: str | None = None
    strike: bool = True
    shot: bool = False

    def to_json(self) -> dict[str, Any]:
        """As observations show it (the keys of the first format's dict)."""
        out: dict[str, Any] = {
            "attacker": self.attacker,
            "attacker_name": self.attacker_name,
            "target": self.target,
            "target_name": self.target_name,
            "original_target": self.original_target,
            "reflecting": self.reflecting,
            "defender": self.defender,
            "strike": self.strike,
        }
        if self.shot:
            out["shot"] = True
        return out

    @staticmethod
    def load(value: Any) -> Attack | None:
        """An attack as a snapshot wrote it: this format, or the first one's dict with the same keys."""
        if value is None or isinstance(value, Attack):
            return value
        if not isinstance(value, dict):
            raise ValueError(f"атака: ожидается словарь, получено {value!r}")
        return Attack(
            value["attacker"],
            value.get("attacker_name", ""),
            value["target"],
            value.get("target_name", ""),
            str(value.get("original_target", value["target"])),
            bool(value.get("reflecting", False)),
            value.get("defender"),
            bool(value.get("strike", True)),
            bool(value.get("shot", False)),
        )


@dataclass(slots=True)
class Pending:
    """The decision the top task of the stack waits for (``GameState.pending``): who decides, what
    kind of decision, the rule, the words for people and the legal options."""

    player: str
    kind: str
    rule: str
    prompt: str
    options: list[dict[str, Any]]
    deciding: tuple[str, ...] = ()  # the rules and interpretations deciding this point (optional)

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        player: str,
        kind: str,
        rule: str,
        prompt: str,
        options: list[dict[str, Any]],
        deciding: tuple[str, ...] = (),
    ) -> None:
        self.player = player
        self.kind = kind
        self.rule = rule
        self.prompt = prompt
        self.options = options
        self.deciding = deciding

    def to_json(self) -> dict[str, Any]:
        """As observations show it (the keys of the first format's dict)."""
        data = {
            "player": self.player,
            "kind": self.kind,
            "rule": self.rule,
            "prompt": self.prompt,
            "options": self.options,
        }
        if self.deciding:
            data["deciding"] = list(self.deciding)
        return data

    @staticmethod
    def load(value: Any) -> Pending | None:
        """A decision as a snapshot wrote it: this format, or the first one's dict with the same keys."""
        if value is None or isinstance(value, Pending):
            return value
        if not isinstance(value, dict):
            raise ValueError(f"решение: ожидается словарь, получено {value!r}")
        return Pending(
            value["player"],
            value["kind"],
            value["rule"],
            value["prompt"],
            value["options"],
            tuple(value.get("deciding") or ()),
        )


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
    attack: Attack | None = None  # an attack (kind "attack"): a strike attack or a fight
    paid: bool = True  # 501.2.1: the payment was complete and not replaced
    event: dict[str, Any] = field(default_factory=dict)

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        id: str,
        kind: str,
        controller: str,
        source: str,
        source_name: str,
        text: str,
        targets: list[str] | None = None,
        point: str | None = None,
        lki: dict[str, Any] | None = None,
        attack: Attack | None = None,
        paid: bool = True,
        event: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.kind = kind
        self.controller = controller
        self.source = source
        self.source_name = source_name
        self.text = text
        self.targets = [] if targets is None else targets
        self.point = point
        self.lki = {} if lki is None else lki
        self.attack = attack
        self.paid = paid
        self.event = {} if event is None else event


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


# A log entry as the game keeps it: (seq, turn, event, text, data, private_to, deciding) — a tuple costs
# a fraction of the protocol dict, which only some callers ask for (the benchmark never does).
LogEntry = tuple[int, int, str, str, dict[str, Any], str | None, list[str] | None]


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
    pending: Pending | None = None  # the decision the top task waits for
    attack: Attack | None = None  # the strike attack being declared (attacker, target, defender …)
    lki: dict[str, dict[str, Any]] = field(default_factory=dict)  # object id -> last known information
    result: dict[str, Any] | None = None  # {"winner": "А"|"Б"|None, "draw": bool, "rule": "602.1"}
    draw_declined: dict[str, int] = field(default_factory=dict)  # player -> turn his draw offer was declined
    counter: int = 0
    serials: int = 0
    answered: int = 0  # decisions answered so far (Decision.seq)
    rng: int = 0  # the state of the seeded generator (rng.py)
    # the log as kept: light entries (``LogEntry``), or the dicts of a restored position; the protocol
    # dict of an entry is built only when asked (``entry_json``: Game.log_for, the position)
    log: list[LogEntry | dict[str, Any]] = field(default_factory=list)

    def next_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"


def entry_json(entry: LogEntry | dict[str, Any]) -> dict[str, Any]:
    """The protocol dict of a log entry (a new dict: the caller may change it), key for key as
    ``Game.log`` wrote it before entries were kept light."""
    if isinstance(entry, dict):
        return dict(entry)
    seq, turn, event, text, data, private_to, deciding = entry
    found = {"seq": seq, "turn": turn, "event": event, "text": text, **data}
    if private_to is not None:
        found["private_to"] = private_to
    if deciding:
        found["deciding"] = deciding
    return found


def kept_entry(entry: dict[str, Any]) -> LogEntry | dict[str, Any]:
    """A log entry of a position as the game keeps it: light when ``entry_json`` gives it back key for
    key (as every entry the game wrote), else the dict itself."""
    keys = list(entry)
    end = len(keys)
    deciding = entry.get("deciding") if keys[-1:] == ["deciding"] else None
    if deciding is not None:
        end -= 1
    private_to = entry.get("private_to") if keys[end - 1 : end] == ["private_to"] else None
    if private_to is not None:
        end -= 1
    if keys[:4] != ["seq", "turn", "event", "text"] or "private_to" in keys[:end] or "deciding" in keys[:end]:
        return entry
    seq, turn, event, text = entry["seq"], entry["turn"], entry["event"], entry["text"]
    if not (type(seq) is int and type(turn) is int and type(event) is str and type(text) is str):
        return entry
    if (deciding is not None and (not deciding or type(deciding) is not list)) or (
        private_to is not None and type(private_to) is not str
    ):
        return entry
    data = {k: entry[k] for k in keys[4:end]}
    return (seq, turn, event, text, data, private_to, deciding)


serializable(
    TurnRecord, Card, Player, PendingTrigger, Attack, Pending, QueueItem, ContinuousEffect, GameState
)
# Snapshots of the first format wrote these fields as plain dicts (string keys): read them as today's.
upgrade(Card, "this_turn", TurnRecord.load)
upgrade(QueueItem, "attack", Attack.load)
# A card's wounds have a slot of their own (Card.wounds); its data keep them among the markers.
written_as(Card, Card.written_fields)
