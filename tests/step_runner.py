"""Run Gherkin scenarios in process with the real step dictionary and the reference engine, step by
step, and say which step failed and how — for tests of the steps themselves (``test_step_pairs``).

It does what pytest-bdd does for a scenario, minus pytest: the same registered step functions, the
same parsers (:data:`~berserk_rules.steps.registry.EXTRA_TYPES`), a fresh
:class:`~berserk_rules.steps.context.ScenarioGame` on the reference engine behind the same contract
checks (:class:`~berserk_rules.harness.checked.InProcessDriver`), and a vector recorder as under
``berserk-rules export`` — so a check a step records for the vectors is replayed on the spot too.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gherkin.parser import Parser
from gherkin.pickles.compiler import Compiler
from gherkin.token_matcher import TokenMatcher
from pytest_bdd import parsers

import berserk_rules.steps.all  # noqa: F401 — registers every step
from berserk_rules.harness.checked import InProcessDriver
from berserk_rules.reference.driver import ReferenceDriver
from berserk_rules.report.vectors import VectorRecorder
from berserk_rules.steps.context import ScenarioGame
from berserk_rules.steps.registry import EXTRA_TYPES, STEPS, StepDef

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"Context": "given", "Action": "when", "Outcome": "then"}


@dataclass(frozen=True)
class Step:
    kind: str  # given | when | then
    text: str
    table: list[list[str]] | None = None


@cache
def _parsers() -> list[tuple[StepDef, Any]]:
    return [(s, parsers.cfparse(s.pattern, extra_types=EXTRA_TYPES)) for s in STEPS]


def step_defs(kind: str, text: str) -> list[tuple[StepDef, Any]]:
    """Every registered step of this kind whose pattern matches the text, with its parser."""
    return [(s, parser) for s, parser in _parsers() if s.kind == kind and parser.is_matching(text)]


def function(step: StepDef) -> Callable[..., Any]:
    return getattr(importlib.import_module(step.module), step.function)


def pickles(text: str, uri: str = "пары.feature") -> list[dict[str, Any]]:
    document = dict(Parser().parse(text, TokenMatcher("ru")))
    document["uri"] = uri
    return [dict(p) for p in Compiler().compile(document)]  # type: ignore[arg-type]


def steps_of(pickle: dict[str, Any]) -> list[Step]:
    found = []
    for step in pickle["steps"]:
        table = step.get("argument", {}).get("dataTable")
        rows = [[cell["value"] for cell in row["cells"]] for row in table["rows"]] if table else None
        found.append(Step(KINDS[step["type"]], step["text"], rows))
    return found


@cache
def feature_scenarios() -> list[tuple[str, list[Step]]]:
    """(«file:line», steps) of every scenario of the project's features (Предыстория included)."""
    found = []
    for path in sorted((ROOT / "features").rglob("*.feature")):
        rel = path.relative_to(ROOT).as_posix()
        for pickle in pickles(path.read_text(encoding="utf-8"), rel):
            line = pickle["location"]["line"] if "location" in pickle else 0
            found.append((f"{rel}:{line}", steps_of(pickle)))
    return found


@dataclass
class Outcome:
    failed_at: int | None  # the index of the step that raised (None: every step passed)
    error: BaseException | None
    recorder: VectorRecorder | None = None  # what the steps recorded for a test vector

    @property
    def passed(self) -> bool:
        return self.failed_at is None


def run(steps: list[Step], driver: Any = None) -> Outcome:
    """Run the steps on a fresh game (``driver``: an engine driver, the reference one by default);
    the first step that raises stops the run."""
    game = ScenarioGame(InProcessDriver(driver if driver is not None else ReferenceDriver()))
    game.recorder = VectorRecorder()
    try:
        for number, step in enumerate(steps):
            matching = step_defs(step.kind, step.text)
            if len(matching) != 1:
                raise LookupError(f"{step.kind} «{step.text}»: подходящих шагов {len(matching)}")
            ((found, parser),) = matching
            kwargs: dict[str, Any] = {"game": game, **(parser.parse_arguments(step.text) or {})}
            if found.table:
                kwargs["datatable"] = step.table
            try:
                function(found)(**kwargs)
            except BaseException as exc:  # the caller judges what failed and how
                return Outcome(number, exc, game.recorder)
    finally:
        game.driver.close()
    return Outcome(None, None, game.recorder)
