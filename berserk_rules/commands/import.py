"""``berserk-rules import``: regenerate ``rules/*.md`` from ``rules/sources`` and ``rules/editorial.toml``.

Both forms write all or nothing. ``import`` writes every changed file beside its target first and
renames them into place only when all are written (a full disk leaves ``rules/`` as it was).
``import --edition NAME --out DIR`` builds the whole edition in a new folder beside ``DIR`` and
swaps it in (:mod:`berserk_rules.commands._folders`): the files an import writes are replaced,
anything else in ``DIR`` (the built site, the input texts, your notes) is kept; a mark
``DIR/.berserk-import`` written with the edition says that it is complete — ``site --corpus``
refuses a folder without it. Ctrl-C or SIGTERM leaves the old edition as it was.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path

from berserk_rules.commands._common import WriteError
from berserk_rules.commands._folders import (
    IMPORT_FORMAT,
    IMPORT_MARKER,
    StagedFolder,
    edition_ours,
    interrupted_by,
    signals_held,
    termination_as_interrupt,
)
from berserk_rules.corpus import project_root
from berserk_rules.errors import UserError
from berserk_rules.importer import differing_files, import_sources, stale_files
from berserk_rules.rulebook.project import is_installed_suite


def check_edition_target(out: Path, files: list[Path]) -> None:
    """``--out`` may be replaced by an edition: new, empty, an edition's folder already, or the
    folder that holds the edition's input texts."""
    if out.is_symlink() and not out.is_dir():
        raise UserError(f"--out {out}: это ссылка не на папку, а нужна папка редакции")
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out}: это файл, а нужна папка редакции")
    if not out.is_dir():
        return
    if (out / "pyproject.toml").exists():
        raise UserError(
            f"--out {out}: это папка проекта; редакции хранятся отдельно (например, editions/ИМЯ)"
        )
    cwd = Path.cwd().resolve()
    real = out.resolve()
    if cwd == real or real in cwd.parents:
        raise UserError(
            f"--out {out}: текущая папка внутри папки редакции; её заменяют целиком — выйдите из неё"
        )
    looks_like_edition = any((out / name).exists() for name in ("edition.toml", IMPORT_MARKER, "rules"))
    holds_input = any(real in f.resolve().parents for f in files)
    if not looks_like_edition and not holds_input and any(out.iterdir()):
        raise UserError(
            f"--out {out}: папка не пуста и это не папка редакции (нет edition.toml и rules/, нет в ней "
            "и входных текстов): укажите новую"
        )


def run_edition(args: argparse.Namespace) -> int:
    from berserk_rules.rulebook.editions import import_edition

    if args.check:
        raise UserError("--check не сочетается с --edition: отчёт импорта редакции и есть проверка")
    if not args.out:
        raise UserError("--edition: нужна папка редакции --out (например, --out editions/17)")
    if not args.edition.strip():
        raise UserError("--edition: нужно имя редакции")
    if not args.files:
        raise UserError("import --edition: нужны входные файлы с текстом правил")
    editorial = Path(args.editorial) if args.editorial else None
    shown = Path(args.out)
    out = shown.resolve()
    check_edition_target(shown, [Path(f) for f in args.files])
    staged: StagedFolder | None = None
    received: list[int] = []
    try:
        with termination_as_interrupt(received):
            try:
                staged = StagedFolder(out, "import")
            except NotADirectoryError as exc:
                raise WriteError(exc, out.parent, "нельзя писать в папку редакции:") from None
            except OSError as exc:  # named after the folder, not after the new folder's name in it
                parent = OSError(exc.errno, exc.strerror, str(out.parent))
                raise WriteError(parent, out.parent, "нельзя писать в папку редакции:") from None
            with staged:
                try:
                    kept = out / "rules" / "editorial.toml"
                    if editorial is None and kept.is_file():  # the decisions made so far
                        (staged.path / "rules").mkdir()
                        shutil.copy2(kept, staged.path / "rules" / "editorial.toml")
                    report = import_edition(
                        args.edition, [Path(f) for f in args.files], staged.path, editorial
                    )
                    write_marker(staged.path, args.edition)
                except OSError as exc:
                    raise WriteError(
                        staged.shown(exc), out, f"редакция не записана ({unchanged(out)}):"
                    ) from None
                lines = [line.replace(str(staged.path), str(shown)) for line in report.lines_of_report()]
                try:
                    staged.install(edition_ours, "импорт")
                except OSError as exc:
                    raise WriteError(
                        exc, out, f"редакция не установлена на место ({unchanged(out)}):"
                    ) from None
    except KeyboardInterrupt as exc:
        stop = interrupted_by(exc, received)
        if staged is not None and staged.installed:
            where = f"новая редакция в {shown} уже записана целиком"
        else:
            where = unchanged(out)
        print(f"\nberserk-rules import: прервано ({stop.name}) — {where}", file=sys.stderr)
        return stop.code
    for line in lines:
        print(line)
    if staged.left:
        left = ", ".join(staged.left[:5]) + (" …" if len(staged.left) > 5 else "")
        print(
            f"berserk-rules import: предупреждение: в {staged.old_at} остались файлы: {left}", file=sys.stderr
        )
    return 0 if report.ok else 1


def unchanged(out: Path) -> str:
    return f"прежняя редакция в {out} не тронута" if out.exists() else f"папка {out} не создана"


def write_marker(folder: Path, name: str) -> None:
    """The mark of a complete import: every file it wrote (the last file written)."""
    files = sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and not path.is_symlink()
    )
    data = {"format": IMPORT_FORMAT, "name": name, "files": files}
    (folder / IMPORT_MARKER).write_text(
        json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


def write_all_or_nothing(files: dict[str, str], out: Path) -> list[str]:
    """Write the changed files and remove stale ``part-N.md``; names of the files changed.

    Every changed file is written beside its target first; only when all are written are they
    renamed into place (signals held meanwhile). A failed write removes what was written and
    raises :class:`OSError`: ``out`` stays as it was.
    """
    out.mkdir(parents=True, exist_ok=True)
    changed = [
        name
        for name, content in sorted(files.items())
        if not (out / name).is_file() or (out / name).read_text(encoding="utf-8") != content
    ]
    stale = stale_files(files, out)
    written: dict[str, Path] = {}
    try:
        for name in changed:
            temporary = out / f".{name}.{os.getpid()}.import"
            written[name] = temporary
            temporary.write_text(files[name], encoding="utf-8")
        with signals_held():
            for name, temporary in written.items():
                os.replace(temporary, out / name)
            written.clear()
            for name in stale:
                (out / name).unlink()
    finally:
        for temporary in written.values():
            temporary.unlink(missing_ok=True)
    return changed + stale


def run(args: argparse.Namespace) -> int:
    if getattr(args, "edition", None) is not None:
        return run_edition(args)
    if getattr(args, "files", None) or getattr(args, "editorial", None):
        raise UserError("входные файлы и --editorial задаются только вместе с --edition ИМЯ")
    root = project_root()
    if not args.out and not args.check and is_installed_suite(root):
        raise UserError(
            "корпус установленного пакета не перестраивают: правка rules/ — в клоне проекта "
            "(или --out ПАПКА, или --check)"
        )
    files = import_sources(root)
    out = Path(args.out) if args.out else root / "rules"
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out}: это файл, а нужна папка для файлов частей")
    if args.check and not out.is_dir():
        raise UserError(f"--out {out}: нет такой папки")
    if args.check:
        differing = differing_files(files, out)
        if differing:
            print("импорт изменил бы файлы (запустите berserk-rules import):", file=sys.stderr)
            for name in differing:
                print(f"  {out / name}", file=sys.stderr)
            return 1
        print(f"rules/ совпадает с импортом ({len(files)} файлов)")
        return 0
    try:
        changed = write_all_or_nothing(files, out)
    except OSError as exc:
        raise WriteError(exc, out, f"импорт не записан ({out} не изменён):") from None
    except KeyboardInterrupt:
        print(f"\nberserk-rules import: прервано (Ctrl-C) — {out} не изменён", file=sys.stderr)
        return 130
    for name in changed:
        print(f"записан {out / name}")
    print(f"файлов: {len(files)}, изменено: {len(changed)}")
    return 0
