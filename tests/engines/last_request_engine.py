"""An engine process that fails only at the last request of a scenario, for tests of ``check --engine``.

``python tests/engines/last_request_engine.py TRACE`` serves the reference engine
(:mod:`berserk_engine.serve`) and answers every request correctly — except ``log``, the request
the harness makes after the last step, in the scenarios whose position describes a card named
after the misbehaviour:

* «КрахВКонце» — exits with code 9;
* «ЗависаниеВКонце» — never answers;
* «СхемаВКонце» — answers with a log that is not a list (a schema violation).

Every request is appended to the file ``TRACE`` as ``<scenario id>\\t<op>`` before it is answered,
so a test can see that the failing request really was the scenario's last one.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from berserk_engine.serve import Session, serve

MODES = {"КрахВКонце": "exit", "ЗависаниеВКонце": "hang", "СхемаВКонце": "schema"}


class LastRequestSession(Session):
    name = "движок, который ломается на последнем запросе (нарочно)"
    version = "0.0.1"

    def __init__(self, trace: str) -> None:
        super().__init__()
        self.trace = trace
        self.mode: str | None = None
        self.scenario = "-"

    def start(self, position: dict[str, Any]) -> None:
        cards = position.get("cards", {})
        self.mode = next((mode for name, mode in MODES.items() if name in cards), None)
        super().start(position)

    def handle(self, request: Any) -> dict[str, Any]:
        op = request.get("op") if isinstance(request, dict) else None
        if op == "start":
            self.scenario = str(request.get("scenario", "-"))
        with open(self.trace, "a", encoding="utf-8") as trace:
            trace.write(f"{self.scenario}\t{op}\n")
        if op == "log" and self.mode == "exit":
            os._exit(9)
        if op == "log" and self.mode == "hang":
            time.sleep(600)
        response = super().handle(request)
        if op == "log" and self.mode == "schema" and "result" in response:
            response["result"] = {"записи": response["result"]}
        return response


if __name__ == "__main__":
    sys.exit(serve(LastRequestSession(sys.argv[1])))
