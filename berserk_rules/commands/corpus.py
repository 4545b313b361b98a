"""``berserk-rules corpus``: the rule corpus as JSON or as a short summary per part."""

from __future__ import annotations

import argparse
import json
import os
import sys

from berserk_rules.corpus import load_corpus
from berserk_rules.corpus.model import GLOSSARY_PART, Gap


def run(args: argparse.Namespace) -> int:
    corpus = load_corpus()
    if args.json:
        try:
            print(json.dumps(corpus.to_json(), ensure_ascii=False, indent=2))
            sys.stdout.flush()
        except BrokenPipeError:  # `corpus --json | head`
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    for part in sorted(set(corpus.parts) | {e.part for e in corpus.entries}):
        entries = [e for e in corpus.entries if e.part == part]
        title = corpus.titles.get(part, f"Часть {part}")
        variants = sum(len(e.variants) for e in entries)
        inferred = sum(e.inferred for e in entries)
        gaps = sum(1 for g in corpus.gaps if _gap_part(g) == part)
        if part == GLOSSARY_PART:
            print(f"{title}: терминов {len(entries)}, вариантов {variants}")
            continue
        headings = sum(e.heading for e in entries)
        print(
            f"{title}: правил {len(entries) - headings}, заголовков {headings}, вариантов {variants}, "
            f"восстановленных номеров {inferred}, пропусков {gaps}"
        )
    rules = corpus.rules()
    print(
        f"Всего: правил и заголовков {len(rules)}, терминов {len(corpus.terms())}, "
        f"вариантов {sum(len(e.variants) for e in corpus.entries)}, "
        f"восстановленных номеров {sum(e.inferred for e in rules)}, толкований {len(corpus.interpretations)}"
    )
    return 0


def _gap_part(gap: Gap) -> int | None:
    name = gap.file.rsplit("/", 1)[-1]
    if name.startswith("part-") and name.endswith(".md"):
        return int(name[5:-3])
    return None
