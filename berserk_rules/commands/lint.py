"""``berserk-rules lint [paths] [--json]``: check the scenarios (see :mod:`berserk_rules.rulebook.lint`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from berserk_rules.corpus import load_corpus
from berserk_rules.rulebook.lint import lint
from berserk_rules.rulebook.project import project_root


def run(args: argparse.Namespace) -> int:
    root = project_root()
    paths = [Path(p) for p in args.paths] if args.paths else None
    report = lint(paths, root=root, corpus=load_corpus(root))
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=2))
    else:
        for problem in report.problems:
            print(problem.format())
        print(report.summary())
    return 1 if report.errors else 0
