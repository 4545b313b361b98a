"""``berserk-rules compile [--jobs N]``: build the compiled reference engine (mypyc) and print the folder
to put first on ``PYTHONPATH`` (see :mod:`berserk_rules.reference.compiled`). A build already made
for the same sources is reused."""

from __future__ import annotations

import argparse

from berserk_rules.errors import UserError


def run(args: argparse.Namespace) -> int:
    from berserk_rules.reference import compiled
    from berserk_rules.rulebook.project import output_root, project_root

    if args.jobs < 1:
        raise UserError(f"--jobs: нужен хотя бы один процесс, получено {args.jobs}")
    folder = compiled.build(output_root(project_root()), jobs=args.jobs)  # installed: build/ here
    print(folder)
    return 0
