"""``berserk-rules matrix RESULTS… [--failures ENGINE] [--json] [--badges DIR]``: engines side by side.

Each results file is one engine's run (``check --results …``). Prints the scenarios passed per Part
and engine, then every rule × engine with its status; ``--failures`` shows only one engine's
failures; ``--json`` the matrix as data; ``--badges DIR`` writes SVG badges (passed / total per
Part). The site shows the same matrix: ``berserk-rules site --matrix RESULTS…``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from berserk_rules.corpus import load_corpus
from berserk_rules.matrix import build, load_runs, text_failures, text_table, write_badges
from berserk_rules.project import project_root


def run(args: argparse.Namespace) -> int:
    runs = load_runs([Path(p) for p in args.results])
    matrix = build(runs, load_corpus(project_root()))
    if args.badges:
        written = write_badges(matrix, Path(args.badges))
        print(f"Значки: {len(written)} в {args.badges}")
    if args.json:
        print(json.dumps(matrix, ensure_ascii=False, indent=1))
    elif args.failures:
        print(text_failures(matrix, args.failures))
    else:
        print(text_table(matrix))
    return 0
