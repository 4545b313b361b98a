"""A scenario's game step by step (issue 19, item 2): after each step, the board as the judge sees it and
the log entries the step caused — what the site's replay and ``berserk-rules ask`` show.

Recorded by :mod:`berserk_rules.runner.trace` while a scenario runs and written into the results as
the scenario's ``steps``: a list of

``{"keyword": "Когда", "text": "…", "line": 15, "log": [from, to], "board": {…}}``

— ``log`` is the slice of the scenario's ``log`` (the judge's, indices from 0) that the step caused,
``board`` the board after it (:func:`board_of`), left out when the step changed nothing on it (the
board of an earlier step still holds). The first element is the start of the game
(``"keyword": ""``, ``"start": true``): the board right after ``driver.start``; the entries the engine
wrote getting there (a turn that starts with its restoration phase) belong to the step that started
the game («Когда начинается ход игрока А»), so they are shown under it (issue 26). Steps run before the game
started («Дано» steps build the position) have neither ``log`` nor ``board``; the step that failed
has ``"failed": true``. With an engine process (``--berserk-engine``) ``log`` is null: the harness asks
such an engine for its log once, as the scenario's last request (the guarantees of issue 15 are
tested on that), so the entries are not split by step there. Only the driver's protocol is used
(``observe(None)``, ``log(None)``), so any engine's game is replayed the same way.
"""

from __future__ import annotations

import json
from typing import Any

from berserk_rules.harness.driver import Driver

ZONES = ("hand", "deck", "graveyard", "reserve", "sideboard")
DECK_SHOWN = 10  # a longer deck is shown as its size


def _name(card: Any) -> str:
    if not isinstance(card, dict):
        return str(card)
    name = card.get("name")
    return str(name) if name else "карта рубашкой вверх"


def _card(card: dict[str, Any], hero: bool = False) -> dict[str, Any]:
    """A card in the game zone: what a judge looks at (name, owner, wounds, lives, markers…); the
    controller only when it is not the owner, neither of them for a hero (it is in its player's box)."""
    out: dict[str, Any] = {"name": _name(card)}
    for key in ("owner", "controller", "closed", "face_down", "wounds", "life", "strike"):
        if card.get(key) in (None, False, 0) and key not in ("life", "strike"):
            continue
        if hero and (key in ("owner", "controller") or (key == "strike" and not card.get(key))):
            continue
        if key == "controller" and card.get(key) == card.get("owner"):
            continue
        if card.get(key) is not None:
            out[key] = card[key]
    if card.get("markers"):
        out["markers"] = dict(card["markers"])
    if card.get("entered_this_turn"):
        out["new"] = True
    effects = [e.get("text") for e in card.get("effects") or [] if isinstance(e, dict) and e.get("text")]
    if effects:
        out["effects"] = effects
    return out


def _item(item: dict[str, Any]) -> dict[str, Any]:
    """An element of the Очередь (or a trigger waiting to be declared)."""
    out = {"text": str(item.get("text", ""))}
    for key in ("controller", "source_name"):
        if item.get(key):
            out[key] = item[key]
    return out


def board_of(view: dict[str, Any]) -> dict[str, Any]:
    """The board of the judge's observation (``observe(None)``): turn, phase, decision, the game zone,
    the Очередь, and each player's hero, coins and zones — the card ids and options left out."""
    board: dict[str, Any] = {}
    for key in ("turn", "active", "phase"):
        if view.get(key) is not None:
            board[key] = view[key]
    if view.get("result"):
        board["result"] = view["result"]
    decision = view.get("decision")
    if isinstance(decision, dict) and decision.get("player"):
        board["decision"] = {"player": decision["player"], "kind": decision.get("kind")}
        if isinstance(decision.get("deciding"), list) and decision["deciding"]:
            board["decision"]["deciding"] = list(decision["deciding"])  # the protocol's optional field
    players = view.get("players") or {}
    heroes = {(data.get("hero") or {}).get("id") for data in players.values() if isinstance(data, dict)} - {
        None
    }
    play = [c for c in view.get("play") or [] if isinstance(c, dict) and c.get("id") not in heroes]
    board["play"] = [_card(c) for c in play]
    if view.get("resolving"):
        board["resolving"] = [_name(c) for c in view["resolving"]]
    board["queue"] = [_item(q) for q in view.get("queue") or [] if isinstance(q, dict)]
    if view.get("waiting"):
        board["waiting"] = [_item(t) for t in view["waiting"] if isinstance(t, dict)]
    board["players"] = {}
    for name, data in sorted(players.items()):
        if not isinstance(data, dict):
            continue
        player: dict[str, Any] = {}
        hero = data.get("hero")
        if isinstance(hero, dict):
            player["hero"] = _card(hero, hero=True)
        if isinstance(data.get("coins"), dict):
            player["coins"] = dict(data["coins"])
        if data.get("draw_failures"):
            player["draw_failures"] = data["draw_failures"]
        for zone in ZONES:
            found = (data.get("zones") or {}).get(zone)
            if not isinstance(found, dict):
                continue
            cards = found.get("cards")
            count = found.get("count", len(cards or []))
            if not count:
                continue
            if cards is None or (zone == "deck" and count > DECK_SHOWN):
                player[zone] = count
            else:
                player[zone] = [_name(c) for c in cards]
        board["players"][name] = player
    return board


class StepTrace:
    """Collects one scenario's steps while it runs (see the module doc)."""

    def __init__(self, with_log: bool = True) -> None:
        self.with_log = with_log  # False: boards only (see :func:`berserk_rules.runner.trace.log_slices`)
        self.steps: list[dict[str, Any]] = []
        self.logged = 0  # log entries already given to a step
        self.board: dict[str, Any] | None = None  # the last board recorded
        self.broken = False  # the engine failed: nothing more is asked
        self.moves: int | None = None  # the scenario's count of actions at the last snapshot
        self.start: dict[str, Any] | None = None  # the start entry, until the step that caused it ends

    def _snapshot(self, driver: Driver, entry: dict[str, Any]) -> None:
        if self.broken:
            return
        try:
            board = board_of(driver.observe(None))
            size = len(driver.log(None)) if self.with_log else None
        except Exception:  # the engine failed: the checked driver remembers it for the scenario
            self.broken = True
            return
        if size is None:
            entry["log"] = None  # the game runs; which entries the step caused is not known
        else:
            entry["log"] = [min(self.logged, size), size]
            self.logged = max(self.logged, size)
        if board != self.board:
            entry["board"] = board
            self.board = board

    def started(self, driver: Driver) -> None:
        """The game has just started (``driver.start``): its first board."""
        entry: dict[str, Any] = {"keyword": "", "text": "Начало партии", "start": True}
        self._snapshot(driver, entry)
        self.moves = None  # the steps' count is not known here: the next step that acts is asked
        self.steps.append(entry)
        self.start = entry

    def after_step(
        self,
        driver: Driver | None,
        keyword: str,
        text: str,
        line: int,
        *,
        kind: str = "",
        failed: bool = False,
        moves: int | None = None,
    ) -> None:
        """A step has run (``driver``: None while the game has not started). A «Тогда» step that
        passed only looks at the game, and a step that sent no action since the last board
        (``moves``: the scenario's count of actions sent) changed nothing: the engine is not asked
        again for either."""
        entry: dict[str, Any] = {"keyword": keyword.strip(), "text": text, "line": line}
        if failed:
            entry["failed"] = True
        unchanged = moves is not None and moves == self.moves
        if driver is not None and not failed and not self.broken and (kind == "then" or unchanged):
            entry["log"] = [self.logged, self.logged] if self.with_log else None
        elif driver is not None:
            self._snapshot(driver, entry)
            self.moves = moves
        start, self.start = self.start, None
        span, started = entry.get("log"), start.get("log") if start is not None else None
        if start is not None and isinstance(span, list) and isinstance(started, list):
            # this step started the game: the turn's first entries are its own, not «Начало партии»'s
            entry["log"] = [started[0], span[1]]
            start["log"] = [started[0], started[0]]
        self.steps.append(entry)

    def to_json(self) -> list[dict[str, Any]]:
        return json.loads(json.dumps(self.steps, ensure_ascii=False))
