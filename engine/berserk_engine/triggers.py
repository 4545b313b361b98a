"""Trigger collection: which triggered abilities an event makes wait for their declaration (401.4).

Trigger conditions are a **registry of kinds** (:func:`trigger_kind`). A kind is registered in the module
of its mechanic (:mod:`berserk_engine.trigger_kinds`: «Найм», «Когда ваше существо убивает существо» …;
:mod:`berserk_engine.deck`: «Когда вы берёте карту» …; their words are the grammar's), with the typed
event it waits for (:mod:`berserk_engine.event_types`) and a finder: for one event that happened, the
trigger points it makes — in words (402.2) — with the cards whose abilities to look at and the player
whose deed it is. :func:`collect` asks the kinds registered for the event's type, in the order they were
registered (the catalogue's order, :mod:`berserk_engine.catalogue`); it knows no kind by name.

A finder looks at the card the event is about («Найм», «Гибель», «При атаке») or at the cards in the
game zone that wait for that kind (:func:`watchers`: «Когда погибает существо», «В начале хода»). A
card that has just left the game zone triggers from its last known information — its controller and
the abilities it had (401.5, 403.1); so do the cards that were in the game zone with it when it died
(interpretation I-11). An ability triggers wherever its source is afterwards and whether or not it
still has the ability (401.5): the waiting trigger keeps its own text.

The **actor** of a trigger point is the player the condition's words are relative to («ваше
существо», «противник сбрасывает»): ``Trigger.player`` is "own", "enemy" or "any" relative to the
ability's controller. ``Trigger.other`` («другое ваше существо») leaves the source itself out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import events
from berserk_engine.grammar import parse_ability
from berserk_engine.keywords import KEYWORDS
from berserk_engine.state import PendingTrigger
from berserk_engine.zones import snapshot

if TYPE_CHECKING:
    from berserk_engine.abilities import Ability
    from berserk_engine.game import Game

# A source: (object id, name, controller, abilities, last known information or None).
Source = tuple[str, str, str, tuple["Ability", ...], dict[str, Any]]
# One trigger point an event makes: (the point in words, the sources to look at, the actor or None,
# the card the point is about — «другое» leaves it out — or "").
Point = tuple[str, Iterable[Source], str | None, str]
# (game, event, the game zone before the batch or None) -> the points the event makes for this kind.
Finder = Callable[[Any, Any, "list[str] | None"], Iterable[Point]]


@dataclass(frozen=True, slots=True)
class TriggerKind:
    """A kind of trigger condition: ``event`` is ``Trigger.event`` of the abilities that wait for it,
    ``on`` the typed events that can satisfy it, ``find`` the finder, ``words`` what it waits for (the
    site's phrase catalogue), ``rule`` the rule or glossary term it implements."""

    event: str
    on: tuple[type, ...]
    find: Finder
    words: str
    rule: str


KINDS: dict[str, TriggerKind] = {}
_BY_TYPE: dict[type, list[TriggerKind]] = {}


def trigger_kind(event: str, on: tuple[type, ...], find: Finder, words: str, rule: str) -> str:
    """Register a kind of trigger condition (call it beside the phrases that build ``Trigger(event)``)."""
    if event in KINDS:
        raise ValueError(f"вид условия срабатывания {event} зарегистрирован дважды")
    unknown = [t.__name__ for t in on if t not in events.APPLY]
    if unknown or not on:
        raise ValueError(f"{event}: условие ждёт неизвестного события {unknown or on}")
    found = TriggerKind(event, on, find, words, rule)
    KINDS[event] = found
    for t in on:
        _BY_TYPE.setdefault(t, []).append(found)
    return event


def live(game: Game, card_id: str) -> Source | None:
    """The card as a source, while it is an object in some zone."""
    card = game.state.cards.get(card_id)
    if card is None:
        return None
    return card.id, card.name, card.controller, ch.abilities(game, card), {}


def from_lki(lki: dict[str, Any]) -> Source:
    """A card that has left the game zone as a source: its last known information (401.5, 403.1)."""
    abilities = tuple(ch.ability(text) for text in lki.get("abilities", ()))
    return lki["id"], lki["name"], lki["controller"], abilities, lki


def waiting_for(game: Game, event: str, ids: list[str]) -> Iterator[Source]:
    """Those of these cards (in the game zone, or just gone from it: their last known information) that
    wait for this kind."""
    s = game.state
    for card_id in ids:
        card = s.cards.get(card_id)
        if card is None:
            lki = s.lki.get(card_id)
            if lki is not None:
                yield from_lki(lki)
            continue
        if event in card.definition.trigger_events or card_id in game.by_card:
            yield card.id, card.name, card.controller, ch.abilities(game, card), {}


def listeners(game: Game, event: str) -> list[str]:
    """Cards in the game zone (in order) with a triggered ability waiting for ``event`` — an index
    rebuilt only when a card changes zone or an effect changes. The list is the index's own (an index
    is never changed once built, only replaced): read it, do not change it."""
    index = game.listener_index
    if index is None:
        s = game.state
        index = {}
        for card_id in s.play:
            card = s.cards[card_id]
            if card_id in game.by_card:
                events: frozenset[str] = frozenset(
                    a.trigger.event for a in ch.abilities(game, card) if a.trigger is not None
                )
            else:
                events = card.definition.trigger_events
            for e in events:
                index.setdefault(e, []).append(card_id)
        game.listener_index = index
    return index.get(event, _NO_LISTENERS)


_NO_LISTENERS: list[str] = []


def listening(game: Game, event: str, card_id: str) -> bool:
    """Does this card in the game zone have a triggered ability waiting for ``event``?"""
    if game.listener_index is None:
        listeners(game, event)
    return card_id in game.listener_index.get(event, ())  # type: ignore[union-attr]


def outside_play(game: Game, event: str) -> Iterator[Source]:
    """Cards whose ability works outside the game zone (the card says so: «Инкарнация»), printed or
    kept by an effect that stays on the card outside the game zone (``hooks.EFFECT_KEPT``)."""
    s = game.state
    kept = {e.target for e in s.effects if e.target in s.cards and s.cards[e.target].zone != "play"}
    if not game.outside_play and not kept:
        return
    for player in s.players.values():
        for zone, ids in player.zones.items():
            for card_id in ids:
                card = s.cards[card_id]
                d = card.definition
                if card_id in kept:
                    abilities = ch.abilities(game, card)
                elif zone in d.outside_play and event in d.trigger_events:
                    abilities = d.abilities
                else:
                    continue
                if any(a.trigger is not None and zone in a.trigger.zones for a in abilities):
                    yield card.id, card.name, card.controller, abilities, {}


def collect(game: Game, happened: list[Any], before: list[str] | None) -> None:
    """Every kind registered for the type of an event that happened makes its trigger points — of
    those some ability of this game can wait for (:func:`kinds_for`)."""
    for ev in happened:
        kinds = game.trigger_kinds.get(type(ev))  # kinds_for's answer when known
        for kind in kinds if kinds is not None else kinds_for(game, type(ev)):
            for point, sources, actor, about in kind.find(game, ev, before):
                _fire(game, kind.event, point, sources, ev, actor, about)


def kinds_for(game: Game, event_type: type) -> list[TriggerKind]:
    """The kinds registered for this type of event that some ability of this game can wait for: a
    kind no ability waits for makes no trigger (:func:`_fire` fires only abilities waiting for it), so
    its finder is not asked. Kept per game until an effect grants a new text (``Game.effects_changed``)."""
    found = game.trigger_kinds.get(event_type)
    if found is None:
        possible = game.once("trigger-events", possible_events)  # until a new text is granted
        found = game.trigger_kinds[event_type] = [
            k for k in _BY_TYPE.get(event_type, ()) if k.event in possible
        ]
    return found


def possible_events(game: Game) -> frozenset[str]:
    """What the triggered abilities of this game can wait for: the abilities printed on its cards (in
    any zone), those granted by effects so far (``Game.granted``: a card keeps them in its last known
    information) and those in the last known information the game started with (a position)."""
    found: set[str] = set()
    for d in game.defs.values():
        found.update(d.trigger_events)
    texts = set(game.granted)
    for lki in game.state.lki.values():
        texts.update(lki.get("abilities", ()))
    for text in texts:
        trigger = parse_ability(text).trigger
        if trigger is not None:
            found.add(trigger.event)
    return frozenset(found)


def watchers(game: Game, event: str) -> Iterator[Source] | None:
    """The cards in the game zone waiting for this kind, as sources — None when none is (cheap: the
    index of listeners is kept until a card changes zone or an effect changes)."""
    ids = listeners(game, event)
    return waiting_for(game, event, ids) if ids else None


def source_of(game: Game, card_id: str) -> Source | None:
    """The card as a source: the object in a zone, or its last known information if it left play."""
    s = game.state
    return live(game, card_id) or (from_lki(s.lki[card_id]) if card_id in s.lki else None)


def side_of(game: Game, card_id: str) -> str | None:
    """The controller of a card, or of a card that left the game zone (its last known information)."""
    s = game.state
    card = s.cards.get(card_id)
    if card is not None:
        return card.controller
    lki = s.lki.get(card_id)
    return lki["controller"] if lki else None


def _fire(
    game: Game,
    event: str,
    point: str,
    sources: Any,
    ev: Any,
    actor: str | None = None,
    about: str = "",
) -> None:
    """``actor``: the player whose deed the event is (a discard, a draw) or whose card it is about —
    «вы», «ваше существо» or «противник»; ``about``: the card the event is about («другое»)."""
    s = game.state
    for source_id, name, controller, abilities, lki in sources:
        for ability in abilities:
            t = ability.trigger
            if t is None or t.event != event or ability.kind != "triggered":
                continue
            zone = lki["zone"] if lki else s.cards[source_id].zone
            if zone not in t.zones and not (zone == "resolving" and "play" in t.zones):
                continue  # 202.2: the ability works where the card says (the game zone by default)
            if t.own_turn_only and controller != s.active:
                continue
            if t.player != "any" and (actor == controller) != (t.player == "own"):
                continue
            if t.other and about == source_id:
                continue
            if t.next_turn and not _next_turn(game, source_id, lki):
                continue
            if (
                ability.keyword is not None
                and ability.value == 0
                and not KEYWORDS[ability.keyword].zero_declarable
            ):
                continue  # «Х 0 нельзя заявить»
            info = lki or _info(game, source_id)
            pending = PendingTrigger(
                id=s.next_id("t"),
                controller=controller,
                source=source_id,
                source_name=name,
                text=ability.text,
                point=point,
                lki=info,
                event=_event_data(ev),
            )
            s.waiting.append(pending)
            game.log(
                "triggered",
                f"Срабатывает «{ability.text}» («{name}», {point})",
                trigger=pending.id,
                card=source_id,
                player=controller,
                rule="401.4",
                deciding=_why_triggered(s, lki),
            )


def _why_triggered(s: Any, lki: dict[str, Any] | None) -> list[str] | None:
    """The rules deciding a trigger's moment: it waits for the end of the attack or of the ability
    being resolved (307.2, 401.6) and is declared in the next round (402.1); a source that has left
    play triggers all the same, known by its last known information (401.5, 403.1)."""
    deciding = []
    if s.attack is not None or s.phase == "attack":
        deciding.append("307.2")
    if lki:
        deciding += ["401.5", "403.1"]
    return deciding or None


def _next_turn(game: Game, source_id: str, lki: dict[str, Any]) -> bool:
    """«В начале вашего следующего хода» (interpretation I-61): the first turn of the ability's
    controller that begins after its source entered the game zone."""
    card = game.state.cards.get(source_id)
    entered = card.entered_turn if card is not None else None
    if entered is None:
        return False
    # Turns alternate (301.1): the controller's next turn is the first of his turns after ``entered``.
    return 0 < game.state.turn - entered <= 2


def _info(game: Game, card_id: str) -> dict[str, Any]:
    return snapshot(game, game.state.cards[card_id])


def _event_data(ev: Any) -> dict[str, Any]:
    """What the event was about, kept on the waiting trigger (for «его», «ту карту» …)."""
    kind = type(ev)
    if kind is events.MoveEvent:
        return {"card": ev.new_id, "was": ev.card, "cause": ev.cause}
    if kind is events.BlowEvent:
        return {"card": ev.target, "strength": ev.strength}
    if kind is events.AttackEvent:
        return {"card": ev.attacker}
    if kind is events.DrawEvent:
        return {"card": ev.card, "player": ev.player}
    if kind is events.CloseEvent:
        return {"card": ev.card}
    if kind is events.WoundEvent and ev.blow == "удар" and ev.dealt:  # «наносит Х ран ударом герою» (I-111)
        return {"strike_wounds": ev.dealt}
    return {}


events.AFTER_EVENTS.append(collect)  # every batch of events that happened is looked at (401.4)
