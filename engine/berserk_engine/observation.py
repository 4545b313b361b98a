"""What a player may see (201.3–201.5, 203.1, 204.1).

Open zones (the game zone, «resolving», both graveyards) are shown in full; a half-closed zone (hand,
reserve, sideboard) only to its owner — the other player sees how many cards it holds (203.1); the deck
is closed to everybody, its size is open (204.1). A card lying face down («рубашкой вверх») shows
only that it is a card to the player who does not control it. ``observe(game, None)`` is the judge's
view: it shows every zone, for game logs and debugging — scenarios observe as a player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine.costs import cost_of
from berserk_engine.state import PLAYERS
from berserk_engine.zones import PRIVATE_ZONES, visible

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card


def card_view(game: Game, card: Card, viewer: str | None = None) -> dict[str, Any]:
    d = card.definition
    if card.face_down and viewer is not None and viewer != card.controller:
        view: dict[str, Any] = {
            "id": card.id,
            "name": None,
            "type": None,
            "owner": card.owner,
            "face_down": True,
        }
        if card.zone == "play":
            view.update({"controller": card.controller, "closed": card.closed, "wounds": card.wounds})
        return view
    view = {"id": card.id, "name": card.name, "type": d.type, "owner": card.owner, "cost": d.cost}
    if d.subtype:
        view["subtype"] = d.subtype
    if card.zone == "hand" and d.cost:
        # 203.2–203.3: in hand a card costs what playing it would cost now.
        view["cost"] = cost_of(game, d, card.owner)
    if card.zone == "play":
        effects = ch.effects_on(game, card.id)
        view.update(
            {
                "controller": card.controller,
                "closed": card.closed,
                "face_down": card.face_down,
                "wounds": card.wounds,
                "life": ch.life(game, card),
                # Жизни карты (текущее число жизней): the level of lives minus the wounds.
                "current_life": ch.life(game, card) - card.wounds,
                "strike": ch.strike(game, card),
                "markers": card.marker_counts(),
                "uses": dict(card.uses),
                "entered_this_turn": card.entered_turn == game.state.turn,
                "abilities": [a.text for a in ch.abilities(game, card)],
                "effects": [
                    {
                        "id": e.id,
                        "kind": e.kind,
                        "text": ch.describe(e),
                        "until": e.until,
                        "source_name": e.source_name,
                        **({"ability": e.text} if e.kind == "grant" else {}),
                        **({"player": e.player, "turns": e.turns} if e.until == "player_turns" else {}),
                    }
                    for e in effects
                ],
            }
        )
    elif card.uses:
        view["uses"] = dict(card.uses)
    return view


def anytime_options(game: Game, player: str) -> list[dict[str, Any]]:
    from berserk_engine.actions import ANYTIME

    return [o for kind in ANYTIME.values() for o in kind.options(game, player)]


def observe(game: Game, viewer: str | None) -> dict[str, Any]:
    s = game.state
    players: dict[str, Any] = {}
    for name in PLAYERS:
        p = s.players[name]
        zones: dict[str, Any] = {}
        for zone in PRIVATE_ZONES:
            ids = p.zones[zone]
            zones[zone] = {
                "count": len(ids),
                "cards": [card_view(game, s.cards[c], viewer) for c in ids]
                if visible(zone, name, viewer)
                else None,
            }
        players[name] = {
            "hero": card_view(game, s.cards[p.hero], viewer),
            "coins": {"open": p.coins_open, "closed": p.coins_closed},
            "draw_failures": p.draw_failures,
            "zones": zones,
            # Actions the player may take at any time (concession, a draw offer — 602.1, 603.2).
            "anytime": [] if s.result is not None else anytime_options(game, name),
        }
    d = s.pending if s.result is None else None
    decision = None
    if d is not None:
        if viewer is None or viewer == d.player:
            decision = {"seq": s.answered, **d.to_json()}
        else:
            decision = {"seq": s.answered, "player": d.player, "kind": d.kind}
    return {
        "viewer": viewer,
        "turn": s.turn,
        "active": s.active,
        "first_player": s.first_player,
        "phase": s.phase,
        "result": dict(s.result) if s.result else None,
        "play": [card_view(game, s.cards[c], viewer) for c in s.play],
        "resolving": [card_view(game, s.cards[c], viewer) for c in s.resolving],
        "queue": [
            {
                "id": q.id,
                "kind": q.kind,
                "text": q.text,
                "controller": q.controller,
                "source": q.source,
                "source_name": q.source_name,
                "targets": [t for t in q.targets if t],  # an empty optional slot names no card
                "point": q.point,
            }
            for q in s.queue
        ],
        "waiting": [
            {
                "id": t.id,
                "controller": t.controller,
                "text": t.text,
                "source_name": t.source_name,
                "point": t.point,
            }
            for t in s.waiting
        ],
        "attack": s.attack.to_json() if s.attack else None,
        "players": players,
        "decision": decision,
    }
