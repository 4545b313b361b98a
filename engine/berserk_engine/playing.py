"""The card-play phase (309): a card from hand is paid for with coin markers (501.2) and enters the
game zone under its player's control (517.2) — a creature, equipment or an event stays there; a spell
waits in the open zone «resolving» while its abilities enter the Queue and resolve at once (309.1,
interpretation I-12), then goes to its owner's graveyard. 309.2: then the triggered abilities."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import actions, hooks
from berserk_engine.actions import ActionKind
from berserk_engine.cards import PERMANENT_TYPES
from berserk_engine.cost_x import x_step
from berserk_engine.costs import cost_of
from berserk_engine.errors import IllegalAction
from berserk_engine.events import MoveEvent, Perform, PlayEvent, perform
from berserk_engine.queue import QueueRound, ResolveAll, slot_options
from berserk_engine.state import QueueItem
from berserk_engine.tasks import Task, task
from berserk_engine.zones import snapshot

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef
    from berserk_engine.game import Game
    from berserk_engine.state import Card


def _slots(game: Game, card: Card, player: str) -> list[dict[str, Any]] | None:
    d = card.definition
    if d.type != "spell":
        return []
    slots: list[dict[str, Any]] = []
    for ability in d.abilities:
        found = slot_options(game, ability, player, card.id, "spell")
        if found is None:
            return None
        slots.extend(found)
    return slots


def why_not(game: Game, player: str, card: Card) -> tuple[str, str] | None:
    d = card.definition
    if d.type not in PERMANENT_TYPES and d.type != "spell":
        return "309.1", f"«{card.name}» ({d.type}) не разыгрывается из руки"
    for h in game.handlers.PLAY_RESTRICTIONS:
        reason = h(game, player, d)
        if reason is not None:
            return reason
    cost = cost_of(game, d, player)
    coins = game.state.players[player].coins_open
    if cost > coins:
        return "501.2", f"«{card.name}» стоит {cost}, открытых маркеров монет {coins}: оплатить нельзя"
    return None


_BY_TYPE: dict[str, list[Any]] = {}  # card type -> the restrictions that concern it (hooks.for_types)


def _restrictions_of(kind: str) -> list[Any]:
    handlers = _BY_TYPE.get(kind)
    if handlers is None:
        handlers = _BY_TYPE[kind] = [
            h for h in hooks.PLAY_RESTRICTIONS if kind in hooks.TYPES.get(h, (kind,))
        ]
    return handlers


# card name -> the words of its play option (the same name, the same words: built once, not per listing)
_LABELS: dict[str, str] = {}


def _restricted(game: Game, player: str, d: CardDef, handlers: list[Any]) -> bool:
    for h in handlers:
        if h(game, player, d) is not None:
            return True
    return False


def _options(game: Game, player: str) -> list[dict[str, Any]]:
    s = game.state
    cards = s.cards
    options = []
    coins = s.players[player].coins_open
    fixed_cost = not game.handlers.COST
    restrictions = hooks.PLAY_RESTRICTIONS
    for card_id in s.players[player].zones["hand"]:
        card = cards[card_id]
        d = card.definition
        if fixed_cost:  # the common case, checked without the general path below
            if d.cost > coins or (d.type not in PERMANENT_TYPES and d.type != "spell"):
                continue
            if restrictions:
                handlers = _BY_TYPE.get(d.type)
                if handlers is None:
                    handlers = _restrictions_of(d.type)
                if handlers and _restricted(game, player, d, handlers):
                    continue
        elif why_not(game, player, card) is not None:
            continue
        label = _LABELS.get(card.name)
        if label is None:
            if len(_LABELS) >= 4096:
                _LABELS.clear()
            label = _LABELS[card.name] = f"разыграть «{card.name}»"
        option: dict[str, Any] = {"type": "play", "card": card_id, "label": label}
        if d.type == "spell":  # a permanent names no target when played
            slots = _slots(game, card, player)
            if slots is None:
                continue
            if slots:
                option["slots"] = slots
        options.append(option)
    return options


def _check(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    s = game.state
    card = s.cards.get(str(action.get("card")))
    if card is None or card.zone != "hand" or card.owner != player:
        return IllegalAction("309.1", "разыграть можно только карту из своей руки")
    problem = why_not(game, player, card)
    if problem is not None:
        return IllegalAction(*problem)
    slots = _slots(game, card, player)
    return actions.target_problem(action, {"card"}, slots, f"«{card.name}»")


def _play(game: Game, player: str, action: dict[str, Any]) -> None:
    s = game.state
    card = s.cards[action["card"]]
    d = card.definition
    if d.type == "spell" and actions.declaration_step(game, "play", player, action, d.abilities):
        return  # 517.3.1: the spell's summon looks through the deck first
    cost = cost_of(game, d, player)
    if x_step(game, player, action, d, cost):
        return  # I-66: the player names Х first
    cost += action.get("x", 0)
    s.phase = "play"
    p = s.players[player]
    p.coins_open -= cost  # 501.2: prepayment with closed coin markers
    p.coins_closed += cost
    p.played_this_turn += 1  # «Первая карта … в его следующий ход» (I-105)
    game.log("play", f"Игрок {player} разыгрывает «{card.name}»", card=card.id, player=player, rule="309.1")
    to_zone = "resolving" if d.type == "spell" else "play"
    game.push(
        Played(card.id, to_zone, player, actions.slot_targets(action), action.get("summon"), action.get("x"))
    )


@dataclass(slots=True)
class Played(Task):
    """The played card goes to the game zone (or, a spell, to «resolving» and its abilities to the Queue)."""

    card: str
    to_zone: str
    player: str
    targets: list[str]
    summon: int | list[int] | None = (
        None  # the card(s) found in the deck when the spell was declared (517.3.1)
    )
    x: int | None = None  # the Х of a variable cost, named when the spell was played (I-66)

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        card: str,
        to_zone: str,
        player: str,
        targets: list[str],
        summon: int | list[int] | None = None,
        x: int | None = None,
    ) -> None:
        self.card = card
        self.to_zone = to_zone
        self.player = player
        self.targets = targets
        self.summon = summon
        self.x = x

    def run(self, game: Game) -> None:
        serial = game.state.cards[self.card].serial
        ev = MoveEvent(self.card, self.to_zone, "play", controller=self.player)
        game.then(Perform([ev]), _AfterPlayed(serial, self.player, self.targets, self.summon, self.x))


def _by_serial(cards: dict[str, Card], ids: list[str], serial: int) -> Card | None:
    """The object of these ids that is the physical card ``serial``, if one is."""
    for card_id in ids:
        card = cards[card_id]
        if card.serial == serial:
            return card
    return None


@dataclass(slots=True)
class _AfterPlayed(Task):
    serial: int  # the physical card: its object id changed when it moved
    player: str
    targets: list[str]
    summon: int | list[int] | None = None
    x: int | None = None

    # written out, not generated: compiled, a generated __init__ runs interpreted (architecture.md)
    def __init__(
        self,
        serial: int,
        player: str,
        targets: list[str],
        summon: int | list[int] | None = None,
        x: int | None = None,
    ) -> None:
        self.serial = serial
        self.player = player
        self.targets = targets
        self.summon = summon
        self.x = x

    def run(self, game: Game) -> None:
        s = game.state
        # the physical card (one object at a time has its serial), where it can be: the game zone, or
        # on its way to resolution (a spell)
        cards = s.cards
        card = _by_serial(cards, s.play, self.serial) or _by_serial(cards, s.resolving, self.serial)
        if card is None:
            return
        new_id = card.id
        played = Perform([PlayEvent(new_id, self.player, card.name)])
        if card.zone == "play":
            game.then(played, QueueRound())  # 309.2
            return
        # A spell: every ability enters the Queue in the printed order and resolves at once (309.1, I-12).
        remaining = list(self.targets)
        for ability in card.definition.abilities:
            if ability.effect is None:
                continue  # a keyword of the spell («Игнорирует …»): nothing to resolve
            n = len(ability.slots)
            chosen, remaining = remaining[:n], remaining[n:]
            s.queue.append(
                QueueItem(
                    id=s.next_id("q"),
                    kind="spell",
                    controller=self.player,
                    source=new_id,
                    source_name=card.name,
                    text=ability.text,
                    targets=chosen,
                    lki=snapshot(game, card),
                    event={
                        **({} if self.summon is None else {"summon": self.summon}),
                        **({} if self.x is None else {"x": self.x}),
                    },
                )
            )
        game.then(played, ResolveAll(), SpellDone(new_id), QueueRound())


@dataclass(slots=True)
class SpellDone(Task):
    """Кладбище: a spell goes to its owner's graveyard after its abilities resolved."""

    card: str

    def run(self, game: Game) -> None:
        if self.card in game.state.cards:
            perform(game, MoveEvent(self.card, "graveyard", "resolved"))


actions.register(ActionKind("play", "розыгрыш карты", _options, _check, _play))

task(Played, _AfterPlayed, SpellDone)
