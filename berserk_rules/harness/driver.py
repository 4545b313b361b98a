"""The driver interface: the only way scenarios reach an engine.

A driver is deliberately small and speaks JSON-ready data only (dicts, lists, strings, numbers), so
that it crosses a process boundary unchanged: every method's arguments and results are what the
NDJSON protocol carries (:mod:`berserk_rules.harness.protocol`; the methods are the messages of a game, one
table: :mod:`berserk_rules.harness.messages`), and their shapes are the JSON Schemas of
``berserk_rules/harness/schemas/`` (checked by :mod:`berserk_rules.harness.contract` on every route).

``start(setup)``
    Build a game from a declarative position (``schemas/position.schema.json`` is the format:
    cards with their printed text, zones, coin markers, wounds, whose turn, where to start).
    Raises :class:`SetupRejected` when the position or a card's text cannot be understood.
``decision() -> dict | None``
    The pending decision: ``{"seq": 12, "player": "А", "kind": "choose_action", "rule": "306.1",
    "prompt": "…", "options": [action, …]}`` (the kinds: ``common#/$defs/decision_kind``); ``None`` when
    the game is over. ``seq`` counts the decisions answered before this one, so a program
    answering over a wire can tell a stale decision from the current one. Every legal answer is
    listed; each option may carry a ``label`` (words for people) and an ``about`` dict (what it
    refers to: ``ability`` text, ``source`` card id).
``act(player, action)``
    Answer the pending decision. Actions: ``{"type": "declare", "trigger", "targets"}``,
    ``{"type": "pass"}``, ``{"type": "attack", "attacker", "targets"}``, ``{"type": "defend",
    "defender"}``, ``{"type": "no_defender"}``, ``{"type": "activate", "card", "ability" (its printed
    sentence), "targets"}``, ``{"type": "play", "card", "targets"}``, ``{"type": "end_turn"}`` … (every
    type: ``common#/$defs/action_type``; ``concede`` and ``offer_draw`` are offered at any time, in the
    observation's ``players.<player>.anytime``, not in the decision). An illegal action raises
    :class:`Rejected` with the rule that forbids it, and changes nothing.
``observe(player) -> dict``
    What ``player`` ("А" or "Б") may see; ``None`` gives the judge's view of everything (used for
    game logs and to check that a rejected action changed nothing, never to peek in scenarios).
``log(player=None) -> list[dict]``
    The game log so far (events with Russian ``text``) as ``player`` may see it: the details of an
    event private to the other player (which card he drew) are left out. ``None``: the full log.
``deck(deck) -> list[dict]`` (optional: declared in ``capabilities["requests"]``)
    The problems of a deck list by the deck construction rules (``protocol#/$defs/deck_list``; each
    problem ``{"index", "rule", "name", "message"}``), no game needed. A driver that does not
    override it raises :class:`Unsupported`: the deck scenarios are not applicable to it.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from berserk_rules.errors import UserError

DEFAULT_DRIVER = "berserk_rules.drivers.reference:ReferenceDriver"


class Rejected(Exception):
    """The engine refused an action as illegal; ``rule`` names the rule that forbids it."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"[{rule}] {message}")


class SetupRejected(Exception):
    """The engine cannot build the described position (unknown card text, bad zone …)."""


class EngineFailure(Exception):
    """The engine did not behave as a driver must: it crashed, hung, answered something that is
    not the protocol or broke the contract (:mod:`berserk_rules.harness.contract`). The scenario is an
    ``error`` (the engine's), not a failure of the rule it checks."""


class Unsupported(EngineFailure):
    """The scenario needs what the engine does not support: the engine answered ``unsupported``, or
    a step would send what the engine's capabilities leave out. The scenario is **not applicable**
    (:mod:`berserk_rules.runner.capabilities`), neither passed nor failed."""


class Driver(ABC):
    """An engine as the scenarios see it."""

    name: ClassVar[str] = "unnamed"
    version: ClassVar[str] = "0"
    # what the engine supports, as in the protocol's handshake (docs/protocol.md, «Возможности
    # движка»): {"parts": […], "rules": […], "terms": […], "decisions": […], "actions": […]}; {} — all
    capabilities: ClassVar[dict[str, Any]] = {}

    @abstractmethod
    def start(self, setup: dict[str, Any]) -> None: ...

    @abstractmethod
    def decision(self) -> dict[str, Any] | None: ...

    @abstractmethod
    def act(self, player: str, action: dict[str, Any]) -> None: ...

    @abstractmethod
    def observe(self, player: str | None) -> dict[str, Any]: ...

    @abstractmethod
    def log(self, player: str | None = None) -> list[dict[str, Any]]: ...

    def deck(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        """The problems of a deck list (an optional request: ``capabilities["requests"]``)."""
        raise Unsupported("deck: движок не проверяет списки колод (нет «deck» в capabilities.requests)")

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources (a subprocess, a connection)."""

    def serve_over_wire(self) -> None:  # noqa: B027 - optional hook
        """Called by :mod:`berserk_rules.harness.host` on the driver it serves over the protocol, before
        ``start``: from then on every argument is freshly parsed JSON that nobody else holds, and
        every answer is serialised before the next call. A driver that copies what it is given or
        what it answers (so that a caller in its process cannot change the game's state) may stop
        copying. By default nothing changes."""


def resolve_driver(spec: str) -> type:
    """The driver class named by ``module:Class``; a clear :class:`UserError` when it cannot be used."""
    module_name, sep, class_name = spec.partition(":")
    if not sep or not module_name or not class_name:
        raise UserError(f"драйвер задаётся как «модуль:Класс», например {DEFAULT_DRIVER}; получено «{spec}»")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserError(f"драйвер {spec}: не удалось импортировать модуль {module_name}: {exc}") from exc
    obj: Any = module
    for part in class_name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise UserError(f"драйвер {spec}: в модуле {module_name} нет «{class_name}»") from None
    if not isinstance(obj, type):
        raise UserError(f"драйвер {spec}: «{class_name}» — не класс")
    missing = [attr for attr in ("name", "version") if not isinstance(getattr(obj, attr, None), str)]
    if missing:
        raise UserError(
            f"драйвер {spec}: у класса нет строковых атрибутов {', '.join(missing)} (имя и версия движка)"
        )
    return obj
