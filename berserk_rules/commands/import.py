"""``berserk-rules import``: regenerate ``rules/*.md`` from ``rules/sources`` and ``rules/editorial.toml``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from berserk_rules.corpus import project_root
from berserk_rules.errors import UserError
from berserk_rules.importer import differing_files, import_sources, write_files


def run_edition(args: argparse.Namespace) -> int:
    from berserk_rules.editions import import_edition

    if args.check:
        raise UserError("--check не сочетается с --edition: отчёт импорта редакции и есть проверка")
    if not args.out:
        raise UserError("--edition: нужна папка редакции --out (например, --out editions/17)")
    editorial = Path(args.editorial) if args.editorial else None
    report = import_edition(args.edition, [Path(f) for f in args.files], Path(args.out), editorial)
    for line in report.lines_of_report():
        print(line)
    return 0 if report.ok else 1


def run(args: argparse.Namespace) -> int:
    if getattr(args, "edition", None) is not None:
        return run_edition(args)
    if getattr(args, "files", None) or getattr(args, "editorial", None):
        raise UserError("входные файлы и --editorial задаются только вместе с --edition ИМЯ")
    root = project_root()
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
    changed = write_files(files, out)
    for name in changed:
        print(f"записан {out / name}")
    print(f"файлов: {len(files)}, изменено: {len(changed)}")
    return 0
