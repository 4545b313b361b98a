"""pytest's reports turned into each scenario's status, message and replay data (on the controller
under pytest-xdist: the reports travel from the workers with their ``user_properties``), and the
results file written at the end through :mod:`berserk_rules.report.results`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from berserk_rules.errors import UserError
from berserk_rules.report.coverage import plural
from berserk_rules.report.results import MESSAGE_LIMIT, Record, build, now, write_json_atomic
from berserk_rules.rulebook.features import FEATURES_DIR, load_scenarios, relative_name
from berserk_rules.runner.capabilities import NOT_APPLICABLE, NOT_APPLICABLE_PROPERTY
from berserk_rules.runner.engines import engine_info
from berserk_rules.runner.state import (
    ENGINE_PROPERTY,
    ERROR_PROPERTY,
    FAILED_STEP_PROPERTY,
    LOG_PROPERTY,
    POSITION_PROPERTY,
    SCENARIO_PROPERTY,
    UNDEFINED_STEP_PROPERTY,
    State,
    state_of,
)
from berserk_rules.runner.traced import STEPS_PROPERTY


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
    reason = _properties(report).get(NOT_APPLICABLE_PROPERTY)
    if report.skipped and isinstance(reason, str):
        return NOT_APPLICABLE, reason[:MESSAGE_LIMIT]
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
                return "xpass", unexpected_pass(wasxfail)
            return "passed", None
        if report.failed:
            undefined = _properties(report).get(UNDEFINED_STEP_PROPERTY)
            if isinstance(undefined, str):
                return "error", undefined
            text = str(report.longrepr) if isinstance(report.longrepr, str) else ""
            if text.startswith("[XPASS(strict)]"):
                return "xpass", unexpected_pass(text.removeprefix("[XPASS(strict)]").strip())
            return "failed", _crash_message(report)
        if wasxfail is not None:
            crash = _crash_message(report)
            return "xfail", " — ".join(part for part in (wasxfail, crash) if part) or None
        return "skipped", _crash_message(report)
    if report.failed:  # teardown
        return "error", _crash_message(report)
    return None, None


def unexpected_pass(listed: str | None) -> str:
    """An unexpected pass, said as one: the reason the known-failures file gives (often the old
    failure's message, «ожидалось 1, получено 0») is quoted as what the list says, not as what happened."""
    said = f" (в списке записано: «{listed}»)" if listed else ""
    return f"сценарий из списка известных ошибок теперь проходит — уберите его из списка{said}"


# what an engine failure at the last request (teardown) turns into an error, as its message names it
# (a known failure stays one: pytest counts that teardown as xfail, as a failure in a step)
SUPERSEDED_BY_ENGINE = {"failed": "сценарий упал", "skipped": "сценарий пропущен"}


class Recorder:
    """Collects the reports on the controller (or the only process) and writes the results file."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.state = state_of(config)

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.state.started = time.monotonic()
        self.state.started_iso = now()

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        """pytest-bdd could not read a feature file: say where, in Russian, instead of its traceback."""
        if not report.failed or "pytest_bdd.exceptions" not in str(report.longrepr):
            return
        from berserk_rules.rulebook.lint import blocking_problems

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
        record = self.state.records.setdefault(ident, Record(nodeid=report.nodeid))
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
        if STEPS_PROPERTY in props:  # the replay step by step (issue 19)
            record.steps = props[STEPS_PROPERTY]
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
        if state.written is not None and state.export is None:  # export's results are its own scratch
            shown = plural(len(state.records), "сценарий", "сценария", "сценариев")
            where = relative_name(final_name(state.written), state.root)
            terminalreporter.write_line(f"berserk-rules: результаты ({shown}) записаны в {where}")


def final_name(path: Path) -> Path:
    """Where the results end up: ``berserk-rules check`` has pytest write them to a temporary file
    beside the target (``.results.json.<random>.run``, commands/check.py) and moves it there only
    when the run is whole — the name a reader should look for is the target's."""
    if path.suffix == ".run" and path.name.startswith("."):
        return path.with_name(path.name[1:].removesuffix(".run").rsplit(".", 1)[0])
    return path


def write_results(state: State) -> None:
    """The results of this run into ``state.results_path`` (atomically)."""
    try:
        scenarios = load_scenarios(state.root) if (state.root / FEATURES_DIR).is_dir() else []
    except UserError as exc:
        state.warning = f"список сценариев неполон: {exc}"
        scenarios = []
    data = build(
        state.records,
        scenarios,
        engine=engine_info(state),
        started_iso=state.started_iso,
        duration=time.monotonic() - state.started if state.started else 0.0,
        known_file=state.known_file,
        known_strict=state.known_strict,
        suite=state.suite_version(),
        trace=state.trace,
    )
    write_json_atomic(state.results_path, data, by_line=True)
    state.written = state.results_path
