"""Trigger collection: which triggered abilities an event makes wait for their declaration (401.4).

Triggers match typed events. For each kind of event, :data:`MATCHES` says which trigger conditions it
can satisfy and whose abilities to look at: the card the event is about («Найм», «Гибель», «При
атаке») or every card in the game zone («В начале хода», «Когда погибает существо»). A card that has
just left the game zone triggers from its last known information — its controller and the abilities
it had (401.5, 403.1); so do the cards that were in the game zone with it when it died (interpretation
I-11). An ability triggers wherever its source is afterwards and whether or not it still has the
ability (401.5): the waiting trigger keeps its own text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import events
from berserk_engine.events import (
    AttackEvent,
    BlowEvent,
    CloseEvent,
    DrawEvent,
    HealEvent,
    MoveEvent,
    PlayEvent,
    ResolvedEvent,
    TurnEvent,
    WoundEvent,
)
from berserk_engine.grammar import parse_ability
from berserk_engine.keywords import KEYWORDS
from berserk_engine.state import PendingTrigger
from berserk_engine.zones import snapshot

if TYPE_CHECKING:
    from berserk_engine.abilities import Ability
    from berserk_engine.game import Game

# A source: (object id, name, controller, abilities, last known information or None).
Source = tuple[str, str, str, tuple["Ability", ...], dict[str, Any]]


def _live(game: Game, card_id: str) -> Source | None:
    card = game.state.cards.get(card_id)
    if card is None:
        return None
    return card.id, card.name, card.controller, ch.abilities(game, card), {}


def _from_lki(lki: dict[str, Any]) -> Source:
    abilities = tuple(parse_ability(text) for text in lki.get("abilities", ()))
    return lki["id"], lki["name"], lki["controller"], abilities, lki


def _in_play(game: Game, event: str, ids: list[str]) -> Iterator[Source]:
    s = game.state
    for card_id in ids:
        card = s.cards.get(card_id)
        if card is None:
            lki = s.lki.get(card_id)
            if lki is not None:
                yield _from_lki(lki)
            continue
        if event in game.defs[card.name].trigger_events or card_id in game.by_card:
            yield card.id, card.name, card.controller, ch.abilities(game, card), {}


def listeners(game: Game, event: str) -> list[str]:
    """Cards in the game zone (in order) with a triggered ability waiting for ``event`` — an index
    rebuilt only when a card changes zone or an effect changes."""
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
                events = game.defs[card.name].trigger_events
            for e in events:
                index.setdefault(e, []).append(card_id)
        game.listener_index = index
    return list(index.get(event, ()))


def listening(game: Game, event: str, card_id: str) -> bool:
    """Does this card in the game zone have a triggered ability waiting for ``event``?"""
    if game.listener_index is None:
        listeners(game, event)
    return card_id in game.listener_index.get(event, ())  # type: ignore[union-attr]


def _outside_play(game: Game, event: str) -> Iterator[Source]:
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
                d = game.defs[card.name]
                if card_id in kept:
                    abilities = ch.abilities(game, card)
                elif zone in d.outside_play and event in d.trigger_events:
                    abilities = d.abilities
                else:
                    continue
                if any(a.trigger is not None and zone in a.trigger.zones for a in abilities):
                    yield card.id, card.name, card.controller, abilities, {}


def collect(game: Game, events: list[Any], before: list[str] | None) -> None:
    s = game.state
    for ev in events:
        kind = type(ev)
        if kind not in _TRIGGERING:
            continue
        if kind is MoveEvent:
            if ev.to_zone == "play":
                src = _live(game, ev.new_id)
                if src:
                    _fire(game, "enters_play", f"найм «{ev.name}»", [src], ev)
            if ev.from_zone == "play" and ev.to_zone == "graveyard":
                point = f"гибель «{ev.name}»"
                _fire(game, "dies", point, [_from_lki(ev.lki)], ev)
                if ev.card_type == "creature":
                    witnesses = [c for c in (before if before is not None else s.play) if c != ev.card]
                    _fire(game, "creature_dies", point, _in_play(game, "creature_dies", witnesses), ev)
            if ev.cause == "discard":
                point = f"сброс карты игроком {ev.owner}"
                _fire(
                    game,
                    "discards",
                    point,
                    _in_play(game, "discards", listeners(game, "discards")),
                    ev,
                    ev.owner,
                )
        elif kind is TurnEvent:
            event = "turn_end" if ev.end else "turn_start"
            point = f"{'конец' if ev.end else 'начало'} хода {ev.turn}"
            _fire(game, event, point, _in_play(game, event, listeners(game, event)), ev)
            _fire(game, event, point, _outside_play(game, event), ev)
        elif kind is BlowEvent:
            src = _live(game, ev.card) or (_from_lki(s.lki[ev.card]) if ev.card in s.lki else None)
            if src:
                point = f"удар «{ev.name}»"
                if ev.kind in ("attack", "shot"):
                    _fire(game, "attacks", point, [src], ev)
                _fire(game, "strikes", point, [src], ev)
        elif kind is AttackEvent:
            src = _live(game, ev.target)
            if src:
                _fire(game, "attacked", f"атака на «{src[1]}»", [src], ev)
        elif kind is PlayEvent:
            src = _live(game, ev.card)
            if src:
                _fire(game, "played", f"розыгрыш «{ev.name}»", [src], ev)
        elif kind is WoundEvent or kind is HealEvent:
            # «Когда эта карта получает раны» / «Когда с этой карты снимаются раны»: only wounds really
            # dealt, only wounds really removed.
            event = "wounded" if kind is WoundEvent else "healed"
            if (ev.dealt if kind is WoundEvent else ev.removed) and listening(game, event, ev.target):
                src = _live(game, ev.target)
                if src:
                    _fire(game, event, f"раны «{src[1]}»", [src], ev)
        elif kind is CloseEvent:
            # «Когда эта карта открывается» (Открытие карты), also in the restoration phase (304.3).
            if ev.open and listening(game, "opens", ev.card):
                src = _live(game, ev.card)
                if src:
                    _fire(game, "opens", f"открытие «{src[1]}»", [src], ev)
        elif kind is DrawEvent:
            if not ev.failed:
                point = f"взятие карты игроком {ev.player}"
                _fire(game, "draws", point, _in_play(game, "draws", listeners(game, "draws")), ev, ev.player)
        elif kind is ResolvedEvent:
            if ev.kind == "spell":  # 119.8: a (partially) resolved ability triggers what its success would
                point = f"выполнено «{ev.text}»"
                sources = _in_play(game, "spell_resolved", listeners(game, "spell_resolved"))
                _fire(game, "spell_resolved", point, sources, ev, ev.controller)


_TRIGGERING = frozenset(
    {
        MoveEvent,
        TurnEvent,
        BlowEvent,
        AttackEvent,
        PlayEvent,
        DrawEvent,
        ResolvedEvent,
        WoundEvent,
        HealEvent,
        CloseEvent,
    }
)


def _fire(game: Game, event: str, point: str, sources: Any, ev: Any, actor: str | None = None) -> None:
    """``actor``: the player whose deed the event is (a discard, a draw) — «вы» or «противник»."""
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
            )


def _info(game: Game, card_id: str) -> dict[str, Any]:
    return snapshot(game, game.state.cards[card_id])


def _event_data(ev: Any) -> dict[str, Any]:
    if type(ev) is MoveEvent:
        return {"card": ev.new_id, "was": ev.card, "cause": ev.cause}
    if type(ev) is BlowEvent:
        return {"card": ev.target, "strength": ev.strength}
    if type(ev) is AttackEvent:
        return {"card": ev.attacker}
    if type(ev) is DrawEvent:
        return {"card": ev.card, "player": ev.player}
    return {}


events.AFTER_EVENTS.append(collect)  # every batch of events that happened is looked at (401.4)
