"""517 — taking cards into the squad (Взять карту в отряд) and the squad itself (Отряд — the cards a
player controls in the game zone).

The four ways (517.1): playing from hand (:mod:`playing`, 309.2 and 517.2), **Вызов** (from the deck),
**Возрождение** (from the graveyard), and **Возьмите под контроль**. By default a card comes from its
player's own deck or graveyard, open («в открытом виде») and under his control (517.3, 517.4).

* Summoning looks through the deck **as part of the declaration** (517.3.1): the player finds the
  card or does not (or does not want to) — then the declaration is cancelled; the deck is shuffled
  either way. A triggered ability that summons a given card may be skipped (517.3.2: see
  ``grammar._finish``). The card found is remembered by its physical identity and leaves the deck when
  the ability resolves.
* Taking control (517.5) makes the player the controller at once (the opponent stops being it); when
  a temporary control ends, the player loses control and his opponent becomes the controller
  automatically — unless the card cannot be taken into the opponent's squad (517.6,
  ``hooks.SQUAD_RESTRICTIONS``): then the player keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from berserk_engine import actions, hooks, selectors, zones
from berserk_engine.abilities import Selector, looks_at_declaration
from berserk_engine.choices import ChooseCards
from berserk_engine.data import serializable
from berserk_engine.events import APPLY, SQUAD_EVENTS, MoveEvent, perform
from berserk_engine.keywords import term
from berserk_engine.state import ContinuousEffect
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.abilities import Ability
    from berserk_engine.game import Game
    from berserk_engine.state import Card, QueueItem

term(__name__, "вызов-вызвать")
term(__name__, "возрождение-возродить")
term(__name__, "возьмите-под-контроль-х")


def squad(game: Game, player: str) -> list[str]:
    """Отряд: the cards under the player's control in the game zone (his hero included), in order of
    arrival — a new list (``zones.Squad``, kept by ``Game.in_play``)."""
    return list(game.in_play().squads[player].cards)


def why_cannot_join(game: Game, player: str, card: Card) -> str | None:
    """Why the card cannot be taken into the player's squad (517.6), or None: what forbids a player to
    have it in play (``hooks.PLAY_RESTRICTIONS`` — one amulet, armour, weapon, event per player …) and
    ``hooks.SQUAD_RESTRICTIONS``."""
    d = card.definition
    for handler in game.handlers.PLAY_RESTRICTIONS:
        found = handler(game, player, d)
        if found is not None:
            return found[1] if isinstance(found, tuple) else str(found)
    for handler in game.handlers.SQUAD_RESTRICTIONS:
        reason = handler(game, player, card)
        if reason is not None:
            return reason
    return None


# --- Вызов ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Summon:
    """Вызовите «[название]»: the card found in the deck at the declaration goes from the deck to the
    game zone — open (unless «в закрытом виде»), under the summoner's control (517.3)."""

    name: str
    closed: bool = False

    declaration_look = True  # 517.3.1 (a class attribute: not part of the effect's data)

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        serial = item.event.get("summon")
        deck = s.players[item.controller].zones["deck"]
        found = next((c for c in deck if s.cards[c].serial == serial), None)
        if found is None:  # 518.1: the card is no longer in the deck
            game.log("summon_lost", f"Вызываемой карты «{self.name}» в колоде уже нет", rule="518.1")
            return
        perform(
            game,
            MoveEvent(
                found,
                "play",
                "summon",
                controller=item.controller,
                closed=self.closed,
                source=item.source,
                source_name=item.source_name,
            ),
        )


# «вызовите до N существ …» (issue 29): the canonical words, what is sought as printed
SUMMON_UP_TO_FORM = (
    "вызовите до {n} {what}",
    "вызовите до 2 существ стоимостью 2 [Монета] или менее",
    "вызов-вызвать",
)


@dataclass(frozen=True, slots=True)
class SummonBy:
    """«Вызовите существо стоимостью 3 или меньше», «вызовите гнома», «вызовите существо класса гном
    из дополнительной колоды»: a summon (517.3) of a card the player finds by its class or cost. Like a
    summon by name, the player looks for it as part of the declaration (517.3.1) and may find nothing;
    from the sideboard (201.1: «дополнительная колода (сайдборд)») the same, without a shuffle (I-63)."""

    wanted: Any  # card_filter.Wanted
    zone: str = "deck"  # "deck" | "sideboard"
    count: int = 1  # «вызовите до 3 существ …» (issue 29): up to N different cards, found at the declaration

    declaration_look = True  # 517.3.1

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        chosen = item.event.get("summon")
        serials = chosen if isinstance(chosen, list) else [chosen]
        here = s.players[item.controller].zones[self.zone]
        found = [c for serial in serials for c in here if s.cards[c].serial == serial]
        if len(found) < len(serials):  # 518.1: a card is no longer where it was found
            game.log("summon_lost", f"Вызываемой карты ({self.wanted.words}) уже нет", rule="518.1")
        if not found:
            return
        perform(
            game,
            *(
                MoveEvent(
                    card,
                    "play",
                    "summon",
                    source=item.source,
                    source_name=item.source_name,
                    controller=item.controller,
                )
                for card in found
            ),
        )


@dataclass(slots=True)
class LookForSummon(Task):
    """517.3.1: looking through the deck for the card to summon is part of the declaration. The player
    chooses the card among the copies in his deck (or none); the deck is shuffled in any case; without
    a card the declaration is cancelled — nothing is paid (interpretation I-41), a triggered ability is
    skipped."""

    kind: str  # the action that continues: "activate" | "declare" | "play"
    player: str
    action: dict[str, Any]
    name: str  # the card's name, or the printed words of what is wanted («гнома стоимостью 2 или меньше»)
    wanted: Any = None  # card_filter.Wanted: a summon by class or cost (SummonBy), None: by name
    zone: str = "deck"  # "deck" | "sideboard» («из дополнительной колоды», I-63)
    count: int = 1  # «до N существ»: up to N different cards (SummonBy.count)

    def fits(self, game: Game, card_id: str) -> bool:
        if self.wanted is not None:
            return bool(self.wanted.fits(game, card_id))
        return game.state.cards[card_id].name == self.name

    def run(self, game: Game) -> None:
        s = game.state
        where = ZONE_PLACES[self.zone]
        game.log(
            "look_deck",
            f"Игрок {self.player} просматривает {where[0]} в поисках «{self.name}» (заявка вызова)",
            player=self.player,
            rule="517.3.1",
        )
        found = [c for c in s.players[self.player].zones[self.zone] if self.fits(game, c)]
        then = SummonFound(
            self.kind, self.player, self.action, self.name, zone=self.zone, many=self.count > 1
        )
        if not found:
            game.push(then)  # nothing to find
            return
        game.push(
            ChooseCards(
                self.player,
                found,
                0,  # «не нашёл (или не захотел найти)»
                min(self.count, len(found)),
                "517.3.1",
                f"Игрок {self.player}: найдите {where[1]} «{self.name}» для вызова (или откажитесь)",
                then=then,
            )
        )


# Where a summon looks: (what the player looks through, where he finds the card).
ZONE_PLACES = {
    "deck": ("колоду", "в колоде"),
    "sideboard": ("дополнительную колоду", "в дополнительной колоде"),
}


@dataclass(slots=True)
class SummonFound(Task):
    kind: str
    player: str
    action: dict[str, Any]
    name: str
    cards: list[str] = field(default_factory=list)
    zone: str = "deck"
    many: bool = False  # «до N существ»: the serials of every card found, in a list

    def run(self, game: Game) -> None:
        s = game.state
        serials = [s.cards[c].serial for c in self.cards]
        if self.zone == "deck":  # the sideboard is not the deck: it is not shuffled (I-63)
            zones.shuffle(game, self.player, rule="517.3.1")  # «Колода перемешивается в любом случае»
        if serials:
            found: Any = serials if self.many else serials[0]
            actions.ACTIONS[self.kind].apply(game, self.player, {**self.action, "summon": found})
            return
        game.log(
            "declaration_cancelled",
            f"Игрок {self.player} не нашёл «{self.name}»: заявка вызова отменяется",
            player=self.player,
            rule="517.3.1",
        )
        if self.kind == "declare":
            s.waiting = [p for p in s.waiting if p.id != self.action["trigger"]]


def _declaration_step(
    game: Game, kind: str, player: str, action: dict[str, Any], ability: Ability
) -> Task | None:
    node = looks_at_declaration(ability)
    if isinstance(node, SummonBy):
        return LookForSummon(
            kind, player, dict(action), node.wanted.words, node.wanted, node.zone, node.count
        )
    if not isinstance(node, Summon):
        return None
    return LookForSummon(kind, player, dict(action), node.name)


def _summons(d: Any) -> bool:
    return any(isinstance(looks_at_declaration(a), (Summon, SummonBy)) for a in d.abilities)


hooks.set_relevant(_declaration_step, lambda game: bool(game.defs_with("summons", _summons)))
hooks.DECLARATION.append(_declaration_step)


# --- Возрождение -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Resurrect:
    """Возродите «[название]»: from your own graveyard to the game zone, open (unless «в закрытом
    виде»), under your control (517.4). Several copies: the player chooses one."""

    name: str
    closed: bool = False

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        player = item.controller
        found = [c for c in s.players[player].zones["graveyard"] if s.cards[c].name == self.name]
        then = Resurrected(player, self.closed, item.source, item.source_name)
        if not found:
            game.log("resurrect_none", f"На кладбище нет «{self.name}»", player=player, rule="518.1")
            return
        if len(found) == 1:
            then.cards = found
            game.push(then)
            return
        game.push(
            ChooseCards(
                player,
                found,
                1,
                1,
                "возрождение-возродить",
                f"Игрок {player}: выберите «{self.name}» на кладбище для возрождения",
                then=then,
            )
        )


@dataclass(slots=True)
class Resurrected(Task):
    player: str
    closed: bool
    source: str
    source_name: str
    cards: list[str] = field(default_factory=list)

    def run(self, game: Game) -> None:
        perform(
            game,
            *(
                MoveEvent(
                    c,
                    "play",
                    "resurrect",
                    controller=self.player,
                    closed=self.closed,
                    source=self.source,
                    source_name=self.source_name,
                )
                for c in self.cards
            ),
        )


@dataclass(frozen=True, slots=True)
class ResurrectBy:
    """«Возродите существо стоимостью 2 или меньше», «возродите гнома»: a resurrection (517.4) of a card
    of your graveyard that fits; the player chooses it among those when the ability resolves (cards in
    a graveyard are not targets), none there — nothing happens (518.1)."""

    wanted: Any  # card_filter.Wanted

    def run(self, game: Game, item: QueueItem) -> None:
        player = item.controller
        grave = game.state.players[player].zones["graveyard"]
        found = [c for c in grave if self.wanted.fits(game, c)]
        if not found:
            game.log("resurrect_none", f"На кладбище нет: {self.wanted.words}", player=player, rule="518.1")
            return
        game.push(
            ChooseCards(
                player,
                found,
                1,
                1,
                "возрождение-возродить",
                f"Игрок {player}: выберите на кладбище карту для возрождения ({self.wanted.words})",
                then=Resurrected(player, False, item.source, item.source_name),
            )
        )


# --- Возьмите под контроль -----------------------------------------------------------------------


@dataclass(slots=True)
class ControlEvent:
    """A card in the game zone changes its controller (517.5): ``lost`` — the former controller lost
    control (the end of a temporary control), and the opponent became the controller automatically."""

    card: str
    controller: str
    until: str = "leaves_play"  # a temporary control lasts this long («до конца хода»)
    lost: bool = False
    source: str | None = None
    source_name: str = ""
    applied: tuple[str, ...] = ()


def apply_control(game: Game, ev: ControlEvent) -> bool:
    s = game.state
    card = s.cards.get(ev.card)
    if card is None or card.zone != "play" or card.controller == ev.controller:
        return False
    card.controller = ev.controller
    if ev.until != "leaves_play":
        effect = ContinuousEffect(
            id=s.next_id("e"),
            kind="control",
            target=card.id,
            source=ev.source,
            source_name=ev.source_name,
            until=ev.until,
            player=ev.controller,
        )
        s.effects.append(effect)
        game.effects_changed()
    game.zones_changed()
    if ev.lost:
        text = f"Контроль над «{card.name}» потерян: им автоматически управляет игрок {ev.controller}"
        rule = "517.5"
    else:
        text = f"Игрок {ev.controller} берёт под контроль «{card.name}»"
        rule = "возьмите-под-контроль-х"
    game.log("control", text, card=card.id, player=ev.controller, rule=rule)
    return True


APPLY[ControlEvent] = apply_control
SQUAD_EVENTS.add(ControlEvent)  # Взять карту в отряд: взятие карты под свой контроль


@dataclass(frozen=True, slots=True)
class TakeControl:
    """Возьмите под контроль Х: «Указанные карты теперь под вашим контролем и переходят в ваш отряд»."""

    target: Selector
    until: str = "leaves_play"

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        events = []
        for t in selectors.resolve(game, self.target, item):
            card = s.cards[t]
            reason = why_cannot_join(game, item.controller, card)
            if reason is not None:
                game.log("control_refused", f"«{card.name}» нельзя взять в отряд: {reason}", rule="517.6")
                continue
            events.append(
                ControlEvent(t, item.controller, self.until, source=item.source, source_name=item.source_name)
            )
        if events:
            perform(game, *events)


def _control_ended(game: Game, ended: list[ContinuousEffect]) -> list[Any]:
    """A temporary control ended: the player lost control — the opponent becomes the controller
    (517.5), unless the card cannot be taken into his squad (517.6)."""
    s = game.state
    events: list[Any] = []
    for e in ended:
        if e.kind != "control":
            continue
        card = s.cards.get(e.target)
        if card is None or card.zone != "play" or card.controller != e.player:
            continue
        if any(x.kind == "control" and x.player == e.player for x in game.by_card.get(card.id, ())):
            continue  # another control effect of the same player still holds it
        other = game.opponent(e.player)
        reason = why_cannot_join(game, other, card)
        if reason is not None:
            game.log(
                "control_kept",
                f"Игрок {e.player} потерял контроль над «{card.name}», но её нельзя взять в отряд игрока "
                f"{other} ({reason}): он продолжает её контролировать",
                card=card.id,
                rule="517.6",
            )
            continue
        events.append(ControlEvent(card.id, other, lost=True))
    return events


hooks.EFFECTS_ENDED.append(_control_ended)


# --- phrases ----------------------------------------------------------------------------------------


serializable(Summon, SummonBy, Resurrect, ResurrectBy, ControlEvent, TakeControl)
task(LookForSummon, SummonFound, Resurrected)
