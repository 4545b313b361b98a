"""``python -m berserk_rules.harness.host module:Class``: any Python driver as an engine process.

The pytest plugin runs every driver out of process by default (``--berserk-isolation process``):
a driver class (``--berserk-driver``) is served by this host over the same NDJSON protocol as an
engine in another language (``--berserk-engine``), so a crash (segfault, ``os.abort``,
``os._exit``) or a hang inside the driver is one scenario's error, never the end of the run.

The host is berserk-rules' own: the request loop and the dispatch are here, the messages it answers
are the table of :mod:`berserk_rules.harness.messages`, and it imports nothing from the reference
engine (the reference engine's own server, ``berserk-engine serve``, is
``engine/berserk_engine/serve.py``; the reference driver is loaded by name like any other,
:data:`berserk_rules.harness.driver.DEFAULT_DRIVER`).
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable
from typing import IO, Any

from berserk_rules.harness import messages
from berserk_rules.harness.contract import json_problems
from berserk_rules.harness.driver import Driver, Rejected, SetupRejected, Unsupported
from berserk_rules.harness.protocol import PROTOCOL

PLAYERS = ("А", "Б")
VIEWERS = (*PLAYERS, None)


class ProtocolError(Exception):
    """A request that is not a request of the protocol (answered with kind «protocol»)."""


def _viewer(request: dict[str, Any]) -> str | None:
    viewer = request.get("viewer")
    if viewer not in VIEWERS:
        raise ProtocolError(f"{request.get('op')}: viewer должен быть «А», «Б» или null")
    return viewer


class DriverSession:
    """A protocol session over a :class:`~berserk_rules.harness.driver.Driver` instance per game."""

    def __init__(self, driver_class: type[Driver]) -> None:
        self.driver_class = driver_class
        self.name = driver_class.name
        self.version = driver_class.version
        self.language = "Python"
        self.capabilities: dict[str, Any] = dict(getattr(driver_class, "capabilities", None) or {})
        self.driver: Driver | None = None
        # message name -> its handler: every message of the table, and no other
        self.handlers: dict[str, Callable[[dict[str, Any]], Any]] = {
            messages.HANDSHAKE.name: self.handshake,
            messages.START.name: self.start,
            messages.DECISION.name: lambda request: self.decision(),
            messages.ACT.name: self.act,
            messages.OBSERVE.name: lambda request: self.observe(_viewer(request)),
            messages.LOG.name: lambda request: self.log(_viewer(request)),
            messages.DECK.name: self.deck,
            messages.CLOSE.name: lambda request: None,
        }

    # --- the messages --------------------------------------------------------------------------

    def handshake(self, request: dict[str, Any]) -> dict[str, Any]:
        return {
            "protocol": PROTOCOL,
            "engine": {"name": self.name, "version": self.version, "language": self.language},
            "capabilities": self.capabilities,
        }

    def start(self, request: dict[str, Any]) -> None:
        position = request.get("position")
        if not isinstance(position, dict):
            raise ProtocolError("start: нужно поле position (объект)")
        if self.driver is not None:
            self.driver.close()
            self.driver = None
        driver = self.driver_class()
        driver.serve_over_wire()  # every argument parsed afresh, every answer serialised at once
        driver.start(position)
        self.driver = driver

    def decision(self) -> dict[str, Any] | None:
        return self._game().decision()

    def act(self, request: dict[str, Any]) -> None:
        player, action = request.get("player"), request.get("action")
        if player not in PLAYERS or not isinstance(action, dict):
            raise ProtocolError("act: нужны поля player («А» или «Б») и action (объект)")
        self._game().act(player, action)

    def observe(self, viewer: str | None) -> dict[str, Any]:
        return self._game().observe(viewer)

    def log(self, viewer: str | None) -> list[dict[str, Any]]:
        return self._game().log(viewer)

    def deck(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        """No game needed: a driver of its own answers (the game in progress, if any, stays)."""
        deck = request.get("deck")
        if not isinstance(deck, dict):
            raise ProtocolError("deck: нужно поле deck (объект: format и cards)")
        driver = self.driver_class()
        try:
            driver.serve_over_wire()
            return driver.deck(deck)
        finally:
            driver.close()

    # --- dispatch ------------------------------------------------------------------------------

    def _game(self) -> Driver:
        if self.driver is None:
            raise ProtocolError("партия не начата: сначала запрос start")
        return self.driver

    def handle(self, request: Any) -> dict[str, Any]:
        """The response to one request (never raises)."""
        ident = request.get("id") if isinstance(request, dict) else None
        ident = ident if isinstance(ident, int) and not isinstance(ident, bool) else None
        try:
            if not isinstance(request, dict):
                raise ProtocolError("запрос должен быть объектом JSON")
            handler = self.handlers.get(request.get("op"))  # type: ignore[arg-type]
            if handler is None:
                raise ProtocolError(f"неизвестная операция {request.get('op')!r}")
            result = handler(request)
        except ProtocolError as exc:
            return {"id": ident, "error": {"kind": "protocol", "message": str(exc)}}
        except Rejected as exc:
            return {"id": ident, "error": {"kind": "rejected", "rule": exc.rule, "message": exc.message}}
        except SetupRejected as exc:
            return {"id": ident, "error": {"kind": "setup_rejected", "message": str(exc)}}
        except Unsupported as exc:
            return {"id": ident, "error": {"kind": "unsupported", "message": str(exc)}}
        except Exception as error:
            return {
                "id": ident,
                "error": {
                    "kind": "engine",
                    "message": f"{type(error).__name__}: {error}",
                    "traceback": traceback.format_exc(limit=20),
                },
            }
        return {"id": ident, "result": result}

    def answer(self, request: Any) -> str:
        """The response line to one request (never raises). The driver's answer must be plain JSON:
        serialised, it must read back as the same value — a tuple, a key 1, NaN or a set do not,
        and the response is then an engine error naming the field (:func:`json_problems`)."""
        response = self.handle(request)
        try:
            line = json.dumps(response, ensure_ascii=False, allow_nan=False)
            if "result" not in response or json.loads(line) == response:
                return line
        except (TypeError, ValueError, RecursionError):
            pass
        op = request.get("op") if isinstance(request, dict) else None
        viewer = request.get("viewer") if isinstance(request, dict) else None
        method = f"{op}({viewer})" if op in (messages.OBSERVE.name, messages.LOG.name) else f"{op}()"
        problems = json_problems(response.get("result"))
        message = (
            f"ValueError: {method}: " + "; ".join(problems[:3]) if problems else f"{method}: ответ не JSON"
        )
        error = {"id": response.get("id"), "error": {"kind": "engine", "message": message}}
        return json.dumps(error, ensure_ascii=False)


def serve(session: DriverSession, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
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
            line = json.dumps(response, ensure_ascii=False)
        else:
            line = session.answer(request)
        writer.write(line.encode("utf-8") + b"\n")
        writer.flush()
        if isinstance(request, dict) and request.get("op") == messages.CLOSE.name:
            break
    return 0


def main(argv: list[str] | None = None) -> int:
    from berserk_rules.errors import UserError
    from berserk_rules.harness.driver import resolve_driver

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("использование: python -m berserk_rules.harness.host модуль:Класс", file=sys.stderr)
        return 2
    try:
        driver_class = resolve_driver(args[0])
    except UserError as exc:
        print(f"berserk_rules.harness.host: {exc}", file=sys.stderr)
        return 2
    return serve(DriverSession(driver_class))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
