"""Checked drivers: what scenarios talk to, every value that crosses the boundary checked.

* :class:`ProcessDriver` — an engine process reached through an
  :class:`~berserk_rules.harness.protocol.EngineProcess` (one process per pytest process, reused scenario
  after scenario, restarted after a crash; a per-request and a per-scenario time limit);
* :class:`InProcessDriver` — a Python driver called directly (``--berserk-isolation none``): the
  same checks, no crash isolation and no time limits.

Every request and every answer is checked against the schemas (:mod:`berserk_rules.harness.contract`); a
broken contract, or any failure of the engine, makes the scenario an ``error``.

**Queries are asked once per state.** The protocol's queries (``decision``, ``observe``, ``log``)
do not change the game; only ``start`` and ``act`` do. Between two of those, the same query (same
message, same viewer) is answered from the engine's first answer — parsed again from its text, so
every caller gets values of its own. Any ``start`` or ``act``, refused or not, forgets every
answer: a step that checks that a refused action changed nothing asks the engine again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from berserk_rules.harness import contract, messages
from berserk_rules.harness.driver import Driver, EngineFailure, Rejected, SetupRejected
from berserk_rules.harness.protocol import RESULT_SCHEMAS, EngineProcess, shown_call

QUERIES = frozenset({messages.DECISION.name, messages.OBSERVE.name, messages.LOG.name})


class CheckedDriver(Driver):
    """A driver whose every request and answer is checked against the schemas.

    Subclasses implement :meth:`_call` (``op`` and its payload → the result, or a refusal as
    :class:`Rejected` / :class:`SetupRejected`). A broken contract in an answer raises
    :class:`EngineFailure`; so does every later call once the engine failed in this scenario.
    """

    def __init__(self, checker: contract.Checker | None = None) -> None:
        self.checker = checker or contract.Checker()
        self.failure: EngineFailure | None = None
        self.interrupted = False  # a request was interrupted (Ctrl-C): the scenario is abandoned
        # (query, viewer) -> the JSON text of its answer in the present state (see the module's doc)
        self.answers: dict[tuple[str, Any], str] = {}

    def _call(self, op: str, payload: dict[str, Any]) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    # True: the text of a result (``_result_text``) is of a value already checked to be plain JSON
    plain_text = False

    def _result_text(self) -> str | None:
        """The JSON text the last result was parsed from (None: a Python value, not parsed)."""
        return None

    def _checked(self, op: str, payload: dict[str, Any]) -> Any:
        if self.failure is not None:
            raise EngineFailure(f"движок уже отказал в этом сценарии: {self.failure}")
        query = op in QUERIES
        if query:
            known = self.answers.get((op, payload.get("viewer")))
            if known is not None:
                return json.loads(known)
        else:
            self.answers.clear()  # start / act: the state may change, refused or not
        try:
            result = self._call(op, payload)
            text = self._result_text()
            self.checker.check(
                RESULT_SCHEMAS[op], result, shown_call(op, payload), text, plain=not self.plain_text
            )
        except (Rejected, SetupRejected):
            raise
        except contract.ContractError as exc:
            self.failure = EngineFailure(f"ответ не по схеме: {exc}")
            raise self.failure from None
        except EngineFailure as exc:
            self.failure = exc
            raise
        except (KeyboardInterrupt, SystemExit):
            self.interrupted = True
            raise
        if query:
            self.answers[(op, payload.get("viewer"))] = (
                text if text is not None else json.dumps(result, ensure_ascii=False)
            )
        return result

    def start(self, setup: dict[str, Any]) -> None:
        contract.check("position", setup, "start(позиция)")
        self._checked(messages.START.name, {"position": setup})

    def decision(self) -> dict[str, Any] | None:
        return self._checked(messages.DECISION.name, {})

    def act(self, player: str, action: dict[str, Any]) -> None:
        contract.check("action", action, f"act(«{player}», …): действие")
        if player not in ("А", "Б"):
            raise contract.ContractError(
                messages.ACT.name, [f"игрок должен быть «А» или «Б», получено {player!r}"]
            )
        self._checked(messages.ACT.name, {"player": player, "action": action})

    def observe(self, player: str | None) -> dict[str, Any]:
        return self._checked(messages.OBSERVE.name, {"viewer": player})

    def log(self, player: str | None = None) -> list[dict[str, Any]]:
        return self._checked(messages.LOG.name, {"viewer": player})

    def deck(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        contract.check("protocol#/$defs/deck_list", deck, "deck(список колоды)")
        return self._checked(messages.DECK.name, {"deck": deck})


class ProcessDriver(CheckedDriver):
    """One scenario's driver over a shared :class:`~berserk_rules.harness.protocol.EngineProcess`."""

    def __init__(
        self, engine: EngineProcess, scenario: str | None = None, scenario_timeout: float | None = None
    ) -> None:
        super().__init__(engine.checker)
        self.engine = engine
        self.scenario = scenario
        self.deadline = time.monotonic() + scenario_timeout if scenario_timeout else None
        info = engine.info or {}
        self.name = str(info.get("engine", {}).get("name", engine.shown))  # type: ignore[misc]
        self.version = str(info.get("engine", {}).get("version", "?"))  # type: ignore[misc]

    def _call(self, op: str, payload: dict[str, Any]) -> Any:
        if op == messages.START.name and self.scenario:
            payload = {**payload, "scenario": self.scenario}
        return self.engine.request(op, payload, self.deadline)

    def _result_text(self) -> str | None:
        return self.engine.result_text


class InProcessDriver(CheckedDriver):
    """A Python driver called in this process, with the same checks (no isolation).

    Served as over the wire (:meth:`Driver.serve_over_wire`): the driver is given a fresh copy of
    every argument, and every answer, once checked to be plain JSON, is serialised at once and the
    caller gets the value parsed back from that text — so the driver need not copy what it gives
    and takes, and the text is the one that keys the checker's memory and the answers of the state.
    """

    def __init__(self, inner: Driver) -> None:
        super().__init__()
        self.inner = inner
        self.name = inner.name  # type: ignore[misc]
        self.version = inner.version  # type: ignore[misc]
        self.text: str | None = None  # the JSON text of the last answer
        self.plain_text = True  # the answer was checked to be plain JSON before it was serialised
        inner.serve_over_wire()
        self.calls: dict[str, Callable[..., Any]] = {
            messages.START.name: lambda p: inner.start(_fresh(p["position"])),
            messages.DECISION.name: lambda p: inner.decision(),
            messages.ACT.name: lambda p: inner.act(p["player"], _fresh(p["action"])),
            messages.OBSERVE.name: lambda p: inner.observe(p["viewer"]),
            messages.LOG.name: lambda p: inner.log(p["viewer"]),
            messages.DECK.name: lambda p: inner.deck(p["deck"]),
        }

    def _call(self, op: str, payload: dict[str, Any]) -> Any:
        self.text = None
        try:
            result = self.calls[op](payload)
        except (Rejected, SetupRejected, EngineFailure):
            raise
        except Exception as exc:
            raise EngineFailure(f"{shown_call(op, payload)}: внутренняя ошибка движка: {exc!r}") from exc
        contract.check_json(result, shown_call(op, payload))  # a tuple or a str subclass is no JSON
        self.text = json.dumps(result, ensure_ascii=False)
        return json.loads(self.text)

    def _result_text(self) -> str | None:
        return self.text

    def close(self) -> None:
        self.inner.close()


def _fresh(value: Any) -> Any:
    """A copy of a caller's JSON value that nobody else holds (the driver may keep it)."""
    return json.loads(json.dumps(value, ensure_ascii=False))
