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

from berserk_rules.commands._common import CONTROL_RE, WriteError, terminal_text
from berserk_rules.corpus import load_corpus
from berserk_rules.report.matrix import build, load_runs, text_failures, text_table, write_badges
from berserk_rules.rulebook.project import project_root


def run(args: argparse.Namespace) -> int:
    runs = load_runs([Path(p) for p in args.results])
    if not args.json:  # a label is a table heading: one line, its control characters as text
        for item in runs:
            item.label = terminal_text(" ".join(item.label.split()))
    matrix = build(runs, load_corpus(project_root()))
    if args.badges:
        try:
            written = write_badges(matrix, Path(args.badges))
        except OSError as exc:
            raise WriteError(exc, args.badges, "--badges: не удалось записать") from None
        print(f"Значки: {len(written)} в {terminal_text(args.badges)}")
    # Engine names and messages are the engines' text: shown, never acted on by the terminal.
    if args.json:  # json escapes C0 controls itself; DEL, C1 and bidi overrides as \uXXXX too
        text = json.dumps(matrix, ensure_ascii=False, indent=1)
        print(CONTROL_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text))
    elif args.failures:
        print(terminal_text(text_failures(matrix, args.failures)))
    else:
        print(terminal_text(text_table(matrix)))
    return 0
