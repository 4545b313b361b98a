"""Benchmark of the runner: what isolation, the protocol and pytest-xdist cost, and lint's speed.

    .venv/bin/python tools/bench_runner.py [--runs 5]

Times ``berserk-rules check`` on the whole suite (wall time, median of ``--runs``):

* in process, every answer still checked against the schemas (``--isolation none``);
* the default: the driver in a separate process (``berserk_rules.harness.host``);
* the reference engine's own server through the protocol (``--engine "berserk-engine serve"``);
* the default with pytest-xdist on two workers (``-n 2``) against one process (``-n 0``);

and ``berserk-rules lint`` on 5 MB feature files of four shapes (many scenarios, one long
description, one long table, varied prose). Prints medians and the ratios the docs quote.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "berserk_rules.cli"]
ENGINE = f"{Path(sys.executable).parent / 'berserk-engine'} serve"


def timed(command: list[str], cwd: Path = ROOT) -> tuple[float, float]:
    """(wall, CPU) seconds of one run; CPU is user + system of every process it started, which
    other work on a shared machine disturbs far less than the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} -> {done.returncode}\n{done.stdout}\n{done.stderr}")
    return elapsed, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def median(command: list[str], runs: int, cwd: Path = ROOT) -> tuple[float, float]:
    samples = [timed(command, cwd) for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def big_features(folder: Path) -> dict[str, Path]:
    """Four 5 MB feature files built from the real 401 feature and the corpus."""
    source = (ROOT / "features" / "part-4" / "401-ochered.feature").read_text(encoding="utf-8")
    head, _, rest = source.partition("\n  Правило")
    rest = "  Правило" + rest
    shapes: dict[str, str] = {}
    parts, size, i = [head + "\n"], 0, 0
    while size < 5_000_000:
        block = rest.replace("Сценарий: ", f"Сценарий: {i} ").replace(
            "Структура сценария: ", f"Структура сценария: {i} "
        )
        parts.append(block)
        size += len(block.encode())
        i += 1
    shapes["сценарии"] = "".join(parts)
    top = "# language: ru\n@rule-401.7\nФункция: большая\n"
    end = "\n  Сценарий: с\n    Когда игрок А пасует\n    Тогда Очередь пуста\n"
    line = "  Описание правила: игрок может заявить способность, пока не спасует, и так далее.\n"
    shapes["описание"] = top + line * (5_000_000 // len(line.encode())) + end
    row = "      | Гном | существо | 3 | 2 | 3 | Найм: ранить на 1 выбранное существо. |\n"
    table = "\n  Сценарий: т\n    Дано карты:\n      | название | тип | стоимость | удар | жизни | текст |\n"
    shapes["таблица"] = top + table + row * (5_000_000 // len(row.encode())) + "    Тогда Очередь пуста\n"
    words = (ROOT / "rules" / "part-4.md").read_text(encoding="utf-8").split()
    rnd = random.Random(1)
    prose, size = [], 0
    while size < 5_000_000:
        text = "  " + " ".join(rnd.choice(words) for _ in range(12)) + "\n"
        if not text.strip().startswith((":", "#", "@", "|", '"""', "```")):
            prose.append(text)
            size += len(text.encode())
    shapes["проза"] = top + "".join(prose) + end
    paths = {}
    for name, text in shapes.items():
        path = folder / f"{name}.feature"
        path.write_text(text, encoding="utf-8")
        paths[name] = path
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = ["--results", str(Path(tmp) / "r.json")]
        times = {
            "в процессе (--isolation none)": median(
                [*CLI, "check", "-n", "0", "--isolation", "none", *results], args.runs
            ),
            "отдельный процесс (по умолчанию)": median([*CLI, "check", "-n", "0", *results], args.runs),
            "berserk-engine serve (--engine)": median(
                [*CLI, "check", "-n", "0", "--engine", ENGINE, *results], args.runs
            ),
            "по умолчанию, -n 2": median([*CLI, "check", "-n", "2", *results], args.runs),
        }
        lint = {name: median([*CLI, "lint", str(path)], 3) for name, path in big_features(Path(tmp)).items()}
    base_wall, base_cpu = times["в процессе (--isolation none)"]
    print(f"check, весь свод, медиана {args.runs} прогонов (load average {os.getloadavg()[0]:.1f}):")
    print(f"  {'':36} {'стена':>7}        {'ЦП':>7}")
    for name, (w, c) in times.items():
        print(f"  {name:36} {w:6.2f} с ×{w / base_wall:.2f}  {c:6.2f} с ×{c / base_cpu:.2f}")
    serial = times["отдельный процесс (по умолчанию)"][0]
    print(f"  -n 2 / один процесс (стена): ×{times['по умолчанию, -n 2'][0] / serial:.2f}")
    print("lint файла 5 МБ, медиана 3 (стена, ЦП):")
    for name, (w, c) in lint.items():
        print(f"  {name:12} {w:5.2f} с  {c:5.2f} с")


if __name__ == "__main__":
    main()
