"""``berserk-rules check [--driver] [--results] [-n N] [-- pytest args]``.

Runs every scenario (``tests/test_rulebook.py``) on an engine in a pytest subprocess, then prints a
per-Part summary from the results file written by :mod:`berserk_rules.pytest_plugin`.

Exit code: pytest's own code when it could not run (usage error, interrupted, collection failed),
otherwise 1 if any scenario failed, errored or passed unexpectedly (strict XPASS), or — when no
extra pytest arguments narrowed the run — if any scenario was not run; 0 when all is well.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from berserk_rules.commands._common import results_path
from berserk_rules.corpus import load_corpus, project_root
from berserk_rules.coverage import by_part, compute, format_table, plural, scenario_part
from berserk_rules.errors import SourceError, UserError
from berserk_rules.features import load_results, load_results_file, load_scenarios
from berserk_rules.lint import blocking_problems, required_parts

RULEBOOK_TESTS = "tests/test_rulebook.py"
BAD = ("failed", "error", "xpass")


def xdist_available() -> bool:
    return importlib.util.find_spec("xdist") is not None


def extra_args(args: argparse.Namespace) -> list[str]:
    """The pytest arguments after ``--``."""
    extra = list(args.pytest_args or [])
    if extra and extra[0] == "--":
        extra = extra[1:]
    return extra


def pytest_command(args: argparse.Namespace, results: Path) -> list[str]:
    command = [sys.executable, "-m", "pytest", RULEBOOK_TESTS, "-p", "no:cacheprovider", "-q", "--tb=short"]
    command += ["--berserk-results", str(results)]
    if args.driver:
        command += ["--berserk-driver", args.driver]
    workers = args.workers
    if workers is None and xdist_available():
        workers = "auto"
    if workers is not None:
        if not xdist_available():
            raise UserError("для -n нужен pytest-xdist (pip install pytest-xdist)")
        command += ["-n", str(workers)]
    return command + extra_args(args)


def check_features(root: Path) -> None:
    """Raise :class:`SourceError` at the first feature problem that would break collection."""
    blocking = blocking_problems(root)
    if blocking:
        first = blocking[0]
        more = f" (и ещё {len(blocking) - 1}: berserk-rules lint)" if len(blocking) > 1 else ""
        raise SourceError(first.file, first.line, first.message + more)


def check_results_path(results: Path) -> None:
    """The results file must be writable as a file: not a folder, not under a file."""
    if results.is_dir():
        raise UserError(f"--results {results}: это папка; укажите файл, например {results / 'results.json'}")
    for parent in results.parents:
        if parent.exists():
            if not parent.is_dir():
                raise UserError(f"--results {results}: {parent} — файл, а не папка")
            break


def check_workers(value: str | None) -> None:
    if value is None or value in ("auto", "logical") or (value.isdigit() and int(value) >= 0):
        return
    raise UserError(f"-n {value}: ожидается число процессов (0, 1, 2, …) или auto")


def run(args: argparse.Namespace) -> int:
    root = project_root()
    if not (root / RULEBOOK_TESTS).is_file():
        raise UserError(f"нет файла {RULEBOOK_TESTS} в {root}")
    results = results_path(root, args.results)
    check_results_path(results)
    check_workers(args.workers)
    check_features(root)
    command = pytest_command(args, results)
    narrowed = bool(extra_args(args))  # -k, a node id…: scenarios left out on purpose
    started = time.time()
    completed = subprocess.run(command, cwd=root, check=False)
    fresh = results.exists() and results.stat().st_mtime >= started - 1
    if not fresh:
        print(
            f"berserk-rules check: pytest завершился с кодом {completed.returncode}, "
            f"результаты не записаны ({results})",
            file=sys.stderr,
        )
        return completed.returncode or 1
    data = load_results_file(results) or {}
    print()
    print(summary(root, data, results, narrowed))
    counts = data.get("summary", {})
    bad = sum(int(counts.get(status, 0)) for status in BAD)
    not_run = int(counts.get("not run", 0))
    if completed.returncode not in (0, 1):
        return completed.returncode
    if bad or (not_run and not narrowed):
        return 1
    return 0


def scenarios_word(count: int) -> str:
    return plural(count, "сценарий", "сценария", "сценариев")


def _count(statuses: dict[str, int], *names: str) -> int:
    return sum(statuses.get(name, 0) for name in names)


def summary(root: Path, data: dict[str, Any], results: Path, narrowed: bool = False) -> str:
    """The per-Part table and the total line printed after a run."""
    corpus = load_corpus(root)
    scenarios = data.get("scenarios", [])
    per_part: dict[int | None, dict[str, int]] = {}
    for item in scenarios:
        part = scenario_part(item, corpus)
        statuses = per_part.setdefault(part, {})
        statuses[item["status"]] = statuses.get(item["status"], 0) + 1
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
        "Не запущены",
        "Правила",
    ]
    rows = []
    for part in sorted(set(per_part) | {p for p in required}, key=lambda p: (p is None, p or 0)):
        statuses = per_part.get(part, {})
        coverage = rules.get(part) if part is not None else None
        covered = f"{coverage.covered}/{coverage.testable}" if coverage and part in required else ""
        rows.append(
            [
                f"Часть {part}" if part is not None else "Вне частей",
                str(sum(statuses.values())),
                str(_count(statuses, "passed")),
                str(_count(statuses, *BAD)),
                str(_count(statuses, "xfail")),
                str(_count(statuses, "skipped")),
                str(_count(statuses, "not run")),
                covered,
            ]
        )
    counts = data.get("summary", {})
    engine = data.get("engine", {})
    engine_name = (
        " ".join(str(engine.get(k)) for k in ("name", "version") if engine.get(k)) or "движок не указан"
    )
    total = sum(int(counts.get(s, 0)) for s in ("passed", "xfail", "skipped", "not run", *BAD))
    bad = _count(counts, *BAD)
    parts = [
        f"прошли {counts.get('passed', 0)}",
        f"упали {counts.get('failed', 0)}",
        f"ошибки {counts.get('error', 0)}",
        f"неожиданно прошли {counts.get('xpass', 0)}",
        f"известные ошибки {counts.get('xfail', 0)}",
        f"пропущены {counts.get('skipped', 0)}",
        f"не запущены {counts.get('not run', 0)}",
    ]
    if bad:
        verdict = "ЕСТЬ ОШИБКИ"
    elif counts.get("not run") and not narrowed:
        verdict = "НЕ ВСЕ СЦЕНАРИИ ЗАПУЩЕНЫ (одинаковые имена? berserk-rules lint)"
    else:
        verdict = "всё в порядке"
    lines = [
        format_table(headers, rows),
        "«Правила» — покрытые сценариями проверяемые правила обязательных частей.",
        f"Итого {scenarios_word(total)} ({engine_name}): {', '.join(parts)} — {verdict}.",
    ]
    return "\n".join(lines)
