"""``berserk-rules kit ПАПКА``: the engine author's kit, copied out of the package — the vector runner
in JavaScript with its tests and a small example engine (``runners/js``: the npm package
``berserk-rules-vectors``), so that an author needs neither a clone nor a registry.

The kit comes from the project's ``runners/`` (the checkout, or the suite a wheel carries:
``berserk_rules/suite/runners``). The target must be new or empty: nothing of the author's is
overwritten. Prints what was copied and the commands to run it from an empty folder."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from berserk_rules.commands._common import os_error_line
from berserk_rules.corpus import project_root
from berserk_rules.errors import UserError

KIT = "runners"
SKIPPED = shutil.ignore_patterns("node_modules", "__pycache__", ".*")


def kit_folder(root: Path) -> Path:
    """The kit of the project at ``root``; :class:`UserError` when it carries none."""
    folder = root / KIT
    if not (folder / "js" / "package.json").is_file():
        raise UserError(f"в {root} нет набора автора ({KIT}/js/package.json): пакет собран без него")
    return folder


def run(args: argparse.Namespace) -> int:
    source = kit_folder(project_root())
    target = Path(args.dir)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise UserError(f"{args.dir}: папка не пуста — набор копируется только в новую или пустую папку")
    try:
        shutil.copytree(source, target / KIT, ignore=SKIPPED, dirs_exist_ok=True)
    except OSError as exc:
        raise UserError(os_error_line(exc, target)) from None
    js = target / KIT / "js"
    print(f"Набор автора движка — в {target / KIT}:")
    print(f"  {js / 'replay.mjs'} — раннер векторов (npm: berserk-rules-vectors, команда berserk-vectors)")
    print(f"  {js / 'example' / 'engine.mjs'} — движок-пример на JavaScript (по протоколу и как модуль)")
    print(f"  {js / 'test'} — тесты раннера (npm test)")
    print("С пустой папки:")
    print("  berserk-rules export vectors/")
    print(f"  npm init -y && npm install --save-dev {js}")
    print("  npx berserk-vectors ./мой-движок.mjs vectors/")
    print(f'  berserk-rules check --engine "node {js / "example" / "engine.mjs"}"')
    return 0
