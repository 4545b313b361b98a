"""The engine's benchmark, like a chess engine's ``bench``: seeded random legal games from the
standard starting position with real decks (:mod:`berserk_engine.selfplay`), played to the end on one
core. Reported: complete games per second (the median of ``repeat`` runs of the same games, every
run's figure beside it), decisions per second, the median and 99th percentile of the time to list
the legal actions of a decision afresh (``Game.fresh_legal_actions``) and the median of listing them
as a caller does (``Game.list_legal_actions``, cached under the game's change counter).

``berserk-rules bench [--json]`` prints it; this module needs nothing but the engine.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time
from typing import Any

from berserk_engine import __version__
from berserk_engine.selfplay import random_action, standard_position
from berserk_engine.setup import new_game


def _one_core() -> str:
    """Run on one core (the first the process may use), where the system allows it."""
    if hasattr(os, "sched_setaffinity"):
        cores = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cores[0]})
        return f"ядро {cores[0]}"
    return "без привязки к ядру"


def play_games(games: int, seed: int) -> tuple[float, int, list[dict[str, Any]]]:
    """(seconds, decisions, results) for ``games`` complete random games."""
    decisions = 0
    results = []
    start = time.perf_counter()
    for n in range(games):
        game = new_game(standard_position(seed + n))
        rng = random.Random(seed + n)
        made = 0
        while True:
            d = game.decision()
            if d is None:
                break
            game.act(d.player, random_action(d.options, rng))
            made += 1
        decisions += made
        results.append({"turns": game.state.turn, "decisions": made, **(game.state.result or {})})
    return time.perf_counter() - start, decisions, results


def listing_times(games: int, seed: int) -> tuple[list[float], list[float]]:
    """Microseconds to list the legal actions at every decision of the same games: afresh
    (``Game.fresh_legal_actions``: what a decision costs when the game stops) and as a caller lists
    them (``Game.list_legal_actions``: from the cache under the game's change counter)."""
    fresh, cached = [], []
    clock = time.perf_counter_ns
    for n in range(games):
        game = new_game(standard_position(seed + n))
        rng = random.Random(seed + n)
        while True:
            d = game.decision()
            if d is None:
                break
            t0 = clock()
            game.fresh_legal_actions()
            t1 = clock()
            game.list_legal_actions()
            t2 = clock()
            fresh.append((t1 - t0) / 1000)
            cached.append((t2 - t1) / 1000)
            game.act(d.player, random_action(d.options, rng))
    return fresh, cached


def build() -> str:
    """ "mypyc" when this engine is the compiled build (``berserk-rules bench --compiled``), else
    "python"."""
    from berserk_engine import game

    return "python" if game.__file__.endswith(".py") else "mypyc"


def run(games: int = 200, seed: int = 1, repeat: int = 3) -> dict[str, Any]:
    """The figures; the same games are played ``repeat`` times and the run of median speed is reported
    (with every run's games per second), so that one slow moment of a shared machine does not decide."""
    core = _one_core()
    play_games(2, seed + 10_000)  # warm-up: imports, the grammar, caches
    runs: list[tuple[float, int, list[dict[str, Any]]]] = sorted(
        (play_games(games, seed) for _ in range(max(1, repeat))), key=lambda r: r[0]
    )
    seconds, decisions, results = runs[len(runs) // 2]
    fresh, cached = listing_times(games, seed)
    samples = sorted(fresh)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    outcomes: dict[str, int] = {}
    for r in results:
        key = "ничья" if r.get("draw") else f"{r.get('rule')}"
        outcomes[key] = outcomes.get(key, 0) + 1
    return {
        "engine": f"berserk_engine {__version__}",
        "build": build(),
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "machine": platform.machine(),
        "core": core,
        "games": games,
        "seed": seed,
        "decisions": decisions,
        "seconds": round(seconds, 3),
        "repeat": len(runs),
        "games_per_second": round(games / seconds, 1),
        "games_per_second_runs": [round(games / r[0], 1) for r in runs[::-1]],
        "decisions_per_second": round(decisions / seconds),
        "decisions_per_game_median": statistics.median(r["decisions"] for r in results),
        "turns_per_game_median": statistics.median(r["turns"] for r in results),
        "legal_actions_median_us": round(statistics.median(samples), 2),
        "legal_actions_p99_us": round(p99, 2),
        "legal_actions_cached_median_us": round(statistics.median(cached), 2),
        "outcomes": outcomes,
    }
