"""``berserk-rules bench [--json] [--games N] [--seed S]``: the reference engine's benchmark.

Like a chess engine's ``bench``: seeded random legal games from the standard starting position with
real decks, on one core, to the end. Prints complete games per second, decisions per second and the
median and 99th percentile of the time to list the legal actions (JSON keys ``games_per_second``,
``decisions_per_second``, ``legal_actions_median_us``, ``legal_actions_p99_us``). A measurement, not a
test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json

from berserk_rules.errors import UserError


def run(args: argparse.Namespace) -> int:
    from berserk_engine import bench

    if args.games < 1:
        raise UserError(f"--games: нужно хотя бы одна партия, получено {args.games}")
    figures = bench.run(games=args.games, seed=args.seed)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
        return 0
    rows = [
        ("Движок", figures["engine"]),
        ("Python", f"{figures['python']} ({figures['machine']}, {figures['core']})"),
        ("Партий (зерно)", f"{figures['games']} ({figures['seed']})"),
        ("Партий в секунду", figures["games_per_second"]),
        ("Решений в секунду", figures["decisions_per_second"]),
        ("Решений за партию (медиана)", figures["decisions_per_game_median"]),
        ("Ходов за партию (медиана)", figures["turns_per_game_median"]),
        ("Список законных действий, медиана, мкс", figures["legal_actions_median_us"]),
        ("Список законных действий, 99-й перцентиль, мкс", figures["legal_actions_p99_us"]),
        ("Итоги партий", ", ".join(f"{k}: {v}" for k, v in sorted(figures["outcomes"].items()))),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key.ljust(width)}  {value}")
    return 0
