"""The run's state (on ``config.stash``), the names of what scenario items carry in
``user_properties``, and the scenario id of a pytest item."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from berserk_rules.errors import UserError
from berserk_rules.harness.protocol import DEFAULT_SCENARIO_TIMEOUT, DEFAULT_TIMEOUT
from berserk_rules.report.results import Record
from berserk_rules.rulebook.features import (
    ParsedFeature,
    ScenarioRef,
    parse_feature,
    relative_name,
    scenario_refs,
)

if TYPE_CHECKING:
    from berserk_rules.runner.known_failures import KnownFailure

DEFAULT_RESULTS = "build/results.json"
SCENARIO_PROPERTY = "berserk_scenario"
LOG_PROPERTY = "berserk_log"
POSITION_PROPERTY = "berserk_position"  # site replay (issue 10)
FAILED_STEP_PROPERTY = "berserk_failed_step"  # site replay (issue 10)
UNDEFINED_STEP_PROPERTY = "berserk_undefined_step"
ENGINE_PROPERTY = "berserk_engine"
ERROR_PROPERTY = "berserk_error"  # (kind, message): "engine" (the engine failed), "input" (the scenario)
ISOLATIONS = ("process", "none")


@dataclass
class State:
    root: Path
    results_path: Path
    driver_spec: str
    driver_explicit: bool
    known: dict[str, KnownFailure] = field(default_factory=dict)
    records: dict[str, Record] = field(default_factory=dict)
    parsed: dict[str, list[ScenarioRef]] = field(default_factory=dict)
    started: float = 0.0
    started_iso: str = ""
    written: Path | None = None
    warning: str | None = None
    driver: type | None = None
    engine_command: str | None = None
    engine_cwd: Path | None = None
    isolation: str = "process"
    trace: bool = False  # --berserk-trace: the replay's step trace (runner.trace) is recorded
    timeout: float = DEFAULT_TIMEOUT
    scenario_timeout: float = DEFAULT_SCENARIO_TIMEOUT
    engine_info: dict[str, Any] | None = None
    interrupted: bool = False
    suite: str = ""  # the suite's version (rulebook.suite_version), computed once: suite_version()
    export: Path | None = None
    known_file: str | None = None
    known_strict: bool = True
    capabilities: Any = None  # the engine's declared capabilities (runner.capabilities.Capabilities)
    select: tuple[str, ...] = ()  # --berserk-select: feature files, folders, FILE:LINE

    def refs_of(self, feature: Path) -> list[ScenarioRef]:
        key = str(feature)
        if key not in self.parsed:
            parsed: ParsedFeature = parse_feature(feature, self.root)
            self.parsed[key] = scenario_refs(parsed)
        return self.parsed[key]

    def suite_version(self) -> str:
        if not self.suite:
            from berserk_rules.rulebook.suite_version import suite_version

            self.suite = suite_version(self.root)
        return self.suite


STATE_KEY = pytest.StashKey[State]()
ENGINE_FAILED_KEY = pytest.StashKey[bool]()  # the setup or call phase is reported as the engine's error


def scenario_ref(state: State, ident: str) -> ScenarioRef | None:
    """The scenario with this id (``features/…feature:LINE``), None if it is not in a feature file."""
    file = ident.rpartition(":")[0]
    try:
        refs = state.refs_of(state.root / file)
    except UserError:
        return None
    return next((ref for ref in refs if ref.id == ident), None)


def state_of(config: pytest.Config) -> State:
    return config.stash[STATE_KEY]


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


_SCENARIO_ID = pytest.StashKey[str | None]()


def scenario_id_of(item: pytest.Item, state: State) -> str | None:
    """The scenario id (``features/…feature:LINE``) of a pytest-bdd item, None for other tests
    (found once per item: the plugin asks at collection, the driver fixture when it runs)."""
    if not isinstance(item, pytest.Function):
        return None
    if _SCENARIO_ID not in item.stash:
        item.stash[_SCENARIO_ID] = _scenario_id(item, state)
    return item.stash[_SCENARIO_ID]


def _scenario_id(item: pytest.Function, state: State) -> str | None:
    from pytest_bdd.scenario import scenario_wrapper_template_registry

    try:
        template = scenario_wrapper_template_registry.get(item.obj)
    except TypeError:  # not weak-referenceable
        return None
    if template is None:
        return None
    feature = Path(template.feature.filename)
    rel = relative_name(feature, state.root)
    line = template.line_number
    callspec = getattr(item, "callspec", None)
    row = callspec.indices.get("_pytest_bdd_example") if callspec is not None else None
    try:
        refs = state.refs_of(feature)
    except UserError:
        refs = []
    for ref in refs:
        if ref.scenario_line == line and ref.row == row:
            return ref.id
    return f"{rel}:{line}" if row is None else f"{rel}:{line}[{row}]"
