"""Benchmark of the site build: how it scales with the number of scenarios, and edition sites.

Default (``--scale 10``): a copy of the project is made twice in a temporary folder — as it is
(×1) and with every feature file repeated ``--scale`` times (``features/part-4/401-ochered.feature``
→ also ``401-ochered-x2.feature`` …), with a results file to match (each scenario's record of
``build/results.json`` copied under the copy's id; run ``berserk-rules check`` first). For each
size:

* full build — ``berserk-rules site --no-check`` fully cold: into an empty folder (no doctrees, no
  ``build/.cache``), with an empty cache of the card reader's parses (``BERSERK_READER_CACHE``);
* no-change rebuild — the same command again, nothing changed.

Runs of the two sizes alternate (×1, ×N, ×1, ×N …) so that the load of a shared machine falls on
both alike. Each figure is the median of ``--repeat`` runs: wall time of the whole command (Python
start-up included), processor time (user + system of the command and its workers) and peak memory —
the largest resident set of one process (``ru_maxrss``, as ``/usr/bin/time -v`` reports it) and the
peak sum over the command's process tree, resident (RSS) and proportional (PSS, shared pages
divided among the processes that share them), sampled from ``/proc`` every 50 ms (Sphinx reads and
writes in forked workers). The machine's load average is printed before and after.

``--edition``: the earlier benchmark — the project's site and the synthetic full-length edition
(tests/synthetic_edition.py), full build and the rebuild after a ``check`` with the same statuses.

``--scale 1``: the project as it is only. ``--against DIR``: another copy of the project (main's tree,
``git archive main | tar -x -C DIR``, with a ``build/results.json``) built in turn with this one — the
before and after of a change under the same load.

Usage: ``.venv/bin/python tools/bench_site.py [--scale 10] [--repeat 3] [--keep DIR] [--against DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "berserk_rules.cli"]
sys.path.insert(0, str(ROOT / "tests"))

# what a copy of the project needs for a site build (no virtualenv, no build output, no history)
COPIED = ("pyproject.toml", "rules", "docs", "features", "berserk_rules", "engine", "runners")
CODE = ("berserk_rules", "engine")  # taken from --code (default: this checkout), for before/after
SKIPPED = shutil.ignore_patterns("_generated", "_build", "__pycache__", "*.egg-info", "node_modules")


CPU: list[float] = []  # processor time (user + system) of each run, beside its wall time


def run(*args: str, cwd: Path = ROOT) -> float:
    before = os.times()
    started = time.perf_counter()
    subprocess.run([*CLI, *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = os.times()
    CPU.append(after.children_user + after.children_system - before.children_user - before.children_system)
    return time.perf_counter() - started


# --- the scaled project ----------------------------------------------------------------------


def copy_name(rel: str, k: int) -> str:
    """``features/part-4/401-ochered.feature`` → ``features/part-4/401-ochered-x3.feature`` (k = 3)."""
    return rel if k == 1 else rel.removesuffix(".feature") + f"-x{k}.feature"


def first_block_line(path: Path, root: Path) -> int | None:
    """The first line of the feature's first rule or scenario (its tags included), None without one."""
    from berserk_rules.rulebook.features import parse_feature

    feature = parse_feature(path, root).document.get("feature") or {}
    starts = [
        min([block["location"]["line"], *(t["location"]["line"] for t in block.get("tags", []))])
        for child in feature.get("children", [])
        for block in [child.get("rule") or child.get("scenario")]
        if block
    ]
    return min(starts) if starts else None


def repeat_inside(path: Path, root: Path, factor: int) -> tuple[int, int]:
    """Repeat the rules and scenarios of a feature file ``factor`` times inside it (the header and
    the background once); (first repeated line, lines per copy): copy k of a scenario at line L is
    at L + (k - 1) × lines per copy."""
    start = first_block_line(path, root)
    lines = path.read_text(encoding="utf-8").splitlines()
    if start is None:
        return len(lines) + 1, 0
    block = lines[start - 1 :]
    out = list(lines)
    for _ in range(factor - 1):
        out += ["", *block]
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return start, len(block) + 1


def scaled_project(
    dest: Path, factor: int, results: Path, mode: str, code: Path = ROOT, source: Path = ROOT
) -> Path:
    """A copy of the project in ``dest`` with ``factor`` times the scenarios, and its results file
    (``dest/build/results.json``: each record of ``results`` once per copy, under the copy's id).

    ``mode`` ``files``: every feature file ``factor`` times (as many more pages); ``scenarios``:
    the scenarios of every feature file repeated inside it (as many pages, each longer).
    """
    dest.mkdir(parents=True)
    for name in COPIED:
        origin = (code if name in CODE else source) / name
        if origin.is_dir():
            shutil.copytree(origin, dest / name, ignore=SKIPPED)
        else:
            shutil.copy2(origin, dest / name)
    data = json.loads(results.read_text(encoding="utf-8"))
    records: list[dict[str, object]] = []
    if mode == "files":
        for path in sorted((dest / "features").rglob("*.feature")):
            rel = path.relative_to(dest).as_posix()
            for k in range(2, factor + 1):
                shutil.copy2(path, dest / copy_name(rel, k))
        for k in range(1, factor + 1):
            for record in data["scenarios"]:
                copy = dict(record)
                copy["file"] = copy_name(record["file"], k)
                copy["id"] = copy["file"] + record["id"].removeprefix(record["file"])
                records.append(copy)
    else:
        shifts = {
            path.relative_to(dest).as_posix(): repeat_inside(path, dest, factor)
            for path in sorted((dest / "features").rglob("*.feature"))
        }
        for k in range(1, factor + 1):
            for record in data["scenarios"]:
                start, size = shifts[record["file"]]
                line = int(record["id"].rpartition(":")[2])
                if line < start and k > 1:
                    continue
                copy = dict(record)
                copy["id"] = f"{record['file']}:{line + (k - 1) * size}"
                copy["line"] = int(record["line"]) + (k - 1) * size
                records.append(copy)
    data["scenarios"] = records
    (dest / "build").mkdir()
    (dest / "build" / "results.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return dest


# --- one measured command --------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    cpu: float
    max_rss: int  # kB, the largest process
    tree_rss: int  # kB, the peak sum over the process tree (shared pages counted in each process)
    tree_pss: int  # kB, the peak proportional sum over the process tree (shared pages divided)

    def figures(self) -> dict[str, float]:
        return {
            "wall": self.wall,
            "cpu": self.cpu,
            "max_rss": self.max_rss,
            "tree_rss": self.tree_rss,
            "tree_pss": self.tree_pss,
        }


def tree_memory(pid: int) -> tuple[int, int]:
    """(resident set, proportional set) in kB of ``pid`` and all its descendants. The resident sets
    of forked processes count their shared pages once per process; the proportional set
    (``smaps_rollup``: Pss) divides each shared page among the processes that share it."""
    rss = pss = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/smaps_rollup", encoding="ascii") as rollup:
                for line in rollup:
                    if line.startswith(("Rss:", "Pss:")):
                        value = int(line.split()[1])
                        if line.startswith("Rss:"):
                            rss += value
                        else:
                            pss += value
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", encoding="ascii") as children:
                    stack.extend(int(child) for child in children.read().split())
        except (OSError, ValueError):  # the process ended meanwhile
            continue
    return rss, pss


def measured(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> Run:
    started = time.perf_counter()
    process = subprocess.Popen(
        [*CLI, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
    )
    peak = [0, 0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            rss, pss = tree_memory(process.pid)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"{' '.join(args)} (in {cwd}): код {process.returncode}\n{stderr[-3000:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, peak[0], peak[1])


@dataclass
class Series:
    label: str
    project: Path
    full: list[Run] = field(default_factory=list)
    again: list[Run] = field(default_factory=list)


def median(runs: list[Run], what: str) -> float:
    return statistics.median(r.figures()[what] for r in runs)


def describe(runs: list[Run]) -> str:
    return (
        f"медиана {median(runs, 'wall'):.2f} с ({', '.join(f'{r.wall:.2f}' for r in runs)}), "
        f"процессор {median(runs, 'cpu'):.2f} с ({', '.join(f'{r.cpu:.2f}' for r in runs)}), "
        f"память: процесс {median(runs, 'max_rss') / 1024:.0f} МБ, "
        f"дерево процессов {median(runs, 'tree_rss') / 1024:.0f} МБ (RSS), "
        f"{median(runs, 'tree_pss') / 1024:.0f} МБ (PSS)"
    )


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cold_env(folder: Path) -> dict[str, str]:
    """The environment of a fully cold build: besides no build/ folder, an empty cache of the card
    reader's parses (``BERSERK_READER_CACHE``; by default it lives in the user's cache and a ``check``
    fills it), created anew for each build."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return {**os.environ, "BERSERK_READER_CACHE": str(folder)}


def bench_scaled(
    factor: int,
    repeat: int,
    keep: Path | None,
    mode: str,
    code: Path,
    against: Path | None = None,
    reader_cache: bool = False,
) -> None:
    results = ROOT / "build" / "results.json"
    if not results.is_file():
        raise SystemExit("нет build/results.json: сначала berserk-rules check")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = keep or Path(tmp_name)
        series = [
            Series(f"×{k}", scaled_project(tmp / f"project-x{k}", k, results, mode, code))
            for k in sorted({1, factor})
        ]
        if against is not None:  # another checkout's project and code, built in turn with this one
            series.append(
                Series(f"×1, {against}", scaled_project(tmp / "against", 1, results, mode, against, against))
            )
        print(f"нагрузка машины (load average 1/5/15 мин) до: {load()}; ядер: {os.cpu_count()}")
        for _ in range(repeat):
            for s in series:
                out = s.project / "build" / "site"
                shutil.rmtree(out, ignore_errors=True)
                shutil.rmtree(out.parent / "site.doctrees", ignore_errors=True)
                env = None if reader_cache else cold_env(tmp / "reader-cache")
                s.full.append(measured(["site", "--no-check"], s.project, env))
                s.again.append(measured(["site", "--no-check"], s.project))
        print(f"нагрузка после: {load()}")
        for s in series:
            scenarios = sum(1 for _ in (s.project / "features").rglob("*.feature"))
            pages = sum(1 for _ in (s.project / "build" / "site").rglob("*.html"))
            print(f"{s.label}: файлов сценариев {scenarios}, страниц {pages}")
            print(f"  полная сборка: {describe(s.full)}")
            print(f"  повторная без изменений: {describe(s.again)}")
        if factor != 1:
            one, many = series[:2]
            for what, name in (("wall", "время"), ("cpu", "процессор")):
                ratio = median(many.full, what) / median(one.full, what)
                print(f"×{factor} / ×1, полная сборка, {name}: {ratio:.1f}×")


# --- the edition benchmark (--edition) -------------------------------------------------------


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


def bench_edition(repeat: int) -> None:
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
            for _ in range(repeat)
        ]
        size = len(text.read_bytes())
        lines = len(text.read_text(encoding="utf-8").splitlines())
        run("check")
        results = [
            bench("свод проекта", tmp / "site", [], repeat),
            bench("синтетическая редакция", tmp / "synth-site", ["--corpus", str(edition)], repeat),
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--scale", type=int, default=10, help="во сколько раз умножить сценарии (по умолчанию 10)"
    )
    parser.add_argument(
        "--mode",
        choices=("scenarios", "files"),
        default="scenarios",
        help="scenarios: сценарии повторены внутри файлов (страниц столько же); files: повторены файлы",
    )
    parser.add_argument("--keep", type=Path, help="папка для копий проекта (не удаляется; её не должно быть)")
    parser.add_argument(
        "--code",
        type=Path,
        default=ROOT,
        help="чей код (berserk_rules/, engine/) собирает сайт: для замера до/после",
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="другая копия проекта (например, выгрузка main: git archive main | tar -x -C ПАПКА): её сайт "
        "собирается по очереди с этим, ×1 — замер до/после",
    )
    parser.add_argument(
        "--reader-cache",
        action="store_true",
        help="сборка с нуля с кэшем разборов читателя карт пользователя (как после check), а не с пустым",
    )
    parser.add_argument("--edition", action="store_true", help="прежний замер: свод и синтетическая редакция")
    args = parser.parse_args()
    if args.edition:
        bench_edition(args.repeat)
    else:
        bench_scaled(
            args.scale,
            args.repeat,
            args.keep.resolve() if args.keep else None,
            args.mode,
            args.code.resolve(),
            args.against.resolve() if args.against else None,
            args.reader_cache,
        )


if __name__ == "__main__":
    main()
