"""How fast the card reader is (issue 25, «Speed»): a benchmark, never a test.

    .venv/bin/python tools/bench_reader.py             # both figures, 5 runs each
    .venv/bin/python tools/bench_reader.py --runs 9
    .venv/bin/python tools/bench_reader.py --profile   # cProfile of one warm `cards` run (top 25)

1. ``berserk-rules cards`` on a list of 1,000 cards — the project's card texts (``features/`` and
   ``engine/examples/``, :func:`berserk_rules.rulebook.card_texts.card_rows`) round and round — as a new
   process each time: cold (an empty disk cache of readings, ``BERSERK_READER_CACHE``) and warm (the
   cache filled by the run before). Median wall time of ``--runs`` runs.
2. Cold median (and 90th percentile) milliseconds per distinct sentence: every distinct sentence of those
   texts read by the grammar (:func:`berserk_engine.language.abilities.read_ability`) with the disk cache
   off, in one process after the grammar is built and one sentence read (the start is measured apart).

Figures depend on the machine and its load: compare runs of the same hour, and write them with the
machine's state (docs/reader.md «Замеры»).
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

ROOT = Path(__file__).resolve().parents[1]
CARDS = 1000
COMMAND = [str(Path(sys.executable).with_name("berserk-rules")), "cards"]


def card_list(count: int = CARDS) -> list[dict[str, object]]:
    """``count`` cards of the project's texts, round and round, in the columns of a card list."""
    sys.path.insert(0, str(ROOT))
    from berserk_rules.rulebook.card_texts import card_rows

    rows = [r for r in card_rows(ROOT) if r.text and r.name and r.kind]
    cards: list[dict[str, object]] = []
    for number in range(count):
        row = rows[number % len(rows)]
        card: dict[str, object] = {"название": row.name, "тип": row.kind, "текст": row.text}
        cost = row.cost.strip()
        card["стоимость"] = int(cost) if cost.isdigit() else (cost or 1)
        if row.kind.strip().lower() == "существо":
            card["удар"], card["жизни"] = 1, 1
        cards.append(card)
    return cards


def _run(path: Path, cache: Path) -> tuple[float, float]:
    """One run of ``cards``: (wall seconds, CPU seconds of the process — user and system)."""
    env = {**os.environ, "BERSERK_READER_CACHE": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([*COMMAND, str(path)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def list_figures(path: Path, runs: int, folder: Path) -> dict[str, float]:
    """Median seconds (wall and CPU) of ``cards`` on the list: cold (a new empty cache each run) and
    warm."""
    cold = [_run(path, folder / f"cold-{i}") for i in range(runs)]
    warm_cache = folder / "warm"
    _run(path, warm_cache)
    warm = [_run(path, warm_cache) for _ in range(runs)]
    return {
        "cold_s": statistics.median(w for w, _ in cold),
        "cold_cpu_s": statistics.median(c for _, c in cold),
        "warm_s": statistics.median(w for w, _ in warm),
        "warm_cpu_s": statistics.median(c for _, c in warm),
    }


_SENTENCES = r"""
import json, statistics, sys, time
from berserk_engine.grammar import split_sentences
from berserk_engine.language.abilities import read_ability
from berserk_engine.language.tree import ReadError
texts = json.load(open(sys.argv[1], encoding="utf-8"))
start = time.perf_counter()
try:
    read_ability("Найм: возьмите карту.")
except ReadError:
    pass
first = time.perf_counter() - start
sentences = sorted({s for t in texts for _, s in split_sentences(t)})
times = []
for sentence in sentences:
    start = time.perf_counter()
    try:
        read_ability(sentence)
    except ReadError:
        pass
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(json.dumps({"sentences": len(times), "first_s": first, "median_ms": statistics.median(times),
                  "p90_ms": times[int(len(times) * 0.9)]}))
"""


def sentence_figures(cards: list[dict[str, object]], folder: Path) -> dict[str, float]:
    """Cold milliseconds per distinct sentence (grammar only, disk cache off), in a fresh process."""
    texts = folder / "texts.json"
    texts.write_text(
        json.dumps(sorted({str(c["текст"]) for c in cards}), ensure_ascii=False), encoding="utf-8"
    )
    env = {**os.environ, "BERSERK_READER_CACHE": "off"}
    out = subprocess.run(
        [sys.executable, "-c", _SENTENCES, str(texts)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def profile(path: Path, folder: Path) -> None:
    """cProfile of one warm run of ``cards`` (the cache filled first), the top 25 by cumulative time."""
    cache = folder / "profile"
    _run(path, cache)
    env = {**os.environ, "BERSERK_READER_CACHE": str(cache)}
    script = folder / "cards_once.py"
    script.write_text(
        "import sys\nfrom berserk_rules.cli import program\n"
        "sys.argv = ['berserk-rules', 'cards', sys.argv[1]]\n"
        "try:\n    program()\nexcept SystemExit:\n    pass\n",
        encoding="utf-8",
    )
    stats = folder / "warm.prof"
    subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(stats), str(script), str(path)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    import pstats

    pstats.Stats(str(stats)).sort_stats("cumulative").print_stats(25)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median)")
    parser.add_argument("--profile", action="store_true", help="profile one warm run instead")
    args = parser.parse_args(argv)
    cards = card_list()
    with tempfile.TemporaryDirectory(prefix="bench-reader-") as tmp:
        folder = Path(tmp)
        path = folder / "cards.json"
        path.write_text(json.dumps(cards, ensure_ascii=False), encoding="utf-8")
        if args.profile:
            profile(path, folder)
            return 0
        figures = {**list_figures(path, args.runs, folder), **sentence_figures(cards, folder)}
    print(f"cards: {len(cards)} ({len({str(c['текст']) for c in cards})} distinct texts), runs: {args.runs}")
    for state in ("cold", "warm"):
        print(
            f"berserk-rules cards, {state} cache: {figures[state + '_s']:.2f} s wall, "
            f"{figures[state + '_cpu_s']:.2f} s CPU (medians)"
        )
    print(
        f"grammar, cold, per distinct sentence ({figures['sentences']:.0f}): "
        f"median {figures['median_ms']:.1f} ms, 90 % {figures['p90_ms']:.1f} ms; "
        f"first sentence (grammar built) {figures['first_s']:.2f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
