"""``berserk-rules export DIR``: every scenario as a portable test vector (JSON), for engine authors.

Runs every scenario on the reference engine while recording it (:mod:`berserk_rules.report.vectors`):
the position, the actions with cards named instead of numbered, the refusals expected, and the
«Тогда» checks as ``{viewer, path, expected}`` (or ``exists``; on the observation or the log).
Writes ``DIR/<part>/<feature>/<line>.json`` per scenario and ``DIR/index.json``; every vector is
validated against ``vector.schema.json``. A «Тогда» step that is not expressed as data is listed
(in its vector's ``unexpressed`` and in the summary), never dropped silently.

No user file is lost: the export is built in a new folder beside ``DIR`` and swapped in whole
(:mod:`berserk_rules.commands._folders`) with ``DIR/.berserk-export``, the list of the files it wrote
and their SHA-256. A later export replaces exactly those (unchanged since); the user's files in
``DIR`` are moved into the new export, symbolic links are never followed; a folder that is not an
earlier export, or a file of the user's where the new export writes, is refused with one line.
Ctrl-C or SIGTERM at any moment leaves the earlier export or the new one, complete.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from berserk_rules.commands._common import PYTEST, RUN_PLUGINS, WriteError
from berserk_rules.commands._folders import Ours, StagedFolder, interrupted_by, termination_as_interrupt
from berserk_rules.commands.check import (
    RULEBOOK_TESTS,
    check_features,
    check_project,
    run_pytest,
)
from berserk_rules.corpus import project_root
from berserk_rules.errors import UserError
from berserk_rules.harness import contract
from berserk_rules.report.coverage import plural
from berserk_rules.report.vectors import FORMAT

INDEX_FORMAT = "berserk-vectors/1"
MANIFEST = ".berserk-export"  # what an export wrote: {"format", "files": {path: sha256}}
MANIFEST_FORMAT = "berserk-export-manifest/1"
# A vector that could not be written (pytest records it as that scenario's error): not an export.
WRITE_ERRNO_RE = re.compile(r"\[Errno (28|122|30|13)\]")


def _safe_relative(rel: object) -> bool:
    return isinstance(rel, str) and bool(rel) and not rel.startswith("/") and ".." not in rel.split("/")


def earlier_export(out: Path) -> dict[str, str | None] | None:
    """The files an earlier export wrote into ``out`` (path -> sha256; None: not recorded), or None
    when ``out`` holds no export. Its manifest says; an export made before manifests existed is
    known by its ``index.json`` (the vectors it lists and the index itself)."""
    manifest = out / MANIFEST
    if manifest.is_file() and not manifest.is_symlink():
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        files = (
            data.get("files") if isinstance(data, dict) and data.get("format") == MANIFEST_FORMAT else None
        )
        if isinstance(files, dict):
            found: dict[str, str | None] = {
                rel: digest
                for rel, digest in files.items()
                if _safe_relative(rel) and isinstance(digest, str)
            }
            found[MANIFEST] = None
            return found
    index = out / "index.json"
    if index.is_file() and not index.is_symlink():
        try:
            data = json.loads(index.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if isinstance(data, dict) and data.get("format") == INDEX_FORMAT:
            vectors = data.get("vectors")
            paths = (
                [v.get("path") for v in vectors if isinstance(v, dict)] if isinstance(vectors, list) else []
            )
            return {
                "index.json": None,
                **{p: None for p in paths if isinstance(p, str) and _safe_relative(p)},
            }
    return None


def _digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def ours_in(files: dict[str, str | None]) -> Ours:
    """A file is the earlier export's when its manifest lists it and it is unchanged since."""

    def ours(rel: str, entry: os.DirEntry[str]) -> bool:
        if rel not in files or not entry.is_file(follow_symlinks=False):
            return False
        digest = files[rel]
        try:
            return digest is None or _digest(entry.path) == digest
        except OSError:  # cannot be read: not deleted
            return False

    return ours


def prepare(out: Path) -> dict[str, str | None]:
    """``out`` is new, empty, or an earlier export: the files of that export (empty for none).

    Anything else is refused before the run, nothing changed: a file, a folder of other things.
    """
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise UserError(f"{out}: это файл, а нужна папка для векторов")
    if not out.is_dir():
        return {}
    cwd = Path.cwd().resolve()
    if cwd == out or out in cwd.parents:
        raise UserError(f"{out}: текущая папка внутри папки экспорта; её заменяют целиком — выйдите из неё")
    files = earlier_export(out)
    if files is None:
        if any(out.iterdir()):
            raise UserError(
                f"{out}: папка не пуста и это не прежний экспорт (нет {MANIFEST} и index.json): "
                "укажите другую"
            )
        return {}
    return files


def collect(out: Path) -> dict[str, Any]:
    """Validate every vector under ``out`` and build the index."""
    vectors: list[dict[str, Any]] = []
    unexpressed: Counter[str] = Counter()
    problems: list[str] = []
    suites: set[Any] = set()  # the suite's version each vector was written from (one per export)
    valid = contract.fast_validator("vector").is_valid
    for path in sorted(out.rglob("*.json")):
        if path.relative_to(out).as_posix() in ("index.json", MANIFEST):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        rel = path.relative_to(out).as_posix()
        if not valid(data):  # the compiled verdict; jsonschema says what is wrong
            problems += [f"{rel}: {p}" for p in contract.violations("vector", data)]
        unexpressed.update(data.get("unexpressed", []))
        suites.add(data.get("suite"))
        vectors.append(
            {
                "id": data.get("id"),
                "path": rel,
                "rules": data.get("rules", []),
                "needs": data.get("needs", {}),
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
        "suite": next(iter(suites)) if len(suites) == 1 else None,
    }


def write_output(folder: Path, index: dict[str, Any]) -> None:
    """``index.json``, then the manifest listing every file of the export with its digest."""
    (folder / "index.json").write_text(
        json.dumps(index, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    files = {
        path.relative_to(folder).as_posix(): _digest(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }
    manifest = {"format": MANIFEST_FORMAT, "files": files}
    (folder / MANIFEST).write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


def write_failure(results: Path) -> int | None:
    """The errno of a vector that could not be written (full disk, read-only), if any: pytest
    records it as that scenario's error."""
    try:
        data = json.loads(results.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for scenario in data.get("scenarios", []) if isinstance(data, dict) else []:
        message = str(scenario.get("message") or "") if isinstance(scenario, dict) else ""
        found = WRITE_ERRNO_RE.search(message)
        if found:
            return int(found.group(1))
    return None


def missing_vectors(results: Path, written: set[str]) -> list[dict[str, str]]:
    """Every scenario of the run that gave no vector, with why: a vector is the game a scenario
    plays, so a scenario that starts no game (a deck list, asked by the deck request) has none, nor one that
    failed, or did not run, before its game started."""
    try:
        data = json.loads(results.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    missing = []
    for scenario in data.get("scenarios", []) if isinstance(data, dict) else []:
        ident = scenario.get("id")
        if not isinstance(ident, str) or ident in written:
            continue
        status = scenario.get("status")
        first = (str(scenario.get("message") or "").strip().splitlines() or [""])[0][:200]
        if status in ("passed", "xpass"):
            reason = (
                "сценарий не начинает партию, а вектор — это партия: шаги сценария спрашивают движок без "
                "партии (списки колод — запросом deck, его проверяет check)"
            )
        elif status in ("failed", "error", "xfail"):
            reason = f"не дошёл до начала партии на эталонном движке ({status}: {first or '—'})"
        else:
            reason = f"не выполнялся ({status}{': ' + first if first else ''})"
        missing.append({"id": ident, "reason": reason})
    return missing


def run(args: argparse.Namespace) -> int:
    root = project_root()
    check_project(root)
    check_features(root)
    out = Path(args.dir).resolve()
    earlier = prepare(out)
    staged: StagedFolder | None = None
    received: list[int] = []
    try:
        with termination_as_interrupt(received):
            try:
                staged = StagedFolder(out, "export")
            except NotADirectoryError as exc:
                raise WriteError(exc, out.parent, "нельзя писать в папку экспорта:") from None
            except OSError as exc:  # named after the folder, not after the new folder's name in it
                parent = OSError(exc.errno, exc.strerror, str(out.parent))
                raise WriteError(parent, out.parent, "нельзя писать в папку экспорта:") from None
            with staged, tempfile.TemporaryDirectory(prefix="berserk-export-") as scratch:
                outcome = export_into(staged, root, Path(scratch) / "results.json", earlier, out)
    except KeyboardInterrupt as exc:
        stop = interrupted_by(exc, received)
        if staged is not None and staged.installed:
            where = f"новый экспорт в {out} уже записан целиком"
        elif earlier or (out.is_dir() and any(out.iterdir())):
            where = f"прежний экспорт в {out} не тронут"
        else:
            where = f"папка {out} не создана"
        print(f"\nberserk-rules export: прервано ({stop.name}) — {where}", file=sys.stderr)
        return stop.code
    return outcome


def export_into(
    staged: StagedFolder, root: Path, results: Path, earlier: dict[str, str | None], out: Path
) -> int:
    """Run the scenarios recording vectors into ``staged``; install it in place of ``out``."""
    command = [*PYTEST, RULEBOOK_TESTS, *RUN_PLUGINS, "-q", "--tb=line"]
    command += ["--berserk-export", str(staged.path), "--berserk-results", str(results)]
    code = run_pytest(command, root)
    if code is None:
        raise KeyboardInterrupt
    kept = f"прежний экспорт в {out} не тронут" if earlier or out.is_dir() else f"папка {out} не создана"
    failed_write = write_failure(results)
    if failed_write is not None:
        exc = OSError(failed_write, os.strerror(failed_write), str(out))
        raise WriteError(exc, out, f"векторы не записаны ({kept}):")
    if code not in (0, 1):
        print(
            f"berserk-rules export: pytest завершился с кодом {code} — экспорт не записан, {kept}",
            file=sys.stderr,
        )
        return code
    index = collect(staged.path)
    index["missing"] = missing_vectors(results, {v["id"] for v in index["vectors"]})
    try:
        write_output(staged.path, index)
    except OSError as exc:
        raise WriteError(staged.shown(exc), out, f"экспорт не записан ({kept}):") from None
    try:
        staged.install(ours_in(earlier), "экспорт")
    except OSError as exc:
        raise WriteError(exc, out, f"экспорт не установлен на место ({kept}):") from None
    if staged.left:
        shown = ", ".join(staged.left[:5]) + (" …" if len(staged.left) > 5 else "")
        print(
            f"berserk-rules export: предупреждение: в {staged.old_at} остались файлы: {shown}",
            file=sys.stderr,
        )
    vectors = index["vectors"]
    incomplete = [v["id"] for v in vectors if not v["complete"]]
    print()
    print(
        f"Векторов: {len(vectors)} в {out} (схема: berserk_rules/harness/schemas/vector.schema.json; "
        f"набор {index.get('suite')})"
    )
    if incomplete:
        print(
            f"Неполных (сценарий не прошёл на эталонном движке): {len(incomplete)}: {', '.join(incomplete)}"
        )
    if index["missing"]:
        print(f"Сценариев без вектора: {len(index['missing'])} (список — в index.json, поле missing):")
        for entry in index["missing"]:
            print(f"  {entry['id']} — {entry['reason']}")
    if index["unexpressed"]:
        kinds = plural(len(index["unexpressed"]), "шаг", "шага", "шагов")
        print(f"Шаги «Тогда», не выраженные данными ({kinds}); векторы их не проверяют:")
        for text, count in index["unexpressed"].items():
            print(f"  {text} — {plural(count, 'сценарий', 'сценария', 'сценариев')}")
    else:
        print("Все шаги «Тогда» выражены данными.")
    return 0 if code == 0 and not incomplete else 1
