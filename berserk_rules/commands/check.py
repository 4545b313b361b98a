"""``berserk-rules check [--driver | --engine] [--results] [-n N] [-- pytest args]``.

Runs every scenario (``tests/test_rulebook.py``) on an engine in a pytest subprocess and prints a
per-Part summary. The verdict is this run's own:

* before anything runs, the inputs are checked — the project (``features/``, ``rules/``), every
  feature file with ``lint`` (a misspelt keyword, a scenario without «Тогда», an unknown tag: the
  same ``file:line`` errors, exit code 2), the arguments, the results path (never a source file,
  never an unwritable folder);
* pytest writes this run's results into a file of its own beside the results file; only a run
  that was not interrupted and in which no scenario turned out to be unrunnable as written
  replaces ``--results`` (default ``build/results.json``) with it, atomically — two runs in one
  checkout each report their own verdict, and the file always holds the latest complete run;
* Ctrl-C stops the run with one line; the results file is left as it was.

Exit code: 0 all is well; 1 a scenario failed, errored or passed unexpectedly (strict XPASS), or —
when no extra pytest arguments narrowed the run — a scenario did not run, or pytest itself failed;
2 bad input (arguments, features, a scenario's impossible position); 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from berserk_rules.commands._common import (
    PYTEST,
    RUN_PLUGINS,
    TerminalFilter,
    WriteError,
    check_writable_folder,
    results_path,
    terminal_text,
)
from berserk_rules.corpus import load_corpus
from berserk_rules.errors import UserError
from berserk_rules.report.coverage import by_part, compute, format_table, part_name, plural, scenario_part
from berserk_rules.report.results import BAD, check_results_target, count, load_results, read_results
from berserk_rules.rulebook import features
from berserk_rules.rulebook.features import FEATURES_DIR, load_scenarios, relative_name
from berserk_rules.rulebook.lint import lint, required_parts
from berserk_rules.rulebook.project import is_installed_suite, output_root, project_root
from berserk_rules.rulebook.suite_version import suite_version
from berserk_rules.runner.capabilities import NOT_APPLICABLE

RULEBOOK_TESTS = "tests/test_rulebook.py"
# Below this many scenarios one process is faster than pytest-xdist on 2 cores (each worker
# collects every feature and starts its own engine): at 489 scenarios -n 2 took ×1.12 the wall time
# and ×1.42 the CPU time of one process (tools/floor_suite.py --xdist); see docs/architecture.md.
PARALLEL_FROM = 1000
LINT_SHOWN = 20
INTERRUPTED = 130


def xdist_available() -> bool:
    return importlib.util.find_spec("xdist") is not None


def extra_args(args: argparse.Namespace) -> list[str]:
    """The pytest arguments after ``--``."""
    extra = list(args.pytest_args or [])
    if extra and extra[0] == "--":
        extra = extra[1:]
    return extra


def choose_workers(requested: str | None, scenarios: int) -> str | None:
    """The ``-n`` for pytest-xdist: what was asked, else ``auto`` from :data:`PARALLEL_FROM`
    scenarios on a machine with two or more cores, else None (one process)."""
    if requested is not None:
        return requested
    if not xdist_available() or (os.cpu_count() or 1) < 2 or scenarios < PARALLEL_FROM:
        return None
    return "auto"


def pytest_command(
    args: argparse.Namespace, results: Path, scenarios: int = 0, parse_cache: Path | None = None
) -> list[str]:
    """The pytest command of a run; ``parse_cache``: the folder whose ``build/.cache/features`` holds
    the parses ``check``'s own lint has just kept (``--berserk-parse-cache``)."""
    verbose = bool(getattr(args, "verbose", False))
    command = [*PYTEST, RULEBOOK_TESTS, *RUN_PLUGINS, "-q"]
    # by default one line per failing scenario, printed from the results after the run
    # (:func:`failure_lines`); -v: pytest's own report with every traceback
    command += ["--tb=short"] if verbose else ["--tb=no", "-rN"]
    command += ["--berserk-results", str(results)]
    if parse_cache is not None:
        command += ["--berserk-parse-cache", str(parse_cache)]
    for selected in selection(args)[0]:
        command += ["--berserk-select", selected]
    if getattr(args, "driver", None):
        command += ["--berserk-driver", args.driver]
    if getattr(args, "engine", None):
        command += ["--berserk-engine", args.engine, "--berserk-engine-cwd", str(Path.cwd())]
    for option, name in (
        ("--berserk-timeout", "timeout"),
        ("--berserk-scenario-timeout", "scenario_timeout"),
        ("--berserk-isolation", "isolation"),
    ):
        if getattr(args, name, None):
            command += [option, str(getattr(args, name))]
    if getattr(args, "trace", False):
        command.append("--berserk-trace")
    if getattr(args, "known_failures", None):
        command += ["--berserk-known-failures", str(Path(args.known_failures).resolve())]
    workers = choose_workers(args.workers, scenarios)
    if workers is not None:
        if not xdist_available():
            raise UserError("для -n нужен pytest-xdist (pip install pytest-xdist)")
        command += ["-n", str(workers)]
    if sys.stdout.isatty():
        command.append("--color=yes")
    return command + selection(args)[1]


def selection(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    """The arguments after ``--`` split into scenario selections — a feature file, a folder of
    ``features/``, ``FILE:LINE`` (given from the project root or from the current folder) — and
    the rest, for pytest (``-k``, ``-x``, …). pytest itself cannot select scenarios by their
    feature file: it collects only ``tests/test_rulebook.py``."""
    root = project_root()
    paths: list[str] = []
    rest: list[str] = []
    for arg in extra_args(args):
        name, _, line = arg.partition(":") if not arg.startswith("-") else (arg, "", "")
        candidate = None
        if not arg.startswith("-") and (not line or line.isdigit()):
            for base in (Path.cwd(), root):
                path = (base / name).resolve()
                if path.exists() and path.is_relative_to((root / FEATURES_DIR).resolve()):
                    candidate = path.relative_to(root.resolve()).as_posix() + (f":{line}" if line else "")
                    break
            if candidate is None and name.startswith(f"{FEATURES_DIR}/"):
                raise UserError(f"{arg}: нет такого файла или папки сценариев (путь от корня проекта {root})")
        if candidate is not None:
            paths.append(candidate)
        else:
            rest.append(arg)
    return paths, rest


# --- checks before the run -----------------------------------------------------------------------


def check_project(root: Path) -> None:
    """The project has what a run needs; nothing is looked for in another checkout."""
    if not (root / "rules").is_dir():
        raise UserError(f"нет папки rules/ в проекте {root}: корпус правил не найден")
    if not (root / FEATURES_DIR).is_dir():
        raise UserError(f"нет папки {FEATURES_DIR}/ в проекте {root}: сценариев нет")
    if not (root / RULEBOOK_TESTS).is_file():
        raise UserError(f"нет файла {RULEBOOK_TESTS} в {root}")


def check_features(root: Path) -> int:
    """Every feature file passes ``lint``; returns the number of scenarios.

    Raises :class:`UserError` listing the errors (``file:line: [code] message``) otherwise: a
    suite with a silent-pass trap in it (a misspelt keyword, a scenario without «Тогда», an
    unknown tag) must not give a green verdict. Rules without scenarios are ``lint``'s business,
    not a reason to refuse a run; a step without definition is not looked for here (a project may
    bring its own steps), pytest-bdd reports it as that scenario's ``error``.
    """
    report = lint(None, root=root, corpus=load_corpus(root), check_step_definitions=False)
    problems = [p for p in report.errors if p.code != "uncovered"]
    if problems:
        lines = [p.format() for p in problems[:LINT_SHOWN]]
        if len(problems) > LINT_SHOWN:
            lines.append(f"… и ещё {len(problems) - LINT_SHOWN} (все: berserk-rules lint)")
        raise UserError(
            f"сценарии не прошли проверку lint ({plural(len(problems), 'ошибка', 'ошибки', 'ошибок')}), "
            "ничего не запущено:\n" + "\n".join(lines)
        )
    return report.scenarios


def check_junit_target(path: Path) -> None:
    """``--junit FILE`` can be written: not a folder, its folder writable — said before the run."""
    if path.is_dir():
        raise UserError(f"--junit {path}: это папка; укажите файл, например {path}/junit.xml")
    check_writable_folder(path.parent, f"--junit {path}")


def check_workers(value: str | None) -> None:
    if value is None or value in ("auto", "logical") or (value.isdigit() and int(value) >= 0):
        return
    raise UserError(f"-n {value}: ожидается число процессов (0, 1, 2, …) или auto")


def check_engine(args: argparse.Namespace, root: Path) -> None:
    """``--engine`` names a program that exists; ``--driver`` a class that can be imported."""
    from berserk_rules.harness.protocol import parse_seconds

    for option, name in (("--timeout", "timeout"), ("--scenario-timeout", "scenario_timeout")):
        if getattr(args, name, None) is not None:
            parse_seconds(str(getattr(args, name)), option)
    engine = getattr(args, "engine", None)
    if engine is not None and getattr(args, "driver", None):
        raise UserError("--driver и --engine вместе не указываются: выберите одно")
    if engine is not None:
        try:
            argv = shlex.split(engine)
        except ValueError as exc:
            raise UserError(f"--engine «{engine}»: {exc}") from None
        if not argv:
            raise UserError("--engine: пустая команда")
        program = argv[0]
        found = Path(program).is_file() if os.sep in program else shutil.which(program, path=search_path())
        if not found:
            raise UserError(f"--engine «{engine}»: программа {program} не найдена")
    if getattr(args, "driver", None):
        from berserk_rules.harness.driver import resolve_driver

        sys.path.insert(0, str(root))
        try:
            resolve_driver(args.driver)
        finally:
            sys.path.remove(str(root))
    known = getattr(args, "known_failures", None)
    if known is not None:
        from berserk_rules.runner.known_failures import load_known_failures, recorded_suite, suite_problem

        if not Path(known).is_file():
            raise UserError(f"--known-failures {known}: нет такого файла")
        load_known_failures(Path(known).resolve(), load_scenarios(root), Path.cwd())
        made_for, installed = recorded_suite(Path(known)), suite_version(root)
        if made_for and suite_problem(made_for, installed):
            print(
                f"berserk-rules check: предупреждение: список известных ошибок {known} составлен для "
                f"набора {made_for}, а установлен {installed} — его строки могут называть изменившиеся "
                "сценарии (новый список: berserk-rules known-failures)",
                file=sys.stderr,
            )


def check_suite(args: argparse.Namespace, root: Path) -> None:
    """``--suite X.Y.Z`` (or ``X.Y.Z+sha.…``): refuse to run another suite than the one pinned."""
    wanted = getattr(args, "suite", None)
    if wanted is None:
        return
    from berserk_rules.runner.known_failures import suite_problem

    malformed = suite_problem(wanted, None)
    if malformed is not None:
        raise UserError(f"--suite: {malformed}")
    problem = suite_problem(wanted, suite_version(root))
    if problem is not None:
        raise UserError(
            f"--suite {wanted}: {problem} — поставьте набор этой версии (pip install "
            f"'berserk-rules=={wanted.partition('+')[0]}') или поменяйте --suite"
        )


# --- the run -------------------------------------------------------------------------------------


def _relay(proc: subprocess.Popen[bytes]) -> None:
    """Copy pytest's output to ours as it comes, engine text in it made safe for a terminal
    (:class:`~berserk_rules.commands._common.TerminalFilter`: pytest's colours stay, any other
    control sequence — from an engine's message, name or log — is shown as text)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    out = sys.stdout.buffer
    safe = TerminalFilter(colours=isinstance(proc.args, list) and "--color=yes" in proc.args)
    while True:
        chunk = os.read(fd, 1 << 14)
        out.write(safe.feed(chunk, final=not chunk))
        out.flush()
        if not chunk:
            return


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """After Ctrl-C: let pytest stop its engines, quietly; kill it if it does not stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not leave pytest running
    try:
        deadline = time.monotonic() + 1.0
        nudged = False
        while proc.poll() is None:
            if time.monotonic() > deadline and not nudged:
                proc.send_signal(signal.SIGINT)  # Ctrl-C reached only us (kill -INT)
                nudged, deadline = True, time.monotonic() + 10.0
            elif time.monotonic() > deadline:
                proc.kill()
            try:
                proc.wait(timeout=0.1)
            except subprocess.TimeoutExpired:
                pass
        if proc.stdout is not None:
            proc.stdout.close()
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def search_path() -> str:
    """PATH, with the folder of this Python's scripts first: ``--engine "berserk-engine serve"``
    works from the project's virtual environment without activating it."""
    return os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


def run_pytest(command: list[str], root: Path) -> int | None:
    """pytest's exit code, or None when the run was interrupted (Ctrl-C)."""
    env = {**os.environ, "PATH": search_path()}
    if is_installed_suite(root):  # the installed package's suite is read, never written (no pytest pyc)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    proc = subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    try:
        _relay(proc)
        return proc.wait()
    except KeyboardInterrupt:
        _stop(proc)
        return None
    except BrokenPipeError:  # our reader is gone (check | head): stop pytest and its engines too
        _stop(proc)
        raise


def not_applicable_reasons(data: dict[str, Any], shown: int = 5) -> str:
    """Why scenarios were not applicable, the commonest reasons first with their counts (the rest
    are in the results file and in ``matrix``); "" when every scenario applied."""
    reasons = Counter(
        str(s.get("message") or "без причины").splitlines()[0]
        for s in data.get("scenarios", [])
        if s.get("status") == "not applicable"
    )
    if not reasons:
        return ""
    total = sum(reasons.values())
    lines = [f"Не применимы ({total}) — чаще всего:"]
    lines += [f"  {count:5}  {reason}" for reason, count in reasons.most_common(shown)]
    if len(reasons) > shown:
        rest = total - sum(count for _, count in reasons.most_common(shown))
        lines.append(f"  {rest:5}  ещё по {len(reasons) - shown} причинам (поле message в файле результатов)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    root = project_root()
    check_project(root)
    check_suite(args, root)
    results = results_path(root, args.results)
    check_results_target(results, root)
    junit = Path(args.junit) if getattr(args, "junit", None) else None
    if junit is not None:
        check_junit_target(junit)
    check_workers(args.workers)
    check_engine(args, root)
    cached = features.DISK_CACHE
    features.DISK_CACHE = True  # the parses lint makes here are the run's too (--berserk-parse-cache)
    try:
        scenarios = check_features(root)
    finally:
        features.DISK_CACHE = cached
    narrowed = bool(extra_args(args))  # -k, a node id…: scenarios left out on purpose

    results.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{results.name}.", suffix=".run", dir=results.parent)
    os.close(handle)
    own = Path(name)
    own.unlink()  # pytest writes it only if the run records scenarios
    try:
        code = run_pytest(pytest_command(args, own, scenarios, parse_cache=output_root(root)), root)
        if code is None:
            print(
                f"\nberserk-rules check: прервано (Ctrl-C) — результаты не записаны, "
                f"{relative_name(results, root)} остался от прошлого полного прогона",
                file=sys.stderr,
            )
            return INTERRUPTED
        if not own.exists():
            print(
                f"berserk-rules check: pytest завершился с кодом {code}, результаты не записаны "
                f"({relative_name(results, root)} не изменён)",
                file=sys.stderr,
            )
            return 2 if code == 4 else code or 1  # 4: pytest's usage error is bad input
        data = read_results(own) or {}
        unrunnable = [s for s in data.get("scenarios", []) if s.get("error") == "input"]
        if unrunnable:
            lines = [terminal_text(s.get("message") or s["id"]) for s in unrunnable]
            raise UserError(
                f"{plural(len(unrunnable), 'сценарий', 'сценария', 'сценариев')} нельзя выполнить как "
                f"написано — результаты не записаны ({relative_name(results, root)} не изменён):\n"
                + "\n".join(lines)
            )
        os.replace(own, results)
    finally:
        own.unlink(missing_ok=True)
    lines = failure_lines(data, bad_statuses(data))
    if lines and not getattr(args, "verbose", False):
        print()
        shown = relative_name(results, root)
        print(f"Сбои ({len(lines)}; подробно: check -v, сводка: berserk-rules matrix --failures 1 {shown}):")
        for line in lines:
            print(terminal_text(line))
    reasons = not_applicable_reasons(data)
    if reasons:
        print()
        print(reasons)
    print()
    print(summary(root, data, results, narrowed))
    if junit is not None:
        from berserk_rules.report.junit import write_junit

        try:
            write_junit(data, junit)
        except OSError as exc:
            raise WriteError(
                exc,
                junit,
                f"--junit: отчёт не записан (результаты в {relative_name(results, root)} записаны):",
            ) from None
    counts = data.get("summary", {})
    bad = sum(int(counts.get(status, 0)) for status in bad_statuses(data))
    not_run = int(counts.get("not run", 0))
    if code not in (0, 1):
        return code
    if bad or (not_run and not narrowed) or nothing_applicable(counts):
        return 1
    if code and bad_statuses(data) == BAD:
        print(f"berserk-rules check: pytest завершился с кодом {code}", file=sys.stderr)
        return 1
    return 0


FAILURE_LINE_LIMIT = 300


def failure_line(scenario: dict[str, Any]) -> str:
    """One line for a failing scenario: ``file:line [rule or term] «the step» (status): what was
    expected and what came`` — the first line of the message that says it, shortened."""
    where = f"{scenario.get('file', '?')}:{scenario.get('line', '?')}"
    names = list(scenario.get("rules") or []) or [f"термин {t}" for t in scenario.get("terms") or []]
    about = f" [{', '.join(names)}]" if names else ""
    step = scenario.get("failed_step")
    step_text = ""
    if isinstance(step, dict) and step.get("text"):
        words = f"{step.get('keyword', '')} {step['text']}".strip()
        step_text = f" «{words}» (строка {step.get('line', '?')})"
    lines = [line.strip() for line in str(scenario.get("message") or "").splitlines() if line.strip()]
    message = lines[0] if lines else ""  # the rest (a traceback, the engine's stderr): check -v
    status = scenario.get("status")
    error = "ошибка движка" if scenario.get("error") == "engine" else "ошибка"
    kind = {"error": error, "xpass": "неожиданно прошёл"}
    label = f" {kind[status]}:" if status in kind else ":"
    text = f"{where}{about}{step_text}{label} {message}".rstrip(": ")
    return text if len(text) <= FAILURE_LINE_LIMIT else text[: FAILURE_LINE_LIMIT - 1] + "…"


def failure_lines(data: dict[str, Any], statuses: tuple[str, ...] = BAD) -> list[str]:
    """:func:`failure_line` of every scenario whose status fails the run."""
    return [failure_line(s) for s in data.get("scenarios", []) if s.get("status") in statuses]


def nothing_applicable(counts: dict[str, Any]) -> bool:
    """Scenarios were selected, and the engine's capabilities (or its «unsupported») left out every
    one: nothing was checked, and that is not a green run."""
    checked = sum(int(counts.get(s, 0)) for s in ("passed", "xfail", "failed", "error", "xpass"))
    return bool(counts.get(NOT_APPLICABLE)) and not checked


def bad_statuses(data: dict[str, Any]) -> tuple[str, ...]:
    """The statuses that fail the run: an unexpected pass only when the known failures are strict."""
    known = data.get("known_failures") or {}
    return BAD if known.get("strict", True) else ("failed", "error")


def scenarios_word(count: int) -> str:
    return plural(count, "сценарий", "сценария", "сценариев")


def _count(statuses: dict[str, int], *names: str) -> int:
    return sum(statuses.get(name, 0) for name in names)


def summary(root: Path, data: dict[str, Any], results: Path, narrowed: bool = False) -> str:
    """The per-Part table and the total line printed after a run."""
    corpus = load_corpus(root)
    scenarios = data.get("scenarios", [])
    part_statuses: dict[int | None, list[str]] = {}
    for item in scenarios:
        part_statuses.setdefault(scenario_part(item, corpus), []).append(item["status"])
    per_part = {part: count(found) for part, found in part_statuses.items()}
    items = compute(corpus, load_scenarios(root), load_results(results))
    rules = by_part(items, "rule")
    required = set(required_parts(root))

    headers = [
        "Часть",
        "Сценариев",
        "Прошли",
        "Упали",
        "Известные ошибки",
        "Пропущены",
        "Не применимы",
        "Не запущены",
        "Покрытие правил",
    ]
    rows = []
    for part in sorted(set(per_part) | {p for p in required}, key=lambda p: (p is None, p or 0)):
        statuses = per_part.get(part, {})
        coverage = rules.get(part) if part is not None else None
        covered = f"{coverage.covered}/{coverage.testable}" if coverage and part in required else ""
        rows.append(
            [
                part_name(part),
                str(sum(statuses.values())),
                str(_count(statuses, "passed")),
                str(_count(statuses, *BAD)),
                str(_count(statuses, "xfail")),
                str(_count(statuses, "skipped")),
                str(_count(statuses, NOT_APPLICABLE)),
                str(_count(statuses, "not run")),
                covered,
            ]
        )
    counts = data.get("summary", {})
    engine = data.get("engine", {})
    engine_name = terminal_text(
        " ".join(str(engine.get(k)) for k in ("name", "version") if engine.get(k)) or "движок не указан"
    )
    every = ("passed", "xfail", "skipped", NOT_APPLICABLE, "not run", *BAD)
    total = sum(int(counts.get(s, 0)) for s in every)
    bad = _count(counts, *bad_statuses(data))
    parts = [
        f"прошли {counts.get('passed', 0)}",
        f"упали {counts.get('failed', 0)}",
        f"ошибки {counts.get('error', 0)}",
        f"неожиданно прошли {counts.get('xpass', 0)}",
        f"известные ошибки {counts.get('xfail', 0)}",
        f"пропущены {counts.get('skipped', 0)}",
        f"не применимы {counts.get(NOT_APPLICABLE, 0)}",
        f"не запущены {counts.get('not run', 0)}",
    ]
    if bad:
        verdict = "ЕСТЬ ОШИБКИ"
    elif counts.get("not run") and not narrowed:
        verdict = "НЕ ВСЕ СЦЕНАРИИ ЗАПУЩЕНЫ (одинаковые имена? berserk-rules lint)"
    elif nothing_applicable(counts):
        verdict = "НИ ОДИН СЦЕНАРИЙ НЕ ПРИМЕНИМ К ДВИЖКУ (его capabilities?)"
    elif counts.get(NOT_APPLICABLE):
        verdict = "всё в порядке в заявленных движком возможностях"
    else:
        verdict = "всё в порядке"
    lines = [
        format_table(headers, rows),
        "«Покрытие правил» — сколько проверяемых правил обязательных частей покрыто сценариями (это не счёт "
        "прошедших); «Не применимы» — сценарии вне заявленных движком возможностей (capabilities) или с "
        "ответом unsupported.",
        f"Итого {scenarios_word(total)} ({engine_name}): {', '.join(parts)} — {verdict}.",
    ]
    if data.get("suite"):  # the suite's version the run used, before the total line
        lines.insert(-1, f"Набор сценариев: {terminal_text(str(data['suite']))}.")
    return "\n".join(lines)
