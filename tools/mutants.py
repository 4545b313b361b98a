"""Deliberately broken engines: how many of them does the scenario suite catch?

Each mutant (``tools/mutants/*.toml``) replaces one exact piece of text in one file of the engine
(``engine/berserk_engine/``, the package ``berserk_engine``);
the suite of scenarios runs against the broken copy and must fail. A mutant that survives points at
a rule or term whose scenarios are too weak; one whose text no longer occurs in the engine is
reported as NOT APPLIED (the list must follow the engine — ``tests/test_mutants.py`` checks that
every mutant still applies).

The engine is never touched: each mutant is applied to a copy of the package in a temporary folder
that comes first on ``PYTHONPATH``, so this can run beside other work.

    .venv/bin/python tools/mutants.py              # all mutants, from the project root
    .venv/bin/python tools/mutants.py armour       # only mutants whose name or file contains "armour"
    .venv/bin/python tools/mutants.py --jobs 2     # two mutants at a time (one engine copy each)

A mutant file holds ``[[mutant]]`` tables: ``name`` (what is broken), ``breaks`` (the rule or term
whose scenarios must catch it), ``file`` (from the project root: ``engine/berserk_engine/queue.py``),
``old`` and ``new``.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "tools" / "mutants"
ENGINE = ROOT / "engine" / "berserk_engine"  # the package's folder; a mutant's file is inside it


@dataclass(frozen=True)
class Mutant:
    name: str
    breaks: str
    file: str
    old: str
    new: str
    source: str


def load(folder: Path = MUTANTS) -> list[Mutant]:
    found = []
    for path in sorted(folder.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for m in data.get("mutant", []):
            found.append(Mutant(m["name"], m["breaks"], m["file"], m["old"], m["new"], path.name))
    return found


def applies(mutant: Mutant) -> bool:
    """The mutant's file is in the engine's package and holds its text exactly once."""
    path = ROOT / mutant.file
    return (
        path.is_file()
        and path.resolve().is_relative_to(ENGINE)
        and path.read_text(encoding="utf-8").count(mutant.old) == 1
    )


def run(mutant: Mutant, workdir: Path) -> bool:
    """True when the suite catches the mutant."""
    package = workdir / "berserk_engine"
    if package.exists():
        shutil.rmtree(package)
    shutil.copytree(ENGINE, package)
    path = package / (ROOT / mutant.file).relative_to(ENGINE)
    path.write_text(path.read_text(encoding="utf-8").replace(mutant.old, mutant.new, 1), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": f"{workdir}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/test_rulebook.py",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:hypothesispytest",
            "--berserk-results",
            str(workdir / "results.json"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode != 0


def main(argv: list[str]) -> int:
    jobs = 1
    if argv[:1] == ["--jobs"] or argv[:1] == ["-j"]:
        if len(argv) < 2 or not argv[1].isdigit() or int(argv[1]) < 1:
            print("mutants: --jobs needs a positive number", file=sys.stderr)
            return 2
        jobs, argv = int(argv[1]), argv[2:]
    wanted = argv[0] if argv else ""
    mutants = [m for m in load() if wanted in m.name or wanted in m.file or wanted in m.source]
    caught = survived = missing = 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        workdirs: queue.SimpleQueue[Path] = queue.SimpleQueue()
        for n in range(jobs):  # one copy of the engine per job
            (Path(tmp) / str(n)).mkdir()
            workdirs.put(Path(tmp) / str(n))

        def status_of(m: Mutant) -> str:
            if not applies(m):
                return "NOT APPLIED"
            workdir = workdirs.get()
            try:
                return "caught" if run(m, workdir) else "SURVIVED"
            finally:
                workdirs.put(workdir)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for m, status in zip(mutants, pool.map(status_of, mutants), strict=True):
                if status == "caught":
                    caught += 1
                elif status == "SURVIVED":
                    survived += 1
                else:
                    missing += 1
                print(f"{status:12} {m.source:16} {m.breaks:28} {m.name}", flush=True)
    seconds = time.perf_counter() - start
    print(f"caught {caught} of {caught + survived} mutants ({missing} not applied) in {seconds:.0f} s")
    return 0 if survived == 0 and missing == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
