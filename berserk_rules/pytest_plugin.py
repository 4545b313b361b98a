"""pytest plugin of the rulebook: rule markers, the engine driver, known failures, the results file.

The hooks live here; each job is a module of :mod:`berserk_rules.runner` (options, engine pool,
known failures, recorder, vector recording) and the results file is :mod:`berserk_rules.report.results`.

Listed in the project's ``conftest.py`` (``pytest_plugins = ["berserk_rules.pytest_plugin"]``).

Options
  ``--berserk-results PATH``  where to write the results (default ``build/results.json`` under the
      rootdir). The file is written (atomically) at the end of every run in which at least one
      scenario of ``features/`` was *selected* — run, skipped or xfailed. A run that selects no
      scenario at all (``pytest tests/test_lint.py``, ``-k lint``, ``--collect-only``) leaves the
      previous results untouched, so unit-test runs never erase the rulebook's status. Every
      scenario of ``features/`` appears in the file; those not selected get status "not run".
  ``--berserk-driver module:Class``  the engine driver (default the reference engine). The class
      attributes ``name`` and ``version`` are recorded as ``results["engine"]``. Fixtures get the
      class from :func:`driver_class` or the ``berserk_driver_class`` fixture.
  ``--berserk-engine COMMAND``  an engine process speaking the NDJSON protocol (instead of a driver
      class); ``--berserk-isolation process|none`` (default process: a driver class is served by
      ``berserk_rules.harness.host`` in its own process, so a crash or a hang is one scenario's error);
      ``--berserk-timeout`` / ``--berserk-scenario-timeout`` (seconds per answer / per scenario);
      ``--berserk-export DIR`` records every scenario as a test vector.
  ``--berserk-known-failures FILE``  TOML list of scenarios expected to fail with this driver::

          [[xfail]]
          scenario = "features/part-4/401-ochered.feature:57"
          reason = "движок не поддерживает …"

      They are marked ``xfail(strict=True)``: a known failure that starts passing fails the run
      (XPASS strict), so the list cannot rot. An entry naming a scenario that does not exist is a
      usage error. A scenario outline's own line covers all its rows. Without the option and with
      the reference driver, ``known-failures/reference.toml`` is used if it exists.

Tags ``@rule-401.7``, ``@term-…``, ``@interpretation-…`` become the markers ``rule(id=…)``,
``term(id=…)``, ``interpretation(id=…)``, and ``@example`` the marker ``example`` (registered here,
so ``--strict-markers`` stays on).

The driver fixture may record the game log as ``request.node.user_properties.append(("berserk_log",
[…]))``; the list (JSON-serialisable) goes into the scenario's ``log`` in the results. Likewise
``berserk_position`` (the position the game started from) becomes ``position``, and the step that
failed (recorded by :func:`pytest_bdd_step_error`) becomes ``failed_step`` — the site replays them.

Results are gathered in ``pytest_runtest_logreport`` on the process that runs the session (the
controller under pytest-xdist): each scenario item carries its id in ``user_properties``, which
travel with the reports from the workers.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from berserk_rules.errors import ScenarioInputError
from berserk_rules.harness.contract import ContractError
from berserk_rules.harness.driver import EngineFailure, Unsupported
from berserk_rules.report.results import MESSAGE_LIMIT
from berserk_rules.rulebook import features
from berserk_rules.rulebook.features import EXAMPLE_TAG, INTERPRETATION_TAG, RULE_TAG, TERM_TAG, relative_name
from berserk_rules.runner import lookup, parsing, tables
from berserk_rules.runner import trace as trace_hooks
from berserk_rules.runner.capabilities import NOT_APPLICABLE, NOT_APPLICABLE_PROPERTY, selected
from berserk_rules.runner.engines import berserk_driver, berserk_driver_class, berserk_engine_pool
from berserk_rules.runner.options import configure, pytest_addoption
from berserk_rules.runner.recorder import Recorder
from berserk_rules.runner.state import (
    ENGINE_FAILED_KEY,
    ERROR_PROPERTY,
    FAILED_STEP_PROPERTY,
    SCENARIO_PROPERTY,
    UNDEFINED_STEP_PROPERTY,
    is_worker,
    scenario_id_of,
    scenario_ref,
    state_of,
)
from berserk_rules.runner.vectors import PASSED_KEY, pytest_bdd_after_step, pytest_bdd_before_step

# the fixtures and hooks of the job modules, collected by pytest from this module
__all__ = [
    "berserk_driver",
    "berserk_driver_class",
    "berserk_engine_pool",
    "pytest_addoption",
    "pytest_bdd_after_step",
    "pytest_bdd_before_step",
]

MARKERS = (
    "rule(id): сценарий проверяет правило с этим номером (из тега @rule-N)",
    "term(id): сценарий проверяет термин глоссария (из тега @term-N)",
    "interpretation(id): сценарий опирается на толкование из реестра (из тега @interpretation-N)",
    "example: сценарий разыгрывает ПРИМЕР из текста своего правила (из тега @example)",
)
TAG_MARKERS = ((RULE_TAG, "rule"), (TERM_TAG, "term"), (INTERPRETATION_TAG, "interpretation"))


def pytest_configure(config: pytest.Config) -> None:
    gc.unfreeze()  # what an earlier run in this process froze (pytest_collection_finish)
    for line in MARKERS:
        config.addinivalue_line("markers", line)
    tables.install()  # pytest-bdd's copy of data tables without copy.deepcopy
    lookup.install()  # pytest-bdd's step lookup remembered by step kind and text
    state = configure(config)
    # pytest-bdd's Gherkin parse: the runner's own, not a second; and only the feature files a
    # --berserk-select can choose from become tests (none: every file)
    parsing.install(Path(config.rootpath), state.select)
    cache_root = config.getoption("--berserk-parse-cache", None)
    if cache_root and not features.DISK_CACHE:
        features.DISK_CACHE = True  # parses kept between runs (check's lint has just made them)
        features.CACHE_ROOT = Path(config.invocation_params.dir) / cache_root
        config.stash[_PARSE_CACHE_SET] = True
    if not config.pluginmanager.has_plugin("berserk-rules-trace"):  # the replay's step trace
        config.pluginmanager.register(trace_hooks, "berserk-rules-trace")
    if not is_worker(config):
        config.pluginmanager.register(Recorder(config), "berserk-rules-recorder")


_GC_THRESHOLDS = pytest.StashKey[tuple[int, ...]]()
_PARSE_CACHE_SET = pytest.StashKey[bool]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """The collected tests, the parsed features and the step dictionary live to the end of the run:
    move them out of the cyclic garbage collector's sight (:func:`gc.freeze`), which otherwise walks
    all of them again at each of its full collections (and pytest's own at the end of the run). A
    pytest run inside this process (pytester) makes everything collectable again when it starts
    (:func:`pytest_configure`).

    What the run then keeps — each scenario's record with its log, position and step trace, until
    the results are written — grows to the end as well, and the full collections the collector
    started as it grew walked it all again (9 of them cost 0.9 s of the run's 7.5 s of CPU): while
    the tests run only the young generations are collected (:func:`gc.set_threshold`'s third value),
    and the thresholds are restored when the run ends (:func:`pytest_unconfigure`). The largest
    resident set of a scenario run did not change (197 MB, 209 MB in process). Only in a run of
    scenarios and nothing else: other tests (a site built in process, say) may leave much more
    garbage behind them."""
    gc.freeze()
    config = session.config
    state = state_of(config)
    scenarios_only = bool(session.items) and all(
        scenario_id_of(item, state) is not None for item in session.items
    )
    if scenarios_only and _GC_THRESHOLDS not in config.stash:
        config.stash[_GC_THRESHOLDS] = gc.get_threshold()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, 1 << 30)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The run's records are written; pytest collects garbage once more at its end: everything
    kept until now is out of that collection's sight too."""
    if _GC_THRESHOLDS in session.config.stash:
        gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    thresholds = config.stash.get(_GC_THRESHOLDS, None)
    if thresholds is not None:
        gc.set_threshold(*thresholds)
    if config.stash.get(_PARSE_CACHE_SET, False):  # a run inside this process (pytester) set it
        features.DISK_CACHE = False
        features.CACHE_ROOT = None


@pytest.hookimpl(tryfirst=True)
def pytest_bdd_apply_tag(tag: str, function: Callable[..., object]) -> object:
    if tag == EXAMPLE_TAG:
        pytest.mark.example(function)
        return True
    for prefix, marker in TAG_MARKERS:
        if tag.startswith(prefix) and len(tag) > len(prefix):
            getattr(pytest.mark, marker)(id=tag[len(prefix) :])(function)
            return True
    return None


def pytest_bdd_step_func_lookup_error(
    request: pytest.FixtureRequest, feature: Any, scenario: Any, step: Any, exception: Exception
) -> None:
    """A step without definition: fail with a Russian ``file:line`` message (status "error")."""
    from berserk_rules.rulebook.lint import undefined_step_message

    rel = relative_name(Path(feature.filename), state_of(request.config).root)
    ours = request.config.pluginmanager.has_plugin("berserk_rules.steps.all")
    message = f"{rel}:{step.line_number}: " + undefined_step_message(
        step.keyword, step.name, step.type, suggest=ours
    )
    message += f" (сценарий «{scenario.name}»)"
    request.node.user_properties.append((UNDEFINED_STEP_PROPERTY, message))
    pytest.fail(message, pytrace=False)


def pytest_bdd_step_error(
    request: pytest.FixtureRequest,
    feature: Any,
    scenario: Any,
    step: Any,
    exception: Exception,
) -> None:
    """Remember the step that failed («file:line, keyword text») for the results and the site replay
    (issue 10); a «Дано» step that fails, or a position the scenario describes that cannot exist, is the
    scenario's own error: record it with the feature file and the step's line."""
    rel = relative_name(Path(feature.filename), state_of(request.config).root)
    request.node.user_properties.append(
        (
            FAILED_STEP_PROPERTY,
            {"file": rel, "line": step.line_number, "keyword": step.keyword.strip(), "text": step.name},
        )
    )
    if not (step.type == "given" or isinstance(exception, ScenarioInputError)):
        return
    if isinstance(exception, EngineFailure | ContractError):
        return
    text = str(exception).strip() or type(exception).__name__
    message = f"{rel}:{step.line_number}: шаг «{step.keyword.strip()} {step.name}»: {text}"
    request.node.user_properties.append((ERROR_PROPERTY, ("input", message)))


def engine_failure(exc: BaseException | None) -> BaseException | None:
    """The engine's failure (:class:`EngineFailure`, a broken contract) that ``exc`` is or holds —
    several teardown errors come as one exception group."""
    if isinstance(exc, EngineFailure | ContractError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = engine_failure(inner)
            if found is not None:
                return found
    return None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Mark a phase that failed because the engine failed (crash, hang, broken contract) — in
    setup, in a step, or at the last request after the steps (teardown)."""
    report = yield
    if report.when == "call":
        item.stash[PASSED_KEY] = report.passed
    failure = engine_failure(call.excinfo.value) if call.excinfo is not None else None
    if isinstance(failure, Unsupported) and report.when != "teardown":
        not_applicable(item, report, str(failure))
        item.stash[ENGINE_FAILED_KEY] = True
        return report
    if failure is not None:
        if report.when != "teardown":
            item.stash[ENGINE_FAILED_KEY] = True
        if not any(name == ERROR_PROPERTY for name, _ in report.user_properties):
            message = str(failure)
            report.user_properties.append((ERROR_PROPERTY, ("engine", message[:MESSAGE_LIMIT])))
    return report


def deselect_outside(config: pytest.Config, items: list[pytest.Item], selections: tuple[str, ...]) -> None:
    """``--berserk-select``: keep the scenarios of these feature files, folders, ``FILE:LINE``; a
    selection that names no scenario is a usage error, never a silent run of nothing."""
    state = state_of(config)
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    used: set[str] = set()
    for item in items:
        ident = scenario_id_of(item, state)
        ref = scenario_ref(state, ident) if ident is not None else None
        chosen = [s for s in selections if ref is not None and selected(ref, (s,))]
        used.update(chosen)
        (kept if chosen else dropped).append(item)
    unused = [s for s in selections if s not in used]
    if unused:
        raise pytest.UsageError(f"--berserk-select: ни одного сценария в {', '.join(unused)}")
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> tuple[str, str, Any] | None:
    """A scenario not applicable to the engine is a skip to pytest, but not a «skipped» to the reader:
    pytest's progress (``∅``) and summary line («19 passed, 587 not applicable») use the word of the
    results, of ``check``'s table («Не применимы») and of JUnit, so the counts read the same."""
    if report.skipped and any(name == NOT_APPLICABLE_PROPERTY for name, _ in report.user_properties):
        return NOT_APPLICABLE, "∅", "NOT APPLICABLE"
    return None


def not_applicable(item: pytest.Item, report: pytest.TestReport, reason: str) -> None:
    """The scenario needs what the engine does not support: a skip with the reason, marked so the
    recorder counts it «not applicable» (never passed, never failed)."""
    report.outcome = "skipped"
    path, line, _ = item.location
    report.longrepr = (str(path), (line or 0) + 1, f"Skipped: не применим: {reason}")
    report.user_properties.append((NOT_APPLICABLE_PROPERTY, reason))
    if hasattr(report, "wasxfail"):
        del report.wasxfail


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    state = state_of(config)
    if state.select:
        deselect_outside(config, items, state.select)
    for item in items:
        ident = scenario_id_of(item, state)
        if ident is None:
            continue
        item.user_properties.append((SCENARIO_PROPERTY, ident))
        known = state.known.get(ident)
        if known is not None:
            item.add_marker(pytest.mark.xfail(strict=known.strict, reason=known.reason))
