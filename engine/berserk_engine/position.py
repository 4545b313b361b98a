"""A game written out as a position (``Game.position()``): the format :func:`berserk_engine.setup.new_game`
reads back, in full — a snapshot that plays on identically (see :mod:`berserk_engine.setup`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine.data import to_data
from berserk_engine.state import PLAYERS, Card, entry_json
from berserk_engine.zones import PRIVATE_ZONES

if TYPE_CHECKING:
    from berserk_engine.game import Game

FORMAT = "berserk-position/1"


def _entry(card: Card) -> dict[str, Any]:
    entry: dict[str, Any] = {"card": card.name, "id": card.id, "serial": card.serial, "owner": card.owner}
    if card.zone == "play":
        entry["controller"] = card.controller
        entry["closed"] = card.closed
    if card.face_down:
        entry["face_down"] = True
    if card.wounds or card.markers:
        entry["markers"] = card.marker_counts()
    if card.uses:
        entry["uses"] = dict(card.uses)
    if card.this_turn is not None:
        entry["this_turn"] = card.this_turn.to_json()
    if card.entered_turn is not None:
        entry["entered_turn"] = card.entered_turn
    return entry


def snapshot_position(game: Game) -> dict[str, Any]:
    """The whole state as a position that :func:`new_game` accepts and that plays on identically."""
    s = game.state
    players: dict[str, Any] = {}
    for name in PLAYERS:
        p = s.players[name]
        desc: dict[str, Any] = {
            "hero": _entry(s.cards[p.hero]),
            "coins": {"open": p.coins_open, "closed": p.coins_closed},
            "draw_failures": p.draw_failures,
        }
        if p.drawn_this_turn:  # «карт, которые вы взяли в этот ход» (I-88)
            desc["drawn_this_turn"] = p.drawn_this_turn
        if p.played_this_turn:  # «Первая карта … в его следующий ход» (I-105)
            desc["played_this_turn"] = p.played_this_turn
        for zone in PRIVATE_ZONES:
            desc[zone] = [_entry(s.cards[c]) for c in p.zones[zone]]
        desc["play"] = [_entry(s.cards[c]) for c in s.play if c != p.hero and s.cards[c].controller == name]
        players[name] = desc
    return {
        "format": FORMAT,
        "first_player": s.first_player,
        "active": s.active,
        "turn": s.turn,
        "phase": s.phase,
        "cards": {k: dict(v) for k, v in s.library.items()},
        "players": players,
        "effects": to_data(s.effects),
        "queue": to_data(s.queue),
        "waiting": to_data(s.waiting),
        "result": s.result,
        "log": [entry_json(e) for e in s.log],
        "engine": {
            "play": list(s.play),
            "stack": to_data(s.stack),
            "pending": to_data(s.pending),
            "round": s.round,
            "attack": to_data(s.attack),
            "lki": to_data(s.lki),
            "resolving": list(s.resolving),
            "resolving_cards": to_data([s.cards[c] for c in s.resolving]),
            "draw_declined": dict(s.draw_declined),
            "counter": s.counter,
            "serials": s.serials,
            "answered": s.answered,
            "rng": s.rng,
        },
    }
