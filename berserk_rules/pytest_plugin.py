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
[…]))``; the list (JSON-serialisable) goes into the scenario's ``log`` in the results.

Results are gathered in ``pytest_runtest_logreport`` on the process that runs the session (the
controller under pytest-xdist): each scenario item carries its id in ``user_properties``, which
travel with the reports from the workers.
"""

from __future__ import annotations

import datetime as dt
import importlib
import json
import os
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from berserk_rules.corpus import read_utf8, toml_error
from berserk_rules.coverage import plural
from berserk_rules.errors import SourceError, UserError
from berserk_rules.features import (
    EXAMPLE_TAG,
    FEATURES_DIR,
    INTERPRETATION_TAG,
    RULE_TAG,
    TERM_TAG,
    ParsedFeature,
    ScenarioRef,
    load_scenarios,
    parse_feature,
    relative_name,
    scenario_refs,
)

DEFAULT_DRIVER = "berserk_rules.drivers.reference:ReferenceDriver"
DEFAULT_RESULTS = "build/results.json"
REFERENCE_KNOWN_FAILURES = "known-failures/reference.toml"
SCENARIO_PROPERTY = "berserk_scenario"
LOG_PROPERTY = "berserk_log"
UNDEFINED_STEP_PROPERTY = "berserk_undefined_step"
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


def resolve_driver(spec: str) -> type:
    """The driver class named by ``module:Class``; a clear :class:`UserError` when it cannot be used."""
    module_name, sep, class_name = spec.partition(":")
    if not sep or not module_name or not class_name:
        raise UserError(f"драйвер задаётся как «модуль:Класс», например {DEFAULT_DRIVER}; получено «{spec}»")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserError(f"драйвер {spec}: не удалось импортировать модуль {module_name}: {exc}") from exc
    obj: Any = module
    for part in class_name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise UserError(f"драйвер {spec}: в модуле {module_name} нет «{class_name}»") from None
    if not isinstance(obj, type):
        raise UserError(f"драйвер {spec}: «{class_name}» — не класс")
    missing = [attr for attr in ("name", "version") if not isinstance(getattr(obj, attr, None), str)]
    if missing:
        raise UserError(
            f"драйвер {spec}: у класса нет строковых атрибутов {', '.join(missing)} (имя и версия движка)"
        )
    return obj


# --- known failures ------------------------------------------------------------------------------


@dataclass(frozen=True)
class KnownFailure:
    scenario: str
    reason: str


def load_known_failures(path: Path, scenarios: list[ScenarioRef], root: Path) -> dict[str, KnownFailure]:
    """Scenario id -> known failure, from a TOML file; unknown scenarios raise :class:`SourceError`.

    An entry naming a scenario outline (its ``Структура сценария`` line) covers all its rows.
    """
    shown = relative_name(path, root)
    try:
        data = tomllib.loads(read_utf8(path, shown, "список известных ошибок"))
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(shown, exc) from None
    entries = data.get("xfail", [])
    unknown_keys = set(data) - {"xfail"}
    if unknown_keys or not isinstance(entries, list):
        raise SourceError(shown, None, "ожидается только список таблиц [[xfail]] (scenario, reason)")
    by_id = {ref.id: [ref.id] for ref in scenarios}
    for ref in scenarios:
        if ref.row is not None:
            by_id.setdefault(f"{ref.file}:{ref.scenario_line}", []).append(ref.id)
    known: dict[str, KnownFailure] = {}
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("scenario"), str):
            raise SourceError(shown, None, f"запись [[xfail]] №{number}: нет строки scenario")
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise SourceError(
                shown, None, f"запись [[xfail]] №{number} ({entry['scenario']}): нет причины reason"
            )
        extra = set(entry) - {"scenario", "reason"}
        if extra:
            raise SourceError(
                shown, None, f"запись [[xfail]] №{number}: лишние поля {', '.join(sorted(extra))}"
            )
        ids = by_id.get(entry["scenario"])
        if not ids:
            raise SourceError(
                shown,
                None,
                f"запись [[xfail]] №{number}: сценария {entry['scenario']} нет "
                "(нужны путь от корня проекта и строка сценария, например features/part-4/x.feature:12)",
            )
        for ident in ids:
            known[ident] = KnownFailure(ident, reason.strip())
    return known


# --- state ---------------------------------------------------------------------------------------


@dataclass
class _Record:
    status: str | None = None
    message: str | None = None
    duration: float = 0.0
    log: Any = None
    nodeid: str = ""


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

    def refs_of(self, feature: Path) -> list[ScenarioRef]:
        key = str(feature)
        if key not in self.parsed:
            parsed: ParsedFeature = parse_feature(feature, self.root)
            self.parsed[key] = scenario_refs(parsed)
        return self.parsed[key]


STATE_KEY = pytest.StashKey[_State]()


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


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


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


def pytest_configure(config: pytest.Config) -> None:
    for line in MARKERS:
        config.addinivalue_line("markers", line)
    root = Path(config.rootpath)
    invocation = Path(config.invocation_params.dir)
    results_option = config.getoption("--berserk-results")
    results = invocation / results_option if results_option else root / DEFAULT_RESULTS
    driver_option = config.getoption("--berserk-driver")
    state = _State(
        root=root,
        results_path=results,
        driver_spec=driver_option or DEFAULT_DRIVER,
        driver_explicit=driver_option is not None,
    )
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
    elif state.driver_spec == DEFAULT_DRIVER and (root / REFERENCE_KNOWN_FAILURES).is_file():
        known_path = root / REFERENCE_KNOWN_FAILURES
    else:
        known_path = None
    if known_path is not None:
        try:
            state.known = load_known_failures(known_path, load_scenarios(root), root)
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
            item.add_marker(pytest.mark.xfail(strict=True, reason=known.reason))


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
        status, message = classify(report)
        if status is None:
            return
        if report.when == "teardown":
            # a teardown error does not hide a failure already recorded
            if record.status in (None, "passed", "xpass"):
                record.status, record.message = status, message
            return
        if record.status is None or report.when == "call":
            record.status, record.message = status, message

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.state.records:
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
    if record is not None and record.log is not None:
        data["log"] = record.log
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
            json.dump(data, handle, ensure_ascii=False, indent=1)
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
