"""The step trace of a scenario (issue 19, item 2): the hooks that give each step of a running
scenario to its :class:`~berserk_rules.report.trace.StepTrace` — the board after it and the log
entries it caused, for the site's replay and ``berserk-rules ask``. The ``game`` fixture puts the
scenario's game on the item's stash (:data:`~berserk_rules.runner.traced.GAME_KEY`) and writes the
trace as the ``berserk_steps`` user property.

The trace is recorded only when the run asks for it (``--berserk-trace``: ``berserk-rules site`` and
``ask`` do, ``check --trace``): it asks the engine for the board, and for the log, after every step
that acted — a fifth of the requests of a whole-suite run (issue 28). Without it a scenario's results
keep its position and its log, and the site shows those."""

from __future__ import annotations

from typing import Any

import pytest

from berserk_rules.report.trace import StepTrace
from berserk_rules.runner.traced import GAME_KEY


def _record(request: pytest.FixtureRequest, step: Any, failed: bool) -> None:
    game = request.node.stash.get(GAME_KEY, None)
    if game is None or game.trace is None:
        return
    driver = game.driver if game.started else None
    game.trace.after_step(
        driver,
        step.keyword,
        step.name,
        step.line_number,
        kind=str(step.type),
        failed=failed,
        moves=game.moves,
    )


def pytest_bdd_after_step(request: pytest.FixtureRequest, step: Any) -> None:
    _record(request, step, failed=False)


def pytest_bdd_step_error(request: pytest.FixtureRequest, step: Any) -> None:
    _record(request, step, failed=True)


def pytest_bdd_step_func_lookup_error(request: pytest.FixtureRequest, step: Any) -> None:
    _record(request, step, failed=True)


def new_trace(config: pytest.Config) -> StepTrace | None:
    """A scenario's step trace, when the run records them (``--berserk-trace``); None otherwise."""
    from berserk_rules.runner.state import state_of

    return StepTrace(with_log=log_slices(config)) if state_of(config).trace else None


def log_slices(config: pytest.Config) -> bool:
    """Does the trace ask for the log after each step? Not with an engine process
    (``--berserk-engine``): its tests (tests/test_engine_failures.py) rely on the log being the
    scenario's last request, so only the boards (``observe``) are asked after the steps."""
    from berserk_rules.runner.state import state_of

    return state_of(config).engine_command is None
