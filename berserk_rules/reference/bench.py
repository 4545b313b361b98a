"""The reference engine's benchmark (``berserk_engine.bench``) for ``berserk-rules bench``: the pure-Python
engine in this process, or its mypyc build in a child process."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from berserk_rules.errors import UserError


def pure(games: int, seed: int, repeat: int) -> dict[str, Any]:
    """The figures of the pure-Python engine, measured in this process."""
    from berserk_engine import bench

    return bench.run(games=games, seed=seed, repeat=repeat)


def compiled(games: int, seed: int, repeat: int) -> dict[str, Any]:
    """The figures of the compiled build (built once, or found built), measured in a child process that
    imports it."""
    from berserk_rules.reference import compiled as build
    from berserk_rules.rulebook.project import output_root, project_root

    folder = build.build(output_root(project_root()))  # installed: build/ in the current folder
    call = f"bench.run({games}, {seed}, {repeat})"
    code = f"import json; from berserk_engine import bench; print(json.dumps({call}))"
    done = subprocess.run(
        [sys.executable, "-c", code], env=build.environment(folder), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise UserError(f"замер скомпилированного движка упал:\n{done.stderr.strip()}")
    figures: dict[str, Any] = json.loads(done.stdout)
    if figures.get("build") != "mypyc":
        raise UserError(f"в {folder} не скомпилированный движок: замер не сделан")
    return figures
