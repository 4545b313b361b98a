"""The figures of issue 28 (the engine's speed and the scenario run's), each reproducible on a shared machine.

    .venv/bin/python tools/bench_engine.py engine [--runs 5] [--games 200] [--compiled] [--callgrind 20]
    .venv/bin/python tools/bench_engine.py engine --compiled-folder build/compiled/<fingerprint>
    .venv/bin/python tools/bench_engine.py engine --base ../before/engine [--compiled-base DIR]
    .venv/bin/python tools/bench_engine.py engine --issue-base [--compiled]
    .venv/bin/python tools/bench_engine.py profile [--games 100] [--compiled] [--top 30]
    .venv/bin/python tools/bench_engine.py floor [--rounds 5]
    .venv/bin/python tools/bench_engine.py tests [--workers 2]
    .venv/bin/python tools/bench_engine.py all

``engine`` — the games of ``berserk-rules bench`` (seeded random legal games from the standard position,
one core, each game built with ``new_game`` and played to the end), ``--runs`` times in one child
process per build (the pure-Python engine of this checkout; with ``--compiled`` its mypyc build too,
``berserk_rules.reference.compiled``). Each run is timed twice: by the clock and by the CPU time of
the process (``time.process_time``) — other sessions on the machine take the clock, far less the CPU
time. Reported: the median of the runs (and every run) in games per second, by both measures, and
the median of the time to list the legal actions afresh at every decision of the same games
(``Game.list_legal_actions``), by the thread's CPU clock and by the wall clock. ``--callgrind N``
also counts the instructions of N games under valgrind (the run with N games minus the run with
none: the start-up falls out) — the same count under any load.

``engine --base DIR`` — a paired measure: the engine of this checkout and the one in ``DIR`` (the
``engine`` folder of an earlier checkout, ``git worktree add ../before <commit>``), run after run in
turn, each run a child process of its own, so that both see the same state of a shared machine: the
medians of games per second by CPU time and their ratio, and the median time to list the legal
actions afresh of both (with ``--callgrind N``, the instructions per game of both as well).
``--compiled-base DIR`` pairs this checkout's mypyc build with another build folder in the same way.

``engine --issue-base`` — the same pairs against the engine the issue started from (``ISSUE_START``,
checked out into a temporary git worktree; with ``--compiled`` its mypyc build too, made by that
checkout's own ``berserk-rules compile``), and this engine's figure brought to the machine of the
issue: the ratio times what the issue measured for that engine on a quiet machine (``ISSUE_FIGURES``,
the middle of its 69–75 and 125–137 games per second; ``ISSUE_LISTING`` for the listing of legal
actions, 8.0–9.6 and 3.9–4.3 µs). The virtual machine here runs the same code up to a fifth faster or
slower from one hour to the next; the engine of the issue's start, played in the same minutes, is the
yardstick that does not move.

``profile`` — where the games of ``bench`` spend their time: the pure engine under cProfile (own time
and time with callees, the top ``--top`` functions of each); with ``--compiled``, the mypyc build under
valgrind's callgrind — the only profiler here that sees inside the compiled modules — collecting only
inside ``bench.play_games`` (the warm-up before it plays the same games outside that function): the
top functions by their own instructions and the engine's functions by instructions with callees. A
compiled function is named after its module and its Python name (``CPyDef_queue___StateCheck___run``);
with callees, a function that runs the next task at once (``Game.then``) counts that task too.

``floor`` — the scenario run against its trivial floor (a pytest-bdd suite of the same scenarios and
steps doing nothing): ``tools/floor_suite.py`` in its default isolation (the driver in a process of
its own, as ``berserk-rules check`` runs), and the plain paired measure of the issue — ``pytest
tests/test_rulebook.py -p no:xdist --berserk-isolation none`` against the floor, warm caches, paired
CPU time, median of the rounds.

``tests`` — the README's test command (``pytest -n auto``, here ``-n --workers``): wall time and the
CPU time of every process.

The load average is printed before and after each measure: a figure taken under load says so. This is
a measurement, not a test; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

# The engine issue 28 started from (main before its first round) and what the issue measured for it
# «on a quiet machine here», games per second: the middle of 69–75 pure and of 125–137 compiled.
ISSUE_START = "f841f97"
ISSUE_FIGURES = {"python": 72.0, "mypyc": 131.0}
# and the median time to list the legal actions afresh, µs: the middle of 8.0–9.6 and of 3.9–4.3
ISSUE_LISTING = {"python": 8.8, "mypyc": 4.1}

# Run in a child process (the pure engine, or the compiled one first on PYTHONPATH): prints JSON.
ENGINE = r"""
import json, random, statistics, sys, time
from berserk_engine import bench
from berserk_engine.game import Game
from berserk_engine.selfplay import random_action, standard_position
from berserk_engine.setup import new_game

games, runs, seed, listing = (int(a) for a in sys.argv[1:5])
bench._one_core()
bench.play_games(2, seed + 10_000)  # warm-up: imports, the grammar, caches (also before 0 games)
out = {"build": bench.build(), "cpu": [], "wall": []}
for _ in range(runs):
    w0, c0 = time.perf_counter(), time.process_time()
    bench.play_games(games, seed)
    out["wall"].append(time.perf_counter() - w0)
    out["cpu"].append(time.process_time() - c0)
if listing:
    cpu, wall, cached = [], [], []
    fresh = hasattr(Game, "fresh_legal_actions")  # an engine before the cache has no such method
    for n in range(games):
        game = new_game(standard_position(seed + n))
        rng = random.Random(seed + n)
        # afresh: Game.fresh_legal_actions (before the cache, list_legal_actions computed afresh)
        listing = game.fresh_legal_actions if fresh else game.list_legal_actions
        while (d := game.decision()) is not None:
            t0, w0 = time.thread_time_ns(), time.perf_counter_ns()
            listing()
            w1, t1 = time.perf_counter_ns(), time.thread_time_ns()
            game.list_legal_actions()
            t2 = time.thread_time_ns()
            cpu.append((t1 - t0) / 1000)
            wall.append((w1 - w0) / 1000)
            cached.append((t2 - t1) / 1000)
            game.act(d.player, random_action(d.options, rng))
    out["listing_cpu_us"] = statistics.median(cpu)
    out["listing_wall_us"] = statistics.median(wall)
    out["listing_cached_cpu_us"] = round(statistics.median(cached), 2) if fresh else None
print(json.dumps(out))
"""


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def _child(env: dict[str, str] | None, *args: int, valgrind: list[str] | None = None) -> dict[str, Any]:
    cmd = [*(valgrind or []), sys.executable, "-c", ENGINE, *map(str, args)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"замер упал:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _instructions(env: dict[str, str] | None, games: int, seed: int) -> int:
    """Instructions (callgrind's Ir) of a child process that plays ``games`` games after the warm-up."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        # both runs alike: the same hash seed, and every module compiled afresh (a bytecode cache of
        # their own, empty: a cache written meanwhile by another run would make one of them cheaper)
        alike = {**(env or os.environ), "PYTHONHASHSEED": "0", "PYTHONPYCACHEPREFIX": str(Path(tmp) / "pyc")}
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        _child(alike, games, 1, seed, 0, valgrind=valgrind)
        for line in out.read_text().splitlines():
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit("callgrind не записал итог")


def engine(args: argparse.Namespace) -> dict[str, Any]:
    builds: list[tuple[str, dict[str, str] | None]] = [("python", None)]
    if args.compiled_folder:  # a build made elsewhere (of an earlier commit: «before»), measured alone
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([args.compiled_folder, os.environ.get("PYTHONPATH", "")]),
        }
        builds = [("mypyc", env)]
    elif args.compiled:
        builds.append(("mypyc", _compiled_env()))
    report: dict[str, Any] = {}
    for name, env in builds:
        before = load()
        got = _child(env, args.games, args.runs, args.seed, 1)
        if got["build"] != name:
            raise SystemExit(f"ожидалась сборка {name}, замерена {got['build']}")
        row = {
            "games_per_second_cpu": round(args.games / statistics.median(got["cpu"]), 1),
            "games_per_second_wall": round(args.games / statistics.median(got["wall"]), 1),
            "runs_cpu": [round(args.games / c, 1) for c in got["cpu"]],
            "runs_wall": [round(args.games / w, 1) for w in got["wall"]],
            "legal_actions_median_us_cpu": round(got["listing_cpu_us"], 2),
            "legal_actions_median_us_wall": round(got["listing_wall_us"], 2),
            "legal_actions_cached_median_us_cpu": got.get("listing_cached_cpu_us"),
            "load": f"{before} → {load()}",
        }
        if args.callgrind:
            base = _instructions(env, 0, args.seed)
            full = _instructions(env, args.callgrind, args.seed)
            row["instructions_per_game_millions"] = round((full - base) / args.callgrind / 1e6, 2)
        report[name] = row
        print(f"{name}: {json.dumps(row, ensure_ascii=False)}", flush=True)
    return report


def _compiled_env() -> dict[str, str]:
    """The environment of a child process that imports this checkout's mypyc build (built, or taken
    from the shared cache, first)."""
    sys.path.insert(0, str(ROOT))
    from berserk_rules.reference import compiled
    from berserk_rules.rulebook.project import output_root, project_root

    return compiled.environment(compiled.build(output_root(project_root())))


def _on_path(folder: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([folder, os.environ.get("PYTHONPATH", "")])}


def paired(args: argparse.Namespace) -> dict[str, Any]:
    """This checkout's engine against an earlier one (``--base``), and its mypyc build against another
    build (``--compiled-base``): runs in turn, medians of games per second by CPU time, the ratio."""
    pairs: list[tuple[str, dict[str, str] | None, dict[str, str]]] = []
    if args.base:
        pairs.append(("python", None, _on_path(args.base)))
    if args.compiled_base:
        pairs.append(("mypyc", _compiled_env(), _on_path(args.compiled_base)))
    report: dict[str, Any] = {}
    for name, this_env, base_env in pairs:
        before = load()
        rates: dict[str, list[float]] = {"base": [], "this": []}
        listing: dict[str, list[float]] = {"base": [], "this": []}
        for _ in range(args.runs):
            for who, env in (("base", base_env), ("this", this_env)):
                got = _child(env, args.games, 1, args.seed, 1)
                if got["build"] != name:
                    raise SystemExit(f"ожидалась сборка {name}, замерена {got['build']}")
                rates[who].append(round(args.games / got["cpu"][0], 1))
                listing[who].append(round(got["listing_cpu_us"], 2))
        row: dict[str, Any] = {
            "base_games_per_second_cpu": statistics.median(rates["base"]),
            "this_games_per_second_cpu": statistics.median(rates["this"]),
            "ratio": round(statistics.median(rates["this"]) / statistics.median(rates["base"]), 3),
            "runs": rates,
            # the median time to list the legal actions afresh at a decision (the thread's CPU clock)
            "base_legal_actions_us_cpu": statistics.median(listing["base"]),
            "this_legal_actions_us_cpu": statistics.median(listing["this"]),
            "load": f"{before} → {load()}",
        }
        if args.callgrind:
            for who, env in (("base", base_env), ("this", this_env)):
                full = _instructions(env, args.callgrind, args.seed) - _instructions(env, 0, args.seed)
                row[f"{who}_instructions_per_game_millions"] = round(full / args.callgrind / 1e6, 2)
        report[name] = row
        print(f"{name} (пары): {json.dumps(row, ensure_ascii=False)}", flush=True)
    return report


def issue_base(args: argparse.Namespace) -> dict[str, Any]:
    """:func:`paired` against the issue's start (``ISSUE_START``) in a temporary worktree, and this
    engine's figures brought to the issue's machine (``ISSUE_FIGURES``)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "issue-start"
        added = subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(tree), ISSUE_START],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if added.returncode != 0:  # a shallow clone, or a copy without git
            raise SystemExit(f"нет движка начала задачи ({ISSUE_START}) в этой копии: {added.stderr.strip()}")
        try:
            args.base = str(tree / "engine")
            if args.compiled:
                made = subprocess.run(
                    [sys.executable, "-m", "berserk_rules.cli", "compile"],
                    cwd=tree,
                    env={**_on_path(f"{tree}{os.pathsep}{tree / 'engine'}"), "BERSERK_COMPILE_CACHE": "off"},
                    capture_output=True,
                    text=True,
                )
                if made.returncode != 0:
                    raise SystemExit(f"сборка {ISSUE_START} не удалась:\n{made.stderr[-3000:]}")
                args.compiled_base = made.stdout.strip().splitlines()[-1]
            report = paired(args)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)
    for name, row in report.items():
        at_issue = round(row["ratio"] * ISSUE_FIGURES[name], 1)
        factor = round(row["base_games_per_second_cpu"] / ISSUE_FIGURES[name], 2)
        row["issue_machine_games_per_second"] = at_issue
        # listing: the issue measured 8.0–9.6 µs pure and 3.9–4.3 compiled for its engine
        this_us, base_us = row["this_legal_actions_us_cpu"], row["base_legal_actions_us_cpu"]
        listed = round(this_us / base_us * ISSUE_LISTING[name], 2)
        row["issue_machine_legal_actions_us"] = listed
        print(
            f"{name}: {ISSUE_START} здесь и сейчас — {row['base_games_per_second_cpu']} партии/с, в задаче — "
            f"{ISSUE_FIGURES[name]:g} (машина сейчас ×{factor}); этот движок ×{row['ratio']} к нему — "
            f"{at_issue} партии/с на машине задачи; список действий — {this_us} мкс против {base_us}, "
            f"на машине задачи {listed} мкс",
            flush=True,
        )
    return report


# Run under the profiler in a child process: the warm-up plays outside ``bench.play_games`` (callgrind
# collects only inside it), then ``games`` games; the pure engine prints cProfile's tables.
PROFILE = r"""
import cProfile, pstats, random, sys
from berserk_engine import bench
from berserk_engine.selfplay import random_action, standard_position
from berserk_engine.setup import new_game

games, top, pure = (int(a) for a in sys.argv[1:4])
for n in range(2):
    game = new_game(standard_position(10_000 + n))
    rng = random.Random(n)
    while (d := game.decision()) is not None:
        game.act(d.player, random_action(d.options, rng))
if pure:
    profile = cProfile.Profile()
    profile.runcall(bench.play_games, games, 1)
    for order in ("tottime", "cumulative"):
        pstats.Stats(profile).strip_dirs().sort_stats(order).print_stats(top)
else:
    bench.play_games(games, 1)
print(bench.build())
"""


def profile(args: argparse.Namespace) -> None:
    env: dict[str, str] | None = None
    if args.compiled:
        env = _compiled_env()
    child = [sys.executable, "-c", PROFILE, str(args.games), str(args.top), "0" if args.compiled else "1"]
    print(f"нагрузка {load()}", flush=True)
    if not args.compiled:
        subprocess.run(child, cwd=ROOT, check=True)
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        valgrind = [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=CPyDef_bench___play_games*",
            f"--callgrind-out-file={out}",
        ]
        done = subprocess.run([*valgrind, *child], cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode != 0 or done.stdout.strip().splitlines()[-1:] != ["mypyc"]:
            raise SystemExit(f"профиль не снят:\n{done.stdout[-1000:]}{done.stderr[-3000:]}")
        for title, inclusive in (("собственные инструкции", "no"), ("с вызванными, функции движка", "yes")):
            table = subprocess.run(
                ["callgrind_annotate", f"--inclusive={inclusive}", str(out)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            shown: dict[str, str] = {}  # function -> its count (a function whose code was inlined from
            # a header is listed under that header's name too: the first, larger line is kept)
            for line in table.splitlines():
                if "(" not in line or "%)" not in line:
                    continue
                count, _, where = line.strip().partition("  ")
                function = where.split(":", 1)[-1].split(" [")[0].strip()
                if (inclusive == "no" or "CPyDef_" in function) and function not in shown:
                    shown[function] = count
            print(f"\n== {title}, {args.games} партий")
            for function, count in list(shown.items())[: args.top]:
                print(f"{count:>24}  {function}")


def floor(args: argparse.Namespace) -> None:
    script = [sys.executable, str(ROOT / "tools" / "floor_suite.py"), "--rounds", str(args.rounds)]
    for title, extra in (
        ("tools/floor_suite.py (изоляция по умолчанию: драйвер в отдельном процессе)", []),
        (
            "парный замер: tests/test_rulebook.py --berserk-isolation none против пола, тёплый",
            ["--mode", "warm", "--isolation", "none"],
        ),
    ):
        print(f"\n== {title}; нагрузка {load()}", flush=True)
        subprocess.run([*script, *extra], cwd=ROOT, check=True)
        print(f"нагрузка после: {load()}", flush=True)


def tests(args: argparse.Namespace) -> None:
    before = load()
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)  # the measures run before this one are not counted
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", str(args.workers)], cwd=ROOT)
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = usage.ru_utime - cpu.ru_utime + usage.ru_stime - cpu.ru_stime
    print(
        f"\nкоманда README (pytest -n {args.workers}): код {done.returncode}, {wall:.0f} с по часам, "
        f"процессор {spent:.0f} с; нагрузка {before} → {load()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    e = sub.add_parser("engine", help="партии в секунду и список законных действий")
    f = sub.add_parser("floor", help="прогон сценариев против пола")
    t = sub.add_parser("tests", help="время команды тестов из README")
    pr = sub.add_parser("profile", help="профиль партий bench (cProfile; со сборкой mypyc — callgrind)")
    pr.add_argument("--games", type=int, default=100)
    pr.add_argument("--compiled", action="store_true", help="сборка mypyc под callgrind")
    pr.add_argument("--top", type=int, default=30)
    a = sub.add_parser("all", help="всё по очереди")
    for p in (e, a):
        p.add_argument("--games", type=int, default=200)
        p.add_argument("--runs", type=int, default=5)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--compiled", action="store_true", help="и скомпилированная сборка (mypyc)")
        p.add_argument("--compiled-folder", metavar="DIR", help="только эта готовая сборка mypyc")
        p.add_argument(
            "--callgrind", type=int, default=0, metavar="N", help="инструкций на партию (N партий)"
        )
        p.add_argument("--base", metavar="DIR", help="пары: движок этой копии и движок из DIR по очереди")
        p.add_argument("--compiled-base", metavar="DIR", help="пары: сборка mypyc этой копии и сборка из DIR")
        p.add_argument(
            "--issue-base",
            action="store_true",
            help=f"пары с движком начала задачи ({ISSUE_START}; с --compiled и его сборкой mypyc)",
        )
    for p in (f, a):
        p.add_argument("--rounds", type=int, default=5)
    for p in (t, a):
        p.add_argument("--workers", default="2")
    args = parser.parse_args()
    if args.what in ("engine", "all"):
        if args.issue_base:
            issue_base(args)
        elif args.base or args.compiled_base:
            paired(args)
        else:
            engine(args)
    if args.what == "profile":
        profile(args)
    if args.what in ("floor", "all"):
        floor(args)
    if args.what in ("tests", "all"):
        tests(args)


if __name__ == "__main__":
    main()
