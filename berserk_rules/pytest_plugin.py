"""pytest plugin of the rulebook: rule markers, the engine driver, known failures, the results file.

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
      ``berserk_rules.host`` in its own process, so a crash or a hang is one scenario's error);
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

import datetime as dt
import json
import os
import shlex
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from berserk_rules.contract import ContractError
from berserk_rules.corpus import read_utf8, toml_error
from berserk_rules.coverage import plural
from berserk_rules.driver import DEFAULT_DRIVER, Driver, EngineFailure, resolve_driver
from berserk_rules.errors import ScenarioInputError, SourceError, UserError
from berserk_rules.features import (
    EXAMPLE_TAG,
    FEATURES_DIR,
    INTERPRETATION_TAG,
    RULE_TAG,
    TERM_TAG,
    ParsedFeature,
    ScenarioRef,
    check_results_target,
    load_scenarios,
    parse_feature,
    relative_name,
    scenario_refs,
)
from berserk_rules.protocol import (
    DEFAULT_SCENARIO_TIMEOUT,
    DEFAULT_TIMEOUT,
    EngineProcess,
    InProcessDriver,
    ProcessDriver,
    parse_seconds,
)
from berserk_rules.vectors import VectorRecorder

DEFAULT_RESULTS = "build/results.json"
REFERENCE_KNOWN_FAILURES = "known-failures/reference.toml"
SCENARIO_PROPERTY = "berserk_scenario"
LOG_PROPERTY = "berserk_log"
POSITION_PROPERTY = "berserk_position"  # site replay (issue 10)
FAILED_STEP_PROPERTY = "berserk_failed_step"  # site replay (issue 10)
UNDEFINED_STEP_PROPERTY = "berserk_undefined_step"
ENGINE_PROPERTY = "berserk_engine"
ERROR_PROPERTY = "berserk_error"  # (kind, message): "engine" (the engine failed), "input" (the scenario)
ISOLATIONS = ("process", "none")
RESULTS_SCHEMA = 1
MESSAGE_LIMIT = 4000

MARKERS = (
    "rule(id): сценарий проверяет правило с этим номером (из тега @rule-N)",
    "term(id): сценарий проверяет термин глоссария (из тега @term-N)",
    "interpretation(id): сценарий опирается на толкование из реестра (из тега @interpretation-N)",
    "example: сценарий разыгрывает ПРИМЕР из текста своего правила (из тега @example)",
)
TAG_MARKERS = ((RULE_TAG, "rule"), (TERM_TAG, "term"), (INTERPRETATION_TAG, "interpretation"))


# --- driver --------------------------------------------------------------------------------------


# --- known failures ------------------------------------------------------------------------------


@dataclass(frozen=True)
class KnownFailure:
    scenario: str
    reason: str
    issue: str | None = None
    strict: bool = True


KNOWN_KEYS = {"scenario", "rule", "reason", "issue"}


def load_known_failures(path: Path, scenarios: list[ScenarioRef], root: Path) -> dict[str, KnownFailure]:
    """Scenario id -> known failure, from a TOML file; an entry naming nothing is a SourceError.

    ``[[xfail]]`` entries name a ``scenario`` (``features/…feature:LINE``; a scenario outline's own
    line covers all its rows) or a ``rule`` (every scenario tagged with it), give a ``reason`` and
    optionally an ``issue`` (a link). ``strict = false`` at the top makes an unexpected pass a
    reported «xpass» that does not fail the run; by default (strict) it fails the run, so the list
    cannot rot — like toml-test's ``-skip-must-err``.
    """
    shown = relative_name(path, root)
    try:
        data = tomllib.loads(read_utf8(path, shown, "список известных ошибок"))
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(shown, exc) from None
    entries = data.get("xfail", [])
    strict = data.get("strict", True)
    unknown_keys = set(data) - {"xfail", "strict"}
    if unknown_keys or not isinstance(entries, list) or not isinstance(strict, bool):
        raise SourceError(
            shown,
            None,
            "ожидаются strict = true|false и список таблиц [[xfail]] (scenario или rule, reason, issue)",
        )
    by_id = {ref.id: [ref.id] for ref in scenarios}
    for ref in scenarios:
        if ref.row is not None:
            by_id.setdefault(f"{ref.file}:{ref.scenario_line}", []).append(ref.id)
    by_rule: dict[str, list[str]] = {}
    for ref in scenarios:
        for rule in ref.rules:
            by_rule.setdefault(rule, []).append(ref.id)
    known: dict[str, KnownFailure] = {}
    for number, entry in enumerate(entries, start=1):
        where = f"запись [[xfail]] №{number}"
        if not isinstance(entry, dict):
            raise SourceError(shown, None, f"{where}: ожидается таблица")
        names = [key for key in ("scenario", "rule") if isinstance(entry.get(key), str)]
        if len(names) != 1:
            raise SourceError(shown, None, f"{where}: нет строки scenario (или rule — одно из двух)")
        target = entry[names[0]]
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise SourceError(shown, None, f"{where} ({target}): нет причины reason")
        extra = set(entry) - KNOWN_KEYS
        if extra:
            raise SourceError(shown, None, f"{where}: лишние поля {', '.join(sorted(extra))}")
        issue = entry.get("issue")
        if issue is not None and not isinstance(issue, str):
            raise SourceError(shown, None, f"{where}: issue должен быть строкой (ссылкой)")
        ids = by_id.get(target) if names[0] == "scenario" else by_rule.get(target)
        if not ids:
            raise SourceError(
                shown,
                None,
                f"{where}: сценария {target} нет "
                "(нужны путь от корня проекта и строка сценария, например features/part-4/x.feature:12)"
                if names[0] == "scenario"
                else f"{where}: ни один сценарий не проверяет правило {target}",
            )
        text = reason.strip() + (f" ({issue})" if issue else "")
        for ident in ids:
            known[ident] = KnownFailure(ident, text, issue, strict)
    return known


# --- state ---------------------------------------------------------------------------------------


@dataclass
class _Record:
    status: str | None = None
    message: str | None = None
    duration: float = 0.0
    log: Any = None
    nodeid: str = ""
    error: str | None = None  # kind of an "error": "engine" or "input"
    position: Any = None  # site replay (issue 10)
    failed_step: Any = None  # site replay (issue 10)


@dataclass
class _State:
    root: Path
    results_path: Path
    driver_spec: str
    driver_explicit: bool
    known: dict[str, KnownFailure] = field(default_factory=dict)
    records: dict[str, _Record] = field(default_factory=dict)
    parsed: dict[str, list[ScenarioRef]] = field(default_factory=dict)
    started: float = 0.0
    started_iso: str = ""
    written: Path | None = None
    warning: str | None = None
    driver: type | None = None
    engine_command: str | None = None
    engine_cwd: Path | None = None
    isolation: str = "process"
    timeout: float = DEFAULT_TIMEOUT
    scenario_timeout: float = DEFAULT_SCENARIO_TIMEOUT
    engine_info: dict[str, Any] | None = None
    interrupted: bool = False
    export: Path | None = None
    known_file: str | None = None
    known_strict: bool = True

    def refs_of(self, feature: Path) -> list[ScenarioRef]:
        key = str(feature)
        if key not in self.parsed:
            parsed: ParsedFeature = parse_feature(feature, self.root)
            self.parsed[key] = scenario_refs(parsed)
        return self.parsed[key]


STATE_KEY = pytest.StashKey[_State]()
VECTOR_KEY = pytest.StashKey[VectorRecorder]()  # a scenario's vector recorder (``--berserk-export``)
PASSED_KEY = pytest.StashKey[bool]()  # the scenario's call phase passed
ENGINE_FAILED_KEY = pytest.StashKey[bool]()  # the setup or call phase is reported as the engine's error


def _state(config: pytest.Config) -> _State:
    return config.stash[STATE_KEY]


def driver_class(config: pytest.Config) -> type:
    """The driver class chosen for this run (``--berserk-driver``, default the reference engine)."""
    state = _state(config)
    if state.driver is None:
        try:
            state.driver = resolve_driver(state.driver_spec)
        except UserError as exc:
            raise pytest.UsageError(str(exc)) from exc
    return state.driver


@pytest.fixture(scope="session")
def berserk_driver_class(pytestconfig: pytest.Config) -> type:
    """The engine driver class chosen with ``--berserk-driver``."""
    return driver_class(pytestconfig)


class EnginePool:
    """The engine of one pytest process: a :class:`~berserk_rules.protocol.EngineProcess` reused
    scenario after scenario (``--berserk-isolation process``, the default), or the driver class
    called in process (``none``)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.state = _state(config)
        self.engine: EngineProcess | None = None

    def command(self) -> tuple[list[str], str]:
        """The engine's command line and how messages name it."""
        state = self.state
        if state.engine_command is not None:
            try:
                argv = shlex.split(state.engine_command)
            except ValueError as exc:
                raise pytest.UsageError(f"--berserk-engine: {exc}") from None
            return argv, state.engine_command
        driver_class(self.config)  # a bad spec is a usage error here, not in the host
        return [sys.executable, "-m", "berserk_rules.host", state.driver_spec], state.driver_spec

    def driver(self, scenario: str | None) -> Driver:
        state = self.state
        if state.isolation == "none" and state.engine_command is None:
            driver = InProcessDriver(driver_class(self.config)())
            state.engine_info = state.engine_info or _engine(state)
            return driver
        if self.engine is None:
            argv, shown = self.command()
            env = dict(os.environ)
            paths = [p for p in sys.path if p]
            env["PYTHONPATH"] = os.pathsep.join([*paths, *filter(None, [env.get("PYTHONPATH")])])
            cwd = state.engine_cwd if state.engine_command is not None else state.root
            self.engine = EngineProcess(argv, cwd=str(cwd), env=env, timeout=state.timeout, shown=shown)
        deadline = time.monotonic() + state.scenario_timeout
        info = self.engine.ensure(deadline)
        state.engine_info = {
            **info["engine"],
            "protocol": info["protocol"],
            **({"command": state.engine_command} if state.engine_command else {"driver": state.driver_spec}),
        }
        return ProcessDriver(self.engine, scenario, state.scenario_timeout)

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()


@pytest.fixture(scope="session")
def berserk_engine_pool(pytestconfig: pytest.Config) -> Iterator[EnginePool]:
    """The engine of this pytest process (started on first use, stopped at the end)."""
    pool = EnginePool(pytestconfig)
    yield pool
    pool.close()


@pytest.fixture
def berserk_driver(request: pytest.FixtureRequest, berserk_engine_pool: EnginePool) -> Iterator[Driver]:
    """The driver of one scenario: every request and answer checked against the schemas; an
    engine that crashes, hangs or breaks the contract makes this scenario an ``error``."""
    state = _state(request.config)
    scenario = scenario_id_of(request.node, state) if isinstance(request.node, pytest.Item) else None
    driver = berserk_engine_pool.driver(scenario)
    if state.engine_info is not None:
        request.node.user_properties.append((ENGINE_PROPERTY, state.engine_info))
    recorder = None
    if state.export is not None and scenario is not None:
        recorder = request.node.stash[VECTOR_KEY] = VectorRecorder()
    try:
        yield driver
    finally:
        driver.close()
    if recorder is not None and recorder.position is not None and scenario is not None:
        _write_vector(state, scenario, recorder, request.node.stash.get(PASSED_KEY, False))


def _write_vector(state: _State, scenario: str, recorder: VectorRecorder, passed: bool) -> None:
    """One scenario's vector: ``<export>/<feature path without features/>/<line>.json``."""
    assert state.export is not None
    file, _, line = scenario.rpartition(":")
    ref = next((r for refs in state.parsed.values() for r in refs if r.id == scenario), None)
    meta: dict[str, Any] = {"id": scenario, "name": ref.name if ref else scenario, "file": file}
    meta["line"] = int(line) if line.isdigit() else 1
    for key in ("rules", "terms", "interpretations", "tags"):
        meta[key] = list(getattr(ref, key)) if ref else []
    meta["complete"] = passed
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


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _seconds(value: str | None, option: str, default: float) -> float:
    """A positive number of seconds from an option (``--berserk-timeout 2.5``)."""
    if value is None:
        return default
    try:
        return parse_seconds(value, option)
    except UserError as exc:
        raise pytest.UsageError(str(exc)) from None


# --- hooks ---------------------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("berserk-rules", "Берсерк. Герои: сценарии правил")
    group.addoption(
        "--berserk-results",
        default=None,
        metavar="PATH",
        help=f"файл результатов сценариев (по умолчанию {DEFAULT_RESULTS} в корне проекта)",
    )
    group.addoption(
        "--berserk-driver",
        default=None,
        metavar="module:Class",
        help=f"драйвер движка (по умолчанию {DEFAULT_DRIVER})",
    )
    group.addoption(
        "--berserk-known-failures",
        default=None,
        metavar="FILE",
        help="TOML-список известных ошибок движка ([[xfail]] scenario, reason): xfail(strict=True)",
    )
    group.addoption(
        "--berserk-engine",
        default=None,
        metavar="COMMAND",
        help="движок как процесс, говорящий по протоколу berserk-rules (например «berserk-engine serve»)",
    )
    group.addoption(
        "--berserk-engine-cwd",
        default=None,
        metavar="DIR",
        help="папка, в которой запускается --berserk-engine (по умолчанию текущая)",
    )
    group.addoption(
        "--berserk-export",
        default=None,
        metavar="DIR",
        help="записать каждый сценарий как тестовый вектор JSON в эту папку (berserk-rules export)",
    )
    group.addoption(
        "--berserk-isolation",
        default="process",
        choices=ISOLATIONS,
        help="process (по умолчанию): драйвер в отдельном процессе — падение или зависание движка "
        "становится ошибкой одного сценария; none: драйвер в процессе pytest (для отладки)",
    )
    group.addoption(
        "--berserk-timeout",
        default=None,
        metavar="SECONDS",
        help=f"предел ожидания одного ответа движка (по умолчанию {DEFAULT_TIMEOUT:g} с)",
    )
    group.addoption(
        "--berserk-scenario-timeout",
        default=None,
        metavar="SECONDS",
        help=f"предел времени одного сценария (по умолчанию {DEFAULT_SCENARIO_TIMEOUT:g} с)",
    )


def pytest_configure(config: pytest.Config) -> None:
    for line in MARKERS:
        config.addinivalue_line("markers", line)
    root = Path(config.rootpath)
    invocation = Path(config.invocation_params.dir)
    results_option = config.getoption("--berserk-results")
    results = invocation / results_option if results_option else root / DEFAULT_RESULTS
    driver_option = config.getoption("--berserk-driver")
    engine_option = config.getoption("--berserk-engine")
    if driver_option and engine_option:
        raise pytest.UsageError("--berserk-driver и --berserk-engine вместе не указываются: выберите одно")
    if engine_option is not None and not engine_option.strip():
        raise pytest.UsageError("--berserk-engine: пустая команда")
    engine_cwd = config.getoption("--berserk-engine-cwd")
    state = _State(
        root=root,
        results_path=results,
        driver_spec=driver_option or DEFAULT_DRIVER,
        driver_explicit=driver_option is not None,
        engine_command=engine_option,
        engine_cwd=Path(engine_cwd) if engine_cwd else invocation,
        isolation=config.getoption("--berserk-isolation"),
        timeout=_seconds(config.getoption("--berserk-timeout"), "--berserk-timeout", DEFAULT_TIMEOUT),
        scenario_timeout=_seconds(
            config.getoption("--berserk-scenario-timeout"),
            "--berserk-scenario-timeout",
            DEFAULT_SCENARIO_TIMEOUT,
        ),
    )
    if results_option and not _is_worker(config):
        try:
            check_results_target(results, root)
        except UserError as exc:
            raise pytest.UsageError(str(exc)) from None
    export = config.getoption("--berserk-export")
    state.export = (invocation / export) if export else None
    config.stash[STATE_KEY] = state
    if not _is_worker(config):
        config.pluginmanager.register(Recorder(config), "berserk-rules-recorder")
    if state.driver_explicit:
        driver_class(config)  # a bad --berserk-driver is a usage error right away

    known_option = config.getoption("--berserk-known-failures")
    if known_option:
        known_path: Path | None = invocation / known_option
        if not known_path.is_file():
            raise pytest.UsageError(f"--berserk-known-failures: нет файла {known_option}")
    elif (
        state.driver_spec == DEFAULT_DRIVER
        and state.engine_command is None
        and (root / REFERENCE_KNOWN_FAILURES).is_file()
    ):
        known_path = root / REFERENCE_KNOWN_FAILURES
    else:
        known_path = None
    if known_path is not None:
        try:
            state.known = load_known_failures(known_path, load_scenarios(root), root)
            state.known_file = relative_name(known_path, root)
            state.known_strict = all(k.strict for k in state.known.values())
        except UserError as exc:
            raise pytest.UsageError(str(exc)) from exc


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
    from berserk_rules.lint import undefined_step_message

    rel = relative_name(Path(feature.filename), _state(request.config).root)
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
    step_func: Any,
    step_func_args: Any,
    exception: Exception,
) -> None:
    """Remember the step that failed («file:line, keyword text») for the results and the site replay
    (issue 10); a «Дано» step that fails, or a position the scenario describes that cannot exist, is the
    scenario's own error: record it with the feature file and the step's line."""
    rel = relative_name(Path(feature.filename), _state(request.config).root)
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
    if failure is not None:
        if report.when != "teardown":
            item.stash[ENGINE_FAILED_KEY] = True
        if not any(name == ERROR_PROPERTY for name, _ in report.user_properties):
            message = str(failure)
            report.user_properties.append((ERROR_PROPERTY, ("engine", message[:MESSAGE_LIMIT])))
    return report


def scenario_id_of(item: pytest.Item, state: _State) -> str | None:
    """The scenario id (``features/…feature:LINE``) of a pytest-bdd item, None for other tests."""
    if not isinstance(item, pytest.Function):
        return None
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    state = _state(config)
    for item in items:
        ident = scenario_id_of(item, state)
        if ident is None:
            continue
        item.user_properties.append((SCENARIO_PROPERTY, ident))
        known = state.known.get(ident)
        if known is not None:
            item.add_marker(pytest.mark.xfail(strict=known.strict, reason=known.reason))


def _properties(report: pytest.TestReport) -> dict[str, Any]:
    props: dict[str, Any] = {}
    for entry in report.user_properties:
        name, value = entry
        props[name] = value
    return props


def _crash_message(report: pytest.TestReport) -> str | None:
    longrepr = report.longrepr
    if longrepr is None:
        return None
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    crash = getattr(longrepr, "reprcrash", None)
    message = crash.message if crash is not None else str(longrepr)
    return message[:MESSAGE_LIMIT]


def classify(report: pytest.TestReport) -> tuple[str | None, str | None]:
    """(status, message) of one phase report; status None when the phase decides nothing."""
    wasxfail = getattr(report, "wasxfail", None)
    error = _properties(report).get(ERROR_PROPERTY)
    if report.failed and error is not None and wasxfail is None:
        return "error", str(error[1])
    if report.when == "setup":
        if report.failed:
            return "error", _crash_message(report)
        if report.skipped:
            if wasxfail is not None:
                return "xfail", wasxfail or None
            return "skipped", _crash_message(report)
        return None, None
    if report.when == "call":
        if report.passed:
            if wasxfail is not None:
                return "xpass", f"известная ошибка не воспроизвелась: {wasxfail}" if wasxfail else None
            return "passed", None
        if report.failed:
            undefined = _properties(report).get(UNDEFINED_STEP_PROPERTY)
            if isinstance(undefined, str):
                return "error", undefined
            text = str(report.longrepr) if isinstance(report.longrepr, str) else ""
            if text.startswith("[XPASS(strict)]"):
                reason = text.removeprefix("[XPASS(strict)]").strip()
                return "xpass", f"сценарий из списка известных ошибок прошёл: {reason}"
            return "failed", _crash_message(report)
        if wasxfail is not None:
            crash = _crash_message(report)
            return "xfail", " — ".join(part for part in (wasxfail, crash) if part) or None
        return "skipped", _crash_message(report)
    if report.failed:  # teardown
        return "error", _crash_message(report)
    return None, None


# what an engine failure at the last request (teardown) turns into an error, as its message names it
# (a known failure stays one: pytest counts that teardown as xfail, as a failure in a step)
SUPERSEDED_BY_ENGINE = {"failed": "сценарий упал", "skipped": "сценарий пропущен"}


class Recorder:
    """Collects the reports on the controller (or the only process) and writes the results file."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.state = _state(config)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.state.started = time.monotonic()
        self.state.started_iso = _now()

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """pytest-bdd could not read a feature file: say where, in Russian, instead of its traceback."""
        if not report.failed or "pytest_bdd.exceptions" not in str(report.longrepr):
            return
        from berserk_rules.lint import blocking_problems

        try:
            problems = blocking_problems(self.state.root)
        except UserError as exc:
            problems, extra = [], [str(exc)]
        else:
            extra = []
        lines = [p.format() for p in problems] + extra
        if lines:
            report.longrepr = "сценарии не собраны — ошибки в файлах features/:\n" + "\n".join(lines)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        props = _properties(report)
        ident = props.get(SCENARIO_PROPERTY)
        if not isinstance(ident, str):
            return
        record = self.state.records.setdefault(ident, _Record(nodeid=report.nodeid))
        record.duration += report.duration
        if LOG_PROPERTY in props:
            record.log = props[LOG_PROPERTY]
        if isinstance(props.get(ENGINE_PROPERTY), dict) and self.state.engine_info is None:
            self.state.engine_info = props[ENGINE_PROPERTY]
        # --- site replay (issue 10): the starting position and the failed step
        if POSITION_PROPERTY in props:
            record.position = props[POSITION_PROPERTY]
        if FAILED_STEP_PROPERTY in props:
            record.failed_step = props[FAILED_STEP_PROPERTY]
        # ---
        status, message = classify(report)
        error = props.get(ERROR_PROPERTY)
        if status is None:
            if report.when == "teardown" and error is not None and record.status == "xfail":
                # a known failure stays one when the engine fails after its steps (as when it fails
                # in a step, pytest counts it as xfail), but the message says so
                text = f"{record.message or ''}\n(после шагов движок отказал: {error[1]})".strip()
                record.message = text[:MESSAGE_LIMIT]
            return
        kind = str(error[0]) if status == "error" and error is not None and report.failed else None
        if report.when == "teardown":
            # a teardown error does not hide a failure already recorded — but an engine that failed
            # after the steps (at the last request) makes a failed or skipped scenario an error: it
            # is the engine's, whatever the steps said; the message keeps what came before
            if record.status in (None, "passed", "xpass"):
                record.status, record.message, record.error = status, message, kind
            elif kind == "engine" and record.status in SUPERSEDED_BY_ENGINE:
                text = f"{message}\n(до этого {SUPERSEDED_BY_ENGINE[record.status]}: {record.message or '—'})"
                record.status, record.message, record.error = status, text[:MESSAGE_LIMIT], kind
            return
        if record.status is None or report.when == "call":
            record.status, record.message, record.error = status, message, kind

    def pytest_keyboard_interrupt(self, excinfo: Any) -> None:
        self.state.interrupted = True

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if not self.state.records:
            return
        if self.state.interrupted or exitstatus == pytest.ExitCode.INTERRUPTED:
            # a partial run never replaces the results of a complete one
            where = relative_name(self.state.results_path, self.state.root)
            self.state.warning = f"прогон прерван: результаты не записаны ({where} не изменён)"
            return
        try:
            write_results(self.state)
        except OSError as exc:
            self.state.warning = f"не удалось записать результаты в {self.state.results_path}: {exc}"

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        state = self.state
        if state.warning:
            terminalreporter.write_line(f"berserk-rules: {state.warning}", yellow=True)
        if state.written is not None:
            count = plural(len(state.records), "сценарий", "сценария", "сценариев")
            terminalreporter.write_line(
                f"berserk-rules: результаты ({count}) записаны в {relative_name(state.written, state.root)}"
            )


# --- results file --------------------------------------------------------------------------------


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _engine(state: _State) -> dict[str, Any]:
    if state.engine_info is not None:
        return {"isolation": state.isolation, **state.engine_info}
    if state.engine_command is not None:
        return {"name": None, "version": None, "command": state.engine_command}
    try:
        cls = state.driver or resolve_driver(state.driver_spec)
        state.driver = cls
    except UserError as exc:
        return {"name": None, "version": None, "driver": state.driver_spec, "error": str(exc)}
    return {"name": cls.name, "version": cls.version, "driver": state.driver_spec}  # type: ignore[attr-defined]


def _scenario_json(ref: ScenarioRef | None, ident: str, record: _Record | None) -> dict[str, Any]:
    file, _, line = ident.rpartition(":")
    data: dict[str, Any] = {
        "id": ident,
        "name": ref.name if ref else (record.nodeid if record else ident),
        "file": ref.file if ref else file,
        "line": ref.line if ref else int(line) if line.isdigit() else 0,
        "rules": list(ref.rules) if ref else [],
        "terms": list(ref.terms) if ref else [],
        "interpretations": list(ref.interpretations) if ref else [],
        "tags": list(ref.tags) if ref else [],
        "status": record.status if record and record.status else "not run",
        "message": record.message if record else None,
        "duration": round(record.duration, 6) if record else 0.0,
    }
    if record is not None and record.error is not None:
        data["error"] = record.error
    if record is not None and record.log is not None:
        data["log"] = record.log
    # --- site replay (issue 10)
    if record is not None and record.position is not None:
        data["position"] = record.position
    if record is not None and record.failed_step is not None:
        data["failed_step"] = record.failed_step
    # ---
    return data


def build_results(state: _State, scenarios: list[ScenarioRef]) -> dict[str, Any]:
    entries = [_scenario_json(ref, ref.id, state.records.get(ref.id)) for ref in scenarios]
    known_ids = {ref.id for ref in scenarios}
    for ident in sorted(set(state.records) - known_ids):
        entries.append(_scenario_json(None, ident, state.records[ident]))
    summary = {status: 0 for status in ("passed", "failed", "xfail", "xpass", "skipped", "error", "not run")}
    for entry in entries:
        summary[entry["status"]] = summary.get(entry["status"], 0) + 1
    summary["total"] = len(entries)
    return {
        "schema": RESULTS_SCHEMA,
        "engine": _engine(state),
        "started": state.started_iso or _now(),
        "finished": _now(),
        "duration": round(time.monotonic() - state.started, 3) if state.started else 0.0,
        "summary": summary,
        **(
            {"known_failures": {"file": state.known_file, "strict": state.known_strict}}
            if state.known_file
            else {}
        ),
        "scenarios": entries,
    }


def write_results(state: _State) -> None:
    try:
        scenarios = load_scenarios(state.root) if (state.root / FEATURES_DIR).is_dir() else []
    except UserError as exc:
        state.warning = f"список сценариев неполон: {exc}"
        scenarios = []
    data = build_results(state, scenarios)
    write_json_atomic(state.results_path, data)
    state.written = state.results_path


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to ``path`` through a temporary file in the same folder and an atomic rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1, allow_nan=False)
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
