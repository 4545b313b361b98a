"""Benchmark of the site build: full build, and the rebuild after a ``check`` with the same statuses.

For the project's corpus and for the synthetic full-length edition (tests/synthetic_edition.py):

* full build — ``berserk-rules site --no-check`` into an empty folder (cold: no doctrees);
* rebuild after check — ``berserk-rules check`` rewrites build/results.json (same statuses, new
  timings), then ``site --no-check`` again: the time, and how many pages were written anew.

Each figure is the median of ``--repeat`` runs (wall time of the whole command, Python start-up
included). Usage: ``.venv/bin/python tools/bench_site.py [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "berserk_rules.cli"]
sys.path.insert(0, str(ROOT / "tests"))


CPU: list[float] = []  # processor time (user + system) of each run, beside its wall time


def run(*args: str) -> float:
    before = os.times()
    started = time.perf_counter()
    subprocess.run([*CLI, *args], cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = os.times()
    CPU.append(after.children_user + after.children_system - before.children_user - before.children_system)
    return time.perf_counter() - started


def pages_newer(out: Path, moment: float) -> int:
    return sum(
        1
        for p in out.rglob("*.html")
        if p.stat().st_mtime > moment and p.name not in ("genindex.html", "search.html")
    )


def bench(label: str, out: Path, extra: list[str], repeat: int) -> dict[str, object]:
    full = []
    for _ in range(repeat):
        subprocess.run(["rm", "-rf", str(out), str(out.parent / (out.name + ".doctrees"))], check=True)
        full.append(run("site", "--no-check", "--out", str(out), *extra))
    full_cpu = CPU[-repeat:]
    rebuild, rewritten, rebuild_cpu = [], [], []
    for _ in range(repeat):
        run("check")
        moment = time.time()
        time.sleep(0.05)
        rebuild.append(run("site", "--no-check", "--out", str(out), *extra))
        rebuild_cpu.append(CPU[-1])
        rewritten.append(pages_newer(out, moment))
    pages = sum(1 for _ in out.rglob("*.html"))
    return {
        "label": label,
        "pages": pages,
        "full": full,
        "rebuild": rebuild,
        "rewritten": rewritten,
        "cpu": (statistics.median(full_cpu), statistics.median(rebuild_cpu)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from synthetic_edition import generate

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        text = tmp / "synth.txt"
        text.write_text(generate(), encoding="utf-8")
        edition = tmp / "edition"
        (edition / "rules").mkdir(parents=True)
        (edition / "rules" / "editorial.toml").write_text(
            '["synth.txt"]\n1 = { id = "1.заглавие", inferred = true, note = "Заглавие документа." }\n',
            encoding="utf-8",
        )
        imports = [
            run("import", "--edition", "синтетическая", "--out", str(edition), str(text))
            for _ in range(args.repeat)
        ]
        size = len(text.read_bytes())
        lines = len(text.read_text(encoding="utf-8").splitlines())
        run("check")
        results = [
            bench("свод проекта", tmp / "site", [], args.repeat),
            bench("синтетическая редакция", tmp / "synth-site", ["--corpus", str(edition)], args.repeat),
        ]
    median_import = statistics.median(imports)
    print(f"синтетическая редакция: {lines} строк, {size} байт; импорт: медиана {median_import:.2f} с")
    for r in results:
        full, rebuild = r["full"], r["rebuild"]
        ratio = statistics.median(full) / statistics.median(rebuild)
        print(
            f"{r['label']}: страниц {r['pages']}; полная сборка — медиана {statistics.median(full):.2f} с "
            f"({', '.join(f'{x:.2f}' for x in full)}); после check с теми же статусами — медиана "
            f"{statistics.median(rebuild):.2f} с ({', '.join(f'{x:.2f}' for x in rebuild)}), "
            f"переписано страниц: {r['rewritten']}; отношение {ratio:.1f}×; процессорное время "
            f"(медианы): {r['cpu'][0]:.2f} с и {r['cpu'][1]:.2f} с"
        )


if __name__ == "__main__":
    main()
