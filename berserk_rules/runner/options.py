"""The ``--berserk-*`` options and the run's state built from them (with the known failures)."""

from __future__ import annotations

from pathlib import Path

import pytest

from berserk_rules.errors import UserError
from berserk_rules.harness.driver import DEFAULT_DRIVER
from berserk_rules.harness.protocol import DEFAULT_SCENARIO_TIMEOUT, DEFAULT_TIMEOUT, parse_seconds
from berserk_rules.report.results import check_results_target
from berserk_rules.rulebook.features import load_scenarios, relative_name
from berserk_rules.runner.engines import driver_class
from berserk_rules.runner.known_failures import REFERENCE_KNOWN_FAILURES, load_known_failures
from berserk_rules.runner.state import DEFAULT_RESULTS, ISOLATIONS, STATE_KEY, State, is_worker


def _seconds(value: str | None, option: str, default: float) -> float:
    """A positive number of seconds from an option (``--berserk-timeout 2.5``)."""
    if value is None:
        return default
    try:
        return parse_seconds(value, option)
    except UserError as exc:
        raise pytest.UsageError(str(exc)) from None


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
        "--berserk-select",
        action="append",
        default=[],
        metavar="PATH",
        help="только сценарии этого файла или папки features/ (или ФАЙЛ:СТРОКА); можно несколько раз",
    )
    group.addoption(
        "--berserk-trace",
        action="store_true",
        default=False,
        help="записать пошаговый разбор каждой партии (доска и записи журнала после каждого шага) — для "
        "повтора на сайте и berserk-rules ask; без него в результатах позиция и журнал, без разбора по шагам",
    )
    group.addoption(
        "--berserk-isolation",
        default="process",
        choices=ISOLATIONS,
        help="process (по умолчанию): драйвер в отдельном процессе — падение или зависание движка "
        "становится ошибкой одного сценария; none: драйвер в процессе pytest (для отладки)",
    )
    group.addoption(
        "--berserk-parse-cache",
        default=None,
        metavar="DIR",
        help="хранить разбор файлов .feature в DIR/build/.cache/features/ и брать его оттуда в следующих "
        "прогонах (berserk-rules check передаёт его сам)",
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


def configure(config: pytest.Config) -> State:
    """The run's state from the options, on ``config.stash``; a bad option is a usage error."""
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
    state = State(
        root=root,
        results_path=results,
        driver_spec=driver_option or DEFAULT_DRIVER,
        driver_explicit=driver_option is not None,
        engine_command=engine_option,
        engine_cwd=Path(engine_cwd) if engine_cwd else invocation,
        isolation=config.getoption("--berserk-isolation"),
        trace=bool(config.getoption("--berserk-trace")),
        timeout=_seconds(config.getoption("--berserk-timeout"), "--berserk-timeout", DEFAULT_TIMEOUT),
        scenario_timeout=_seconds(
            config.getoption("--berserk-scenario-timeout"),
            "--berserk-scenario-timeout",
            DEFAULT_SCENARIO_TIMEOUT,
        ),
    )
    if results_option and not is_worker(config):
        try:
            check_results_target(results, root)
        except UserError as exc:
            raise pytest.UsageError(str(exc)) from None
    export = config.getoption("--berserk-export")
    state.export = (invocation / export) if export else None
    state.select = tuple(config.getoption("--berserk-select") or ())
    config.stash[STATE_KEY] = state
    if state.driver_explicit:
        driver_class(config)  # a bad --berserk-driver is a usage error right away

    known_option = config.getoption("--berserk-known-failures")
    known_path: Path | None
    if known_option:
        known_path = invocation / known_option
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
    return state
