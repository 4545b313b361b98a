"""``berserk-rules import``: regenerate ``rules/*.md`` from ``rules/sources`` and ``rules/editorial.toml``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from berserk_rules.corpus import project_root
from berserk_rules.errors import UserError
from berserk_rules.importer import differing_files, import_sources, write_files


def run(args: argparse.Namespace) -> int:
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
