"""The floor of the scenario run: our suite against a trivial pytest-bdd suite of the same shape.

    .venv/bin/python tools/floor_suite.py [--rounds 5] [--mode cold|warm|both] [--isolation process|none]
    .venv/bin/python tools/floor_suite.py --dummy-steps 154 [--rounds 5]   # the step dictionary doubled
    .venv/bin/python tools/floor_suite.py --profile [--top 30]              # where a serial run's time goes
    .venv/bin/python tools/floor_suite.py --keep /tmp/floor                 # keep the generated floor suite
    .venv/bin/python tools/floor_suite.py --split [--rounds 5]              # pytest vs engine, by isolation
    .venv/bin/python tools/floor_suite.py --trace [--rounds 5]              # ours as ``site`` runs it
    .venv/bin/python tools/floor_suite.py --card-store [--rounds 5]         # ours without the card store

The *floor* is generated from ``features/``: every feature file again, with the same rules,
backgrounds, scenarios, outlines and Examples rows, the same keywords, data tables and doc strings,
and the same number of steps per scenario — but every step's text is «шаг» and the three step
definitions (one per kind) do nothing; tags are left out (they are markers only). It is what
pytest-bdd itself costs for a suite of this size: collection, one test per scenario or row, one
step lookup and call per step.

*Ours* is the scenario run ``berserk-rules check`` starts (``pytest tests/test_rulebook.py``, one
process, the default isolation unless ``--isolation``), results written to a temporary file; with
``--trace`` it also records every game step by step (``--berserk-trace``), as ``berserk-rules site``
and ``check --trace`` do.

Both run without pytest's cache plugin and without Hypothesis' pytest plugin (installed with the
development set, it loads itself into every pytest; ``berserk-rules check`` leaves it out, and so
does the floor, so that neither pays for it).

Runs are paired: each round runs ours and the floor back to back (in alternating order), so that
load on a shared machine falls on both alike; the report gives the medians of each and the median
of the per-round ratios, for wall time and for CPU time (user + system of every process started,
which other work disturbs far less). Two states of the bytecode cache:

* ``cold`` — before each run the suite's own ``__pycache__`` folders are removed (ours:
  ``berserk_rules/``, ``engine/``, ``tests/``, the root; the floor: its folder), as after a fresh
  checkout or an edit: every module of the suite is compiled again (installed packages stay
  compiled);
* ``warm`` — the caches are kept (one unmeasured run of each first).

Both suites run without ``PYTHONDONTWRITEBYTECODE`` (removed from their environment if it is set):
with it no cache would ever be written, and «warm» would measure «cold» again.

``--dummy-steps N`` measures instead ours against ours with N more step definitions — each a real
pattern of the step registry with « (фиктивный шаг k)» appended, so it is as costly to try as the
real one and never matches — registered through :mod:`berserk_rules.steps.registry` by an extra
pytest plugin. With N = the number of step definitions the dictionary doubles; the per-scenario cost
should stay flat.

``--card-store`` measures ours against ours with the engine's store of card definitions turned off
(``BERSERK_ENGINE_CARD_STORE=0``, :mod:`berserk_engine.card_store`): every process reads every card
text again, as before the store.

``--xdist`` measures ``berserk-rules check -n 2`` against ``-n 0`` in the same paired way (where
``check`` should switch to pytest-xdist: ``PARALLEL_FROM`` in ``berserk_rules/commands/check.py``).

``--split`` explains the difference between the two ways the issue measures the run against the floor
(this script's default isolation and the paired ``--berserk-isolation none`` measure): it runs ours
in both isolations, paired, and splits each run's CPU time into the pytest process and the engine
process it started (``berserk_rules.harness.host``), warm and cold.

``--profile`` runs our suite once under cProfile in one process with the driver in process
(``--berserk-isolation none``; with ``--isolation process`` the pytest side of the default run)
and prints the share of the run spent in step lookup, schema validation, deep copies and the
engine, then the functions with the most own time.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gherkin.parser import Parser
from gherkin.token_matcher import TokenMatcher

ROOT = Path(__file__).resolve().parents[1]
FEATURES = ROOT / "features"
OUR_CACHES = ("berserk_rules", "engine", "tests", ".")

FLOOR_STEPS = '''\
"""The floor's step definitions: one per kind, doing nothing."""

from pytest_bdd import given, then, when


@given("шаг")
def _given(datatable=None, docstring=None):
    pass


@when("шаг")
def _when(datatable=None, docstring=None):
    pass


@then("шаг")
def _then(datatable=None, docstring=None):
    pass
'''

FLOOR_TEST = 'from pytest_bdd import scenarios\n\nscenarios("features")\n'
FLOOR_INI = "[pytest]\naddopts = -p no:cacheprovider -p no:hypothesispytest\n"

DUMMY_STEPS = '''\
"""{count} step definitions that never match: real patterns with a suffix (tools/floor_suite.py)."""

import berserk_rules.steps.all  # noqa: F401  (the real steps first: their patterns are copied)
from berserk_rules.steps import registry

_REAL = [(s.kind, s.pattern) for s in registry.STEPS]
_DECORATORS = {{"given": registry.given, "when": registry.when, "then": registry.then}}


def _make(index):
    def step_function():
        """Фиктивный шаг замера: не совпадает ни с одним шагом сценариев."""

    step_function.__name__ = f"dummy_step_{{index}}"
    return step_function


for _index in range({count}):
    _kind, _pattern = _REAL[_index % len(_REAL)]
    _DECORATORS[_kind](f"{{_pattern}} (фиктивный шаг {{_index}})")(_make(_index))
'''


# --- the floor suite -----------------------------------------------------------------------------


def _nodes(node: Any) -> Iterable[dict[str, Any]]:
    """Every dict of a gherkin AST."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _nodes(item)


def floor_feature(text: str) -> tuple[str, int, int]:
    """The floor version of a feature file's text, its number of scenarios (outline rows counted
    one by one) and of steps (background steps counted once per scenario that runs them)."""
    document = Parser().parse(text, TokenMatcher("ru"))
    lines = text.split("\n")
    for node in _nodes(document):
        if "keywordType" in node and "text" in node:  # a step
            index = node["location"]["line"] - 1
            line = lines[index]
            indent = line[: len(line) - len(line.lstrip())]
            lines[index] = f"{indent}{node['keyword']}шаг"
        for tag in node.get("tags", []) if isinstance(node.get("tags"), list) else []:
            lines[tag["location"]["line"] - 1] = ""
    from gherkin.pickles.compiler import Compiler

    document["uri"] = "floor.feature"
    pickles = Compiler().compile(document)
    return "\n".join(lines), len(pickles), sum(len(p["steps"]) for p in pickles)


def generate(folder: Path) -> tuple[int, int, int]:
    """Write the floor suite into ``folder``; (files, scenarios, steps) — the same as ours."""
    files = scenarios = steps = 0
    for path in sorted(FEATURES.rglob("*.feature")):
        text, n_scenarios, n_steps = floor_feature(path.read_text(encoding="utf-8"))
        target = folder / "features" / path.relative_to(FEATURES)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        files, scenarios, steps = files + 1, scenarios + n_scenarios, steps + n_steps
    (folder / "pytest.ini").write_text(FLOOR_INI, encoding="utf-8")
    (folder / "conftest.py").write_text(FLOOR_STEPS, encoding="utf-8")
    (folder / "test_floor.py").write_text(FLOOR_TEST, encoding="utf-8")
    return files, scenarios, steps


def step_count() -> int:
    """The number of step definitions in the project's step registry."""
    code = "import berserk_rules.steps.all; from berserk_rules.steps.registry import STEPS; print(len(STEPS))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return int(done.stdout.strip())


# --- measuring -----------------------------------------------------------------------------------


def drop_caches(folders: Iterable[Path]) -> None:
    for folder in folders:
        if folder.name == "__pycache__":
            shutil.rmtree(folder, ignore_errors=True)
            continue
        for cache in list(folder.rglob("__pycache__")) if folder != ROOT else [folder / "__pycache__"]:
            shutil.rmtree(cache, ignore_errors=True)


class Suite:
    def __init__(
        self, name: str, command: list[str], cwd: Path, caches: list[Path], env: dict[str, str] | None = None
    ):
        self.name, self.command, self.cwd, self.caches = name, command, cwd, caches
        self.env = {**os.environ, **(env or {})}
        # with PYTHONDONTWRITEBYTECODE set (as in some shells and containers) no cache is ever
        # written and «warm» would be «cold» again: the runs write their caches as on a usual machine
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)

    def run(self, cold: bool) -> tuple[float, float]:
        """(wall, CPU) seconds of one run; CPU is user + system of every process it started."""
        if cold:
            drop_caches(self.caches)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(self.command, cwd=self.cwd, env=self.env, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(
                f"{self.name}: {' '.join(self.command)} -> {done.returncode}\n{done.stdout[-3000:]}"
            )
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired(a: Suite, b: Suite, rounds: int, cold: bool) -> dict[str, Any]:
    """Run ``a`` and ``b`` back to back ``rounds`` times (alternating which goes first)."""
    if not cold:
        a.run(False), b.run(False)  # warm both caches, unmeasured
    samples: dict[str, list[tuple[float, float]]] = {a.name: [], b.name: []}
    for index in range(rounds):
        order = (a, b) if index % 2 == 0 else (b, a)
        for suite in order:
            samples[suite.name].append(suite.run(cold))
    out: dict[str, Any] = {}
    for which, pos in (("wall", 0), ("cpu", 1)):
        xs = [s[pos] for s in samples[a.name]]
        ys = [s[pos] for s in samples[b.name]]
        out[which] = (
            statistics.median(xs),
            statistics.median(ys),
            statistics.median(x / y for x, y in zip(xs, ys, strict=True)),
        )
    return out


def report(title: str, a: str, b: str, result: dict[str, Any], scenarios: int) -> None:
    print(title)
    for which, label in (("wall", "стена"), ("cpu", "ЦП")):
        x, y, ratio = result[which]
        print(
            f"  {label:6} {a}: {x:6.2f} с ({x / scenarios * 1000:5.1f} мс/сценарий)   "
            f"{b}: {y:6.2f} с ({y / scenarios * 1000:5.1f} мс/сценарий)   "
            f"отношение (медиана пар) ×{ratio:.2f}   разность {(x - y) / scenarios * 1000:5.1f} мс/сценарий"
        )


def ours(
    results: Path,
    isolation: str | None,
    extra: list[str] | None = None,
    env: dict[str, str] | None = None,
    trace: bool = False,
):
    command = [sys.executable, "-m", "pytest", "tests/test_rulebook.py", "-p", "no:cacheprovider", "-q"]
    command += [
        "-p",
        "no:hypothesispytest",
    ]  # as check starts it (commands/_common.RUN_PLUGINS), and the floor
    command += ["-n", "0"] if _has_xdist() else []
    command += ["--berserk-results", str(results)]
    if isolation:
        command += ["--berserk-isolation", isolation]
    if trace:  # the game step by step, as ``berserk-rules site`` and ``check --trace`` record it
        command.append("--berserk-trace")
    name = ("наш" if not extra else "наш+фиктивные") + ("+разбор" if trace else "")
    return Suite(name, command + (extra or []), ROOT, [ROOT / c for c in OUR_CACHES], env)


def _has_xdist() -> bool:
    import importlib.util

    return importlib.util.find_spec("xdist") is not None


# --- profile -------------------------------------------------------------------------------------

GROUPS = (
    ("поиск шага pytest-bdd (get_step_function)", "pytest_bdd/scenario.py", "get_step_function"),
    ("  из него getfixturedefs", "_pytest/fixtures.py", "getfixturedefs"),
    ("поиск шага в реестре (registry.lookup)", "berserk_rules/steps/registry.py", "lookup"),
    ("проверка по схемам (Checker.check)", "berserk_rules/harness/contract.py", "check"),
    ("  из неё jsonschema (is_valid)", "jsonschema/validators.py", "is_valid"),
    ("copy.deepcopy", "copy.py", "deepcopy"),
    ("разбор шага pytest-bdd (render сценария)", "pytest_bdd/parser.py", "render"),
    ("движок: Game.act", "engine/berserk_engine/game.py", "act"),
    ("движок: new_game", "engine/berserk_engine/setup.py", "new_game"),
    ("движок: Game.observe", "engine/berserk_engine/game.py", "observe"),
)


def profile(top: int, isolation: str) -> None:
    import pytest

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.prof"
        args = ["tests/test_rulebook.py", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-q"]
        args += ["--berserk-isolation", isolation]
        args += ["--berserk-results", str(Path(tmp) / "r.json")] + (["-n", "0"] if _has_xdist() else [])
        os.chdir(ROOT)
        profiler = cProfile.Profile()
        profiler.enable()
        code = pytest.main(args)
        profiler.disable()
        if code != 0:
            raise SystemExit(f"pytest -> {code}")
        profiler.dump_stats(out)
        stats = pstats.Stats(str(out))
    entries: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"\nпрофиль: весь прогон {total:.2f} с (под cProfile)")
    for label, file, function in GROUPS:
        rows = [
            (calls, ct)
            for (path, _, name), (_, calls, _, ct, _) in entries.items()
            if path.replace(os.sep, "/").endswith(file) and name == function
        ]
        if rows:
            calls = sum(r[0] for r in rows)
            ct = sum(r[1] for r in rows)
            print(f"  {label:44} {ct / total * 100:5.1f} %  ({ct:6.2f} с, вызовов {calls})")
    print(f"\nфункции с наибольшим собственным временем (первые {top}):")
    stats.sort_stats("tottime").print_stats(top)


def xdist(rounds: int) -> None:
    """``berserk-rules check -n 2`` against ``-n 0`` (where ``check`` should switch to pytest-xdist)."""
    with tempfile.TemporaryDirectory() as tmp:
        cli = [sys.executable, "-m", "berserk_rules.cli", "check", "--results", str(Path(tmp) / "r.json")]
        caches = [ROOT / c for c in OUR_CACHES]
        two = Suite("-n 2", [*cli, "-n", "2"], ROOT, caches)
        one = Suite("-n 0", [*cli, "-n", "0"], ROOT, caches)
        scenarios = len(list(_scenario_ids()))
        print(f"load average {os.getloadavg()[0]:.1f}")
        report(
            f"berserk-rules check -n 2 против -n 0, warm, {rounds} пар:",
            two.name,
            one.name,
            paired(two, one, rounds, False),
            scenarios,
        )


SPLIT_CHILD = """
import json, resource, sys
import pytest

code = pytest.main(sys.argv[1:])
me = resource.getrusage(resource.RUSAGE_SELF)
children = resource.getrusage(resource.RUSAGE_CHILDREN)  # the engine process, reaped at the session's end
print(json.dumps({"code": int(code), "pytest": me.ru_utime + me.ru_stime,
                  "engine": children.ru_utime + children.ru_stime}))
"""


def split(rounds: int) -> None:
    """Our run in both isolations, paired: CPU of the pytest process and of the engine process."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        caches = [ROOT / c for c in OUR_CACHES]

        def once(isolation: str, cold: bool) -> tuple[float, float]:
            if cold:
                drop_caches(caches)
            args = ["tests/test_rulebook.py", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest"]
            args += ["-p", "no:xdist", "--berserk-isolation", isolation, "--berserk-results", f"{tmp}/r.json"]
            done = subprocess.run(
                [sys.executable, "-c", SPLIT_CHILD, *args], cwd=ROOT, env=env, capture_output=True, text=True
            )
            got = json.loads(done.stdout.strip().splitlines()[-1])
            if got["code"] != 0:
                raise SystemExit(f"pytest -> {got['code']}\n{done.stdout[-3000:]}")
            return got["pytest"], got["engine"]

        print(f"load average {os.getloadavg()[0]:.1f}")
        for mode in ("warm", "cold"):
            if mode == "warm":
                once("none", False)  # the caches written, unmeasured
            samples: dict[str, list[tuple[float, float]]] = {"process": [], "none": []}
            for index in range(rounds):
                for isolation in ("process", "none") if index % 2 == 0 else ("none", "process"):
                    samples[isolation].append(once(isolation, mode == "cold"))
            print(f"{mode}, {rounds} пар, ЦП (медианы):")
            for isolation, rows in samples.items():
                own = statistics.median(r[0] for r in rows)
                engine = statistics.median(r[1] for r in rows)
                total = statistics.median(r[0] + r[1] for r in rows)
                shown = f"pytest {own:5.2f} с + движок {engine:5.2f} с = {total:5.2f} с"
                print(f"  --berserk-isolation {isolation:8} {shown}")
            ratio = statistics.median(
                (p[0] + p[1]) / (n[0] + n[1])
                for p, n in zip(samples["process"], samples["none"], strict=True)
            )
            print(f"  process / none (медиана пар): ×{ratio:.3f}")
        print(f"load average {os.getloadavg()[0]:.1f}")


def _scenario_ids() -> Iterable[str]:
    sys.path.insert(0, str(ROOT))
    from berserk_rules.rulebook.features import load_scenarios

    return (ref.id for ref in load_scenarios(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--mode", choices=("cold", "warm", "both"), default="both")
    parser.add_argument("--isolation", choices=("process", "none"), default=None)
    parser.add_argument("--dummy-steps", type=int, default=None, metavar="N")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--xdist", action="store_true", help="berserk-rules check -n 2 against -n 0")
    parser.add_argument("--split", action="store_true", help="pytest vs engine process, by isolation")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR")
    parser.add_argument("--card-store", action="store_true", help="ours against ours without the card store")
    parser.add_argument(
        "--trace", action="store_true", help="ours with the game step by step (--berserk-trace), as site runs"
    )
    args = parser.parse_args()
    if args.profile:
        profile(args.top, args.isolation or "none")
        return
    if args.xdist:
        xdist(args.rounds)
        return
    if args.split:
        split(args.rounds)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp) / "floor"
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        files, scenarios, steps = generate(folder)
        defs = step_count()
        print(
            f"свод: {files} файлов, {scenarios} сценариев, {steps} шагов; "
            f"определений шагов {defs}; load average {os.getloadavg()[0]:.1f}"
        )
        results = Path(tmp) / "results.json"
        base = ours(results, args.isolation, trace=args.trace)
        modes = ("cold", "warm") if args.mode == "both" else (args.mode,)

        def against(a: Suite, b: Suite, title: str) -> None:
            for mode in modes:
                result = paired(a, b, args.rounds, mode == "cold")
                report(f"{title}, {mode}, {args.rounds} пар:", a.name, b.name, result, scenarios)

        if args.card_store:
            unstored = ours(results, args.isolation, env={"BERSERK_ENGINE_CARD_STORE": "0"}, trace=args.trace)
            unstored.name += " без хранилища карт"
            against(base, unstored, "хранилище карт движка")
            return
        if args.dummy_steps is not None:
            plugin_dir = Path(tmp) / "dummy"
            plugin_dir.mkdir()
            (plugin_dir / "floor_dummy_steps.py").write_text(
                textwrap.dedent(DUMMY_STEPS.format(count=args.dummy_steps)), encoding="utf-8"
            )
            path = os.pathsep.join(filter(None, [str(plugin_dir), os.environ.get("PYTHONPATH")]))
            doubled = ours(results, args.isolation, ["-p", "floor_dummy_steps"], {"PYTHONPATH": path})
            against(doubled, base, f"+{args.dummy_steps} фиктивных определений шагов")
            return
        floor = Suite(
            "пол",
            [sys.executable, "-m", "pytest", "test_floor.py", "-q"] + (["-n", "0"] if _has_xdist() else []),
            folder,
            [folder],
        )
        against(base, floor, "наш прогон сценариев против пола")


if __name__ == "__main__":
    main()
