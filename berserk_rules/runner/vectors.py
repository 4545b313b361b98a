"""A scenario recorded as a test vector (``--berserk-export``): the recorder on the item's stash,
the hooks that mark each step, the file written after the scenario."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from berserk_rules.report.results import write_json_atomic
from berserk_rules.report.vectors import VectorRecorder
from berserk_rules.rulebook.features import FEATURES_DIR
from berserk_rules.runner.capabilities import scenario_parts

if TYPE_CHECKING:
    from berserk_rules.runner.state import State

VECTOR_KEY = pytest.StashKey[VectorRecorder]()  # a scenario's vector recorder (``--berserk-export``)
PASSED_KEY = pytest.StashKey[bool]()  # the scenario's call phase passed


def write_vector(state: State, scenario: str, recorder: VectorRecorder, passed: bool) -> None:
    """One scenario's vector: ``<export>/<feature path without features/>/<line>.json``."""
    assert state.export is not None
    file, _, line = scenario.rpartition(":")
    ref = next((r for refs in state.parsed.values() for r in refs if r.id == scenario), None)
    meta: dict[str, Any] = {"id": scenario, "name": ref.name if ref else scenario, "file": file}
    meta["line"] = int(line) if line.isdigit() else 1
    for key in ("rules", "terms", "interpretations", "tags"):
        meta[key] = list(getattr(ref, key)) if ref else []
    meta["complete"] = passed
    meta["suite"] = state.suite_version()
    meta["needs"] = {  # the rest (decisions, actions): what its steps sent and asked about
        "parts": sorted(scenario_parts(ref)) if ref else [],
        "rules": meta["rules"],
        "terms": meta["terms"],
    }
    target = state.export / Path(file).relative_to(FEATURES_DIR).with_suffix("") / f"{meta['line']}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(target, recorder.vector(meta))


def pytest_bdd_before_step(request: pytest.FixtureRequest) -> None:
    recorder = request.node.stash.get(VECTOR_KEY, None)
    if recorder is not None:
        recorder.before_step()


def pytest_bdd_after_step(request: pytest.FixtureRequest, step: Any) -> None:
    recorder = request.node.stash.get(VECTOR_KEY, None)
    if recorder is not None and step.type == "then":
        recorder.after_then_step(f"{step.keyword.strip()} {step.name}")
