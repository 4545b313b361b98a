"""``berserk-rules bench [--json] [--games N] [--seed S] [--repeat R] [--compiled]``: the benchmark.

Like a chess engine's ``bench``: seeded random legal games from the standard starting position with
real decks, on one core, to the end. Prints complete games per second (the median of ``--repeat`` runs
of the same games, 3 by default, with every run's figure), decisions per second and the
median and 99th percentile of the time to list the legal actions afresh, and the median of listing them
from the cache (JSON keys ``games_per_second``, ``decisions_per_second``, ``legal_actions_median_us``,
``legal_actions_p99_us``, ``legal_actions_cached_median_us``). A measurement, not a
test: nothing here passes or fails.

``--compiled`` measures the compiled build of the same engine (:mod:`berserk_rules.reference.compiled`): it is
built once (or found built) and the benchmark runs in a child process that imports it.
"""

from __future__ import annotations

import argparse
import json

from berserk_rules.errors import UserError

BUILDS = {"python": "чистый Python", "mypyc": "скомпилирован mypyc"}


def run(args: argparse.Namespace) -> int:
    from berserk_rules.reference import bench

    if args.games < 1:
        raise UserError(f"--games: нужно хотя бы одна партия, получено {args.games}")
    if args.repeat < 1:
        raise UserError(f"--repeat: нужен хотя бы один прогон, получено {args.repeat}")
    if args.compiled:
        figures = bench.compiled(args.games, args.seed, args.repeat)
    else:
        figures = bench.pure(args.games, args.seed, args.repeat)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
        return 0
    rows = [
        ("Движок", f"{figures['engine']} ({BUILDS.get(figures.get('build', ''), '?')})"),
        ("Python", f"{figures['python']} ({figures['machine']}, {figures['core']})"),
        ("Партий (зерно)", f"{figures['games']} ({figures['seed']})"),
        (
            "Партий в секунду (медиана прогонов)",
            f"{figures['games_per_second']} ({', '.join(map(str, figures['games_per_second_runs']))})",
        ),
        ("Решений в секунду", figures["decisions_per_second"]),
        ("Решений за партию (медиана)", figures["decisions_per_game_median"]),
        ("Ходов за партию (медиана)", figures["turns_per_game_median"]),
        ("Список законных действий, медиана, мкс", figures["legal_actions_median_us"]),
        ("Список законных действий, 99-й перцентиль, мкс", figures["legal_actions_p99_us"]),
        ("Список законных действий из кэша, медиана, мкс", figures["legal_actions_cached_median_us"]),
        ("Итоги партий", ", ".join(f"{k}: {v}" for k, v in sorted(figures["outcomes"].items()))),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key.ljust(width)}  {value}")
    if figures.get("build") == "python":
        print("Скомпилированная сборка того же движка (mypyc) — berserk-rules bench --compiled")
    return 0
