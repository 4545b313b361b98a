"""What the step-trace hooks (:mod:`berserk_rules.runner.trace`) and the scenario's game
(:mod:`berserk_rules.steps.context`) share, in a module that imports neither: the key under which
the ``game`` fixture puts the scenario's game on the item's stash, the shape of that game the hooks
read, and the user property that carries the trace to the results."""

from __future__ import annotations

from typing import Protocol

import pytest

from berserk_rules.harness.driver import Driver
from berserk_rules.report.trace import StepTrace


class TracedGame(Protocol):
    """The scenario's game as the trace hooks see it (``ScenarioGame`` of the steps)."""

    driver: Driver
    started: bool
    trace: StepTrace | None
    moves: int


GAME_KEY: pytest.StashKey[TracedGame] = pytest.StashKey()
STEPS_PROPERTY = "berserk_steps"
