"""Portable test vectors: every scenario as data an engine author can replay without Python.

A vector (schema ``berserk_rules/harness/schemas/vector.schema.json``) holds the scenario's rules and tags,
the starting position, and its steps in order:

* ``{"op": "act", "player": "А", "action": {…}}`` — a legal action, expected to be accepted;
* ``{"op": "attempt", "player": "А", "action": {…}}`` — an action expected to be refused;
* ``{"op": "rejected", "rule": "401.7"}`` — the last attempt was refused citing this rule, and the
  judge's observation and the log are exactly as before it;
* ``{"op": "check", "viewer": "Б", "path": [...], "expected": …}`` — in ``viewer``'s observation
  (null: the judge's), the value at ``path`` equals ``expected``;
* ``{"op": "check", "viewer": "Б", "path": [...], "exists": false}`` — the path leads nowhere (no such
  option, no such log entry); ``"exists": true`` — it leads somewhere, whatever the value;
* either check with ``"log": true`` — on ``viewer``'s log (a list of entries), not the observation;
* ``{"op": "require", "decisions": [...], "actions": [...]}`` — the next steps are about a decision of
  one of these kinds, an option of one of these action types: an engine that declared none of them
  (its capabilities) makes the vector **not applicable** there, as ``check`` makes the scenario.

A vector names what it needs of an engine (``needs``: ``parts``, ``rules``, ``terms``, ``decisions``,
``actions`` — the keys of the handshake's capabilities): a runner given the engine's capabilities
reports a vector outside them «not applicable», apart from passed and failed, with the same verdicts
as ``check`` (:func:`run_vector`; :func:`vector_reason` is what is known before it starts). An act or
attempt of an action type the engine did not declare is never sent, and an engine's ``unsupported``
answer means not applicable too.

Card ids are the engine's own, so actions do not carry them: a card is written ``{"$card": {"name":
"Гном", "zone": "play", "owner": "А"}}`` (plus ``"index"`` when several cards match: the n-th in the
judge's observation order), and a pending trigger (``declare``'s ``trigger``) ``{"$trigger":
{"ability": "…", "source_name": "…"}}`` — the option of the current decision that declares it (plus
``"source": {"$card": …}`` when copies of one card trigger the same ability: the option whose
``about.source`` is that card). A path element is a key, a list index, or an object: the first list
element with those fields (``["play", {"name": "Гоблин"}, "wounds"]``), or with ``"$copy": n`` the
n-th one (``{"name": "Гоблин", "$copy": 2}`` — the second copy of «Гоблин» in the game zone; ``-1``:
the last one). A pattern field that is an object matches an object with those fields (``{"type":
"declare", "about": {"source_name": "Гоблин"}}``); ``{"$value": v}`` is the first list element equal
to ``v`` (an ability's text, a candidate card). In a check's path and expected value a card is a
``{"$card": …}`` reference too, resolved like an action's.

Steps the exporter cannot express as data are listed in the vector's ``unexpressed``, never
dropped silently. :func:`replay` runs a vector against any :class:`~berserk_rules.harness.driver.Driver`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable
from typing import Any

from berserk_rules.harness.driver import Driver, Rejected, Unsupported
from berserk_rules.runner.capabilities import Capabilities, action_reason, needs_reason, require_reason

FORMAT = "berserk-vector/2"  # 2: needs, the require step (issue 27)
PASSED, FAILED, NOT_APPLICABLE = "passed", "failed", "not applicable"
ZONES = ("hand", "deck", "graveyard", "reserve", "sideboard")


class PathError(AssertionError):
    """A path that leads nowhere in the observation."""


def resolve_path(value: Any, path: list[Any]) -> Any:
    """The value at ``path``; :class:`PathError` (an AssertionError) naming where it ends."""
    for depth, part in enumerate(path):
        where = json.dumps(path[: depth + 1], ensure_ascii=False)
        if isinstance(part, dict):
            if not isinstance(value, list):
                raise PathError(f"{where}: здесь не список")
            if "$value" in part:  # a list of plain values: the element equal to this one
                found = [item for item in value if item == part["$value"]]
            else:
                fields = {k: v for k, v in part.items() if k != "$copy"}
                found = [item for item in value if isinstance(item, dict) and fits(item, fields)]
            copy = part.get("$copy", 1)  # «Гном, копия 2»: the n-th element with those fields; -1: last
            if copy == 0 or len(found) < abs(copy):
                names = [item.get("name") for item in value if isinstance(item, dict)]
                raise PathError(f"{where}: нет такого элемента; есть: {names}")
            value = found[copy - 1 if copy > 0 else copy]
        elif isinstance(part, int) and not isinstance(part, bool):
            if not isinstance(value, list) or not -len(value) <= part < len(value):
                raise PathError(f"{where}: нет элемента с номером {part}")
            value = value[part]
        else:
            if not isinstance(value, dict) or part not in value:
                raise PathError(f"{where}: нет поля «{part}»")
            value = value[part]
    return value


def fits(item: dict[str, Any], pattern: dict[str, Any]) -> bool:
    """Has ``item`` these fields? A field that is an object is itself a pattern (``"about": {…}``)."""
    return all(
        fits(item[key], wanted)
        if isinstance(wanted, dict) and isinstance(item.get(key), dict)
        else item.get(key) == wanted
        for key, wanted in pattern.items()
    )


# --- cards as references -------------------------------------------------------------------------


def card_places(view: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """(zone, card view, owner) of every card the judge sees, in observation order."""
    places: list[tuple[str, dict[str, Any], str]] = []
    for card in view.get("play", []):
        places.append(("play", card, card.get("owner", "")))
    for owner, data in view.get("players", {}).items():
        hero = data.get("hero")
        if hero and hero.get("id") not in {c.get("id") for _, c, _ in places}:
            places.append(("play", hero, owner))
        for zone in ZONES:
            for card in data.get("zones", {}).get(zone, {}).get("cards") or []:
                places.append((zone, card, owner))
    return places


def card_ref(card_id: str, view: dict[str, Any]) -> dict[str, Any] | None:
    """``{"$card": {...}}`` for a card id of the judge's observation, None if it is no card."""
    places = card_places(view)
    for zone, card, owner in places:
        if card.get("id") == card_id:
            ref = {"name": card["name"], "zone": zone, "owner": owner}
            same = [c for z, c, o in places if (c["name"], z, o) == (card["name"], zone, owner)]
            if len(same) > 1:
                ref["index"] = next(i for i, c in enumerate(same) if c.get("id") == card_id)
            return {"$card": ref}
    return None


def symbolic(action: dict[str, Any], view: dict[str, Any], triggers: dict[str, dict[str, str]]) -> Any:
    """The action with card ids and trigger ids replaced by references (see the module doc)."""

    def walk(value: Any, key: str | None) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if isinstance(value, str) and key != "type":
            if key == "trigger" and value in triggers:
                trigger: dict[str, Any] = dict(triggers[value])
                if "source" in trigger:  # copies of one card: the source is a card reference
                    source = card_ref(trigger["source"], view)
                    if source is None:
                        del trigger["source"]
                    else:
                        trigger["source"] = source
                return {"$trigger": trigger}
            ref = card_ref(value, view)
            if ref is not None:
                return ref
        return value

    return walk(action, None)


def concrete(action: Any, view: dict[str, Any], decision: dict[str, Any] | None) -> Any:
    """The action with references resolved against this engine's judge view and decision."""
    if isinstance(action, list):
        return [concrete(item, view, decision) for item in action]
    if not isinstance(action, dict):
        return action
    if "$card" in action:
        ref = action["$card"]
        same = [
            c
            for zone, c, owner in card_places(view)
            if (c["name"], zone, owner) == (ref["name"], ref["zone"], ref["owner"])
        ]
        index = ref.get("index", 0)
        if index >= len(same):
            raise AssertionError(f"карты {json.dumps(ref, ensure_ascii=False)} нет в наблюдении судьи")
        return same[index]["id"]
    if "$trigger" in action:
        ref = {key: concrete(value, view, decision) for key, value in action["$trigger"].items()}
        for option in (decision or {}).get("options", []):
            about = option.get("about", {})
            if option.get("type") == "declare" and all(about.get(k) == v for k, v in ref.items()):
                return option["trigger"]
        return f"«{ref.get('ability')}» «{ref.get('source_name')}»"  # not declarable now: the engine refuses
    return {key: concrete(value, view, decision) for key, value in action.items()}


# --- recording -----------------------------------------------------------------------------------


class VectorRecorder:
    """Collects one scenario's vector while it runs (``berserk-rules export``)."""

    def __init__(self) -> None:
        self.position: dict[str, Any] | None = None
        self.steps: list[dict[str, Any]] = []
        self.triggers: dict[str, dict[str, str]] = {}  # trigger id -> {ability, source_name}
        self.unexpressed: list[str] = []
        self.mark = 0

    def saw_decision(self, decision: dict[str, Any] | None) -> None:
        declares = [
            o for o in (decision or {}).get("options", []) if o.get("type") == "declare" and "trigger" in o
        ]
        named = [
            (o.get("about", {}).get("ability", ""), o.get("about", {}).get("source_name", ""))
            for o in declares
        ]
        for option, (ability, source_name) in zip(declares, named, strict=True):
            ref = {"ability": ability, "source_name": source_name}
            sources = {
                o.get("about", {}).get("source")
                for o, n in zip(declares, named, strict=True)
                if n == (ability, source_name)
            }
            if len(sources) > 1 and option.get("about", {}).get("source"):  # copies: which card's
                ref["source"] = option["about"]["source"]
            self.triggers[option["trigger"]] = ref

    def start(self, position: dict[str, Any]) -> None:
        self.position = copy.deepcopy(position)

    def act(self, op: str, player: str, action: dict[str, Any], view: dict[str, Any]) -> None:
        self.steps.append({"op": op, "player": player, "action": symbolic(action, view, self.triggers)})

    def check(self, viewer: str | None, path: list[Any], expected: Any) -> None:
        step = {"op": "check", "viewer": viewer, "path": path, "expected": expected}
        self.steps.append(copy.deepcopy(step))

    def check_on(self, driver: Driver, step: dict[str, Any]) -> None:
        """Record a check a step has already made its own way (``step``: a check step with the
        engine's card ids; they are written as references). It must hold on ``driver`` as replayed:
        a recorded check that says something else than the step is an error of the step."""
        view = driver.observe(None)
        step = {k: symbolic(v, view, {}) if k in ("path", "expected") else v for k, v in step.items()}
        failure = check_failure(step, driver)
        if failure:
            raise AssertionError(f"проверка для вектора не совпала с проверкой шага: {failure}")
        self.steps.append(copy.deepcopy(step))

    def rejected(self, rule: str) -> None:
        self.steps.append({"op": "rejected", "rule": rule})

    def require(self, decisions: Iterable[Any], actions: Iterable[Any]) -> None:
        """A step is about a decision of one of ``decisions`` kinds or an option of one of ``actions``
        types (``ScenarioGame.needs``)."""
        step: dict[str, Any] = {"op": "require"}
        for key, values in (("decisions", decisions), ("actions", actions)):
            wanted = sorted({v for v in values if isinstance(v, str)})
            if wanted:
                step[key] = wanted
        if len(step) > 1 and (not self.steps or self.steps[-1] != step):
            self.steps.append(step)

    def needs(self) -> dict[str, list[str]]:
        """The decision kinds and action types the vector's steps need: those they send and those
        they are about (a ``require`` of several: any one of them is enough — all are listed)."""
        decisions: set[str] = set()
        actions: set[str] = set()
        for step in self.steps:
            if step["op"] in ("act", "attempt") and isinstance(step["action"].get("type"), str):
                actions.add(step["action"]["type"])
            elif step["op"] == "require":
                decisions.update(step.get("decisions", ()))
                actions.update(step.get("actions", ()))
        return {"decisions": sorted(decisions), "actions": sorted(actions)}

    def before_step(self) -> None:
        self.mark = len(self.steps)

    def after_then_step(self, text: str) -> None:
        """A «Тогда» step that recorded nothing cannot be replayed: say so."""
        if all(step["op"] == "require" for step in self.steps[self.mark :]):  # a require checks nothing
            self.unexpressed.append(text)

    def vector(self, scenario: dict[str, Any]) -> dict[str, Any]:
        needs = {
            "parts": [],
            "rules": list(scenario.get("rules", [])),
            "terms": list(scenario.get("terms", [])),
            **scenario.pop("needs", {}),
            **self.needs(),
        }
        return {
            "format": FORMAT,
            **scenario,
            "needs": needs,
            "position": self.position,
            "steps": self.steps,
            "unexpressed": self.unexpressed,
        }


# --- replay --------------------------------------------------------------------------------------


def _state(driver: Driver) -> str:
    return json.dumps(driver.observe(None), sort_keys=True, ensure_ascii=False) + str(len(driver.log(None)))


def replay(vector: dict[str, Any], driver: Driver) -> list[str]:
    """Run a vector on ``driver``; the failures (empty when the engine behaves as the vector says).
    An engine's ``unsupported`` answer is raised (:class:`Unsupported`): not applicable is no pass."""
    status, messages = run_vector(vector, driver)
    if status == NOT_APPLICABLE:
        raise Unsupported(messages[0])
    return messages


def vector_reason(vector: dict[str, Any], caps: Capabilities | None) -> str | None:
    """Why the vector is not applicable to an engine with these capabilities, from what it says of
    itself (its Parts, rules, terms — as ``check`` decides before a scenario starts); None: it is."""
    if caps is None:
        return None
    needs = vector.get("needs") or {}
    return needs_reason(caps, needs.get("parts", ()), vector.get("rules", ()), vector.get("terms", ()))


def run_vector(
    vector: dict[str, Any], driver: Driver, caps: Capabilities | None = None
) -> tuple[str, list[str]]:
    """(status, messages): :data:`PASSED` (no messages), :data:`FAILED` (the failures) or
    :data:`NOT_APPLICABLE` (the reason) — the engine's capabilities ``caps`` (None: everything) as
    ``check`` applies them."""
    reason = vector_reason(vector, caps)
    if reason is not None:
        return NOT_APPLICABLE, [reason]
    try:
        failures = _replay(vector, driver, caps)
    except Unsupported as exc:
        return NOT_APPLICABLE, [str(exc)]
    return (FAILED, failures) if failures else (PASSED, [])


def _replay(vector: dict[str, Any], driver: Driver, caps: Capabilities | None) -> list[str]:
    failures: list[str] = []
    driver.start(copy.deepcopy(vector["position"]))
    last: tuple[Rejected | None, bool] | None = None
    for number, step in enumerate(vector["steps"], start=1):
        where = f"шаг {number} ({step['op']})"
        try:
            if step["op"] == "require":
                if caps is not None:
                    wanted_reason = require_reason(caps, step.get("decisions", ()), step.get("actions", ()))
                    if wanted_reason is not None:
                        raise Unsupported(wanted_reason)
            elif step["op"] in ("act", "attempt"):
                undeclared = action_reason(caps, step["action"]) if caps is not None else None
                if undeclared is not None:
                    raise Unsupported(undeclared)
                action = concrete(step["action"], driver.observe(None), driver.decision())
                before = _state(driver) if step["op"] == "attempt" else ""
                try:
                    driver.act(step["player"], action)
                except Rejected as exc:
                    if step["op"] == "act":
                        failures.append(f"{where}: движок отклонил законное действие {action}: {exc}")
                        break
                    last = (exc, _state(driver) == before)
                else:
                    last = (None, True) if step["op"] == "attempt" else None
            elif step["op"] == "rejected":
                if last is None:
                    failures.append(f"{where}: перед ним не было попытки действия")
                elif last[0] is None:
                    failures.append(f"{where}: движок принял действие, которое должен был отклонить")
                elif last[0].rule != step["rule"]:
                    failures.append(f"{where}: отказ по правилу {last[0].rule}, а ожидалось {step['rule']}")
                elif not last[1]:
                    failures.append(f"{where}: отклонённое действие изменило состояние игры")
            elif step["op"] == "check":
                failure = check_failure(step, driver)
                if failure:
                    failures.append(f"{where}: {failure}")
        except AssertionError as exc:
            failures.append(f"{where}: {exc}")
    return failures


def check_failure(step: dict[str, Any], driver: Driver) -> str | None:
    """What is wrong with a check step on ``driver`` now (None: it holds). Card references in its
    path and expected value are resolved against the judge's observation."""
    viewer = step["viewer"]
    data: Any = driver.log(viewer) if step.get("log") else driver.observe(viewer)
    where = f"{json.dumps(step['path'], ensure_ascii=False)} глазами {viewer or 'судьи'}"
    where += " (журнал)" if step.get("log") else ""
    judge = driver.observe(None)
    try:
        path = concrete(step["path"], judge, None)
    except AssertionError:
        if step.get("exists") is False:  # no such card: nothing at the path either
            return None
        raise
    if "exists" in step:
        try:
            resolve_path(data, path)
        except PathError as exc:
            return None if not step["exists"] else f"{where}: ожидалось, что есть, а нет: {exc}"
        return None if step["exists"] else f"{where}: ожидалось, что нет, а есть"
    actual = resolve_path(data, path)
    expected = concrete(step["expected"], judge, None)
    if actual != expected:
        return f"{where}: ожидалось {expected!r}, на деле {actual!r}"
    return None
