"""``berserk-rules compare OLD NEW``: two editions (or an edition and the project) rule by rule."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    from berserk_rules.rulebook.editions import compare, compare_lines, edition_name, load_edition

    old, new = Path(args.old), Path(args.new)
    changes = compare(load_edition(old, project=True), load_edition(new, project=True))
    if args.json:
        print(json.dumps([c.to_json() for c in changes], ensure_ascii=False, indent=1))
    else:
        for line in compare_lines(changes, edition_name(old), edition_name(new)):
            print(line)
    return 0
