"""Checks shared by the step modules: compare a value, find the player's pending decision, record for
the test vectors what a step checked about a decision or a list of cards."""

from __future__ import annotations

from typing import Any

from berserk_rules.steps.context import ScenarioGame


def expect(actual: Any, expected: Any, what: str) -> None:
    """The step fails unless ``actual`` is ``expected``; ``what`` names the value in the message."""
    if actual != expected:
        raise AssertionError(f"{what}: ожидалось {expected!r}, на деле {actual!r}")


def decision_of(game: ScenarioGame, p: str, kind: str) -> dict[str, Any]:
    """The pending decision, which must be player ``p``'s, of this kind; else the step fails."""
    d = game.decision()
    if d is None:
        raise AssertionError("решений нет: игра окончена")
    if (d["player"], d["kind"]) != (p, kind):
        raise AssertionError(
            f"ожидалось решение {kind!r} игрока {p}, а сейчас {d['kind']!r} игрока {d['player']}"
        )
    return d


def record_decision(game: ScenarioGame, p: str, kind: str) -> None:
    """Record for the vectors whose decision of which kind the step checked."""
    game.record(None, ["decision", "player"], p)
    game.record(None, ["decision", "kind"], kind)


def record_names(
    game: ScenarioGame, viewer: str | None, path: list[Any], pattern: dict[str, Any], names: list[str]
) -> None:
    """Record that the list at ``path`` holds, among its elements fitting ``pattern``, exactly these
    names (in any order, each as many times as it is named)."""
    game.record_count(viewer, path, pattern, len(names))
    for name in sorted(set(names)):
        game.record_count(viewer, path, {**pattern, "name": name}, names.count(name))
