"""What an engine declares it supports (the handshake's ``capabilities``) and which scenarios that
leaves out: those are reported **not applicable** with the reason, counted apart from failures and
never as passed.

The shape (``protocol#/$defs/capabilities``; an absent key means «everything» — except
``requests``, the optional requests the engine answers, which are named or not answered)::

    {"parts": [3, 4], "rules": ["303", "401.1"], "terms": ["броня-х"],
     "decisions": ["choose_action"], "actions": ["pass", "end_turn"], "requests": ["deck"],
     "threads": 1}

``threads`` leaves no scenario out: an engine that answers in one thread (``1``) is held with the
scenario on one CPU while it runs (:mod:`berserk_rules.runner.affinity`).

What a scenario needs is known in two ways:

* before it starts, from the scenario itself: its Part (the ``features/part-N/`` folder and the
  Part of every rule it checks), the rules of its ``@rule-…`` tags, the terms of its ``@term-…``
  tags (:func:`static_reason`);
* while it runs, from what its steps send: an action of a type the engine did not declare is never
  sent — the scenario stops there as not applicable (:class:`CapabilityGuard`); a decision of a
  kind the engine did not declare is a broken contract; an ``unsupported`` answer of the engine
  means not applicable too (:class:`~berserk_rules.harness.driver.Unsupported`); so does a step that
  needs an optional request (``deck``: the deck list scenarios) the engine did not declare.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from berserk_rules.corpus.model import part_of_id
from berserk_rules.harness import messages
from berserk_rules.harness.driver import Driver, EngineFailure, Unsupported
from berserk_rules.report.coverage import PART_FOLDER
from berserk_rules.rulebook.features import ScenarioRef

NOT_APPLICABLE = "not applicable"
NOT_APPLICABLE_PROPERTY = "berserk_not_applicable"  # user property: the reason
KEYS = ("parts", "rules", "terms", "decisions", "actions")
OPTIONAL_REQUESTS = frozenset(m.name for m in messages.OPTIONAL)


def _names(value: Any) -> frozenset[Any] | None:
    return None if value is None else frozenset(value)


@dataclass(frozen=True)
class Capabilities:
    """The declared capabilities; None for a key means «everything»."""

    parts: frozenset[int] | None = None
    rules: frozenset[str] | None = None
    terms: frozenset[str] | None = None
    decisions: frozenset[str] | None = None
    actions: frozenset[str] | None = None
    requests: frozenset[str] = frozenset()  # the optional requests answered: only those named
    threads: int | None = None  # threads the engine answers in (1: held with the scenario on one CPU)

    @classmethod
    def from_handshake(cls, data: Any) -> Capabilities:
        """From the handshake's ``capabilities`` (checked against the schema before)."""
        if not isinstance(data, dict):
            return cls()
        threads = data.get("threads")
        return cls(
            **{key: _names(data.get(key)) for key in KEYS},
            requests=frozenset(data.get("requests") or ()),
            threads=threads if isinstance(threads, int) and not isinstance(threads, bool) else None,
        )

    @property
    def everything(self) -> bool:
        return all(getattr(self, key) is None for key in KEYS) and self.requests >= OPTIONAL_REQUESTS


def _shown(values: Iterable[Any]) -> str:
    return ", ".join(str(v) for v in sorted(values, key=str))


def covered(rule: str, declared: frozenset[str]) -> bool:
    """A rule is covered by itself or by a rule above it («303» covers «303.1» and «303.1.2»)."""
    parts = rule.split(".")
    return any(".".join(parts[:n]) in declared for n in range(1, len(parts) + 1))


def scenario_parts(ref: ScenarioRef) -> set[int]:
    """The Parts a scenario belongs to: its ``features/part-N/`` folder and its rules' Parts."""
    found = {p for p in (part_of_id(rule) for rule in ref.rules) if p is not None}
    match = PART_FOLDER.search(ref.file)
    if match:
        found.add(int(match.group(1)))
    return found


def static_reason(caps: Capabilities, ref: ScenarioRef) -> str | None:
    """Why the scenario is not applicable to an engine with these capabilities (None: it is),
    from what the scenario says of itself: Parts, rules, terms."""
    return needs_reason(caps, scenario_parts(ref), ref.rules, ref.terms)


def needs_reason(
    caps: Capabilities, parts: Iterable[int], rules: Iterable[str], terms: Iterable[str]
) -> str | None:
    """Why a scenario (or its vector) of these Parts, rules and terms is not applicable (None: it is)."""
    if caps.parts is not None:
        missing = set(parts) - caps.parts
        if missing:
            return f"движок не заявил часть {_shown(missing)} (заявлены: {_shown(caps.parts) or 'никакие'})"
    if caps.rules is not None:
        outside = [rule for rule in rules if not covered(rule, caps.rules)]
        if outside:
            return f"движок не заявил правило {_shown(outside)}"
    if caps.terms is not None:
        outside = [term for term in terms if term not in caps.terms]
        if outside:
            return f"движок не заявил термин {_shown(outside)}"
    return None


def require_reason(caps: Capabilities, decisions: Iterable[Any], actions: Iterable[Any]) -> str | None:
    """Why a step about a decision of one of ``decisions`` kinds or an option of one of ``actions``
    types is not applicable (None: the engine declared at least one of each)."""
    for declared, wanted, what in (
        (caps.decisions, [d for d in decisions if isinstance(d, str)], "решение вида"),
        (caps.actions, [a for a in actions if isinstance(a, str)], "действие"),
    ):
        if declared is not None and wanted and not set(wanted) & declared:
            return (
                f"шаг говорит про {what} {' или '.join(wanted)}, а движок его не заявил "
                f"(заявлены: {_shown(declared)})"
            )
    return None


def action_reason(caps: Capabilities, action: Any) -> str | None:
    """Why sending this action is out of the engine's capabilities (None: it is within)."""
    kind = action.get("type") if isinstance(action, dict) else None
    if caps.actions is not None and isinstance(kind, str) and kind not in caps.actions:
        return f"шаг отправляет действие {kind}, а движок его не заявил (заявлены: {_shown(caps.actions)})"
    return None


class CapabilityGuard(Driver):
    """A scenario's driver that keeps the steps within the engine's declared capabilities: an
    action of an undeclared type raises :class:`Unsupported` (the scenario is not applicable)
    instead of being sent; a decision of an undeclared kind is the engine's error."""

    def __init__(self, inner: Driver, caps: Capabilities) -> None:
        self.inner = inner
        self.caps = caps

    def __getattr__(self, name: str) -> Any:  # name, version, failure, interrupted …
        return getattr(self.inner, name)

    def start(self, setup: dict[str, Any]) -> None:
        self.inner.start(setup)

    def decision(self) -> dict[str, Any] | None:
        decision = self.inner.decision()
        kinds = self.caps.decisions
        if kinds is not None and isinstance(decision, dict) and decision.get("kind") not in kinds:
            raise EngineFailure(
                f"decision(): движок прислал решение вида {decision.get('kind')!r}, "
                f"которого нет в его capabilities.decisions ({_shown(kinds)})"
            )
        return decision

    def require(self, *, decisions: Iterable[Any] = (), actions: Iterable[Any] = ()) -> None:
        """A step is about a decision of one of ``decisions`` kinds, or an option of one of
        ``actions`` types (``ScenarioGame.needs``): if the engine declared none, the scenario is
        not applicable."""
        reason = require_reason(self.caps, decisions, actions)
        if reason is not None:
            raise Unsupported(reason)

    def act(self, player: str, action: dict[str, Any]) -> None:
        reason = action_reason(self.caps, action)
        if reason is not None:
            raise Unsupported(reason)
        self.inner.act(player, action)

    def observe(self, player: str | None) -> dict[str, Any]:
        return self.inner.observe(player)

    def log(self, player: str | None = None) -> list[dict[str, Any]]:
        return self.inner.log(player)

    def deck(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        if messages.DECK.name not in self.caps.requests:
            raise Unsupported(
                "шаг проверяет список колоды запросом deck, а движок его не заявил (нет «deck» в "
                "capabilities.requests)"
            )
        return self.inner.deck(deck)

    def close(self) -> None:
        self.inner.close()


def selected(ref: ScenarioRef, selections: Iterable[str]) -> bool:
    """Is the scenario chosen by one of ``selections`` — a feature file or a folder of ``features/``
    (paths from the project root), ``FILE:LINE`` (the scenario's line, or an outline's own line for
    all its rows)?"""
    for chosen in selections:
        name, _, line = chosen.partition(":")
        if line:
            if ref.file == name and line in (str(ref.line), str(ref.scenario_line)):
                return True
        elif _in(ref.file, name):
            return True
    return False


def file_selected(rel: str, selections: Iterable[str]) -> bool:
    """Can a scenario of the feature file ``rel`` be chosen by one of ``selections`` (:func:`selected`
    decides which of its scenarios)?"""
    return any(_in(rel, chosen.partition(":")[0]) for chosen in selections)


def _in(rel: str, name: str) -> bool:
    """The feature file ``rel`` is the file ``name`` or lies in the folder ``name``."""
    return rel == name or rel.startswith(name.rstrip("/") + "/")
