"""``berserk-engine serve``: the reference engine as a process speaking the berserk-rules protocol.

Newline-delimited JSON over stdin/stdout, one request and one response a line, UTF-8 (the
messages are specified by the JSON Schemas of berserk-rules, ``berserk_rules/harness/schemas/``, and on
the site's «Протокол» page)::

    → {"id": 0, "op": "handshake", "protocol": "1.1"}
    ← {"id": 0, "result": {"protocol": "1.1", "engine": {"name": …, "version": …}, "capabilities": {…}}}
    → {"id": 1, "op": "start", "position": {…}}          ← {"id": 1, "result": null}
    → {"id": 2, "op": "decision"}                         ← {"id": 2, "result": {"seq": 0, …}}
    → {"id": 3, "op": "act", "player": "А", "action": {"type": "pass"}}
    ← {"id": 3, "error": {"kind": "rejected", "rule": "401.7", "message": "…"}}
    → {"id": 4, "op": "observe", "viewer": "Б"}          ← {"id": 4, "result": {…}}
    → {"id": 5, "op": "log", "viewer": null}              ← {"id": 5, "result": […]}
    → {"id": 6, "op": "deck", "deck": {"format": "драфт", "cards": […]}}   ← {"id": 6, "result": []}
    → {"id": 7, "op": "close"}                            ← {"id": 7, "result": null}

This module uses only the engine's public API (:func:`berserk_engine.setup.new_game`, ``Game``'s
``decision()``, ``act()``, ``observe()``, ``log_for()``, :mod:`berserk_engine.errors`) and imports
nothing from berserk-rules: it is what an engine in another language implements. The request loop
(:func:`serve`) and the dispatch (:class:`Session`) are reusable: a session for any other engine
overrides the five operations and :meth:`Session.refusal`.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import traceback
from collections.abc import Sequence
from typing import IO, Any, ClassVar

import berserk_engine
from berserk_engine.errors import CardTextError, IllegalAction, SetupError

PROTOCOL = "1.1"  # 1.1: the optional request deck
PLAYERS = ("А", "Б")
VIEWERS = (*PLAYERS, None)


def reference_capabilities() -> dict[str, Any]:
    """What the reference engine declares in the handshake, read from its registries — never written
    by hand: the decision kinds (``berserk_engine.actions.DECISIONS``), the actions it accepts
    (``ACTIONS`` answer a decision, ``ANYTIME`` at any moment). It reads every Part and every term of
    the suite, so it declares no ``parts``, ``rules`` or ``terms`` (an absent key: everything); of
    the optional requests it answers ``deck`` (its deck construction rules, ``construction``); and it
    answers in one thread (``threads``)."""
    import berserk_engine.catalogue  # noqa: F401 - its imports register every mechanic
    from berserk_engine import actions

    return {
        "decisions": list(actions.DECISIONS),
        "actions": sorted({*actions.ACTIONS, *actions.ANYTIME}),
        "requests": ["deck"],
        "threads": 1,  # one request at a time, in one thread: held with the scenario on one CPU
    }


class ProtocolError(Exception):
    """A request that is not a request of the protocol (answered with kind «protocol»)."""


class Session:
    """One protocol session: a game at a time, started anew by each ``start``."""

    name = "berserk-rules reference engine"
    version = berserk_engine.__version__
    language = "Python"
    # None: the reference engine's own, computed from its registries (:func:`reference_capabilities`);
    # a session for another engine sets what that engine declares
    capabilities: ClassVar[dict[str, Any] | None] = None

    def __init__(self) -> None:
        self.game: Any = None

    # --- the operations (override these for another engine) ------------------------------------

    def handshake(self, request: dict[str, Any]) -> dict[str, Any]:
        return {
            "protocol": PROTOCOL,
            "engine": {"name": self.name, "version": self.version, "language": self.language},
            "capabilities": self.capabilities if self.capabilities is not None else reference_capabilities(),
        }

    def start(self, position: dict[str, Any]) -> None:
        from berserk_engine.setup import new_game

        self.game = new_game(copy.deepcopy(position))

    def decision(self) -> dict[str, Any] | None:
        decision = self._game().decision()
        return decision.to_json() if decision else None

    def act(self, player: str, action: dict[str, Any]) -> None:
        self._game().act(player, action)

    def observe(self, viewer: str | None) -> dict[str, Any]:
        return self._game().observe(viewer)

    def log(self, viewer: str | None) -> list[dict[str, Any]]:
        return self._game().log_for(viewer)

    def deck(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        from berserk_engine import construction

        return [p.to_json() for p in construction.check(copy.deepcopy(deck))]

    def refusal(self, exc: Exception) -> dict[str, Any] | None:
        """The protocol error for an exception the engine raises on purpose (None: an internal
        error): an illegal action is «rejected» with its rule, a position it cannot build
        «setup_rejected»."""
        if isinstance(exc, IllegalAction):
            return {"kind": "rejected", "rule": exc.rule, "message": exc.message}
        if isinstance(exc, SetupError | CardTextError):
            return {"kind": "setup_rejected", "message": str(exc)}
        return None

    # --- dispatch ------------------------------------------------------------------------------

    def _game(self) -> Any:
        if self.game is None:
            raise ProtocolError("партия не начата: сначала запрос start")
        return self.game

    def handle(self, request: Any) -> dict[str, Any]:
        """The response to one request (never raises)."""
        ident = request.get("id") if isinstance(request, dict) else None
        ident = ident if isinstance(ident, int) and not isinstance(ident, bool) else None
        try:
            result = self._dispatch(request)
        except ProtocolError as exc:
            return {"id": ident, "error": {"kind": "protocol", "message": str(exc)}}
        except Exception as error:  # another name than above: compiled, a name keeps one type
            refusal = self.refusal(error)
            if refusal is None:
                refusal = {
                    "kind": "engine",
                    "message": f"{type(error).__name__}: {error}",
                    "traceback": traceback.format_exc(limit=20),
                }
            return {"id": ident, "error": refusal}
        return {"id": ident, "result": result}

    def _dispatch(self, request: Any) -> Any:
        if not isinstance(request, dict):
            raise ProtocolError("запрос должен быть объектом JSON")
        op = request.get("op")
        if op == "handshake":
            return self.handshake(request)
        if op == "start":
            position = request.get("position")
            if not isinstance(position, dict):
                raise ProtocolError("start: нужно поле position (объект)")
            self.game = None
            self.start(position)
            return None
        if op == "decision":
            return self.decision()
        if op == "act":
            player, action = request.get("player"), request.get("action")
            if player not in PLAYERS or not isinstance(action, dict):
                raise ProtocolError("act: нужны поля player («А» или «Б») и action (объект)")
            self.act(player, action)
            return None
        if op in ("observe", "log"):
            viewer = request.get("viewer")
            if viewer not in VIEWERS:
                raise ProtocolError(f"{op}: viewer должен быть «А», «Б» или null")
            return self.observe(viewer) if op == "observe" else self.log(viewer)
        if op == "deck":
            deck = request.get("deck")
            if not isinstance(deck, dict):
                raise ProtocolError("deck: нужно поле deck (объект: format и cards)")
            return self.deck(deck)
        if op == "close":
            return None
        raise ProtocolError(f"неизвестная операция {op!r}")


def serve(session: Session, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Answer requests line by line until ``close`` or the end of input."""
    reader = stdin if stdin is not None else sys.stdin.buffer
    writer = stdout if stdout is not None else sys.stdout.buffer
    for raw in reader:
        if not raw.strip():
            continue
        try:
            request = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            response: dict[str, Any] = {
                "id": None,
                "error": {"kind": "protocol", "message": f"строка запроса — не JSON в UTF-8: {exc}"},
            }
            request = None
        else:
            response = session.handle(request)
        try:
            line = json.dumps(response, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as wrong:  # the engine produced something that is not JSON
            line = json.dumps(
                {"id": response.get("id"), "error": {"kind": "engine", "message": f"ответ не JSON: {wrong}"}},
                ensure_ascii=False,
            )
        writer.write(line.encode("utf-8") + b"\n")
        writer.flush()
        if isinstance(request, dict) and request.get("op") == "close":
            break
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="berserk-engine",
        description="Эталонный движок «Берсерк. Герои» как процесс: протокол berserk-rules (NDJSON).",
    )
    parser.add_argument("--version", action="version", version=f"berserk-engine {berserk_engine.__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="КОМАНДА")
    sub.add_parser("serve", help="отвечать на запросы протокола по stdin/stdout (строка JSON на запрос)")
    parser.parse_args(argv)
    return serve(Session())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
