"""An engine process that breaks the protocol on purpose, for tests of ``check --engine``.

``python tests/engines/broken_engine.py [--protocol 2.0] [--lifo]`` serves the reference engine
(:mod:`berserk_engine.serve`) and misbehaves in the scenarios whose position describes a card
named after the misbehaviour:

* «Мусор» — answers ``decision`` with a line that is not JSON;
* «Обрыв» — exits with code 7 in the middle of the scenario (on ``decision``);
* «Зависание» — never answers ``decision``;
* «Схема» — answers ``decision`` without ``options`` (a schema violation);
* «Чужой» — answers with another request's id;
* «Неумеха» — says the operation is unsupported.

``--protocol 2.0`` announces another protocol version in the handshake; ``--lifo`` resolves the
Queue last-in-first-out (a wrong engine that speaks the protocol perfectly).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from berserk_engine import queue
from berserk_engine.serve import Session, serve

MODES = {"Мусор": "garbage", "Обрыв": "exit", "Зависание": "hang", "Схема": "schema", "Чужой": "id"}


class BrokenSession(Session):
    name = "сломанный движок (нарочно)"
    version = "0.0.1"

    def __init__(self, protocol: str) -> None:
        super().__init__()
        self.protocol = protocol
        self.mode: str | None = None

    def handshake(self, request: dict[str, Any]) -> dict[str, Any]:
        return {**super().handshake(request), "protocol": self.protocol}

    def start(self, position: dict[str, Any]) -> None:
        cards = position.get("cards", {})
        self.mode = next((mode for name, mode in MODES.items() if name in cards), None)
        self.unsupported = "Неумеха" in cards
        super().start(position)

    def handle(self, request: Any) -> dict[str, Any]:
        op = request.get("op") if isinstance(request, dict) else None
        if op == "decision" and self.mode == "garbage":
            sys.stdout.buffer.write(b"<<< this is not JSON >>>\n")
            sys.stdout.flush()
            return super().handle(request)
        if op == "decision" and self.mode == "exit":
            os._exit(7)
        if op == "decision" and self.mode == "hang":
            time.sleep(600)
        if op == "decision" and self.mode == "id":
            return {**super().handle(request), "id": 999}
        if op == "decision" and self.unsupported:
            return {"id": request["id"], "error": {"kind": "unsupported", "message": "решения не умею"}}
        response = super().handle(request)
        if op == "decision" and self.mode == "schema" and response.get("result"):
            del response["result"]["options"]
        return response


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--protocol", default="1.0")
    parser.add_argument("--lifo", action="store_true")
    args = parser.parse_args()
    if args.lifo:
        queue.next_item = lambda game: game.state.queue.pop()
    return serve(BrokenSession(args.protocol))


if __name__ == "__main__":
    sys.exit(main())
