"""``berserk-rules export DIR``: every scenario as a portable test vector (JSON), for engine authors.

Runs every scenario on the reference engine while recording it (:mod:`berserk_rules.vectors`):
the position, the actions with cards named instead of numbered, the refusals expected, and the
«Тогда» checks as ``{viewer, path, expected}`` (or ``exists``; on the observation or the log).
Writes ``DIR/<part>/<feature>/<line>.json`` per scenario and ``DIR/index.json``; every vector is
validated against ``vector.schema.json``. A «Тогда» step that is not expressed as data is listed
(in its vector's ``unexpressed`` and in the summary), never dropped silently.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from berserk_rules import contract
from berserk_rules.commands.check import (
    INTERRUPTED,
    RULEBOOK_TESTS,
    check_features,
    check_project,
    run_pytest,
)
from berserk_rules.corpus import project_root
from berserk_rules.coverage import plural
from berserk_rules.errors import UserError
from berserk_rules.vectors import FORMAT

INDEX_FORMAT = "berserk-vectors/1"


def prepare(out: Path) -> None:
    """``out`` is a new or empty folder, or one this command wrote before (its vectors are replaced)."""
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: это файл, а нужна папка для векторов")
    if out.is_dir() and any(out.iterdir()):
        index = out / "index.json"
        try:
            ours = json.loads(index.read_text(encoding="utf-8")).get("format") == INDEX_FORMAT
        except (OSError, ValueError, AttributeError):
            ours = False
        if not ours:
            raise UserError(
                f"{out}: папка не пуста и это не прежний экспорт (нет index.json): укажите другую"
            )
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)


def collect(out: Path) -> dict[str, Any]:
    """Validate every vector under ``out`` and build the index."""
    vectors: list[dict[str, Any]] = []
    unexpressed: Counter[str] = Counter()
    problems: list[str] = []
    for path in sorted(out.rglob("*.json")):
        if path.name == "index.json":
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        rel = path.relative_to(out).as_posix()
        problems += [f"{rel}: {p}" for p in contract.violations("vector", data)]
        unexpressed.update(data.get("unexpressed", []))
        vectors.append(
            {
                "id": data.get("id"),
                "path": rel,
                "rules": data.get("rules", []),
                "complete": data.get("complete"),
                "unexpressed": data.get("unexpressed", []),
            }
        )
    if problems:
        raise UserError("векторы не проходят схему vector.schema.json:\n" + "\n".join(problems[:20]))
    return {
        "format": INDEX_FORMAT,
        "vector_format": FORMAT,
        "vectors": vectors,
        "unexpressed": dict(sorted(unexpressed.items())),
    }


def run(args: argparse.Namespace) -> int:
    root = project_root()
    check_project(root)
    check_features(root)
    out = Path(args.dir).resolve()
    prepare(out)
    with tempfile.TemporaryDirectory(prefix="berserk-export-") as scratch:
        command = [
            sys.executable,
            "-m",
            "pytest",
            RULEBOOK_TESTS,
            "-p",
            "no:cacheprovider",
            "-q",
            "--tb=line",
        ]
        command += ["--berserk-export", str(out), "--berserk-results", str(Path(scratch) / "results.json")]
        code = run_pytest(command, root)
    if code is None:
        shutil.rmtree(out, ignore_errors=True)
        print(f"\nberserk-rules export: прервано (Ctrl-C) — папка {out} удалена", file=sys.stderr)
        return INTERRUPTED
    index = collect(out)
    (out / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    vectors = index["vectors"]
    incomplete = [v["id"] for v in vectors if not v["complete"]]
    print()
    print(f"Векторов: {len(vectors)} в {out} (схема: berserk_rules/schemas/vector.schema.json)")
    if incomplete:
        print(
            f"Неполных (сценарий не прошёл на эталонном движке): {len(incomplete)}: {', '.join(incomplete)}"
        )
    if index["unexpressed"]:
        kinds = plural(len(index["unexpressed"]), "шаг", "шага", "шагов")
        print(f"Шаги «Тогда», не выраженные данными ({kinds}); векторы их не проверяют:")
        for text, count in index["unexpressed"].items():
            print(f"  {text} — {plural(count, 'сценарий', 'сценария', 'сценариев')}")
    else:
        print("Все шаги «Тогда» выражены данными.")
    return 0 if code == 0 and not incomplete else 1
