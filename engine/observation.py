"""What a player may see (201.3–201.5, 203.1, 204.1).

Open zones (the game zone, both graveyards) are shown in full; a half-closed zone (hand, reserve,
sideboard) only to its owner — the other player sees how many cards it holds (203.1); the deck is
closed to everybody, its size is open (204.1). ``observe(game, None)`` is the judge's view: it shows
every zone, for game logs and debugging — scenarios observe as a player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine.state import OPEN_ZONES, OWNER_ONLY_ZONES, PLAYERS, PRIVATE_ZONES

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import Card


def card_view(card: Card, turn: int) -> dict[str, Any]:
    view: dict[str, Any] = {"id": card.id, "name": card.name, "type": card.type, "owner": card.owner}
    if card.zone == "play":
        view.update(
            {
                "controller": card.controller,
                "closed": card.closed,
                "wounds": card.wounds,
                "life": card.life,
                "strike": card.strike,
                "markers": dict(card.markers),
                "entered_this_turn": card.entered_turn == turn,
            }
        )
    return view


def observe(game: Game, viewer: str | None) -> dict[str, Any]:
    s = game.state
    players: dict[str, Any] = {}
    for name in PLAYERS:
        p = s.players[name]
        zones: dict[str, Any] = {}
        for zone in PRIVATE_ZONES:
            cards = [s.cards[c] for c in p.zones[zone]]
            visible = zone in OPEN_ZONES or viewer is None or (zone in OWNER_ONLY_ZONES and viewer == name)
            zones[zone] = {
                "count": len(cards),
                "cards": [card_view(c, s.turn) for c in cards] if visible else None,
            }
        players[name] = {
            "hero": card_view(s.cards[p.hero], s.turn),
            "coins": {"open": p.coins_open, "closed": p.coins_closed},
            "draw_failures": p.draw_failures,
            "zones": zones,
        }
    d = game.decision()
    return {
        "viewer": viewer,
        "turn": s.turn,
        "active": s.active,
        "first_player": s.first_player,
        "phase": s.phase,
        "result": dict(s.result) if s.result else None,
        "play": [card_view(s.cards[c], s.turn) for c in s.play],
        "queue": [
            {
                "id": q.id,
                "kind": q.kind,
                "text": q.text,
                "controller": q.controller,
                "source": q.source,
                "source_name": s.cards[q.source].name,
                "targets": list(q.targets),
                "point": q.point,
            }
            for q in s.queue
        ],
        "players": players,
        "decision": d.to_json()
        if d and (viewer is None or viewer == d.player)
        else ({"seq": d.seq, "player": d.player, "kind": d.kind} if d else None),
    }
